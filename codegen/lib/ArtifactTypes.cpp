//===- ArtifactTypes.cpp - tcc types and constants as artifact bytes ------===//

#include "ArtifactTypes.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::tcc;
namespace artifact = ::tcc::artifact;

std::optional<artifact::DType> mlir::tcc::toDType(Type type) {
  if (type.isF32()) return artifact::DType::F32;
  if (type.isF64()) return artifact::DType::F64;
  if (type.isF16()) return artifact::DType::F16;
  if (type.isBF16()) return artifact::DType::BF16;
  if (type.isSignlessInteger(64)) return artifact::DType::I64;
  if (type.isSignlessInteger(32)) return artifact::DType::I32;
  if (type.isSignlessInteger(8)) return artifact::DType::I8;
  if (type.isUnsignedInteger(8)) return artifact::DType::U8;
  if (type.isSignlessInteger(1)) return artifact::DType::Bool;
  return std::nullopt;
}

uint64_t mlir::tcc::elementBytes(Type type) {
  return std::max<uint64_t>(type.getIntOrFloatBitWidth() / 8, 1);
}

uint64_t mlir::tcc::byteSize(ShapedType type) {
  return type.getNumElements() * elementBytes(type.getElementType());
}

std::vector<uint8_t> mlir::tcc::constantBytes(ElementsAttr value) {
  auto type = cast<ShapedType>(value.getType());
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    ArrayRef<char> data = resource.getRawHandle().getBlob()->getData();
    return std::vector<uint8_t>(data.begin(), data.end());
  }
  auto dense = cast<DenseElementsAttr>(value);
  if (type.getElementType().isInteger(1)) {
    std::vector<uint8_t> bytes;
    for (bool b : dense.getValues<bool>())
      bytes.push_back(b ? 1 : 0);
    return bytes;
  }
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat())
    return std::vector<uint8_t>(raw.begin(), raw.end());
  std::vector<uint8_t> bytes;
  bytes.reserve(byteSize(type));
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    bytes.insert(bytes.end(), raw.begin(), raw.end());
  return bytes;
}
