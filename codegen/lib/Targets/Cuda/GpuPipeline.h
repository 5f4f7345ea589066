//===- GpuPipeline.h - Kernels to NVVM, and the PTX they become -*- C++ -*-===//

#ifndef TCC_CODEGEN_TARGETS_CUDA_GPUPIPELINE_H
#define TCC_CODEGEN_TARGETS_CUDA_GPUPIPELINE_H

#include "tcc/Codegen/KernelCompiler.h"

#include <string>
#include <vector>

namespace mlir::tcc::cuda {

/// Adds the passes that lower kernels of tcc ops to host functions that
/// only launch (gpu.launch_func of constant grids and blocks on the
/// function's arguments) and gpu.modules of NVVM-dialect kernels with
/// bare-pointer parameters (registered as `tcc-kernels-to-nvvm`).
void buildKernelsToNVVMPipeline(OpPassManager &pm);
void registerGpuKernelPipelines();

/// Lowers `kernels` in place and compiles their GPU code to PTX for each of
/// `archs` ("sm_90"), and to a cubin too where ptxas is found. The result
/// has no shared object; each kernel lists its launches.
FailureOr<KernelObject>
compileGpuKernels(ModuleOp kernels, const std::vector<std::string> &archs,
                  const std::function<void(PassManager &)> &configure,
                  const CompileProgressFn &progress);

/// ptxas: $TCC_PTXAS, else the CUDA toolkit's that CMake found, else one
/// on PATH or in /usr/local/cuda/bin; "" when there is none.
std::string findPtxas();

} // namespace mlir::tcc::cuda

#endif // TCC_CODEGEN_TARGETS_CUDA_GPUPIPELINE_H
