//===- CudaDevice.cpp - the device plugin "cuda" --------------------------===//
//
// libtcc_device_cuda.so: NVIDIA GPUs through the CUDA driver API, opened at
// run time (CudaDriver.h), on the first GPU the driver reports. It runs the
// plans of cuda models itself (the plugin ABI's programs): CudaProgram.h.
// Device memory is cuMemAlloc, host memory pinned (cuMemAllocHost).
//
//===----------------------------------------------------------------------===//

#include "CudaProgram.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/tcc_device_plugin.h"

#include <cstdlib>
#include <new>
#include <string>

namespace {

using tcc::cuda::ContextScope;
using tcc::cuda::CudaProgram;
using tcc::cuda::CudaSession;
using tcc::cuda::Gpu;
using tcc::runtime::Status;

tcc_status_t status(tcc_status_code_t code, const std::string &message) {
  return tcc_status_make(code, message.c_str());
}

// Runs `body`, turning exceptions (std::bad_alloc) into statuses: nothing
// may unwind through the C ABI.
template <typename F> tcc_status_t guarded(F &&body) {
  try {
    return body().release();
  } catch (const std::bad_alloc &) {
    return status(TCC_STATUS_RESOURCE_EXHAUSTED, "cuda: out of host memory");
  } catch (const std::exception &e) {
    return status(TCC_STATUS_INTERNAL, std::string("cuda: ") + e.what());
  }
}

void destroy(void *self) {
  auto *gpu = static_cast<Gpu *>(self);
  if (gpu->context)
    gpu->driver.cuDevicePrimaryCtxRelease(gpu->device);
  gpu->lt.close();
  gpu->driver.close();
  delete gpu;
}

// Pinned host memory is the host's; device memory is not.
int hostVisible(void *, tcc_memory_kind_t kind) {
  return kind == TCC_MEMORY_HOST;
}

tcc_status_t allocate(void *self, tcc_memory_kind_t kind, size_t bytes,
                      size_t alignment, void **out) {
  auto *gpu = static_cast<Gpu *>(self);
  // Both allocators align to at least 256 bytes.
  if (alignment > 256)
    return status(TCC_STATUS_INVALID_ARGUMENT,
                  "cuda: alignment " + std::to_string(alignment) +
                      " exceeds the driver's 256 bytes");
  ContextScope scope(*gpu);
  std::string what = std::to_string(bytes) + " bytes of " +
                     (kind == TCC_MEMORY_DEVICE ? "device" : "pinned host") +
                     " memory";
  if (kind != TCC_MEMORY_DEVICE)
    return gpu->allocatePinned(bytes, what, out).release();
  CUdeviceptr address = 0;
  Status s = gpu->allocate(bytes, what, &address);
  *out = reinterpret_cast<void *>(address);
  return s.release();
}

void release(void *self, tcc_memory_kind_t kind, void *address) {
  auto *gpu = static_cast<Gpu *>(self);
  ContextScope scope(*gpu);
  if (kind == TCC_MEMORY_DEVICE)
    gpu->driver.cuMemFree(reinterpret_cast<CUdeviceptr>(address));
  else
    gpu->driver.cuMemFreeHost(address);
}

// A cuda module has no host code to load: its images load with the
// program.
tcc_status_t loadExecutable(void *, const void *, size_t, void **) {
  return status(TCC_STATUS_UNIMPLEMENTED,
                "cuda: a cuda module runs as a program, not host code");
}

tcc_status_t loadProgram(void *self, const tcc_device_program_source_t *source,
                         void **out) {
  return guarded([&] {
    std::unique_ptr<CudaProgram> program;
    TCC_RETURN_IF_ERROR(CudaProgram::load(
        *static_cast<Gpu *>(self),
        *static_cast<const tcc::artifact::Model *>(source->model),
        static_cast<const uint8_t *>(source->file),
        static_cast<const uint8_t *>(source->constants), &program));
    *out = program.release();
    return Status();
  });
}

void unloadProgram(void *, void *program) {
  delete static_cast<CudaProgram *>(program);
}

tcc_status_t createSession(void *, void *program, void **out) {
  return guarded([&] {
    std::unique_ptr<CudaSession> session;
    TCC_RETURN_IF_ERROR(
        CudaSession::create(*static_cast<CudaProgram *>(program), &session));
    *out = session.release();
    return Status();
  });
}

void destroySession(void *, void *session) {
  delete static_cast<CudaSession *>(session);
}

tcc_status_t runProgram(void *, void *session, const void *const *inputs,
                        void *const *outputs, uint64_t *stepNs) {
  return guarded([&] {
    return static_cast<CudaSession *>(session)->run(inputs, outputs, stepNs);
  });
}

} // namespace

extern "C" __attribute__((visibility("default"))) tcc_status_t
tcc_device_plugin_v2(uint32_t runtimeAbi, tcc_device_plugin_t *out) {
  if (runtimeAbi != TCC_DEVICE_PLUGIN_ABI_VERSION)
    return status(TCC_STATUS_UNIMPLEMENTED,
                  "cuda: built for device plugin ABI " +
                      std::to_string(TCC_DEVICE_PLUGIN_ABI_VERSION) +
                      ", the runtime speaks " + std::to_string(runtimeAbi));
  auto *d = new (std::nothrow) Gpu;
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
  out->program_load = loadProgram;
  out->program_unload = unloadProgram;
  out->program_session_create = createSession;
  out->program_session_destroy = destroySession;
  out->program_run = runProgram;
  return nullptr;
}
