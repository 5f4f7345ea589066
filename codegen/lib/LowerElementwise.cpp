//===- LowerElementwise.cpp - Elementwise tcc ops to linalg.generic -------===//
//
// Each op becomes one linalg.generic over its result with broadcasting
// indexing maps; a scalar builder per op computes one element. Semantics are
// PyTorch's (CPU), including NaN propagation, the sign rules of remainder and
// floor_divide, and integer arithmetic that wraps. Where PyTorch raises at
// run time a kernel cannot, so those cases get a defined value instead:
// integer division (floor_divide, remainder) by zero gives 0, and an integer
// raised to a negative power gives trunc(1 / x^|n|) (1, -1 or 0; 0 for 0).
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc::lowering;

namespace {

//===----------------------------------------------------------------------===//
// The pattern: one generic, one scalar builder
//===----------------------------------------------------------------------===//

/// Computes one element from the operand elements, promoted to their compute
/// type (f16/bf16 -> f32). `isUnsigned` says how integers compare, extend and
/// divide (ui8, i1).
template <typename Op>
using ScalarFn = Value (*)(OpBuilder &, Location, Op, ValueRange,
                           bool isUnsigned);

template <typename Op> struct ElementwiseLowering : TccPattern<Op> {
  ElementwiseLowering(const TypeConverter &converter, MLIRContext *ctx,
                      ScalarFn<Op> fn)
      : TccPattern<Op>(converter, ctx), fn(fn) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = this->convertedType(op.getResult());
    Type element = resultType.getElementType();
    // The last operand has the value type (select's first is the condition).
    bool isUnsigned = isUnsignedElement(
        getElementTypeOrSelf(op->getOperands().back().getType()));
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType.getShape(), element,
        adaptor.getOperands(),
        [&](OpBuilder &b, Location loc, ValueRange args) {
          SmallVector<Value> promoted;
          for (Value arg : args)
            promoted.push_back(promote(b, loc, arg));
          return demote(b, loc, fn(b, loc, op, promoted, isUnsigned), element);
        });
    rewriter.replaceOp(op, skipIdentityGeneric(rewriter, result));
    return success();
  }

  ScalarFn<Op> fn;
};

bool isFloat(Value v) { return isa<FloatType>(v.getType()); }

Value zeroLike(OpBuilder &b, Location loc, Value v) {
  return numberConstant(b, loc, v.getType(), 0);
}

Value select(OpBuilder &b, Location loc, Value cond, Value t, Value f) {
  return b.create<arith::SelectOp>(loc, cond, t, f);
}

Value cmpf(OpBuilder &b, Location loc, arith::CmpFPredicate p, Value l,
           Value r) {
  return b.create<arith::CmpFOp>(loc, p, l, r);
}

Value cmpi(OpBuilder &b, Location loc, arith::CmpIPredicate p, Value l,
           Value r) {
  return b.create<arith::CmpIOp>(loc, p, l, r);
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

template <typename MathOp, typename Op>
Value mathUnary(OpBuilder &b, Location loc, Op, ValueRange v, bool) {
  return b.create<MathOp>(loc, v[0]);
}

template <typename Op>
Value scalarNeg(OpBuilder &b, Location loc, Op, ValueRange v, bool) {
  if (isFloat(v[0]))
    return b.create<arith::NegFOp>(loc, v[0]);
  return b.create<arith::SubIOp>(loc, zeroLike(b, loc, v[0]), v[0]);
}

Value scalarAbs(OpBuilder &b, Location loc, tcc::AbsOp, ValueRange v,
                bool isUnsigned) {
  if (isFloat(v[0]))
    return b.create<math::AbsFOp>(loc, v[0]);
  return isUnsigned ? v[0] : b.create<math::AbsIOp>(loc, v[0]).getResult();
}

Value scalarRelu(OpBuilder &b, Location loc, tcc::ReluOp, ValueRange v,
                 bool isUnsigned) {
  Value zero = zeroLike(b, loc, v[0]);
  if (isFloat(v[0])) // NaN and -0 stay (ScalarOps.h)
    return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OLT, v[0], zero),
                  zero, v[0]);
  return isUnsigned ? v[0]
                    : b.create<arith::MaxSIOp>(loc, v[0], zero).getResult();
}

