//===- TccOps.cpp - Op classes of the tcc dialect and the constant op -----===//
//
// This file holds the generated op classes and what every op shares; the
// ops' own inference, verification and folding live in ElementwiseOps.cpp,
// NNOps.cpp and ShapeOps.cpp.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "tcc/IR/TensorSizes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::tcc;

LogicalResult tcc::detail::verifyBoundedTensorSizes(Operation *op) {
  auto check = [&](Type type, StringRef kind, unsigned index) -> LogicalResult {
    if (hasBoundedSize(type))
      return success();
    return op->emitOpError() << kind << " #" << index << " has type " << type
                             << " whose size in bytes overflows int64_t";
  };
  for (auto [i, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", i)))
      return failure();
  for (auto [i, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", i)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

LogicalResult
ConstantOp::inferReturnTypes(MLIRContext *, std::optional<Location> loc,
                             ValueRange, DictionaryAttr attrs,
                             OpaqueProperties properties, RegionRange,
                             SmallVectorImpl<Type> &inferredReturnTypes) {
  auto *props = properties.as<Properties *>();
  auto value = props ? dyn_cast_or_null<ElementsAttr>(props->value) : nullptr;
  if (!value)
    return emitOptionalError(loc, "'tcc.constant' op requires an elements "
                                  "attribute 'value'");
  inferredReturnTypes.push_back(value.getType());
  return success();
}

/// A dense_resource blob must exist, hold exactly the bytes of its type and
/// be aligned to its element size, or reading it as typed data is undefined.
static LogicalResult verifyBlob(ConstantOp op,
                                DenseResourceElementsAttr resource) {
  auto type = resource.getType();
  StringRef key = resource.getRawHandle().getKey();
  AsmResourceBlob *blob = resource.getRawHandle().getBlob();
  if (!blob)
    return op.emitOpError("dense_resource '")
           << key << "' has no blob in the file";
  std::optional<int64_t> expected =
      getCheckedByteSize(type.getShape(), type.getElementType());
  if (!expected)
    return op.emitOpError("dense_resource '")
           << key << "' has type " << type << " whose size overflows int64_t";
  ArrayRef<char> data = blob->getData();
  if (static_cast<uint64_t>(data.size()) != static_cast<uint64_t>(*expected))
    return op.emitOpError("dense_resource '")
           << key << "' holds " << data.size() << " bytes but " << type
           << " needs " << *expected;
  int64_t elementBytes = *getElementByteSize(type.getElementType());
  uint64_t address = reinterpret_cast<uintptr_t>(data.data());
  if (static_cast<int64_t>(blob->getDataAlignment()) < elementBytes ||
      address % elementBytes != 0)
    return op.emitOpError("dense_resource '")
           << key << "' is aligned to " << blob->getDataAlignment()
           << " bytes but its " << type.getElementType() << " elements need "
           << elementBytes;
  return success();
}

LogicalResult ConstantOp::verify() {
  ElementsAttr value = getValue();
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value))
    return verifyBlob(*this, resource);
  if (!isa<DenseIntOrFPElementsAttr>(value))
    return emitOpError("value must be a dense or dense_resource literal, got ")
           << value;
  return success();
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

#define GET_OP_CLASSES
#include "tcc/IR/TccOps.cpp.inc"
