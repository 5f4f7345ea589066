//===- CudaDevice.cpp - the device plugin "cuda" --------------------------===//
//
// libtcc_device_cuda.so: NVIDIA GPUs through the CUDA driver API, opened at
// run time (CudaDriver.h), on the first GPU the driver reports.
//
// What exists: opening the driver, with "no CUDA driver" when it is absent
// or the toolkit's stub; device memory (cuMemAlloc) and pinned host memory
// (cuMemAllocHost). Not yet (issue 16): loading cuda modules (choosing the
// image for the device's architecture), kernel launches as steps, cuBLASLt,
// streams, events and graphs. Loading a cuda module says so rather than
// pretending to run it.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/tcc_device_plugin.h"

#include <cstdlib>
#include <new>
#include <string>

namespace {

using tcc::cuda::Driver;

struct CudaDevice {
  Driver driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int major = 0, minor = 0;
};

tcc_status_t status(tcc_status_code_t code, const std::string &message) {
  return tcc_status_make(code, message.c_str());
}

tcc_status_t driverError(const CudaDevice &d, CUresult result,
                         const std::string &what) {
  return status(result == CUDA_ERROR_OUT_OF_MEMORY
                    ? TCC_STATUS_RESOURCE_EXHAUSTED
                    : TCC_STATUS_INTERNAL,
                "cuda: " + what + ": " + d.driver.errorName(result));
}

// Makes the device's context current for a scope.
class ContextScope {
public:
  explicit ContextScope(CudaDevice &d) : d_(d) {
    ok_ = d.driver.cuCtxPushCurrent(d.context) == CUDA_SUCCESS;
  }
  ~ContextScope() {
    CUcontext popped;
    if (ok_)
      d_.driver.cuCtxPopCurrent(&popped);
  }

private:
  CudaDevice &d_;
  bool ok_ = false;
};

void destroy(void *self) {
  auto *d = static_cast<CudaDevice *>(self);
  if (d->context)
    d->driver.cuDevicePrimaryCtxRelease(d->device);
  d->driver.close();
  delete d;
}

// Pinned host memory is the host's; device memory is not.
int hostVisible(void *, tcc_memory_kind_t kind) {
  return kind == TCC_MEMORY_HOST;
}

tcc_status_t allocate(void *self, tcc_memory_kind_t kind, size_t bytes,
                      size_t alignment, void **out) {
  auto *d = static_cast<CudaDevice *>(self);
  // Both allocators align to at least 256 bytes.
  if (alignment > 256)
    return status(TCC_STATUS_INVALID_ARGUMENT,
                  "cuda: alignment " + std::to_string(alignment) +
                      " exceeds the driver's 256 bytes");
  ContextScope scope(*d);
  size_t size = bytes ? bytes : 1;
  CUresult result;
  if (kind == TCC_MEMORY_DEVICE) {
    CUdeviceptr address = 0;
    result = d->driver.cuMemAlloc(&address, size);
    *out = reinterpret_cast<void *>(address);
  } else {
    result = d->driver.cuMemAllocHost(out, size);
  }
  if (result != CUDA_SUCCESS)
    return driverError(*d, result,
                       "allocating " + std::to_string(bytes) + " bytes of " +
                           (kind == TCC_MEMORY_DEVICE ? "device"
                                                      : "pinned host") +
                           " memory");
  return nullptr;
}

void release(void *self, tcc_memory_kind_t kind, void *address) {
  auto *d = static_cast<CudaDevice *>(self);
  ContextScope scope(*d);
  if (kind == TCC_MEMORY_DEVICE)
    d->driver.cuMemFree(reinterpret_cast<CUdeviceptr>(address));
  else
    d->driver.cuMemFreeHost(address);
}

tcc_status_t loadExecutable(void *self, const void *, size_t, void **) {
  auto *d = static_cast<CudaDevice *>(self);
  return status(TCC_STATUS_UNIMPLEMENTED,
                "cuda: found sm_" + std::to_string(d->major * 10 + d->minor) +
                    ", but running cuda modules is not implemented yet "
                    "(docs/cuda.md)");
}

} // namespace

extern "C" __attribute__((visibility("default"))) tcc_status_t
tcc_device_plugin_v1(uint32_t runtimeAbi, tcc_device_plugin_t *out) {
  if (runtimeAbi != TCC_DEVICE_PLUGIN_ABI_VERSION)
    return status(TCC_STATUS_UNIMPLEMENTED,
                  "cuda: built for device plugin ABI " +
                      std::to_string(TCC_DEVICE_PLUGIN_ABI_VERSION) +
                      ", the runtime speaks " + std::to_string(runtimeAbi));
  auto *d = new (std::nothrow) CudaDevice;
  if (!d)
    return status(TCC_STATUS_RESOURCE_EXHAUSTED, "cuda: out of memory");
  // TCC_CUDA_DRIVER names another driver file: tests point it at the
  // toolkit's stub.
  const char *library = std::getenv("TCC_CUDA_DRIVER");
  std::string error = d->driver.open(library ? library : "libcuda.so.1");
  int count = 0;
  CUresult result = CUDA_SUCCESS;
  if (error.empty() &&
      (result = d->driver.cuDeviceGetCount(&count)) == CUDA_SUCCESS &&
      count == 0)
    error = "no CUDA GPU: the driver finds no device";
  if (error.empty() && result == CUDA_SUCCESS &&
      ((result = d->driver.cuDeviceGet(&d->device, 0)) != CUDA_SUCCESS ||
       (result = d->driver.cuDeviceGetAttribute(
            &d->major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
            d->device)) != CUDA_SUCCESS ||
       (result = d->driver.cuDeviceGetAttribute(
            &d->minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
            d->device)) != CUDA_SUCCESS ||
       (result = d->driver.cuDevicePrimaryCtxRetain(&d->context, d->device)) !=
           CUDA_SUCCESS))
    error = "cuda: opening GPU 0: " + d->driver.errorName(result);
  if (!error.empty()) {
    d->context = nullptr;
    destroy(d);
    return status(TCC_STATUS_FAILED_PRECONDITION, error);
  }
  out->abi_version = TCC_DEVICE_PLUGIN_ABI_VERSION;
  out->self = d;
  out->destroy = destroy;
  out->host_visible = hostVisible;
  out->allocate = allocate;
  out->free = release;
  out->module_kind = tcc::runtime::kCudaModuleKind;
  out->executable_load = loadExecutable;
  return nullptr;
}
