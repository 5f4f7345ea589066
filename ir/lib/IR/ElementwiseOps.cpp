//===- ElementwiseOps.cpp - Elementwise tcc ops ---------------------------===//
//
// Verification and folding of unary, binary, comparison, logical, select,
// cast, clamp and dropout ops. Constant folding handles splats only: folding
// big non-splat constants would copy weights around at compile time.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "tcc/IR/TensorSizes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/APSInt.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

//===----------------------------------------------------------------------===//
// Scalar folding helpers
//===----------------------------------------------------------------------===//

/// Folds a float splat through `fn`, computed in double and rounded to the
/// element type.
template <typename Fn>
static OpFoldResult foldFloatSplat(Attribute operand, Type resultType, Fn fn) {
  auto value = dyn_cast_or_null<FloatAttr>(getSplatValue(operand));
  if (!value)
    return {};
  double result = fn(value.getValueAsDouble());
  return makeSplat(cast<ShapedType>(resultType),
                   FloatAttr::get(value.getType(), result));
}

/// Folds a float or integer splat: floats through `floatFn(double)`,
/// integers through `intFn(APInt, isUnsigned) -> std::optional<APInt>`.
template <typename FloatFn, typename IntFn>
static OpFoldResult foldNumericSplat(Attribute operand, Type resultType,
                                     FloatFn floatFn, IntFn intFn) {
  Attribute value = getSplatValue(operand);
  if (isa_and_nonnull<FloatAttr>(value))
    return foldFloatSplat(operand, resultType, floatFn);
  auto integer = dyn_cast_or_null<IntegerAttr>(value);
  if (!integer)
    return {};
  std::optional<APInt> result =
      intFn(integer.getValue(), integer.getType().isUnsignedInteger());
  if (!result)
    return {};
  return makeSplat(cast<ShapedType>(resultType),
                   IntegerAttr::get(integer.getType(), *result));
}

static double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

#define TCC_FLOAT_UNARY_FOLD(OP, EXPR)                                         \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldFloatSplat(adaptor.getInput(), getType(),                       \
                          [](double x) { return EXPR; });                      \
  }

TCC_FLOAT_UNARY_FOLD(ExpOp, std::exp(x))
TCC_FLOAT_UNARY_FOLD(LogOp, std::log(x))
TCC_FLOAT_UNARY_FOLD(Log1pOp, std::log1p(x))
TCC_FLOAT_UNARY_FOLD(SqrtOp, std::sqrt(x))
TCC_FLOAT_UNARY_FOLD(RsqrtOp, 1.0 / std::sqrt(x))
TCC_FLOAT_UNARY_FOLD(TanhOp, std::tanh(x))
TCC_FLOAT_UNARY_FOLD(SigmoidOp, sigmoid(x))
TCC_FLOAT_UNARY_FOLD(SiluOp, x *sigmoid(x))
TCC_FLOAT_UNARY_FOLD(ErfOp, std::erf(x))
TCC_FLOAT_UNARY_FOLD(SinOp, std::sin(x))
TCC_FLOAT_UNARY_FOLD(CosOp, std::cos(x))
TCC_FLOAT_UNARY_FOLD(FloorOp, std::floor(x))
TCC_FLOAT_UNARY_FOLD(CeilOp, std::ceil(x))
// nearbyint rounds half to even in the default rounding mode, as torch.round.
TCC_FLOAT_UNARY_FOLD(RoundOp, std::nearbyint(x))
#undef TCC_FLOAT_UNARY_FOLD

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // neg(neg(x)) -> x
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldNumericSplat(
      adaptor.getInput(), getType(), [](double x) { return -x; },
      [](APInt x, bool) -> std::optional<APInt> { return -x; });
}

