//===- LowerQuantization.cpp - quantize, dequantize, requantize -----------===//
//
// Each becomes one elementwise linalg.generic that reads its scale (or
// multiplier) and zero point per tensor (0-d) or at the index of `axis`
// (1-D). The bodies take the steps of tcc/runtime/ScalarOps.h in the same
// types, so results equal the interpreter's bit for bit:
// - quantize: x / scale in x's type (f16/bf16: in f32, rounded to their
//   type), then in f64: round half to even, + zero point, clamp; NaN gives
//   the zero point;
// - dequantize: q - zp exactly in i64, converted to the float type (f32 for
//   f16/bf16), times scale, rounded once to the result type;
// - requantize: acc converted to the multiplier's compute type (f32 for
//   f32/f16/bf16, f64 for f64) times the multiplier in it, then as
//   quantize: the int8 kernels' epilogue for f32 multipliers.
// The integer contractions they pair with (matmul_integer, conv2d_integer)
// are in LowerNN.cpp.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc::lowering;

namespace {

/// The maps of an elementwise op over `shape` with a scale and zero point:
/// identity for the input and result, `axis` or nothing for the parameters.
SmallVector<AffineMap> affineQuantMaps(MLIRContext *ctx, int64_t rank,
                                       Value scale, int64_t axis) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, ctx);
  AffineMap param =
      cast<RankedTensorType>(scale.getType()).getRank() == 0
          ? AffineMap::get(rank, 0, ArrayRef<AffineExpr>{}, ctx)
          : AffineMap::get(rank, 0,
                           getAffineDimExpr(normalizeDim(axis, rank), ctx));
  return {identity, param, param, identity};
}

/// An integer widened to i64 (zero-extended when unsigned).
Value toI64(OpBuilder &b, Location loc, Value v, bool isUnsigned) {
  Type i64 = b.getI64Type();
  if (v.getType() == i64)
    return v;
  if (isUnsigned)
    return b.create<arith::ExtUIOp>(loc, i64, v);
  return b.create<arith::ExtSIOp>(loc, i64, v);
}

Value toF64(OpBuilder &b, Location loc, Value v) {
  if (v.getType().isF64())
    return v;
  return b.create<arith::ExtFOp>(loc, b.getF64Type(), v);
}

/// ScalarOps.h's roundToQuantized: an f64 value (the scaled real number)
/// rounded half to even, shifted by the zero point and saturated to the
/// result's type; NaN gives the zero point.
Value roundToQuantized(OpBuilder &b, Location loc, Value value, Value zeroPoint,
                       Type resultElement) {
  bool isUnsigned = isUnsignedElement(resultElement);
  auto width = resultElement.getIntOrFloatBitWidth();
  Type storage = storageType(resultElement);
  double lowest = isUnsigned ? 0.0 : -std::ldexp(1.0, int(width) - 1);
  double highest = isUnsigned ? std::ldexp(1.0, int(width)) - 1
                              : std::ldexp(1.0, int(width) - 1) - 1;
  Type f64 = b.getF64Type();
  Value zp = toI64(b, loc, zeroPoint, isUnsigned);
  Value shifted =
      b.create<arith::AddFOp>(loc, b.create<math::RoundEvenOp>(loc, value),
                              b.create<arith::SIToFPOp>(loc, f64, zp));
  Value clamped = b.create<arith::MinimumFOp>(
      loc,
      b.create<arith::MaximumFOp>(loc, shifted,
                                  floatConstant(b, loc, f64, lowest)),
      floatConstant(b, loc, f64, highest));
  Value integer = b.create<arith::TruncIOp>(
      loc, storage, b.create<arith::FPToSIOp>(loc, b.getI64Type(), clamped));
  Value isNan =
      b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNO, value, value);
  return b.create<arith::SelectOp>(loc, isNan, zeroPoint, integer);
}

/// The elementwise generic every quantization op lowers to: `value` with
/// its scale (or multiplier) and zero point, per tensor or per channel along
/// `axis`, into a tensor of `resultType`; `body` maps one element.
using QuantBody = function_ref<Value(OpBuilder &, Location, Value value,
                                     Value scale, Value zeroPoint)>;
Value buildQuantGeneric(OpBuilder &b, Location loc, RankedTensorType resultType,
                        Value value, Value scale, Value zeroPoint, int64_t axis,
                        QuantBody body) {
  int64_t rank = resultType.getRank();
  Value init =
      emptyTensor(b, loc, resultType.getShape(), resultType.getElementType());
  return buildGeneric(
      b, loc, ValueRange{value, scale, zeroPoint}, init,
      affineQuantMaps(b.getContext(), rank, scale, axis), iteratorTypes(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        return {body(nb, l, args[0], args[1], args[2])};
      })[0];
}

struct QuantizeLowering : TccPattern<tcc::QuantizeOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::QuantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultElement = op.getType().getElementType();
    Type inputElement = op.getInput().getType().getElementType();
    Value result = buildQuantGeneric(
        rewriter, op.getLoc(), convertedType(op.getResult()),
        adaptor.getInput(), adaptor.getScale(), adaptor.getZeroPoint(),
        op.getAxis(),
        [&](OpBuilder &b, Location l, Value x, Value scale, Value zp) {
          Value quotient = demote(b, l,
                                  b.create<arith::DivFOp>(l, promote(b, l, x),
                                                          promote(b, l, scale)),
                                  inputElement);
          return roundToQuantized(b, l, toF64(b, l, quotient), zp,
                                  resultElement);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct DequantizeLowering : TccPattern<tcc::DequantizeOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::DequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = convertedType(op.getResult());
    Type element = resultType.getElementType(), compute = computeType(element);
    bool isUnsigned =
        isUnsignedElement(op.getInput().getType().getElementType());
    Value result = buildQuantGeneric(
        rewriter, op.getLoc(), resultType, adaptor.getInput(),
        adaptor.getScale(), adaptor.getZeroPoint(), op.getAxis(),
        [&](OpBuilder &b, Location l, Value q, Value scale, Value zp) {
          Value difference = b.create<arith::SubIOp>(
              l, toI64(b, l, q, isUnsigned), toI64(b, l, zp, isUnsigned));
          Value real = b.create<arith::SIToFPOp>(l, compute, difference);
          Value product =
              b.create<arith::MulFOp>(l, real, promote(b, l, scale));
          return demote(b, l, product, element);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

struct RequantizeLowering : TccPattern<tcc::RequantizeOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::RequantizeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type resultElement = op.getType().getElementType();
    Value result = buildQuantGeneric(
        rewriter, op.getLoc(), convertedType(op.getResult()),
        adaptor.getInput(), adaptor.getMultiplier(), adaptor.getZeroPoint(),
        op.getAxis(),
        [&](OpBuilder &b, Location l, Value acc, Value multiplier, Value zp) {
          // ScalarOps.h's requantize: T(acc) * multiplier in the
          // multiplier's compute type, then rounded to the result.
          Value m = promote(b, l, multiplier);
          Value scaled = b.create<arith::MulFOp>(
              l, b.create<arith::SIToFPOp>(l, m.getType(), acc), m);
          return roundToQuantized(b, l, toF64(b, l, scaled), zp, resultElement);
        });
    rewriter.replaceOp(op, result);
    return success();
  }
};

} // namespace

void tcc::lowering::populateQuantizationPatterns(const TypeConverter &converter,
                                                 RewritePatternSet &patterns) {
  patterns.add<QuantizeLowering, DequantizeLowering, RequantizeLowering>(
      converter, patterns.getContext());
}
