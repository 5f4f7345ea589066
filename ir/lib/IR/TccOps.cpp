//===- TccOps.cpp - Ops of the tcc dialect --------------------------------===//

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::tcc;

//===----------------------------------------------------------------------===//
// Helpers shared by inference and verification
//===----------------------------------------------------------------------===//

/// The operand as a statically shaped ranked tensor, or a diagnostic. Result
/// type inference runs before ODS's operand checks, so it cannot assume them.
static FailureOr<RankedTensorType>
getStaticTensor(std::optional<Location> loc, Value value, StringRef what) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return emitOptionalError(loc, what, " must be a statically shaped tensor, got ",
                             value.getType());
  return type;
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::inferReturnTypes(
    MLIRContext *, std::optional<Location> loc, ValueRange, DictionaryAttr attrs,
    OpaqueProperties properties, RegionRange,
    SmallVectorImpl<Type> &inferredReturnTypes) {
  auto *props = properties.as<Properties *>();
  auto value = props ? dyn_cast_or_null<ElementsAttr>(props->value) : nullptr;
  if (!value)
    return emitOptionalError(loc, "requires an elements attribute 'value'");
  inferredReturnTypes.push_back(value.getType());
  return success();
}

LogicalResult ConstantOp::verify() {
  auto type = cast<ShapedType>(getValue().getType());
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(getValue())) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return emitOpError("dense_resource '")
             << resource.getRawHandle().getKey() << "' has no blob in the file";
    int64_t bits = type.getElementTypeBitWidth();
    int64_t expected = type.getNumElements() * std::max<int64_t>(bits / 8, 1);
    if (static_cast<int64_t>(blob->getData().size()) != expected)
      return emitOpError("dense_resource '")
             << resource.getRawHandle().getKey() << "' holds "
             << blob->getData().size() << " bytes but " << type << " needs "
             << expected;
  }
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// Binary elementwise
//===----------------------------------------------------------------------===//

/// The broadcast result type of two operands with one element type.
static LogicalResult inferBroadcastType(std::optional<Location> loc, Value lhs,
                                        Value rhs, Type resultElementType,
                                        SmallVectorImpl<Type> &results) {
  auto lhsType = getStaticTensor(loc, lhs, "lhs");
  auto rhsType = getStaticTensor(loc, rhs, "rhs");
  if (failed(lhsType) || failed(rhsType))
    return failure();
  if (lhsType->getElementType() != rhsType->getElementType())
    return emitOptionalError(loc, "operands have different element types: ",
                             lhsType->getElementType(), " and ",
                             rhsType->getElementType());
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(lhsType->getShape(),
                                          rhsType->getShape(), shape))
    return emitOptionalError(loc, "shapes ", *lhsType, " and ", *rhsType,
                             " do not broadcast");
  results.push_back(RankedTensorType::get(
      shape, resultElementType ? resultElementType : lhsType->getElementType()));
  return success();
}

LogicalResult AddOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &results) {
  return inferBroadcastType(loc, adaptor.getLhs(), adaptor.getRhs(), Type(),
                            results);
}

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + 0 -> x when the result needs no broadcast of x.
  if (getLhs().getType() == getType() &&
      matchPattern(adaptor.getRhs(), m_AnyZeroFloat()))
    return getLhs();
  if (getLhs().getType() == getType() &&
      matchPattern(adaptor.getRhs(), m_Zero()))
    return getLhs();
  return {};
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &results) {
  auto lhs = getStaticTensor(loc, adaptor.getLhs(), "lhs");
  auto rhs = getStaticTensor(loc, adaptor.getRhs(), "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getRank() < 2 || rhs->getRank() < 2)
    return emitOptionalError(loc, "operands must have rank 2 or more, got ",
                             *lhs, " and ", *rhs);
  if (lhs->getElementType() != rhs->getElementType())
    return emitOptionalError(loc, "operands have different element types: ",
                             lhs->getElementType(), " and ",
                             rhs->getElementType());
  ArrayRef<int64_t> a = lhs->getShape(), b = rhs->getShape();
  if (a.back() != b[b.size() - 2])
    return emitOptionalError(loc, "contraction dimensions differ: ", *lhs,
                             " and ", *rhs);
  SmallVector<int64_t> batch;
  if (!OpTrait::util::getBroadcastedShape(a.drop_back(2), b.drop_back(2), batch))
    return emitOptionalError(loc, "batch dimensions of ", *lhs, " and ", *rhs,
                             " do not broadcast");
  batch.push_back(a[a.size() - 2]);
  batch.push_back(b.back());
  results.push_back(RankedTensorType::get(batch, lhs->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("changes the element type from ")
           << in.getElementType() << " to " << out.getElementType();
  if (in.getNumElements() != out.getNumElements())
    return emitOpError("cannot reshape ")
           << in << " (" << in.getNumElements() << " elements) to " << out
           << " (" << out.getNumElements() << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) -> reshape(x)
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  return {};
}

#define GET_OP_CLASSES
#include "tcc/IR/TccOps.cpp.inc"
