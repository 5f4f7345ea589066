//===- ElementwiseOps.cpp - Elementwise tcc ops ---------------------------===//
//
// Verification and folding of unary, binary, comparison, logical, select,
// cast, clamp and dropout ops. Constant folding handles splats only: folding
// big non-splat constants would copy weights around at compile time. What an
// op computes on one element comes from ScalarSemantics.h, as in
// tcc-fold-constants.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "tcc/IR/ScalarSemantics.h"
#include "tcc/IR/TensorSizes.h"
#include "tcc/runtime/ScalarOps.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

//===----------------------------------------------------------------------===//
// Folding splats through the scalar semantics table
//===----------------------------------------------------------------------===//

/// Whether a splat of `resultType` folded from constant `operands` stays
/// within the size guard (broadcasting can make it much larger).
static bool withinSizeLimit(ArrayRef<Attribute> operands, Type resultType) {
  SmallVector<Type> types;
  for (Attribute operand : operands)
    types.push_back(cast<TypedAttr>(operand).getType());
  return isWithinFoldSizeLimit(resultType, types);
}

/// The integer `value` widened to 64 bits as the scalar functions take it.
static int64_t widen(const APInt &value, IntElement element) {
  return element.isUnsigned ? int64_t(value.getZExtValue())
                            : value.getSExtValue();
}

/// Folds an op whose operands are all splats into a splat of its result,
/// computing the one element with the op's functions in ScalarSemantics.h.
/// Floats compute in double and round once to the result's element type;
/// comparisons give 0 or 1.
static OpFoldResult foldSplats(Operation *op, ArrayRef<Attribute> operands) {
  std::optional<ScalarFunctions> fns = scalarFunctions(op);
  if (!fns || operands.empty() || operands.size() > 2)
    return {};
  SmallVector<Attribute, 2> values;
  for (Attribute operand : operands) {
    Attribute value = getSplatValue(operand);
    if (!value)
      return {};
    values.push_back(value);
  }
  bool unary = values.size() == 1;
  if (!unary && cast<TypedAttr>(values[0]).getType() !=
                    cast<TypedAttr>(values[1]).getType())
    return {};
  auto type = cast<ShapedType>(op->getResult(0).getType());
  if (!unary && !withinSizeLimit(operands, type))
    return {};
  Type element = type.getElementType();
  if (isa<FloatAttr>(values[0])) {
    auto at = [&](int i) { return cast<FloatAttr>(values[i]).getValueAsDouble(); };
    if (unary ? !fns->floatUnary : !fns->floatBinary)
      return {};
    double r = unary ? fns->floatUnary(at(0)) : fns->floatBinary(at(0), at(1));
    if (isa<FloatType>(element))
      return makeSplat(type, FloatAttr::get(element, r));
    return makeSplat(type, IntegerAttr::get(element, r != 0.0));
  }
  auto integer = dyn_cast<IntegerAttr>(values[0]);
  std::optional<IntElement> kind =
      integer ? intElementOf(integer.getType()) : std::nullopt;
  auto resultInt = dyn_cast<IntegerType>(element);
  if (!kind || !resultInt || (unary ? !fns->intUnary : !fns->intBinary))
    return {};
  auto at = [&](int i) {
    return widen(cast<IntegerAttr>(values[i]).getValue(), *kind);
  };
  std::optional<int64_t> r = unary ? fns->intUnary(at(0), *kind)
                                   : fns->intBinary(at(0), at(1), *kind);
  if (!r)
    return {};
  APInt bits = APInt(64, uint64_t(*r)).zextOrTrunc(resultInt.getWidth());
  return makeSplat(type, IntegerAttr::get(element, bits));
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

#define TCC_SPLAT_FOLD(OP)                                                     \
  OpFoldResult OP::fold(FoldAdaptor adaptor) {                                 \
    return foldSplats(*this, adaptor.getOperands());                           \
  }

TCC_SPLAT_FOLD(ExpOp)
TCC_SPLAT_FOLD(LogOp)
TCC_SPLAT_FOLD(Log1pOp)
TCC_SPLAT_FOLD(SqrtOp)
TCC_SPLAT_FOLD(RsqrtOp)
TCC_SPLAT_FOLD(TanhOp)
TCC_SPLAT_FOLD(SigmoidOp)
TCC_SPLAT_FOLD(SiluOp)
TCC_SPLAT_FOLD(ErfOp)
TCC_SPLAT_FOLD(SinOp)
TCC_SPLAT_FOLD(CosOp)
TCC_SPLAT_FOLD(FloorOp)
TCC_SPLAT_FOLD(CeilOp)
TCC_SPLAT_FOLD(RoundOp)
TCC_SPLAT_FOLD(SignOp)
TCC_SPLAT_FOLD(GeluOp)
TCC_SPLAT_FOLD(ClampOp)

OpFoldResult NegOp::fold(FoldAdaptor adaptor) {
  // neg(neg(x)) -> x
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return foldSplats(*this, adaptor.getOperands());
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
  return foldSplats(*this, adaptor.getOperands());
}

OpFoldResult ReluOp::fold(FoldAdaptor adaptor) {
  // relu(relu(x)) -> relu(x)
  if (auto inner = getInput().getDefiningOp<ReluOp>())
    return inner.getResult();
  return foldSplats(*this, adaptor.getOperands());
}

OpFoldResult LogicalNotOp::fold(FoldAdaptor adaptor) {
  // not(not(x)) -> x
  if (auto inner = getInput().getDefiningOp<LogicalNotOp>())
    return inner.getInput();
  return foldSplats(*this, adaptor.getOperands());
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

/// x op identity -> x, when x already has the result type (no broadcast;
/// the canonicalization patterns turn the broadcasting case into
/// broadcast_to).
static OpFoldResult foldRightIdentity(Value lhs, Attribute rhs, Type resultType,
                                      Identity identity) {
  if (lhs.getType() == resultType && isSplatIdentity(rhs, identity))
    return lhs;
  return {};
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::AddZero))
    return r;
  return foldSplats(*this, adaptor.getOperands());
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::SubZero))
    return r;
  return foldSplats(*this, adaptor.getOperands());
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
  return foldSplats(*this, adaptor.getOperands());
}