Value scalarSign(OpBuilder &b, Location loc, tcc::SignOp, ValueRange v,
                 bool isUnsigned) {
  Value x = v[0], zero = zeroLike(b, loc, x);
  Value one = numberConstant(b, loc, x.getType(), 1);
  if (isUnsigned)
    return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::ne, x, zero), one,
                  zero);
  Value minusOne = numberConstant(b, loc, x.getType(), -1);
  Value positive, negative;
  if (isFloat(x)) {
    positive = cmpf(b, loc, arith::CmpFPredicate::OGT, x, zero);
    negative = cmpf(b, loc, arith::CmpFPredicate::OLT, x, zero);
  } else {
    positive = cmpi(b, loc, arith::CmpIPredicate::sgt, x, zero);
    negative = cmpi(b, loc, arith::CmpIPredicate::slt, x, zero);
  }
  // Ordered comparisons: NaN is neither, so it gives 0 (ScalarOps.h).
  return select(b, loc, positive, one,
                select(b, loc, negative, minusOne, zero));
}

/// ln x. MLIR's f32 approximation clamps its input to the smallest normal
/// float, so subnormal inputs are scaled by 2^23 into the normal range and
/// the result moved back by 23 ln 2.
Value scalarLog(OpBuilder &b, Location loc, tcc::LogOp, ValueRange v, bool) {
  Value x = v[0];
  if (!x.getType().isF32())
    return b.create<math::LogOp>(loc, x);
  Type type = x.getType();
  Value tiny = cmpf(b, loc, arith::CmpFPredicate::OLT, x,
                    floatConstant(b, loc, type, 0x1p-126));
  Value scaled = select(
      b, loc, tiny,
      b.create<arith::MulFOp>(loc, x, floatConstant(b, loc, type, 0x1p23)), x);
  Value log = b.create<math::LogOp>(loc, scaled);
  Value shifted = b.create<arith::SubFOp>(
      loc, log, floatConstant(b, loc, type, 23 * M_LN2));
  return select(b, loc, tiny, shifted, log);
}

/// 1 / (1 + exp(-x)): exp overflows to inf for very negative x, giving 0.
Value sigmoid(OpBuilder &b, Location loc, Value x) {
  Value one = floatConstant(b, loc, x.getType(), 1.0);
  Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x));
  return b.create<arith::DivFOp>(loc, one,
                                 b.create<arith::AddFOp>(loc, one, e));
}

Value scalarSigmoid(OpBuilder &b, Location loc, tcc::SigmoidOp, ValueRange v,
                    bool) {
  return sigmoid(b, loc, v[0]);
}

Value scalarSilu(OpBuilder &b, Location loc, tcc::SiluOp, ValueRange v, bool) {
  // x / (1 + exp(-x)), as ATen computes it.
  Value x = v[0], one = floatConstant(b, loc, x.getType(), 1.0);
  Value e = b.create<math::ExpOp>(loc, b.create<arith::NegFOp>(loc, x));
  return b.create<arith::DivFOp>(loc, x, b.create<arith::AddFOp>(loc, one, e));
}

Value scalarLogicalNot(OpBuilder &b, Location loc, tcc::LogicalNotOp,
                       ValueRange v, bool) {
  return b.create<arith::XOrIOp>(loc, v[0],
                                 intConstant(b, loc, b.getI1Type(), 1));
}

Value scalarGelu(OpBuilder &b, Location loc, tcc::GeluOp op, ValueRange v,
                 bool) {
  Value x = v[0];
  Type type = x.getType();
  auto c = [&](double value) { return floatConstant(b, loc, type, value); };
  Value half = c(0.5), one = c(1.0);
  if (op.getApproximate() == tcc::GeluApproximation::tanh) {
    // 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3)))
    Value cube =
        b.create<arith::MulFOp>(loc, x, b.create<arith::MulFOp>(loc, x, x));
    Value inner = b.create<arith::AddFOp>(
        loc, x, b.create<arith::MulFOp>(loc, c(0.044715), cube));
    Value t = b.create<math::TanhOp>(
        loc, b.create<arith::MulFOp>(loc, c(std::sqrt(2.0 / M_PI)), inner));
    return b.create<arith::MulFOp>(loc, b.create<arith::MulFOp>(loc, half, x),
                                   b.create<arith::AddFOp>(loc, one, t));
  }
  // x * 0.5 * (1 + erf(x / sqrt(2)))
  Value e =
      b.create<math::ErfOp>(loc, b.create<arith::MulFOp>(loc, x, c(M_SQRT1_2)));
  return b.create<arith::MulFOp>(loc, b.create<arith::MulFOp>(loc, x, half),
                                 b.create<arith::AddFOp>(loc, one, e));
}

