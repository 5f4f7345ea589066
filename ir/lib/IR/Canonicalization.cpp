//===- Canonicalization.cpp - The dialect's rewrite patterns --------------===//
//
// Canonicalizations that create ops (folders can only return existing
// values or constants) live here, as one table for the whole dialect.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

namespace {

/// transpose(x) -> reshape(x) when the permutation keeps the dims of size
/// other than 1 in their order: the bytes do not move, and a reshape is a
/// view (it cancels with other reshapes where a transpose would not).
struct TransposeOfUnitDimsIsReshape : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto inputType = op.getInput().getType();
    int64_t last = -1;
    for (int64_t p : op.getPermutation()) {
      if (inputType.getDimSize(p) == 1)
        continue;
      if (p < last)
        return rewriter.notifyMatchFailure(op, "moves a dim of size > 1");
      last = p;
    }
    rewriter.replaceOpWithNewOp<ReshapeOp>(op, op.getType(), op.getInput());
    return success();
  }
};

/// x op identity -> broadcast_to(x) when the identity broadcasts x to a
/// larger shape (the folder handles the same-shape case). Float identities
/// are exact: x + (-0.0) and x - (+0.0), never x + (+0.0).
template <typename OpTy, Identity kIdentity>
struct BroadcastingIdentity : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Attribute rhs;
    if (!matchPattern(op.getRhs(), m_Constant(&rhs)) ||
        !isSplatIdentity(rhs, kIdentity))
      return rewriter.notifyMatchFailure(op, "rhs is not the identity");
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    if (lhsType == op.getType() ||
        lhsType.getElementType() != op.getType().getElementType())
      return rewriter.notifyMatchFailure(op, "nothing to broadcast");
    rewriter.replaceOpWithNewOp<BroadcastToOp>(op, op.getType(), op.getLhs());
    return success();
  }
};

} // namespace

void TccDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  MLIRContext *context = getContext();
  results.add<TransposeOfUnitDimsIsReshape,
              BroadcastingIdentity<AddOp, Identity::AddZero>,
              BroadcastingIdentity<SubOp, Identity::SubZero>,
              BroadcastingIdentity<MulOp, Identity::One>,
              BroadcastingIdentity<DivOp, Identity::One>,
              BroadcastingIdentity<PowOp, Identity::One>>(context);
}
