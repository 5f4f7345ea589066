//===- GpuPipeline.cpp - Kernels to NVVM through MLIR's GPU dialect -------===//
//
// Kernels take the CPU path to bufferized scf.parallel loops, which
// tcc-map-to-gpu tiles onto blocks and threads; MLIR outlines each loop as
// a GPU kernel and lowers it to NVVM with bare-pointer parameters. The host
// side is never lowered: the runtime launches the kernels itself, from the
// launches the compiler records (GpuCompiler.cpp), so neither MLIR's CUDA
// runtime wrappers nor gpu-to-llvm are needed.
//
//===----------------------------------------------------------------------===//

#include "GpuPipeline.h"

#include "tcc/Codegen/Passes.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tcc::cuda::buildKernelsToNVVMPipeline(OpPassManager &pm) {
  buildKernelsToLoopsPipeline(pm);
  // No canonicalization between mapping and conversion: it would fold the
  // one-iteration loops that hold sequential work, and their mapping.
  pm.addPass(createTccMapToGpu());
  pm.addPass(createParallelLoopToGpuPass());
  // Grid and block sizes fold to constants; the constants and index
  // computations a launch uses then move into it, so that its only
  // parameters are the kernel's buffers (bare pointers).
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createGpuLauchSinkIndexComputationsPass());
  pm.addPass(createGpuKernelOutliningPass());

  OpPassManager &device = pm.nest<gpu::GPUModuleOp>();
  // Row reductions' gpu.all_reduce: warp shuffles and workgroup memory.
  device.addPass(createTccLowerGpuAllReduce());
  // tcc's own expansions of exp, log, tanh, erf, pow...: the kernels then
  // call nothing, so no libdevice is needed (the math left, sqrt, fma,
  // floor, abs..., becomes NVPTX instructions: tcc-use-nvptx-intrinsics).
  device.addPass(createTccExpandMath());
  device.addPass(createLowerAffinePass());
  device.addPass(memref::createExpandStridedMetadataPass());
  device.addPass(createLowerAffinePass());
  device.addPass(createConvertSCFToCFPass());
  ConvertGpuOpsToNVVMOpsOptions nvvm;
  nvvm.useBarePtrCallConv = true;
  device.addPass(createConvertGpuOpsToNVVMOps(nvvm));
  device.addPass(createTccUseNvptxIntrinsics());
  device.addPass(createTccAlignVectorAccesses());
  // What convert-gpu-to-nvvm leaves of math (fma) as LLVM intrinsics.
  device.addPass(createConvertMathToLLVMPass());
  device.addPass(createReconcileUnrealizedCastsPass());
  device.addPass(createCanonicalizerPass());
}

void tcc::cuda::registerGpuKernelPipelines() {
  PassPipelineRegistration<>(
      "tcc-kernels-to-nvvm",
      "Lower kernel functions of tcc ops to host functions that launch GPU "
      "kernels in NVVM, with bare-pointer parameters and no calls",
      buildKernelsToNVVMPipeline);
}
