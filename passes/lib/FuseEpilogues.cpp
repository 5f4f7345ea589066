//===- FuseEpilogues.cpp - Bias, residual, activation into GEMMs ----------===//

#include "tcc/Passes/Epilogue.h"
#include "tcc/Passes/Passes.h"
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
  void runOnOperation() override {
    SmallVector<Operation *> anchors;
    for (Block &block : getOperation().getBody())
      for (Operation &op : block)
        if (isEpilogueAnchor(&op))
          anchors.push_back(&op);
    // Match each chain only after the previous ones are fused: two chains
    // can meet at one add (conv + shortcut conv in a ResNet block), and the
    // first fusion erases it. Anchors are never members of another chain.
    for (Operation *anchor : anchors) {
      Epilogue e = matchEpilogue(anchor);
      if (e.ops.size() > 1)
        createFusion(llvm::SetVector<Operation *>(e.ops.begin(), e.ops.end()));
    }
  }
};

} // namespace
