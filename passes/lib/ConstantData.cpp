//===- ConstantData.cpp - Constant tensors as host bytes ------------------===//
//
// Bytes are little-endian, as on every host tcc targets (the artifact's
// constants segment stores them the same way).
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/ConstantData.h"
#include "tcc/IR/ResourceKey.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tcc;

ElementKind ConstantData::kind() const {
  Type element = type.getElementType();
  if (element.isF32())
    return ElementKind::F32;
  if (element.isF64())
    return ElementKind::F64;
  if (element.isF16())
    return ElementKind::F16;
  if (element.isBF16())
    return ElementKind::BF16;
  if (element.isInteger(1))
    return ElementKind::Bool;
  return element.isUnsignedInteger() ? ElementKind::Unsigned
                                     : ElementKind::Signed;
}

int64_t ConstantData::elementBytes() const {
  return std::max<int64_t>(type.getElementTypeBitWidth() / 8, 1);
}

static const llvm::fltSemantics &halfSemantics(ElementKind kind) {
  return kind == ElementKind::F16 ? APFloat::IEEEhalf() : APFloat::BFloat();
}

double ConstantData::getFloat(int64_t i) const {
  const char *p = bytes.data() + i * elementBytes();
  switch (kind()) {
  case ElementKind::F32: {
    float v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  case ElementKind::F64: {
    double v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  case ElementKind::F16:
  case ElementKind::BF16: {
    uint16_t bits;
    std::memcpy(&bits, p, sizeof bits);
    return APFloat(halfSemantics(kind()), APInt(16, bits)).convertToDouble();
  }
  case ElementKind::Unsigned:
    return static_cast<double>(static_cast<uint64_t>(getInt(i)));
  default:
    return static_cast<double>(getInt(i));
  }
}

int64_t ConstantData::getInt(int64_t i) const {
  const char *p = bytes.data() + i * elementBytes();
  switch (kind()) {
  case ElementKind::Bool:
    return *p != 0;
  case ElementKind::Unsigned:
    return static_cast<uint8_t>(*p); // ui8 is the only unsigned type
  default:
    break;
  }
  switch (elementBytes()) {
  case 1:
    return static_cast<int8_t>(*p);
  case 4: {
    int32_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  default: {
    int64_t v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  }
}

void ConstantData::setFloat(int64_t i, double value) {
  char *p = bytes.data() + i * elementBytes();
  switch (kind()) {
  case ElementKind::F32: {
    float v = static_cast<float>(value); // rounds to nearest even
    std::memcpy(p, &v, sizeof v);
    return;
  }
  case ElementKind::F64:
    std::memcpy(p, &value, sizeof value);
    return;
  case ElementKind::F16:
  case ElementKind::BF16: {
    APFloat v(value);
    bool lost;
    v.convert(halfSemantics(kind()), APFloat::rmNearestTiesToEven, &lost);
    auto bits = static_cast<uint16_t>(v.bitcastToAPInt().getZExtValue());
    std::memcpy(p, &bits, sizeof bits);
    return;
  }
  default:
    setInt(i, static_cast<int64_t>(value));
  }
}

void ConstantData::setInt(int64_t i, int64_t value) {
  char *p = bytes.data() + i * elementBytes();
  if (kind() == ElementKind::Bool) {
    *p = value != 0;
    return;
  }
  std::memcpy(p, &value, elementBytes()); // the low bytes (little-endian)
}

ConstantData ConstantData::zeros(RankedTensorType type) {
  ConstantData data{type, {}};
  data.bytes.assign(type.getNumElements() * data.elementBytes(), 0);
  return data;
}

std::optional<ConstantData> mlir::tcc::readConstant(ElementsAttr value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || !type.hasStaticShape())
    return std::nullopt;
  ConstantData data{type, {}};
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(value)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> raw = blob->getData();
    if (static_cast<int64_t>(raw.size()) !=
        type.getNumElements() * data.elementBytes())
      return std::nullopt;
    data.bytes.assign(raw.begin(), raw.end());
    return data;
  }
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense)
    return std::nullopt;
  if (type.getElementType().isInteger(1)) {
    for (bool b : dense.getValues<bool>())
      data.bytes.push_back(b ? 1 : 0);
    return data;
  }
  ArrayRef<char> raw = dense.getRawData();
  if (!dense.isSplat()) {
    data.bytes.assign(raw.begin(), raw.end());
    return data;
  }
  data.bytes.reserve(type.getNumElements() * data.elementBytes());
  for (int64_t i = 0; i < type.getNumElements(); ++i)
    data.bytes.insert(data.bytes.end(), raw.begin(), raw.end());
  return data;
}

ElementsAttr mlir::tcc::makeConstantAttr(const ConstantData &data,
                                         StringRef blobName) {
  int64_t size = data.elementBytes();
  ArrayRef<char> bytes = data.bytes;
  bool splat = true;
  for (int64_t offset = size; splat && offset < int64_t(bytes.size());
       offset += size)
    splat = std::memcmp(bytes.data(), bytes.data() + offset, size) == 0;
  if (splat && data.kind() == ElementKind::Bool)
    return DenseElementsAttr::get(data.type, !bytes.empty() && bytes[0] != 0);
  if (splat && !bytes.empty())
    return DenseElementsAttr::getFromRawBuffer(data.type,
                                               bytes.take_front(size));
  if (bytes.empty())
    return DenseElementsAttr::get(data.type, ArrayRef<Attribute>());
  // 64 bytes, as the tracer aligns weights: enough for any element type.
  return DenseResourceElementsAttr::get(
      data.type, resourceKey(blobName),
      HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, /*align=*/64));
}

std::string mlir::tcc::deriveBlobName(ArrayRef<Attribute> sources,
                                      StringRef suffix) {
  // Named weights keep their name (fc.weight.transpose); anonymous results
  // stay "folded.<last op>" rather than growing with every op of a chain.
  for (Attribute source : sources)
    if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(source)) {
      StringRef key = resource.getRawHandle().getKey();
      if (!key.starts_with("folded."))
        return (key + suffix).str();
    }
  return ("folded" + suffix).str();
}