/// A clamp bound, saturated into an integer type's range (a bound beyond the
/// range is no bound at all, or pins every element to the range's end);
/// null when it bounds nothing (a lower bound at or below the minimum, an
/// upper one at or above the maximum).
Value clampBound(OpBuilder &b, Location loc, Type type, double bound,
                 bool isUnsigned, bool isLower) {
  if (isa<FloatType>(type))
    return floatConstant(b, loc, type, bound);
  unsigned width = type.getIntOrFloatBitWidth();
  APInt low =
      isUnsigned ? APInt::getMinValue(width) : APInt::getSignedMinValue(width);
  APInt high =
      isUnsigned ? APInt::getMaxValue(width) : APInt::getSignedMaxValue(width);
  double lowD = isUnsigned ? low.roundToDouble(false) : low.roundToDouble(true);
  double highD =
      isUnsigned ? high.roundToDouble(false) : high.roundToDouble(true);
  if (bound <= lowD)
    return isLower ? Value() : intConstant(b, loc, type, low);
  if (bound >= highD)
    return isLower ? intConstant(b, loc, type, high) : Value();
  return intConstant(b, loc, type, static_cast<int64_t>(bound));
}

Value scalarClamp(OpBuilder &b, Location loc, tcc::ClampOp op, ValueRange v,
                  bool isUnsigned) {
  // min(max(x, lo), hi): hi wins when lo > hi; NaN stays NaN.
  Value x = v[0];
  Type type = x.getType();
  std::optional<APFloat> lo = op.getMin(), hi = op.getMax();
  if (Value bound = lo ? clampBound(b, loc, type, lo->convertToDouble(),
                                    isUnsigned, /*isLower=*/true)
                       : Value()) {
    Value below = isFloat(x) ? cmpf(b, loc, arith::CmpFPredicate::OLT, x, bound)
                             : cmpi(b, loc,
                                    isUnsigned ? arith::CmpIPredicate::ult
                                               : arith::CmpIPredicate::slt,
                                    x, bound);
    x = select(b, loc, below, bound, x);
  }
  if (Value bound = hi ? clampBound(b, loc, type, hi->convertToDouble(),
                                    isUnsigned, /*isLower=*/false)
                       : Value()) {
    Value above = isFloat(x) ? cmpf(b, loc, arith::CmpFPredicate::OGT, x, bound)
                             : cmpi(b, loc,
                                    isUnsigned ? arith::CmpIPredicate::ugt
                                               : arith::CmpIPredicate::sgt,
                                    x, bound);
    x = select(b, loc, above, bound, x);
  }
  return x;
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

Value scalarAdd(OpBuilder &b, Location loc, tcc::AddOp, ValueRange v, bool) {
  return add(b, loc, v[0], v[1]);
}
Value scalarSub(OpBuilder &b, Location loc, tcc::SubOp, ValueRange v, bool) {
  return sub(b, loc, v[0], v[1]);
}
Value scalarMul(OpBuilder &b, Location loc, tcc::MulOp, ValueRange v, bool) {
  return mul(b, loc, v[0], v[1]);
}
Value scalarDiv(OpBuilder &b, Location loc, tcc::DivOp, ValueRange v, bool) {
  return b.create<arith::DivFOp>(loc, v[0], v[1]);
}
Value scalarMaximum(OpBuilder &b, Location loc, tcc::MaximumOp, ValueRange v,
                    bool isUnsigned) {
  return maximum(b, loc, v[0], v[1], isUnsigned);
}
Value scalarMinimum(OpBuilder &b, Location loc, tcc::MinimumOp, ValueRange v,
                    bool isUnsigned) {
  return minimum(b, loc, v[0], v[1], isUnsigned);
}

/// x^y for floats, computed as exp(y * log|x|) in f64 (so f32 and narrower
/// results are close to correctly rounded) with C's special cases: x^0 = 1
/// and 1^y = 1 even for NaN, a finite negative base needs an integer
/// exponent (else NaN), and an odd integer exponent keeps the base's sign
/// (-0 and -inf included).
Value floatPow(OpBuilder &b, Location loc, Value x, Value y) {
  Type type = x.getType();
  Type f64 = b.getF64Type();
  if (type != f64) {
    x = b.create<arith::ExtFOp>(loc, f64, x);
    y = b.create<arith::ExtFOp>(loc, f64, y);
  }
  auto c = [&](double value) { return floatConstant(b, loc, f64, value); };
  using P = arith::CmpFPredicate;
  Value ax = b.create<math::AbsFOp>(loc, x);
  Value r = b.create<math::ExpOp>(
      loc, b.create<arith::MulFOp>(loc, y, b.create<math::LogOp>(loc, ax)));
  Value yFloor = b.create<math::FloorOp>(loc, y);
  Value yIsInt = cmpf(b, loc, P::OEQ, yFloor, y);
  Value halfY = b.create<arith::MulFOp>(loc, y, c(0.5));
  Value yIsOdd = b.create<arith::AndIOp>(
      loc, yIsInt,
      cmpf(b, loc, P::ONE, b.create<math::FloorOp>(loc, halfY), halfY));
  // A finite negative base: -inf to a non-integer power is +inf or +0.
  Value negativeBase =
      b.create<arith::AndIOp>(loc, cmpf(b, loc, P::OLT, x, c(0.0)),
                              cmpf(b, loc, P::OGT, x, c(-INFINITY)));
  Value signBit =
      cmpf(b, loc, P::OLT, b.create<math::CopySignOp>(loc, c(1.0), x), c(0.0));
  r = select(b, loc, b.create<arith::AndIOp>(loc, signBit, yIsOdd),
             b.create<arith::NegFOp>(loc, r), r);
  Value nonIntegerPower = b.create<arith::AndIOp>(
      loc, negativeBase,
      b.create<arith::XOrIOp>(loc, yIsInt,
                              intConstant(b, loc, b.getI1Type(), 1)));
  r = select(b, loc, nonIntegerPower, c(NAN), r);
  // (+-1)^(+-inf) = 1, x^0 = 1, 1^y = 1.
  Value unitBase = cmpf(b, loc, P::OEQ, ax, c(1.0));
  Value infinitePower =
      cmpf(b, loc, P::OEQ, b.create<math::AbsFOp>(loc, y), c(INFINITY));
  Value one = b.create<arith::OrIOp>(
      loc, b.create<arith::AndIOp>(loc, unitBase, infinitePower),
      b.create<arith::OrIOp>(loc, cmpf(b, loc, P::OEQ, y, c(0.0)),
                             cmpf(b, loc, P::OEQ, x, c(1.0))));
  r = select(b, loc, one, c(1.0), r);
  if (type != f64)
    r = b.create<arith::TruncFOp>(loc, type, r);
  return r;
}

/// x^n for integers by repeated squaring over n's bits (wrapping like
/// PyTorch). A negative n gives trunc(1 / x^|n|).
Value integerPow(OpBuilder &b, Location loc, Value x, Value n,
                 bool isUnsigned) {
  Type type = x.getType();
  unsigned width = type.getIntOrFloatBitWidth();
  Value one = intConstant(b, loc, type, 1);
  auto loop = b.create<scf::ForOp>(
      loc, indexConstant(b, loc, 0), indexConstant(b, loc, width),
      indexConstant(b, loc, 1), ValueRange{one, x},
      [&](OpBuilder &nb, Location l, Value i, ValueRange acc) {
        Value shift = nb.create<arith::IndexCastOp>(l, type, i);
        Value bit =
            nb.create<arith::AndIOp>(l, nb.create<arith::ShRUIOp>(l, n, shift),
                                     intConstant(nb, l, type, 1));
        Value take = cmpi(nb, l, arith::CmpIPredicate::ne, bit,
                          intConstant(nb, l, type, 0));
        Value product = nb.create<arith::MulIOp>(l, acc[0], acc[1]);
        Value result = select(nb, l, take, product, acc[0]);
        Value square = nb.create<arith::MulIOp>(l, acc[1], acc[1]);
        nb.create<scf::YieldOp>(l, ValueRange{result, square});
      });
  Value result = loop.getResult(0);
  if (isUnsigned)
    return result;
  Value zero = intConstant(b, loc, type, 0),
        minusOne = intConstant(b, loc, type, -1);
  Value nIsOdd = cmpi(b, loc, arith::CmpIPredicate::ne,
                      b.create<arith::AndIOp>(loc, n, one), zero);
  Value reciprocal =
      select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, x, one), one,
             select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, x, minusOne),
                    select(b, loc, nIsOdd, minusOne, one), zero));
  return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::slt, n, zero),
                reciprocal, result);
}