OpFoldResult AbsOp::fold(FoldAdaptor adaptor) {
  // abs(abs(x)) -> abs(x); abs(neg(x)) -> abs(x) (the sign bit is cleared
  // either way, NaN included)
  if (auto inner = getInput().getDefiningOp<AbsOp>())
    return inner.getResult();
  if (auto inner = getInput().getDefiningOp<NegOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return foldNumericSplat(
      adaptor.getInput(), getType(), [](double x) { return std::fabs(x); },
      [](APInt x, bool isUnsigned) -> std::optional<APInt> {
        return isUnsigned ? x : x.abs();
      });
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  // relu(relu(x)) -> relu(x)
  if (auto inner = getInput().getDefiningOp<ReluOp>())
    return inner.getResult();
  return foldNumericSplat(
      adaptor.getInput(), getType(),
      [](double x) { return std::isnan(x) || x > 0 ? x : 0.0; },
      [](APInt x, bool isUnsigned) -> std::optional<APInt> {
        return !isUnsigned && x.isNegative() ? APInt(x.getBitWidth(), 0) : x;
      });
}

OpFoldResult SignOp::fold(FoldAdaptor adaptor) {
  return foldNumericSplat(
      adaptor.getInput(), getType(),
      [](double x) { return std::isnan(x) ? x : (x > 0) - (x < 0) + 0.0; },
      [](APInt x, bool isUnsigned) -> std::optional<APInt> {
        int64_t sign = x.isZero()                        ? 0
                       : (!isUnsigned && x.isNegative()) ? -1
                                                         : 1;
        return APInt(x.getBitWidth(), sign, /*isSigned=*/true);
      });
}

OpFoldResult LogicalNotOp::fold(FoldAdaptor adaptor) {
  // not(not(x)) -> x
  if (auto inner = getInput().getDefiningOp<LogicalNotOp>())
    return inner.getInput();
  auto value = dyn_cast_or_null<IntegerAttr>(getSplatValue(adaptor.getInput()));
  if (!value)
    return {};
  return makeSplat(
      getType(), IntegerAttr::get(value.getType(), value.getValue().isZero()));
}

OpFoldResult GeluOp::fold(FoldAdaptor adaptor) {
  if (getApproximate() == GeluApproximation::tanh)
    return foldFloatSplat(adaptor.getInput(), getType(), [](double x) {
      const double k = std::sqrt(2.0 / M_PI);
      return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
    });
  return foldFloatSplat(adaptor.getInput(), getType(), [](double x) {
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  });
}

//===----------------------------------------------------------------------===//
// Clamp and dropout
//===----------------------------------------------------------------------===//

LogicalResult ClampOp::verify() {
  if (!getMin() && !getMax())
    return emitOpError("needs at least one of 'min' and 'max'");
  bool isInteger = isa<IntegerType>(getType().getElementType());
  for (auto [name, bound] : {std::pair{"min", getMin()}, {"max", getMax()}}) {
    if (!bound)
      continue;
    if (std::isnan(bound->convertToDouble()))
      return emitOpError("'") << name << "' is NaN";
    double value = bound->convertToDouble();
    if (isInteger && std::trunc(value) != value)
      return emitOpError("'")
             << name << "' must be a whole number for "
             << getType().getElementType() << " elements, got " << value;
  }
  return success();
}

OpFoldResult ClampOp::fold(FoldAdaptor adaptor) {
  std::optional<double> lo, hi;
  if (getMin())
    lo = getMin()->convertToDouble();
  if (getMax())
    hi = getMax()->convertToDouble();
  // PyTorch: min(max(x, lo), hi), so hi wins when lo > hi; NaN stays NaN.
  auto clamp = [&](double x) {
    if (std::isnan(x))
      return x;
    if (lo)
      x = std::max(x, *lo);
    if (hi)
      x = std::min(x, *hi);
    return x;
  };
  return foldNumericSplat(
      adaptor.getInput(), getType(), clamp,
      [&](APInt x, bool isUnsigned) -> std::optional<APInt> {
        // Exact in double only below 2^53; larger values are left alone.
        double v = isUnsigned ? static_cast<double>(x.getZExtValue())
                              : static_cast<double>(x.getSExtValue());
        if (std::fabs(v) >= 0x1p53)
          return std::nullopt;
        double r = clamp(v);
        if (!fitsIntegerType(r, IntegerType::get(getContext(), x.getBitWidth(),
                                                 isUnsigned
                                                     ? IntegerType::Unsigned
                                                     : IntegerType::Signed)))
          return std::nullopt;
        return APInt(x.getBitWidth(), static_cast<int64_t>(r),
                     /*isSigned=*/true);
      });
}

LogicalResult DropoutOp::verify() {
  double p = getP().convertToDouble();
  if (!(p >= 0.0 && p <= 1.0))
    return emitOpError("probability p must be in [0, 1], got ") << p;
  return success();
}

OpFoldResult DropoutOp::fold(FoldAdaptor) { return getInput(); }

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

/// Whether a splat of `resultType` folded from constant `operands` stays
/// within the size guard (broadcasting can make it much larger).
static bool withinSizeLimit(ArrayRef<Attribute> operands, Type resultType) {
  SmallVector<Type> types;
  for (Attribute operand : operands)
    types.push_back(cast<TypedAttr>(operand).getType());
  return isWithinFoldSizeLimit(resultType, types);
}

/// Folds two splats into a splat of `resultType`. `floatFn(APFloat, APFloat)`
/// and `intFn(APInt, APInt, isUnsigned)` return std::optional results (empty
/// when the value must not fold, e.g. integer division by zero); either may be
/// nullptr-like lambdas returning std::nullopt for unsupported kinds.
template <typename FloatFn, typename IntFn>
static OpFoldResult foldSplats(ArrayRef<Attribute> operands, Type resultType,
                               FloatFn floatFn, IntFn intFn) {
  Attribute lhs = getSplatValue(operands[0]), rhs = getSplatValue(operands[1]);
  if (!lhs || !rhs || !withinSizeLimit(operands, resultType))
    return {};
  auto type = cast<ShapedType>(resultType);
  auto lf = dyn_cast_or_null<FloatAttr>(lhs),
       rf = dyn_cast_or_null<FloatAttr>(rhs);
  if (lf && rf && lf.getType() == rf.getType()) {
    std::optional<APFloat> r = floatFn(lf.getValue(), rf.getValue());
    return r ? makeSplat(type, FloatAttr::get(lf.getType(), *r)) : Attribute();
  }
  auto li = dyn_cast_or_null<IntegerAttr>(lhs),
       ri = dyn_cast_or_null<IntegerAttr>(rhs);
  if (li && ri && li.getType() == ri.getType()) {
    std::optional<APInt> r =
        intFn(li.getValue(), ri.getValue(), li.getType().isUnsignedInteger());
    return r ? makeSplat(type, IntegerAttr::get(li.getType(), *r))
             : Attribute();
  }
  return {};
}

/// x op identity -> x, when x already has the result type (no broadcast;
/// the canonicalization patterns turn the broadcasting case into
/// broadcast_to).
static OpFoldResult foldRightIdentity(Value lhs, Attribute rhs, Type resultType,
                                      Identity identity) {
  if (lhs.getType() == resultType && isSplatIdentity(rhs, identity))
    return lhs;
  return {};
}

static auto noInt = [](APInt, APInt, bool) -> std::optional<APInt> {
  return std::nullopt;
};

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::AddZero))
    return r;
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a + b; },
      [](APInt a, APInt b, bool) -> std::optional<APInt> { return a + b; });
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::SubZero))
    return r;
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a - b; },
      [](APInt a, APInt b, bool) -> std::optional<APInt> { return a - b; });
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  // x * 0 == 0 for integers only: for floats NaN, inf and the sign of zero
  // make it no identity.
  if (isa<IntegerType>(getType().getElementType()) &&
      isSplatIdentity(adaptor.getRhs(), Identity::SubZero) &&
      isWithinFoldSizeLimit(getType(), {getRhs().getType()}))
    return makeSplat(getType(), getSplatValue(adaptor.getRhs()));
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::One))
    return r;
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a * b; },
      [](APInt a, APInt b, bool) -> std::optional<APInt> { return a * b; });
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::One))
    return r;
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> { return a / b; },
      noInt);
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  // pow(x, 1) == x exactly for floats and integers.
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::One))
    return r;
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> {
        APFloat r(std::pow(a.convertToDouble(), b.convertToDouble()));
        bool lost;
        r.convert(a.getSemantics(), APFloat::rmNearestTiesToEven, &lost);
        return r;
      },
      noInt);
}

