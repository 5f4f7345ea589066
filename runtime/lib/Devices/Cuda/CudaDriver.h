//===- CudaDriver.h - the CUDA driver API, opened at run time ---*- C++ -*-===//
//
// The device plugin links no CUDA library: it opens libcuda.so.1, the
// driver's runtime name (never libcuda.so, which only development installs
// have and which may be the toolkit's stub), and takes the functions it
// uses from it. cuda.h gives the types only.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_CUDADRIVER_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace tcc {
namespace cuda {

// The driver functions the plugin calls, by the names of their current ABI
// versions (cuda.h maps cuMemAlloc to cuMemAlloc_v2 and so on); a driver
// older than CUDA 12.8 lacks cuEventElapsedTime_v2, and open() takes its
// cuEventElapsedTime, of the same signature, instead.
#define TCC_CUDA_DRIVER_FUNCTIONS(X)                                           \
  X(cuInit, "cuInit")                                                          \
  X(cuGetErrorName, "cuGetErrorName")                                          \
  X(cuDriverGetVersion, "cuDriverGetVersion")                                  \
  X(cuDeviceGetCount, "cuDeviceGetCount")                                      \
  X(cuDeviceGet, "cuDeviceGet")                                                \
  X(cuDeviceGetAttribute, "cuDeviceGetAttribute")                              \
  X(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain")                      \
  X(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2")                 \
  X(cuCtxPushCurrent, "cuCtxPushCurrent_v2")                                   \
  X(cuCtxPopCurrent, "cuCtxPopCurrent_v2")                                     \
  X(cuMemAlloc, "cuMemAlloc_v2")                                               \
  X(cuMemFree, "cuMemFree_v2")                                                 \
  X(cuMemAllocHost, "cuMemAllocHost_v2")                                       \
  X(cuMemFreeHost, "cuMemFreeHost")                                            \
  X(cuMemGetInfo, "cuMemGetInfo_v2")                                           \
  X(cuMemcpyHtoD, "cuMemcpyHtoD_v2")                                           \
  X(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2")                                 \
  X(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2")                                 \
  X(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2")                                 \
  X(cuModuleLoadDataEx, "cuModuleLoadDataEx")                                  \
  X(cuModuleUnload, "cuModuleUnload")                                          \
  X(cuModuleGetFunction, "cuModuleGetFunction")                                \
  X(cuFuncSetAttribute, "cuFuncSetAttribute")                                  \
  X(cuLaunchKernel, "cuLaunchKernel")                                          \
  X(cuStreamCreate, "cuStreamCreate")                                          \
  X(cuStreamDestroy, "cuStreamDestroy_v2")                                     \
  X(cuStreamSynchronize, "cuStreamSynchronize")                                \
  X(cuEventCreate, "cuEventCreate")                                            \
  X(cuEventDestroy, "cuEventDestroy_v2")                                       \
  X(cuEventRecord, "cuEventRecord")                                            \
  X(cuEventSynchronize, "cuEventSynchronize")                                  \
  X(cuEventElapsedTime, "cuEventElapsedTime_v2")                               \
  X(cuStreamBeginCapture, "cuStreamBeginCapture_v2")                           \
  X(cuStreamEndCapture, "cuStreamEndCapture")                                  \
  X(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags")                \
  X(cuGraphLaunch, "cuGraphLaunch")                                            \
  X(cuGraphExecDestroy, "cuGraphExecDestroy")                                  \
  X(cuGraphDestroy, "cuGraphDestroy")

// A table of function pointers, filled by dlsym from the driver (open) or,
// in tests, by hand with fakes that record the calls.
struct Driver {
  void *library = nullptr;
#define TCC_CUDA_DECLARE(name, symbol) decltype(&::name) name = nullptr;
  TCC_CUDA_DRIVER_FUNCTIONS(TCC_CUDA_DECLARE)
#undef TCC_CUDA_DECLARE

  // Opens libcuda.so.1 (the file `library`, for tests) and initializes the
  // driver; "" on success, else why not, starting "no CUDA driver" when
  // there is none to use (absent, or the toolkit's stub: error 34).
  std::string open(const char *library = "libcuda.so.1");
  void close();

  // "CUDA_ERROR_OUT_OF_MEMORY" for an error code.
  std::string errorName(CUresult result) const;
};

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_CUDADRIVER_H