OpFoldResult DivOp::fold(FoldAdaptor adaptor) {
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::One))
    return r;
  return foldSplats(*this, adaptor.getOperands());
}

OpFoldResult PowOp::fold(FoldAdaptor adaptor) {
  // pow(x, 1) == x exactly for floats and integers.
  if (OpFoldResult r = foldRightIdentity(getLhs(), adaptor.getRhs(), getType(),
                                         Identity::One))
    return r;
  return foldSplats(*this, adaptor.getOperands());
}

TCC_SPLAT_FOLD(MaximumOp)
TCC_SPLAT_FOLD(MinimumOp)
TCC_SPLAT_FOLD(RemainderOp)
TCC_SPLAT_FOLD(FloorDivideOp)

//===----------------------------------------------------------------------===//
// Comparisons and logical ops
//===----------------------------------------------------------------------===//

TCC_SPLAT_FOLD(EqOp)
TCC_SPLAT_FOLD(NeOp)
TCC_SPLAT_FOLD(LtOp)
TCC_SPLAT_FOLD(LeOp)
TCC_SPLAT_FOLD(GtOp)
TCC_SPLAT_FOLD(GeOp)
TCC_SPLAT_FOLD(LogicalAndOp)
TCC_SPLAT_FOLD(LogicalOrOp)
TCC_SPLAT_FOLD(LogicalXorOp)
#undef TCC_SPLAT_FOLD

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
        return IntegerAttr::get(to,
                                ::tcc::scalar::toBool(f.getValueAsDouble()));
      return IntegerAttr::get(to,
                              !cast<IntegerAttr>(value).getValue().isZero());
    }
    if (auto f = dyn_cast<FloatAttr>(value)) {
      std::optional<int64_t> result = ::tcc::scalar::floatToInteger(
          f.getValueAsDouble(), toInt.getWidth(), toInt.isUnsigned());
      if (!result)
        return {};
      return IntegerAttr::get(
          to, APInt(64, uint64_t(*result)).zextOrTrunc(toInt.getWidth()));
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

//===----------------------------------------------------------------------===//
// Bitcast
//===----------------------------------------------------------------------===//

LogicalResult BitcastOp::verify() {
  Type from = getInput().getType().getElementType();
  Type to = getType().getElementType();
  if (from.getIntOrFloatBitWidth() != to.getIntOrFloatBitWidth())
    return emitOpError("reinterprets ")
           << from << " as " << to << ", which has a different bit width";
  return success();
}

OpFoldResult BitcastOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // bitcast(bitcast(x, B), C) -> bitcast(x, C): the bits never change.
  if (auto inner = getInput().getDefiningOp<BitcastOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  // Splats only: a bitcast never grows a constant, but a non-splat copy
  // would duplicate its data (the constant evaluator handles those).
  auto dense = dyn_cast_or_null<DenseIntOrFPElementsAttr>(adaptor.getInput());
  if (!dense || !dense.isSplat())
    return {};
  return dense.bitcast(getType().getElementType());
}
