//===- Pipelines.cpp - The graph pipelines of tcc compile -----------------===//

#include "tcc/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void tcc::buildGraphPipeline(OpPassManager &pm, int optLevel) {
  if (optLevel <= 0)
    return;
  // Fold and normalize the layout before fusion groups what remains.
  pm.addNestedPass<func::FuncOp>(createTccFoldBatchNorm());
  pm.addNestedPass<func::FuncOp>(createTccConvertLayout());
  pm.addNestedPass<func::FuncOp>(createTccMergeLinears());
  pm.addNestedPass<func::FuncOp>(createTccFoldConstants());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(createTccFuseEpilogues());
  pm.addNestedPass<func::FuncOp>(createTccFuseElementwise());
}

void tcc::registerGraphPipelines() {
  PassPipelineRegistration<>("tcc-graph-O0",
                             "The graph passes of tcc compile -O0 (none)",
                             [](OpPassManager &pm) { buildGraphPipeline(pm, 0); });
  PassPipelineRegistration<>(
      "tcc-graph-O2",
      "The graph passes of tcc compile -O2: batch-norm folding, NHWC "
      "layout, merging linears that share an input, constant folding, canonicalization, CSE, epilogue and "
      "elementwise fusion",
      [](OpPassManager &pm) { buildGraphPipeline(pm, 2); });
}