OpFoldResult MaximumOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> {
        return llvm::maximum(a, b);
      },
      [](APInt a, APInt b, bool isUnsigned) -> std::optional<APInt> {
        return (isUnsigned ? a.ugt(b) : a.sgt(b)) ? a : b;
      });
}

OpFoldResult MinimumOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(),
      [](APFloat a, APFloat b) -> std::optional<APFloat> {
        return llvm::minimum(a, b);
      },
      [](APInt a, APInt b, bool isUnsigned) -> std::optional<APInt> {
        return (isUnsigned ? a.ult(b) : a.slt(b)) ? a : b;
      });
}

/// Integer floor division and Python-style remainder; empty for a zero
/// divisor or the one overflowing case (INT_MIN / -1).
static std::optional<std::pair<APInt, APInt>>
floorDivMod(const APInt &a, const APInt &b, bool isUnsigned) {
  if (b.isZero())
    return std::nullopt;
  if (isUnsigned)
    return std::pair{a.udiv(b), a.urem(b)};
  if (a.isMinSignedValue() && b.isAllOnes())
    return std::nullopt;
  APInt q = a.sdiv(b), r = a.srem(b);
  if (!r.isZero() && (r.isNegative() != b.isNegative())) {
    q -= 1;
    r += b;
  }
  return std::pair{q, r};
}