Value scalarPow(OpBuilder &b, Location loc, tcc::PowOp, ValueRange v,
                bool isUnsigned) {
  if (isFloat(v[0]))
    return floatPow(b, loc, v[0], v[1]);
  return integerPow(b, loc, v[0], v[1], isUnsigned);
}

/// C's fmod for f32/f64, exact, by long division of the significands (LLVM's
/// frem would call libm): |x| - k|y| for the largest whole k, with x's sign.
Value floatFmod(OpBuilder &b, Location loc, Value x, Value y) {
  auto type = cast<FloatType>(x.getType());
  unsigned width = type.getWidth();
  unsigned mantissaBits = type.getFPMantissaWidth() - 1; // stored bits
  Type intType = b.getIntegerType(width);
  auto c = [&](uint64_t value) {
    return intConstant(b, loc, intType, APInt(width, value));
  };
  using P = arith::CmpIPredicate;
  uint64_t sign = uint64_t(1) << (width - 1);
  Value implicitBit = c(uint64_t(1) << mantissaBits);
  Value mantissaMask = c((uint64_t(1) << mantissaBits) - 1);
  Value infBits = c(APFloat::getInf(type.getFloatSemantics())
                        .bitcastToAPInt()
                        .getZExtValue());
  Value ux = b.create<arith::BitcastOp>(loc, intType, x);
  Value uy = b.create<arith::BitcastOp>(loc, intType, y);
  Value signX = b.create<arith::AndIOp>(loc, ux, c(sign));
  Value ax = b.create<arith::AndIOp>(loc, ux, c(sign - 1));
  Value ay = b.create<arith::AndIOp>(loc, uy, c(sign - 1));
  // NaN for y = 0, x infinite, or either NaN; x itself when |x| < |y|.
  Value invalid = b.create<arith::OrIOp>(
      loc, cmpi(b, loc, P::eq, ay, c(0)),
      b.create<arith::OrIOp>(loc, cmpi(b, loc, P::uge, ax, infBits),
                             cmpi(b, loc, P::ugt, ay, infBits)));
  Value smaller = cmpi(b, loc, P::ult, ax, ay);

  // Significands with the implicit bit, and exponents (subnormals: 1).
  Value shiftM = c(mantissaBits), one = c(1), zero = c(0);
  auto split = [&](Value bits) {
    Value exponent = b.create<arith::ShRUIOp>(loc, bits, shiftM);
    Value isSubnormal = cmpi(b, loc, P::eq, exponent, zero);
    Value significand =
        select(b, loc, isSubnormal, bits,
               b.create<arith::OrIOp>(
                   loc, b.create<arith::AndIOp>(loc, bits, mantissaMask),
                   implicitBit));
    return std::pair{significand, b.create<arith::MaxUIOp>(loc, exponent, one)};
  };
  auto [mx, ex] = split(ax);
  auto [my, ey] = split(ay);
  Value skip = b.create<arith::OrIOp>(loc, invalid, smaller);
  Value steps =
      select(b, loc, skip, zero, b.create<arith::SubIOp>(loc, ex, ey));

  auto reduceOnce = [&](OpBuilder &nb, Location l, Value m) -> Value {
    return select(nb, l, cmpi(nb, l, P::uge, m, my),
                  nb.create<arith::SubIOp>(l, m, my), m);
  };
  // One subtraction per step suffices only while m < 2 my, which a
  // subnormal y's small significand breaks: start from mx mod my (y's
  // significand is never 0 here; invalid cases divide by 1 and are replaced).
  Value safeMy = select(b, loc, invalid, one, my);
  Value start = b.create<arith::RemUIOp>(loc, mx, safeMy);
  auto loop = b.create<scf::ForOp>(
      loc, indexConstant(b, loc, 0),
      b.create<arith::IndexCastUIOp>(loc, b.getIndexType(), steps),
      indexConstant(b, loc, 1), ValueRange{start},
      [&](OpBuilder &nb, Location l, Value, ValueRange m) {
        Value next = nb.create<arith::ShLIOp>(l, reduceOnce(nb, l, m[0]), one);
        nb.create<scf::YieldOp>(l, next);
      });
  Value m = reduceOnce(b, loc, loop.getResult(0));

  // Normalize back into a float with exponent ey (or subnormal).
  Value leading = b.create<math::CountLeadingZerosOp>(loc, m);
  Value shift = b.create<arith::MinUIOp>(
      loc, b.create<arith::SubIOp>(loc, leading, c(width - 1 - mantissaBits)),
      b.create<arith::SubIOp>(loc, ey, one));
  m = b.create<arith::ShLIOp>(loc, m, shift);
  Value exponent = b.create<arith::SubIOp>(loc, ey, shift);
  Value normal = b.create<arith::OrIOp>(
      loc, b.create<arith::ShLIOp>(loc, exponent, shiftM),
      b.create<arith::AndIOp>(loc, m, mantissaMask));
  Value bits = select(b, loc, cmpi(b, loc, P::ult, m, implicitBit), m, normal);
  Value result = b.create<arith::BitcastOp>(
      loc, type, b.create<arith::OrIOp>(loc, bits, signX));
  result = select(b, loc, smaller, x, result);
  return select(b, loc, invalid, floatConstant(b, loc, type, NAN), result);
}

