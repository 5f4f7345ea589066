//===- TensorSizes.cpp - Overflow-checked tensor sizes --------------------===//

#include "tcc/IR/TensorSizes.h"

#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

std::optional<int64_t> tcc::getCheckedNumElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t dim : shape) {
    if (dim < 0)
      return std::nullopt;
    std::optional<int64_t> next = llvm::checkedMul(count, dim);
    if (!next)
      return std::nullopt;
    count = *next;
  }
  return count;
}

std::optional<int64_t> tcc::getElementByteSize(Type elementType) {
  if (!elementType || !elementType.isIntOrFloat())
    return std::nullopt;
  return (static_cast<int64_t>(elementType.getIntOrFloatBitWidth()) + 7) / 8;
}

std::optional<int64_t> tcc::getCheckedByteSize(ArrayRef<int64_t> shape,
                                               Type elementType) {
  std::optional<int64_t> count = getCheckedNumElements(shape);
  std::optional<int64_t> bytes = getElementByteSize(elementType);
  if (!count || !bytes)
    return std::nullopt;
  return llvm::checkedMul(*count, *bytes);
}

bool tcc::hasBoundedSize(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasRank())
    return true;
  // Dynamic dims carry no count; only the static ones must not overflow.
  SmallVector<int64_t> staticDims;
  for (int64_t dim : shaped.getShape())
    if (!ShapedType::isDynamic(dim))
      staticDims.push_back(dim);
  std::optional<int64_t> bytes = getElementByteSize(shaped.getElementType());
  std::optional<int64_t> count = getCheckedNumElements(staticDims);
  if (!count)
    return false;
  return !bytes || llvm::checkedMul(*count, *bytes).has_value();
}

static std::optional<int64_t> byteSizeOf(Type type) {
  auto shaped = dyn_cast<ShapedType>(type);
  if (!shaped || !shaped.hasStaticShape())
    return std::nullopt;
  return tcc::getCheckedByteSize(shaped.getShape(), shaped.getElementType());
}

bool tcc::isWithinFoldSizeLimit(Type result, TypeRange inputs) {
  std::optional<int64_t> resultBytes = byteSizeOf(result);
  if (!resultBytes)
    return false;
  int64_t limit = kFoldAllowanceBytes;
  for (Type input : inputs) {
    std::optional<int64_t> bytes = byteSizeOf(input);
    if (!bytes)
      return false;
    // Saturates: verified types are far below INT64_MAX / factor.
    limit = std::min<int64_t>(limit + std::min<int64_t>(*bytes, INT64_MAX / 4) *
                                          kFoldGrowthFactor,
                              INT64_MAX / 2);
  }
  return *resultBytes <= limit;
}
