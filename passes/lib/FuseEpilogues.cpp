//===- FuseEpilogues.cpp - Bias, residual, activation into GEMMs ----------===//

#include "tcc/Passes/Epilogue.h"
#include "tcc/Passes/Passes.h"
#include "tcc/Passes/TargetCapabilities.h"
#include "FusionUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFUSEEPILOGUES
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct FuseEpiloguesPass : tcc::impl::TccFuseEpiloguesBase<FuseEpiloguesPass> {
  using TccFuseEpiloguesBase::TccFuseEpiloguesBase;
  explicit FuseEpiloguesPass(const TargetCapabilities &target)
      : target(&target) {
    targetName = target.name().str();
  }

  LogicalResult initialize(MLIRContext *context) override {
    return resolveTargetCapabilities(context, getArgument(), targetName,
                                     target);
  }

  void runOnOperation() override {
    SmallVector<Operation *> anchors;
    for (Block &block : getOperation().getBody())
      for (Operation &op : block)
        if (target->isEpilogueAnchor(&op))
          anchors.push_back(&op);
    // Match each chain only after the previous ones are fused: two chains
    // can meet at one add (conv + shortcut conv in a ResNet block), and the
    // first fusion erases it. Anchors are never members of another chain.
    for (Operation *anchor : anchors) {
      Epilogue e = matchEpilogue(anchor, *target);
      if (e.ops.size() > 1)
        createFusion(llvm::SetVector<Operation *>(e.ops.begin(), e.ops.end()));
    }
  }

  const TargetCapabilities *target = nullptr;
};

} // namespace

std::unique_ptr<Pass>
tcc::createTccFuseEpilogues(const TargetCapabilities &target) {
  return std::make_unique<FuseEpiloguesPass>(target);
}