/// True when a non-zero remainder `r` has the other sign than divisor `y`.
Value needsFloorFix(OpBuilder &b, Location loc, Value r, Value y) {
  Value zero = zeroLike(b, loc, r);
  if (isFloat(r))
    return b.create<arith::AndIOp>(
        loc, cmpf(b, loc, arith::CmpFPredicate::UNE, r, zero),
        b.create<arith::XOrIOp>(
            loc, cmpf(b, loc, arith::CmpFPredicate::OLT, y, zero),
            cmpf(b, loc, arith::CmpFPredicate::OLT, r, zero)));
  return b.create<arith::AndIOp>(
      loc, cmpi(b, loc, arith::CmpIPredicate::ne, r, zero),
      b.create<arith::XOrIOp>(
          loc, cmpi(b, loc, arith::CmpIPredicate::slt, y, zero),
          cmpi(b, loc, arith::CmpIPredicate::slt, r, zero)));
}

/// Truncating integer quotient and remainder that never trap: a zero divisor
/// divides by 1 (callers replace the result), and x / -1 is computed as -x
/// (INT_MIN / -1 would trap on x86; it wraps instead).
std::pair<Value, Value> safeIntegerDivide(OpBuilder &b, Location loc, Value x,
                                          Value y, bool isUnsigned) {
  Type type = x.getType();
  Value zero = intConstant(b, loc, type, 0), one = intConstant(b, loc, type, 1);
  Value safe =
      select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, y, zero), one, y);
  if (isUnsigned)
    return {b.create<arith::DivUIOp>(loc, x, safe),
            b.create<arith::RemUIOp>(loc, x, safe)};
  Value byMinusOne =
      cmpi(b, loc, arith::CmpIPredicate::eq, y, intConstant(b, loc, type, -1));
  safe = select(b, loc, byMinusOne, one, safe);
  Value q = b.create<arith::DivSIOp>(loc, x, safe);
  Value r = b.create<arith::RemSIOp>(loc, x, safe);
  q = select(b, loc, byMinusOne, b.create<arith::SubIOp>(loc, zero, q), q);
  return {q, r};
}

