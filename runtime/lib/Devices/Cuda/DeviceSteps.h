//===- DeviceSteps.h - what each plan step does on the GPU ------*- C++ -*-===//
//
// The plan of a cuda model as the device runs it, read off the artifact
// once at load, without the driver: each step is
//  - kernel launches (a KernelCall: its kernel's GpuLaunches, each with the
//    buffers of its parameters, passed as bare device pointers);
//  - one cuBLASLt matmul (an Sgemm, as LtGemm says);
//  - a device-to-device copy (a Copy).
// Other step kinds are refused, naming the step. The session packs each
// launch's parameters once (LaunchArgs), since its buffers never move.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_DEVICESTEPS_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_DEVICESTEPS_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <cublasLt.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace cuda {

struct Launch {
  std::string function; // the entry point in the module's image
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t sharedBytes = 0;
  std::vector<uint32_t> args; // buffer indices, one per parameter
};

// tcc's row-major C = act(alpha op(A) op(B) + bias + beta R) as the
// column-major cuBLASLt computes it: C^T = op(B)^T op(A)^T, so cuBLASLt's
// A is tcc's B and its B is tcc's A, and tcc's per-column bias is
// cuBLASLt's per-row bias of D. Sizes and strides in elements.
struct LtGemm {
  cublasOperation_t transA = CUBLAS_OP_N, transB = CUBLAS_OP_N;
  uint64_t rows = 0, cols = 0, inner = 0; // cuBLASLt's m, n, k
  // Each layout's rows and columns as stored (before the op).
  uint64_t aRows = 0, aCols = 0, bRows = 0, bCols = 0;
  int64_t lda = 0, ldb = 0, ldc = 0;
  int32_t batch = 1;
  int64_t strideA = 0, strideB = 0, strideC = 0;
  uint32_t a = 0, b = 0, d = 0;     // buffers: cuBLASLt's A (tcc's b), B, D
  int32_t bias = -1, residual = -1; // buffers, -1: none
  float alpha = 1, beta = 0;        // beta is 0 without a residual
  cublasLtEpilogue_t epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  // FAST_TF32 where the step allows it (tcc compile --allow-tf32); 32F
  // (fp32 accumulation) for bf16 and fp16 operands too. The scale type
  // (alpha, beta) is CUDA_R_32F either way.
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
  // The element types of cuBLASLt's A and B (Sgemm.dtype), and of C and D
  // (Sgemm.c_dtype), whose type the bias has too (cuBLASLt's default).
  cudaDataType_t abType = CUDA_R_32F, cdType = CUDA_R_32F;
};

// tcc's Sgemm as cuBLASLt computes it; refuses what cuBLASLt's epilogues
// cannot apply (the cuda target never emits it), naming the reason.
runtime::Status planLtGemm(const tcc::artifact::Sgemm &sgemm, LtGemm *out);

struct DeviceStep {
  enum class Kind { Launches, Gemm, Copy } kind = Kind::Launches;
  std::string name;    // for errors: "kernel 'k3_add'", "sgemm", "copy"
  uint32_t kernel = 0; // Launches: index into Model.kernels
  std::vector<Launch> launches;
  LtGemm gemm;
  uint32_t src = 0, dst = 0; // Copy: buffers
  uint64_t bytes = 0;
};

// The steps of a validated model whose plan is on cuda modules.
runtime::Status planDeviceSteps(const tcc::artifact::Model &model,
                                std::vector<DeviceStep> *out);

// One launch's kernel parameters: `values` holds the device pointers and
// `params` points at each (what cuLaunchKernel takes), so a LaunchArgs
// must not be copied once packed.
struct LaunchArgs {
  std::vector<uint64_t> values;
  std::vector<void *> params;
  LaunchArgs() = default;
  LaunchArgs(const LaunchArgs &) = delete;
  LaunchArgs &operator=(const LaunchArgs &) = delete;
};

void packLaunchArgs(const Launch &launch,
                    const std::vector<uint64_t> &bufferAddresses,
                    LaunchArgs *out);

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_DEVICESTEPS_H