static auto noFloat = [](APFloat, APFloat) -> std::optional<APFloat> {
  return std::nullopt;
};

OpFoldResult RemainderOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(), noFloat,
      [](APInt a, APInt b, bool isUnsigned) -> std::optional<APInt> {
        if (auto qr = floorDivMod(a, b, isUnsigned))
          return qr->second;
        return std::nullopt;
      });
}

OpFoldResult FloorDivideOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(), noFloat,
      [](APInt a, APInt b, bool isUnsigned) -> std::optional<APInt> {
        if (auto qr = floorDivMod(a, b, isUnsigned))
          return qr->first;
        return std::nullopt;
      });
}

//===----------------------------------------------------------------------===//
// Comparisons and logical ops
//===----------------------------------------------------------------------===//

/// Folds a comparison of two splats into an i1 splat. `pick` maps the
/// three-way ordering (-1, 0, 1; 2 for unordered floats) to the result.
template <typename Pick>
static OpFoldResult foldCompare(ArrayRef<Attribute> operands, Type resultType,
                                Pick pick) {
  Attribute lhs = getSplatValue(operands[0]), rhs = getSplatValue(operands[1]);
  if (!lhs || !rhs || !withinSizeLimit(operands, resultType))
    return {};
  int order = 2;
  auto lf = dyn_cast_or_null<FloatAttr>(lhs),
       rf = dyn_cast_or_null<FloatAttr>(rhs);
  auto li = dyn_cast_or_null<IntegerAttr>(lhs),
       ri = dyn_cast_or_null<IntegerAttr>(rhs);
  if (lf && rf) {
    switch (lf.getValue().compare(rf.getValue())) {
    case APFloat::cmpLessThan:
      order = -1;
      break;
    case APFloat::cmpEqual:
      order = 0;
      break;
    case APFloat::cmpGreaterThan:
      order = 1;
      break;
    case APFloat::cmpUnordered:
      order = 2;
      break;
    }
  } else if (li && ri && li.getType() == ri.getType()) {
    // i1 and ui8 compare as unsigned (true > false, as in PyTorch).
    bool isSigned =
        !li.getType().isUnsignedInteger() && !li.getType().isInteger(1);
    const APInt &a = li.getValue(), &b = ri.getValue();
    order = a == b ? 0 : (isSigned ? a.slt(b) : a.ult(b)) ? -1 : 1;
  } else {
    return {};
  }
  auto type = cast<ShapedType>(resultType);
  return makeSplat(
      type, IntegerAttr::get(type.getElementType(), pick(order) ? 1 : 0));
}

OpFoldResult EqOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getOperands(), getType(),
                     [](int o) { return o == 0; });
}
OpFoldResult NeOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getOperands(), getType(),
                     [](int o) { return o != 0; });
}
OpFoldResult LtOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getOperands(), getType(),
                     [](int o) { return o == -1; });
}
OpFoldResult LeOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getOperands(), getType(),
                     [](int o) { return o == -1 || o == 0; });
}
OpFoldResult GtOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getOperands(), getType(),
                     [](int o) { return o == 1; });
}
OpFoldResult GeOp::fold(FoldAdaptor adaptor) {
  return foldCompare(adaptor.getOperands(), getType(),
                     [](int o) { return o == 1 || o == 0; });
}

OpFoldResult LogicalAndOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(), noFloat,
      [](APInt a, APInt b, bool) -> std::optional<APInt> { return a & b; });
}
OpFoldResult LogicalOrOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(), noFloat,
      [](APInt a, APInt b, bool) -> std::optional<APInt> { return a | b; });
}
OpFoldResult LogicalXorOp::fold(FoldAdaptor adaptor) {
  return foldSplats(
      adaptor.getOperands(), getType(), noFloat,
      [](APInt a, APInt b, bool) -> std::optional<APInt> { return a ^ b; });
}

//===----------------------------------------------------------------------===//
// Select and cast
//===----------------------------------------------------------------------===//

