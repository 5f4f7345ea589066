//===- LowerToLinalg.cpp - tcc ops to linalg on tensors -------------------===//
//
// Every op becomes loops-to-be (linalg.generic) or a view (reshape), never a
// library call: kernels must run without imports. Matmul and convolution in
// fp32 normally reach the runtime's microkernels as library calls of the
// execution plan; the generic forms here serve other dtypes and fusion.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Passes.h"
#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCLOWERTOLINALG
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

//===----------------------------------------------------------------------===//
// Building blocks
//===----------------------------------------------------------------------===//

/// The map from the result's iteration space to an operand broadcast into it
/// (NumPy rules: dims align on the right, size-1 dims read index 0).
AffineMap broadcastMap(ShapedType operand, ShapedType result) {
  MLIRContext *ctx = result.getContext();
  int64_t offset = result.getRank() - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operand.getRank(); ++i) {
    bool broadcast =
        operand.getDimSize(i) == 1 && result.getDimSize(i + offset) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(result.getRank(), 0, exprs, ctx);
}

using ScalarBuilder =
    function_ref<Value(OpBuilder &, Location, ValueRange /*operands*/)>;

/// A linalg.generic over the result's shape that reads every input with
/// broadcasting and computes one element with `body`.
Value buildElementwise(OpBuilder &b, Location loc, RankedTensorType resultType,
                       ValueRange inputs, ScalarBuilder body) {
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(cast<ShapedType>(input.getType()), resultType));
  maps.push_back(b.getMultiDimIdentityMap(resultType.getRank()));
  SmallVector<utils::IteratorType> iterators(resultType.getRank(),
                                             utils::IteratorType::parallel);
  Value init = b.create<tensor::EmptyOp>(loc, resultType.getShape(),
                                         resultType.getElementType());
  auto generic = b.create<linalg::GenericOp>(
      loc, resultType, inputs, init, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        Value result = body(nested, nestedLoc, args.drop_back());
        nested.create<linalg::YieldOp>(nestedLoc, result);
      });
  return generic.getResult(0);
}

bool isFloat(Value v) { return isa<FloatType>(getElementTypeOrSelf(v.getType())); }

//===----------------------------------------------------------------------===//
// Elementwise ops: one scalar builder per op
//===----------------------------------------------------------------------===//

template <typename Op>
struct ElementwiseLowering : OpConversionPattern<Op> {
  using Fn = Value (*)(OpBuilder &, Location, Op, ValueRange);
  ElementwiseLowering(MLIRContext *ctx, Fn fn)
      : OpConversionPattern<Op>(ctx), fn(fn) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = cast<RankedTensorType>(op.getType());
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType, adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          return fn(b, loc, op, args);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
  Fn fn;
};

Value scalarAdd(OpBuilder &b, Location loc, tcc::AddOp, ValueRange v) {
  if (isFloat(v[0]))
    return b.create<arith::AddFOp>(loc, v[0], v[1]);
  if (v[0].getType().isInteger(1))
    return b.create<arith::OrIOp>(loc, v[0], v[1]);
  return b.create<arith::AddIOp>(loc, v[0], v[1]);
}

Value scalarExp(OpBuilder &b, Location loc, tcc::ExpOp, ValueRange v) {
  return b.create<math::ExpOp>(loc, v[0]);
}

//===----------------------------------------------------------------------===//
// Matmul: batched, with broadcast batch dimensions
//===----------------------------------------------------------------------===//

struct MatmulLowering : OpConversionPattern<tcc::MatmulOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tcc::MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getType());
    auto lhsType = cast<RankedTensorType>(op.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(op.getRhs().getType());
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = resultType.getRank(), loops = rank + 1;
    AffineExpr m = getAffineDimExpr(rank - 2, ctx),
               n = getAffineDimExpr(rank - 1, ctx),
               k = getAffineDimExpr(rank, ctx);

    // Batch dims of an operand, broadcast like elementwise operands.
    auto batchExprs = [&](RankedTensorType type) {
      SmallVector<AffineExpr> exprs;
      int64_t batchRank = type.getRank() - 2, offset = rank - 2 - batchRank;
      for (int64_t i = 0; i < batchRank; ++i) {
        bool broadcast = type.getDimSize(i) == 1 &&
                         resultType.getDimSize(i + offset) != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(i + offset, ctx));
      }
      return exprs;
    };
    SmallVector<AffineExpr> lhsExprs = batchExprs(lhsType);
    lhsExprs.append({m, k});
    SmallVector<AffineExpr> rhsExprs = batchExprs(rhsType);
    rhsExprs.append({k, n});
    SmallVector<AffineMap> maps = {
        AffineMap::get(loops, 0, lhsExprs, ctx),
        AffineMap::get(loops, 0, rhsExprs, ctx),
        AffineMap::get(
            loops, 0,
            AffineMap::getMultiDimIdentityMap(rank, ctx).getResults(), ctx)};
    SmallVector<utils::IteratorType> iterators(rank,
                                               utils::IteratorType::parallel);
    iterators.push_back(utils::IteratorType::reduction);

    Type elementType = resultType.getElementType();
    Value zero = rewriter.create<arith::ConstantOp>(
        loc, elementType, rewriter.getZeroAttr(elementType));
    Value empty = rewriter.create<tensor::EmptyOp>(loc, resultType.getShape(),
                                                   elementType);
    Value init = rewriter.create<linalg::FillOp>(loc, zero, empty).result();
    bool floating = isa<FloatType>(elementType);
    auto generic = rewriter.create<linalg::GenericOp>(
        loc, resultType, ValueRange{adaptor.getLhs(), adaptor.getRhs()}, init,
        maps, iterators, [&](OpBuilder &b, Location l, ValueRange args) {
          Value product =
              floating ? b.create<arith::MulFOp>(l, args[0], args[1]).getResult()
                       : b.create<arith::MulIOp>(l, args[0], args[1]).getResult();
          Value sum =
              floating ? b.create<arith::AddFOp>(l, args[2], product).getResult()
                       : b.create<arith::AddIOp>(l, args[2], product).getResult();
          b.create<linalg::YieldOp>(l, sum);
        });
    rewriter.replaceOp(op, generic.getResult(0));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Views and constants
//===----------------------------------------------------------------------===//

struct ReshapeLowering : OpConversionPattern<tcc::ReshapeOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tcc::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto resultType = op.getType();
    auto shapeType = RankedTensorType::get({resultType.getRank()},
                                           rewriter.getIndexType());
    SmallVector<APInt> dims;
    for (int64_t d : resultType.getShape())
      dims.push_back(APInt(64, d));
    Value shape = rewriter.create<arith::ConstantOp>(
        op.getLoc(), DenseElementsAttr::get(shapeType, dims));
    rewriter.replaceOpWithNewOp<tensor::ReshapeOp>(op, resultType,
                                                   adaptor.getInput(), shape);
    return success();
  }
};

struct ConstantLowering : OpConversionPattern<tcc::ConstantOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(tcc::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, op.getValue());
    return success();
  }
};

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

struct LowerToLinalgPass : tcc::impl::TccLowerToLinalgBase<LowerToLinalgPass> {
  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    RewritePatternSet patterns(ctx);
    patterns.add<ElementwiseLowering<tcc::AddOp>>(ctx, scalarAdd);
    patterns.add<ElementwiseLowering<tcc::ExpOp>>(ctx, scalarExp);
    patterns.add<MatmulLowering, ReshapeLowering, ConstantLowering>(ctx);

    ConversionTarget target(*ctx);
    target.addIllegalDialect<tcc::TccDialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};

} // namespace
