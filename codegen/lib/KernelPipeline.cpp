//===- KernelPipeline.cpp - Kernels from tcc ops to the LLVM dialect ------===//

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/Passes.h"

#include "Targets/Cuda/GpuPipeline.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/IR/BufferizableOpInterface.h"
#include "mlir/Dialect/Bufferization/Transforms/OneShotAnalysis.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "tcc/IR/TccDialect.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

/// Copies become linalg.copy, lowered to loops with everything else, rather
/// than memref.copy, which lowers to a call of the `memrefCopy` runtime
/// function that kernels cannot import.
static LogicalResult copyWithLoops(OpBuilder &b, Location loc, Value from,
                                   Value to) {
  b.create<linalg::CopyOp>(loc, from, to);
  return success();
}

void tcc::registerCodegenDialects(DialectRegistry &registry) {
  registry.insert<TccDialect, arith::ArithDialect, bufferization::BufferizationDialect,
                  func::FuncDialect, linalg::LinalgDialect, LLVM::LLVMDialect,
                  math::MathDialect, memref::MemRefDialect, scf::SCFDialect,
                  tensor::TensorDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}

void tcc::buildKernelsToLoopsPipeline(OpPassManager &pm) {
  pm.addPass(createTccLowerToLinalg());
  pm.addPass(createCanonicalizerPass());
  // A fused group's generics become one loop nest (cheap pointwise
  // prologues recomputed in each consumer).
  pm.addPass(createTccFuseGenerics());
  pm.addPass(createCanonicalizerPass());
  // After the canonicalizations that can fold a kernel into its operand.
  pm.addPass(createTccCopyReturnedArguments());

  bufferization::OneShotBufferizationOptions bufferization;
  bufferization.bufferizeFunctionBoundaries = true;
  bufferization.setFunctionBoundaryTypeConversion(
      bufferization::LayoutMapOption::IdentityLayoutMap);
  bufferization.memCpyFn = copyWithLoops;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferization));
  bufferization::BufferResultsToOutParamsOpts outParams;
  outParams.hoistStaticAllocs = true;
  outParams.memCpyFn = copyWithLoops;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createTccPromoteAllocs());
  pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
  pm.addPass(createCanonicalizerPass());
}

void tcc::buildKernelsToLLVMPipeline(OpPassManager &pm) {
  buildKernelsToLoopsPipeline(pm);
  pm.addPass(createTccCoalesceLoops());
  pm.addPass(createTccTileKernels());

  pm.addPass(createTccExpandMath());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createConvertSCFToCFPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  ConvertFuncToLLVMPassOptions funcToLLVM;
  funcToLLVM.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcToLLVM));
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void tcc::registerKernelPipelines() {
  PassPipelineRegistration<>(
      "tcc-kernels-to-llvm",
      "Lower kernel functions of tcc ops to the LLVM dialect, with bare-pointer "
      "arguments, scratch buffers as arguments and tile ranges",
      buildKernelsToLLVMPipeline);
  cuda::registerGpuKernelPipelines();
}