OpFoldResult SelectOp::fold(FoldAdaptor adaptor) {
  auto cond =
      dyn_cast_or_null<IntegerAttr>(getSplatValue(adaptor.getCondition()));
  if (!cond)
    return {};
  Value chosen = cond.getValue().isZero() ? getFalseValue() : getTrueValue();
  if (chosen.getType() == getType())
    return chosen;
  return {};
}

/// Converts one scalar as Tensor.to(dtype) does; empty when the value has no
/// exact meaning in the target (a float out of an integer type's range).
static Attribute castScalar(Attribute value, Type to) {
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    if (toInt.getWidth() == 1) {
      if (auto f = dyn_cast<FloatAttr>(value))
        return IntegerAttr::get(to, !f.getValue().isZero());
      return IntegerAttr::get(to,
                              !cast<IntegerAttr>(value).getValue().isZero());
    }
    if (auto f = dyn_cast<FloatAttr>(value)) {
      llvm::APSInt result(toInt.getWidth(), toInt.isUnsigned());
      bool isExact;
      if (f.getValue().convertToInteger(result, APFloat::rmTowardZero,
                                        &isExact) == APFloat::opInvalidOp)
        return {};
      return IntegerAttr::get(to, result);
    }
    auto i = cast<IntegerAttr>(value);
    bool fromSigned =
        !i.getType().isUnsignedInteger() && !i.getType().isInteger(1);
    APInt v = i.getValue();
    return IntegerAttr::get(to, fromSigned ? v.sextOrTrunc(toInt.getWidth())
                                           : v.zextOrTrunc(toInt.getWidth()));
  }
  auto toFloat = cast<FloatType>(to);
  bool lost;
  if (auto f = dyn_cast<FloatAttr>(value)) {
    APFloat v = f.getValue();
    v.convert(toFloat.getFloatSemantics(), APFloat::rmNearestTiesToEven, &lost);
    return FloatAttr::get(to, v);
  }
  auto i = cast<IntegerAttr>(value);
  bool fromSigned =
      !i.getType().isUnsignedInteger() && !i.getType().isInteger(1);
  APFloat v(toFloat.getFloatSemantics());
  v.convertFromAPInt(i.getValue(), fromSigned, APFloat::rmNearestTiesToEven);
  return FloatAttr::get(to, v);
}

/// Whether every value of element type `from` is exactly a value of `to`.
static bool representsExactly(Type from, Type to) {
  if (from == to || from.isInteger(1))
    return true; // 0 and 1 are exact everywhere
  auto fromInt = dyn_cast<IntegerType>(from);
  if (auto toInt = dyn_cast<IntegerType>(to)) {
    if (!fromInt || toInt.getWidth() == 1)
      return false;
    if (fromInt.isUnsigned())
      return toInt.isUnsigned() ? toInt.getWidth() >= fromInt.getWidth()
                                : toInt.getWidth() > fromInt.getWidth();
    return !toInt.isUnsigned() && toInt.getWidth() >= fromInt.getWidth();
  }
  auto toFloat = cast<FloatType>(to);
  if (fromInt) // an integer of n magnitude bits needs n significand bits
    return fromInt.getWidth() - (fromInt.isUnsigned() ? 0 : 1) <=
           toFloat.getFPMantissaWidth();
  auto fromFloat = cast<FloatType>(from);
  // f16 and bf16 do not contain each other; wider IEEE types contain both.
  return (fromFloat.isF16() || fromFloat.isBF16() || fromFloat.isF32()) &&
         toFloat.getWidth() > fromFloat.getWidth();
}

OpFoldResult CastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // cast(cast(x, B), C) -> cast(x, C) when B holds every value of x's type
  // exactly, so the second cast sees x's own value. Through a float, an
  // integer C must hold every value too: float-to-int of an out-of-range
  // value is not the wrap-around of an integer cast.
  if (auto inner = getInput().getDefiningOp<CastOp>()) {
    Type from = inner.getInput().getType().getElementType();
    Type mid = inner.getType().getElementType();
    Type to = getType().getElementType();
    bool viaFloatToInt = isa<IntegerType>(from) && isa<FloatType>(mid) &&
                         isa<IntegerType>(to) && !representsExactly(from, to);
    if (representsExactly(from, mid) && !viaFloatToInt) {
      getInputMutable().assign(inner.getInput());
      return getResult();
    }
  }
  Attribute value = getSplatValue(adaptor.getInput());
  if (!value)
    return {};
  return makeSplat(getType(), castScalar(value, getType().getElementType()));
}
