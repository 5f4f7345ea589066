//===- OpHelpers.cpp - Shared inference, verification, folding ------------===//

#include "OpHelpers.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

FailureOr<RankedTensorType>
tcc::detail::getStaticTensor(const OpDiag &diag, Value value, StringRef what) {
  if (!value)
    return diag(what, " is missing");
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return diag(what, " must be a statically shaped tensor, got ",
                value.getType());
  return type;
}

FailureOr<int64_t> tcc::detail::normalizeDim(const OpDiag &diag, int64_t dim,
                                             int64_t rank, StringRef what) {
  if (dim < -rank || dim >= rank)
    return diag(what, " ", dim, " is out of range [", -rank, ", ", rank,
                ") for rank ", rank);
  return dim < 0 ? dim + rank : dim;
}

FailureOr<SmallVector<int64_t>>
tcc::detail::normalizeDims(const OpDiag &diag, ArrayRef<int64_t> dims,
                           int64_t rank) {
  SmallVector<int64_t> result;
  SmallVector<bool> seen(rank, false);
  for (int64_t dim : dims) {
    FailureOr<int64_t> normalized = normalizeDim(diag, dim, rank);
    if (failed(normalized))
      return failure();
    if (seen[*normalized])
      return diag("dim ", *normalized, " is listed more than once");
    seen[*normalized] = true;
    result.push_back(*normalized);
  }
  return result;
}

LogicalResult
tcc::detail::requireSameElementType(const OpDiag &diag,
                                    ArrayRef<RankedTensorType> types) {
  for (RankedTensorType type : types.drop_front())
    if (type.getElementType() != types.front().getElementType())
      return diag("operands have different element types: ",
                  types.front().getElementType(), " and ",
                  type.getElementType());
  return success();
}

//===----------------------------------------------------------------------===//
// Broadcasting
//===----------------------------------------------------------------------===//

/// Broadcasts `types` NumPy-style into `shape`.
static LogicalResult broadcastShapes(const OpDiag &diag,
                                     ArrayRef<RankedTensorType> types,
                                     SmallVectorImpl<int64_t> &shape) {
  shape.assign(types.front().getShape().begin(),
               types.front().getShape().end());
  for (RankedTensorType type : types.drop_front()) {
    SmallVector<int64_t> next;
    if (!OpTrait::util::getBroadcastedShape(shape, type.getShape(), next)) {
      if (types.size() == 2)
        return diag("shapes ", types[0], " and ", types[1],
                    " do not broadcast");
      return diag("shape ", type, " does not broadcast with the others");
    }
    shape.assign(next.begin(), next.end());
  }
  return success();
}

LogicalResult tcc::detail::inferBroadcast(const OpDiag &diag,
                                          ArrayRef<Value> operands,
                                          Type resultElement,
                                          SmallVectorImpl<Type> &results) {
  SmallVector<RankedTensorType> types;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    auto type = getStaticTensor(diag, operand, i == 0 ? "lhs" : "rhs");
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  SmallVector<int64_t> shape;
  if (failed(requireSameElementType(diag, types)) ||
      failed(broadcastShapes(diag, types, shape)))
    return failure();
  results.push_back(RankedTensorType::get(
      shape, resultElement ? resultElement : types[0].getElementType()));
  return success();
}

LogicalResult tcc::detail::inferSelect(const OpDiag &diag, Value condition,
                                       Value onTrue, Value onFalse,
                                       SmallVectorImpl<Type> &results) {
  auto cond = getStaticTensor(diag, condition, "condition");
  auto a = getStaticTensor(diag, onTrue, "true_value");
  auto b = getStaticTensor(diag, onFalse, "false_value");
  if (failed(cond) || failed(a) || failed(b))
    return failure();
  if (!cond->getElementType().isInteger(1))
    return diag("condition must have element type i1, got ",
                cond->getElementType());
  SmallVector<int64_t> shape;
  if (failed(requireSameElementType(diag, {*a, *b})) ||
      failed(broadcastShapes(diag, {*cond, *a, *b}, shape)))
    return failure();
  results.push_back(RankedTensorType::get(shape, a->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Folding
//===----------------------------------------------------------------------===//

Attribute tcc::detail::getSplatValue(Attribute operand) {
  auto splat = dyn_cast_or_null<SplatElementsAttr>(operand);
  if (!splat)
    return {};
  return splat.getSplatValue<Attribute>();
}

bool tcc::detail::isSplatOf(Attribute attr, int64_t value) {
  Attribute scalar = getSplatValue(attr);
  if (auto f = dyn_cast_or_null<FloatAttr>(scalar))
    return f.getValue().isExactlyValue(static_cast<double>(value));
  if (auto i = dyn_cast_or_null<IntegerAttr>(scalar)) {
    if (i.getType().isInteger(1))
      return false; // i1 has no arithmetic identities in tcc
    return i.getValue().getSExtValue() == value;
  }
  return false;
}

bool tcc::detail::isSplatIdentity(Attribute attr, Identity identity) {
  Attribute scalar = getSplatValue(attr);
  if (auto f = dyn_cast_or_null<FloatAttr>(scalar)) {
    const APFloat &v = f.getValue();
    switch (identity) {
    case Identity::AddZero:
      return v.isZero() && v.isNegative();
    case Identity::SubZero:
      return v.isZero() && !v.isNegative();
    case Identity::One:
      return v.isExactlyValue(1.0);
    }
  }
  auto i = dyn_cast_or_null<IntegerAttr>(scalar);
  if (!i || i.getType().isInteger(1))
    return false; // i1 has no arithmetic identities in tcc
  return identity == Identity::One ? i.getValue().isOne()
                                   : i.getValue().isZero();
}

Attribute tcc::detail::makeSplat(ShapedType type, Attribute value) {
  auto typed = dyn_cast_or_null<TypedAttr>(value);
  if (!typed || typed.getType() != type.getElementType())
    return {};
  return SplatElementsAttr::get(type, value);
}

bool tcc::detail::fitsIntegerType(double value, Type elementType) {
  auto type = dyn_cast<IntegerType>(elementType);
  if (!type || !std::isfinite(value) || std::trunc(value) != value)
    return false;
  unsigned width = type.getWidth();
  if (width == 1)
    return value == 0.0 || value == 1.0;
  double limit = std::ldexp(1.0, width - (type.isUnsigned() ? 0 : 1));
  double lowest = type.isUnsigned() ? 0.0 : -limit;
  return value >= lowest && value < limit;
}