Value scalarRemainder(OpBuilder &b, Location loc, tcc::RemainderOp,
                      ValueRange v, bool isUnsigned) {
  Value x = v[0], y = v[1];
  if (isFloat(x)) {
    Value r = floatFmod(b, loc, x, y);
    return select(b, loc, needsFloorFix(b, loc, r, y),
                  b.create<arith::AddFOp>(loc, r, y), r);
  }
  Value zero = zeroLike(b, loc, x);
  Value r = safeIntegerDivide(b, loc, x, y, isUnsigned).second;
  if (!isUnsigned)
    r = select(b, loc, needsFloorFix(b, loc, r, y),
               b.create<arith::AddIOp>(loc, r, y), r);
  return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, y, zero), zero,
                r);
}

Value scalarFloorDivide(OpBuilder &b, Location loc, tcc::FloorDivideOp,
                        ValueRange v, bool isUnsigned) {
  Value x = v[0], y = v[1];
  if (isFloat(x)) {
    // ATen's div_floor_floating: (x - fmod(x, y)) / y, corrected by one
    // toward -inf, then rounded to the nearest whole number.
    Type type = x.getType();
    auto c = [&](double value) { return floatConstant(b, loc, type, value); };
    Value r = floatFmod(b, loc, x, y);
    Value div =
        b.create<arith::DivFOp>(loc, b.create<arith::SubFOp>(loc, x, r), y);
    div = select(b, loc, needsFloorFix(b, loc, r, y),
                 b.create<arith::SubFOp>(loc, div, c(1.0)), div);
    Value floor = b.create<math::FloorOp>(loc, div);
    Value roundUp = cmpf(b, loc, arith::CmpFPredicate::OGT,
                         b.create<arith::SubFOp>(loc, div, floor), c(0.5));
    floor = select(b, loc, roundUp, b.create<arith::AddFOp>(loc, floor, c(1.0)),
                   floor);
    Value quotient = b.create<arith::DivFOp>(loc, x, y);
    Value signedZero = b.create<math::CopySignOp>(loc, c(0.0), quotient);
    Value result =
        select(b, loc, cmpf(b, loc, arith::CmpFPredicate::UNE, div, c(0.0)),
               floor, signedZero);
    // x / 0 is +-inf or NaN, as ATen returns it.
    return select(b, loc, cmpf(b, loc, arith::CmpFPredicate::OEQ, y, c(0.0)),
                  quotient, result);
  }
  Value zero = zeroLike(b, loc, x);
  auto [q, r] = safeIntegerDivide(b, loc, x, y, isUnsigned);
  if (!isUnsigned)
    q = select(
        b, loc, needsFloorFix(b, loc, r, y),
        b.create<arith::SubIOp>(loc, q, intConstant(b, loc, x.getType(), 1)),
        q);
  return select(b, loc, cmpi(b, loc, arith::CmpIPredicate::eq, y, zero), zero,
                q);
}

