//===- Pipelines.cpp - The graph pipelines of tcc compile -----------------===//

#include "tcc/Passes/Passes.h"
#include "tcc/Passes/TargetCapabilities.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// The passes that ask the target, made either from its capabilities or,
/// in a textual pipeline, from its name (resolved when the pass starts).
struct TargetPasses {
  std::function<std::unique_ptr<Pass>()> convertLayout, fuseEpilogues;
};

void addGraphPasses(OpPassManager &pm, int optLevel,
                    const TargetPasses &target) {
  if (optLevel <= 0)
    return;
  // Fold and normalize the layout before fusion groups what remains. QDQ
  // layers become integer ops while their float ops are still NCHW and
  // their dequantized weights not yet folded to float constants.
  pm.addNestedPass<func::FuncOp>(createTccFoldBatchNorm());
  pm.addNestedPass<func::FuncOp>(createTccFoldQdq());
  pm.addNestedPass<func::FuncOp>(target.convertLayout());
  pm.addNestedPass<func::FuncOp>(createTccMergeLinears());
  pm.addNestedPass<func::FuncOp>(createTccFoldConstants());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<func::FuncOp>(target.fuseEpilogues());
  pm.addNestedPass<func::FuncOp>(createTccFuseElementwise());
}

struct GraphPipelineOptions : PassPipelineOptions<GraphPipelineOptions> {
  Option<std::string> target{*this, "target",
                             llvm::cl::desc("A registered target"),
                             llvm::cl::init("x86_64")};
};

void buildNamed(OpPassManager &pm, int optLevel, const std::string &name) {
  addGraphPasses(
      pm, optLevel,
      {[&] { return createTccConvertLayout(TccConvertLayoutOptions{name}); },
       [&] { return createTccFuseEpilogues(TccFuseEpiloguesOptions{name}); }});
}

} // namespace

void tcc::buildGraphPipeline(OpPassManager &pm, int optLevel,
                             const TargetCapabilities &target) {
  addGraphPasses(pm, optLevel,
                 {[&] { return createTccConvertLayout(target); },
                  [&] { return createTccFuseEpilogues(target); }});
}

void tcc::registerGraphPipelines() {
  PassPipelineRegistration<GraphPipelineOptions>(
      "tcc-graph-O0", "The graph passes of tcc compile -O0 (none)",
      [](OpPassManager &pm, const GraphPipelineOptions &options) {
        buildNamed(pm, 0, options.target);
      });
  PassPipelineRegistration<GraphPipelineOptions>(
      "tcc-graph-O2",
      "The graph passes of tcc compile -O2: batch-norm folding, QDQ "
      "folding into integer ops, the "
      "target's layout, merging linears that share an input, constant "
      "folding, canonicalization, CSE, epilogue and elementwise fusion",
      [](OpPassManager &pm, const GraphPipelineOptions &options) {
        buildNamed(pm, 2, options.target);
      });
}
