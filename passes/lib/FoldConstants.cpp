//===- FoldConstants.cpp - Evaluate ops on constant operands --------------===//
//
// The greedy driver runs the ops' folders (splats, identities) and erases
// what becomes dead; the one pattern here evaluates what the folders leave:
// ops on non-splat constants (weights), through ConstantEvaluator.
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/ConstantEvaluator.h"
#include "tcc/Passes/Passes.h"

#include "tcc/IR/TccOps.h"
#include "tcc/IR/TensorSizes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFOLDCONSTANTS
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// op(constants...) -> constant, within the size guard.
struct EvaluateOnConstants : RewritePattern {
  explicit EvaluateOnConstants(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!isa<TccDialect>(op->getDialect()) ||
        op->hasTrait<OpTrait::ConstantLike>() || op->getNumRegions() != 0 ||
        op->getNumResults() != 1 || op->getNumOperands() == 0)
      return rewriter.notifyMatchFailure(op, "not a tcc op with operands");
    SmallVector<Attribute> attrs;
    for (Value operand : op->getOperands()) {
      auto constant = operand.getDefiningOp<ConstantOp>();
      if (!constant)
        return rewriter.notifyMatchFailure(op, "an operand is not constant");
      attrs.push_back(constant.getValue());
    }
    if (!isWithinFoldSizeLimit(op->getResult(0).getType(),
                               op->getOperandTypes()))
      return rewriter.notifyMatchFailure(op, "the result is too large");
    SmallVector<ConstantData> operands;
    for (Attribute attr : attrs) {
      std::optional<ConstantData> data = readConstant(cast<ElementsAttr>(attr));
      if (!data)
        return rewriter.notifyMatchFailure(op, "unreadable constant");
      operands.push_back(std::move(*data));
    }
    std::optional<ConstantData> result = evaluateConstantOp(op, operands);
    if (!result)
      return rewriter.notifyMatchFailure(op, "not evaluated");
    std::string name =
        deriveBlobName(attrs, ("." + op->getName().stripDialect()).str());
    ElementsAttr value = makeConstantAttr(*result, name);
    rewriter.replaceOpWithNewOp<ConstantOp>(op, value.getType(), value);
    return success();
  }
};

struct FoldConstantsPass : tcc::impl::TccFoldConstantsBase<FoldConstantsPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<EvaluateOnConstants>(&getContext());
    // Each rewrite removes an op, so the driver converges; as with the
    // canonicalizer, hitting its iteration limit is not an error.
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns));
  }
};

} // namespace
