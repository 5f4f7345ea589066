//===- FakeCuda.h - a CUDA driver and cuBLASLt on host memory ---*- C++ -*-===//
//
// Fills the plugin's Driver and CublasLt tables with fakes that work on host
// memory and record each call's name: device memory is malloc'd, copies
// are memcpy, a stream runs its work at once (or records it while a graph
// is captured, for cuGraphLaunch to replay), kernels are host functions
// registered by name, and cublasLtMatmul computes what cuBLASLt's
// documentation says (column-major, op, epilogue; fp32, bf16 and fp16
// matrices), in float64, rounding D to fp32 and then to its type.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_UNITTESTS_CUDA_FAKECUDA_H
#define TCC_TEST_UNITTESTS_CUDA_FAKECUDA_H

#include "CublasLt.h"
#include "CudaDriver.h"

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace tcc {
namespace test {

struct FakeCuda {
  // A kernel: how many pointer parameters it takes (cuLaunchKernel's
  // params array is not terminated: the driver knows the signature), and
  // what it does given them (pointers to the device pointers) and grid x
  // block threads.
  struct Kernel {
    size_t params = 0;
    std::function<void(void **params, uint64_t threads)> run;
  };

  int major = 9, minor = 0;
  uint64_t memoryLimit = UINT64_MAX; // a larger cuMemAlloc fails: OOM
  std::map<std::string, Kernel> kernels;
  std::string failLaunch; // a function whose launches fail
  // cuModuleGetFunction finds any name, as a kernel that does nothing.
  bool anyFunction = false;
  float stepMilliseconds = 0.25f; // what cuEventElapsedTime reports

  // Recorded: every call by name, the image cuModuleLoadDataEx got, the
  // compute type of each matmul descriptor, the type of each matrix layout
  // and each bias type set, in the order they were made.
  std::vector<std::string> calls;
  std::vector<cublasComputeType_t> computeTypes;
  std::vector<cudaDataType> layoutTypes, biasTypes;
  std::string loadedImage;
  uint64_t liveAllocations = 0;
  int maxDynamicShared = 48 * 1024; // cuFuncSetAttribute's opt-in

  // Fills the tables; one FakeCuda is active at a time.
  void install(cuda::Driver *driver, cuda::CublasLt *lt);
  ~FakeCuda();

  size_t count(const std::string &call) const;
};

} // namespace test
} // namespace tcc

#endif // TCC_TEST_UNITTESTS_CUDA_FAKECUDA_H