//===----------------------------------------------------------------------===//
// Comparisons, logical ops, select
//===----------------------------------------------------------------------===//

template <typename Op, arith::CmpFPredicate F, arith::CmpIPredicate S,
          arith::CmpIPredicate U>
Value scalarCompare(OpBuilder &b, Location loc, Op, ValueRange v,
                    bool isUnsigned) {
  if (isFloat(v[0]))
    return cmpf(b, loc, F, v[0], v[1]);
  return cmpi(b, loc, isUnsigned ? U : S, v[0], v[1]);
}

template <typename Op, typename ArithOp>
Value scalarLogical(OpBuilder &b, Location loc, Op, ValueRange v, bool) {
  return b.create<ArithOp>(loc, v[0], v[1]);
}

Value scalarSelect(OpBuilder &b, Location loc, tcc::SelectOp, ValueRange v,
                   bool) {
  return select(b, loc, v[0], v[1], v[2]);
}

//===----------------------------------------------------------------------===//
// Patterns with their own shape: cast, dropout
//===----------------------------------------------------------------------===//

struct CastLowering : TccPattern<tcc::CastOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::CastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = convertedType(op.getResult());
    bool fromUnsigned =
        isUnsignedElement(op.getInput().getType().getElementType());
    rewriter.replaceOp(
        op, convertTensor(rewriter, op.getLoc(), adaptor.getInput(),
                          resultType.getElementType(), fromUnsigned));
    return success();
  }
};

/// Each element's bits as the result type: arith.bitcast on the stored
/// types (no promotion of f16/bf16 to f32, which could quiet a NaN).
struct BitcastLowering : TccPattern<tcc::BitcastOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::BitcastOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType resultType = convertedType(op.getResult());
    Type element = resultType.getElementType();
    Value result = buildElementwise(
        rewriter, op.getLoc(), resultType.getShape(), element,
        adaptor.getInput(), [&](OpBuilder &b, Location loc, ValueRange args) {
          return b.create<arith::BitcastOp>(loc, element, args[0]).getResult();
        });
    rewriter.replaceOp(op, skipIdentityGeneric(rewriter, result));
    return success();
  }
};

