//===- CudaProgram.h - running a model's plan on a GPU ----------*- C++ -*-===//
//
// CudaProgram is a cuda model loaded on a GPU: the image chosen for the
// GPU (ImageChoice.h) loaded as a CUmodule with its kernels' functions, the
// constants copied to the GPU once, and the plan read as DeviceSteps.
// CudaSession is one session's run of it: its arena, its input and output
// blocks on the GPU with their pinned staging blocks on the host, one
// stream, events, its cuBLASLt handle, matmul descriptors and workspace
// (all made up front, so a run allocates nothing and can be captured), and
// the CUDA graph its second run captures (GraphPolicy.h).
//
// Everything goes through the tables of Driver and CublasLt, so tests run
// this code on a fake driver that records the calls.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_CUDAPROGRAM_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_CUDAPROGRAM_H

#include "CublasLt.h"
#include "CudaDriver.h"
#include "DeviceSteps.h"
#include "GraphPolicy.h"
#include "ImageChoice.h"
#include "MemoryLayout.h"

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace tcc {
namespace cuda {

// The GPU a plugin instance drives: the driver, device 0's primary context
// and its compute capability, and cuBLASLt, opened when a model first needs
// it.
struct Gpu {
  Driver driver;
  CUdevice device = 0;
  CUcontext context = nullptr;
  int major = 0, minor = 0;
  CublasLt lt;
  const char *ltLibrary = "libcublasLt.so.13";

  // Opens cuBLASLt once; the same error on every later call.
  runtime::Status openCublasLt();
  // Device memory, or an error naming `what`, the bytes asked for and, when
  // the GPU is out of memory, the bytes free.
  runtime::Status allocate(uint64_t bytes, const std::string &what,
                           CUdeviceptr *out);
  runtime::Status allocatePinned(uint64_t bytes, const std::string &what,
                                 void **out);
  std::string errorName(CUresult result) const {
    return driver.errorName(result);
  }

private:
  std::mutex ltMutex_;
  bool ltTried_ = false;
  std::string ltError_;
};

// Makes the GPU's context current on this thread for a scope.
class ContextScope {
public:
  explicit ContextScope(Gpu &gpu);
  ~ContextScope();
  ContextScope(const ContextScope &) = delete;
  ContextScope &operator=(const ContextScope &) = delete;

private:
  Gpu &gpu_;
  bool pushed_ = false;
};

class CudaProgram {
public:
  // `file` is the verified artifact holding `model`; both outlive the
  // program.
  static runtime::Status load(Gpu &gpu, const tcc::artifact::Model &model,
                              const uint8_t *file, const uint8_t *constants,
                              std::unique_ptr<CudaProgram> *out);
  ~CudaProgram();

  Gpu &gpu;
  const tcc::artifact::Model &model;
  MemoryLayout layout;
  std::vector<DeviceStep> steps;
  std::vector<std::vector<CUfunction>> functions; // by step, by launch
  ImageChoice image;
  std::string imageArch; // "sm_90"
  CUmodule module = nullptr;
  CUdeviceptr constants = 0;
  bool hasGemm = false;

private:
  CudaProgram(Gpu &gpu, const tcc::artifact::Model &model)
      : gpu(gpu), model(model) {}
  runtime::Status loadModule(const uint8_t *file);
};

class CudaSession {
public:
  // The cuBLASLt workspace each session allocates when its model has sgemm
  // steps (what NVIDIA advises for Hopper).
  static constexpr uint64_t kGemmWorkspaceBytes = 32u << 20;

  static runtime::Status create(CudaProgram &program,
                                std::unique_ptr<CudaSession> *out);
  ~CudaSession();

  // One run: inputs into the pinned staging block, then on the stream the
  // copy to the GPU, the steps, the copy back, an event; waits for the
  // event and copies the outputs out of staging. With `stepNs`, adds each
  // step's time between events to stepNs[step].
  runtime::Status run(const void *const *inputs, void *const *outputs,
                      uint64_t *stepNs);

  const GraphPolicy &policy() const { return policy_; }

private:
  explicit CudaSession(CudaProgram &program) : program_(program) {}
  runtime::Status prepareGemm(uint32_t step, const LtGemm &gemm);
  // The run's work on the stream: copies and steps.
  runtime::Status enqueue(bool timed);
  runtime::Status enqueueStep(uint32_t step);
  runtime::Status capture(bool *captured);
  runtime::Status check(CUresult result, const std::string &where,
                        const std::string &call) const;

  CudaProgram &program_;
  Gpu &gpu_ = program_.gpu;
  CUdeviceptr arena_ = 0, inputs_ = 0, outputs_ = 0, workspace_ = 0;
  void *stagingIn_ = nullptr, *stagingOut_ = nullptr;
  CUstream stream_ = nullptr;
  CUevent done_ = nullptr;
  std::vector<CUevent> stepEvents_; // made by the first timed run
  std::vector<uint64_t> addresses_; // by buffer
  // By step, by launch; unique_ptr keeps each one's params in place.
  std::vector<std::vector<std::unique_ptr<LaunchArgs>>> args_;
  struct Gemm {
    cublasLtMatmulDesc_t desc = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulAlgo_t algo{};
  };
  std::vector<Gemm> gemms_; // by step
  cublasLtHandle_t lt_ = nullptr;
  CUgraph graph_ = nullptr;
  CUgraphExec graphExec_ = nullptr;
  GraphPolicy policy_;
  bool syncSteps_ = false; // TCC_CUDA_SYNC_STEPS: name a failing step
};

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_CUDAPROGRAM_H