struct DropoutLowering : TccPattern<tcc::DropoutOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::DropoutOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, adaptor.getInput()); // the identity at inference
    return success();
  }
};

template <typename Op>
void addPattern(const TypeConverter &converter, RewritePatternSet &patterns,
                ScalarFn<Op> fn) {
  patterns.add<ElementwiseLowering<Op>>(converter, patterns.getContext(), fn);
}

} // namespace

void tcc::lowering::populateElementwisePatterns(const TypeConverter &converter,
                                                RewritePatternSet &patterns) {
  using namespace tcc;
  using F = arith::CmpFPredicate;
  using I = arith::CmpIPredicate;
  auto &c = converter;
  auto &p = patterns;
  // Unary
  addPattern<NegOp>(c, p, scalarNeg<NegOp>);
  addPattern<AbsOp>(c, p, scalarAbs);
  addPattern<ReluOp>(c, p, scalarRelu);
  addPattern<SignOp>(c, p, scalarSign);
  addPattern<ExpOp>(c, p, mathUnary<math::ExpOp, ExpOp>);
  addPattern<LogOp>(c, p, scalarLog);
  addPattern<Log1pOp>(c, p, mathUnary<math::Log1pOp, Log1pOp>);
  addPattern<SqrtOp>(c, p, mathUnary<math::SqrtOp, SqrtOp>);
  addPattern<RsqrtOp>(c, p, mathUnary<math::RsqrtOp, RsqrtOp>);
  addPattern<TanhOp>(c, p, mathUnary<math::TanhOp, TanhOp>);
  addPattern<SigmoidOp>(c, p, scalarSigmoid);
  addPattern<SiluOp>(c, p, scalarSilu);
  addPattern<ErfOp>(c, p, mathUnary<math::ErfOp, ErfOp>);
  addPattern<SinOp>(c, p, mathUnary<math::SinOp, SinOp>);
  addPattern<CosOp>(c, p, mathUnary<math::CosOp, CosOp>);
  addPattern<FloorOp>(c, p, mathUnary<math::FloorOp, FloorOp>);
  addPattern<CeilOp>(c, p, mathUnary<math::CeilOp, CeilOp>);
  addPattern<RoundOp>(c, p, mathUnary<math::RoundEvenOp, RoundOp>);
  addPattern<LogicalNotOp>(c, p, scalarLogicalNot);
  addPattern<GeluOp>(c, p, scalarGelu);
  addPattern<ClampOp>(c, p, scalarClamp);
  // Binary
  addPattern<AddOp>(c, p, scalarAdd);
  addPattern<SubOp>(c, p, scalarSub);
  addPattern<MulOp>(c, p, scalarMul);
  addPattern<DivOp>(c, p, scalarDiv);
  addPattern<PowOp>(c, p, scalarPow);
  addPattern<MaximumOp>(c, p, scalarMaximum);
  addPattern<MinimumOp>(c, p, scalarMinimum);
  addPattern<RemainderOp>(c, p, scalarRemainder);
  addPattern<FloorDivideOp>(c, p, scalarFloorDivide);
  // Comparisons (NaN: only != holds), logical ops, select
  addPattern<EqOp>(c, p, scalarCompare<EqOp, F::OEQ, I::eq, I::eq>);
  addPattern<NeOp>(c, p, scalarCompare<NeOp, F::UNE, I::ne, I::ne>);
  addPattern<LtOp>(c, p, scalarCompare<LtOp, F::OLT, I::slt, I::ult>);
  addPattern<LeOp>(c, p, scalarCompare<LeOp, F::OLE, I::sle, I::ule>);
  addPattern<GtOp>(c, p, scalarCompare<GtOp, F::OGT, I::sgt, I::ugt>);
  addPattern<GeOp>(c, p, scalarCompare<GeOp, F::OGE, I::sge, I::uge>);
  addPattern<LogicalAndOp>(c, p, scalarLogical<LogicalAndOp, arith::AndIOp>);
  addPattern<LogicalOrOp>(c, p, scalarLogical<LogicalOrOp, arith::OrIOp>);
  addPattern<LogicalXorOp>(c, p, scalarLogical<LogicalXorOp, arith::XOrIOp>);
  addPattern<SelectOp>(c, p, scalarSelect);
  patterns.add<CastLowering, BitcastLowering, DropoutLowering>(
      converter, patterns.getContext());
}
