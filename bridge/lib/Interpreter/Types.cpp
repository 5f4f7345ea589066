//===- Types.cpp - Eager dtypes and tensors as MLIR types and attributes --===//

#include "Types.h"
#include "ModuleState.h"

#include "tcc/Frontend/OpObserver.h"
#include "tcc/IR/ResourceKey.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/SmallVector.h"

#include <cstring>
#include <sstream>

namespace tcc {
namespace jit {

mlir::Type elementTypeOf(mlir::MLIRContext *ctx, ScalarType dtype) {
  mlir::Builder b(ctx);
  switch (dtype) {
  case kFloat:
    return b.getF32Type();
  case kDouble:
    return b.getF64Type();
  case kHalf:
    return b.getF16Type();
  case kBFloat16:
    return b.getBF16Type();
  case kLong:
    return b.getI64Type();
  case kInt:
    return b.getI32Type();
  case kChar:
    return b.getI8Type();
  case kByte:
    return mlir::IntegerType::get(ctx, 8, mlir::IntegerType::Unsigned);
  case kBool:
    return b.getI1Type();
  default:
    return {};
  }
}

std::optional<ScalarType> scalarTypeOf(mlir::Type t) {
  if (t.isF32())
    return kFloat;
  if (t.isF64())
    return kDouble;
  if (t.isF16())
    return kHalf;
  if (t.isBF16())
    return kBFloat16;
  if (t.isSignlessInteger(64))
    return kLong;
  if (t.isSignlessInteger(32))
    return kInt;
  if (t.isSignlessInteger(8))
    return kChar;
  if (t.isUnsignedInteger(8))
    return kByte;
  if (t.isSignlessInteger(1))
    return kBool;
  return std::nullopt;
}

std::string missingDtypeMessage(const std::string &what, ScalarType dtype) {
  return what + " has dtype " + toString(dtype) +
         ", which the tcc dialect does not have (it has Float, Double, Half, "
         "BFloat16, Long, Int, Char, Byte and Bool)";
}

mlir::RankedTensorType tensorTypeOf(mlir::MLIRContext *ctx, IntArrayRef shape,
                                    ScalarType dtype, const std::string &what) {
  mlir::Type element = elementTypeOf(ctx, dtype);
  if (!element)
    jitError(missingDtypeMessage(what, dtype));
  return mlir::RankedTensorType::get(
      llvm::ArrayRef<int64_t>(shape.data(), shape.size()), element);
}

namespace {
std::string shapeText(llvm::ArrayRef<int64_t> shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

const char *shortName(ScalarType t) {
  switch (t) {
  case kFloat:
    return "f32";
  case kDouble:
    return "f64";
  case kHalf:
    return "f16";
  case kBFloat16:
    return "bf16";
  case kLong:
    return "i64";
  case kInt:
    return "i32";
  case kChar:
    return "i8";
  case kByte:
    return "u8";
  case kBool:
    return "bool";
  default:
    return toString(t);
  }
}

const llvm::fltSemantics &semanticsOf(ScalarType t) {
  switch (t) {
  case kDouble:
    return llvm::APFloat::IEEEdouble();
  case kHalf:
    return llvm::APFloat::IEEEhalf();
  case kBFloat16:
    return llvm::APFloat::BFloat();
  default:
    return llvm::APFloat::IEEEsingle();
  }
}

/// `t` as a contiguous tensor of `dtype`, without recording or autograd.
Tensor contiguousAs(const Tensor &t, ScalarType dtype) {
  tcc::detail::RecordPauseGuard pause;
  NoGradGuard noGrad;
  return t.to(dtype).contiguous();
}
} // namespace

std::string describe(mlir::Type type) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  if (!tensor) {
    std::string s;
    llvm::raw_string_ostream os(s);
    type.print(os);
    return s;
  }
  std::optional<ScalarType> dt = scalarTypeOf(tensor.getElementType());
  std::string element;
  if (dt) {
    element = shortName(*dt);
  } else {
    llvm::raw_string_ostream os(element);
    tensor.getElementType().print(os);
  }
  return element + shapeText(tensor.getShape());
}

std::string describe(const Tensor &t) {
  return std::string(shortName(t.dtype())) +
         shapeText(llvm::ArrayRef<int64_t>(t.sizes().data(), t.sizes().size()));
}

mlir::DenseElementsAttr denseAttrOf(mlir::RankedTensorType type,
                                    const Tensor &t) {
  ScalarType dtype = *scalarTypeOf(type.getElementType());
  Tensor c = contiguousAs(t, dtype);
  const char *data = static_cast<const char *>(c.unsafeGetTensorImpl()->data());
  size_t size = c.element_size();
  int64_t n = c.numel();
  auto bitsAt = [&](int64_t i) {
    uint64_t bits = 0;
    std::memcpy(&bits, data + i * int64_t(size), size);
    return bits;
  };
  if (isFloatingType(dtype)) {
    llvm::SmallVector<llvm::APFloat> values;
    values.reserve(size_t(n));
    for (int64_t i = 0; i < n; ++i)
      values.emplace_back(semanticsOf(dtype),
                          llvm::APInt(unsigned(size * 8), bitsAt(i)));
    return mlir::DenseElementsAttr::get(type, values);
  }
  llvm::SmallVector<llvm::APInt> values;
  values.reserve(size_t(n));
  unsigned width = dtype == kBool ? 1 : unsigned(size * 8);
  for (int64_t i = 0; i < n; ++i)
    values.emplace_back(width, dtype == kBool ? (bitsAt(i) != 0) : bitsAt(i));
  return mlir::DenseElementsAttr::get(type, values);
}

mlir::DenseResourceElementsAttr resourceAttrOf(mlir::RankedTensorType type,
                                               const std::string &name,
                                               const Tensor &t) {
  ScalarType dtype = *scalarTypeOf(type.getElementType());
  Tensor c = contiguousAs(t, dtype);
  llvm::ArrayRef<char> bytes(
      static_cast<const char *>(c.unsafeGetTensorImpl()->data()), c.nbytes());
  mlir::AsmResourceBlob blob =
      mlir::HeapAsmResourceBlob::allocateAndCopyWithAlign(bytes, 64);
  return mlir::DenseResourceElementsAttr::get(
      type, mlir::tcc::resourceKey(name), std::move(blob));
}

Tensor tensorOf(mlir::ElementsAttr attr) {
  auto type = mlir::cast<mlir::RankedTensorType>(attr.getShapedType());
  std::optional<ScalarType> dtype = scalarTypeOf(type.getElementType());
  if (!dtype)
    jitError("constant of type " + describe(type) + " has no eager dtype");
  std::vector<int64_t> shape(type.getShape().begin(), type.getShape().end());
  if (auto resource = mlir::dyn_cast<mlir::DenseResourceElementsAttr>(attr)) {
    mlir::AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      jitError("dense_resource<" + resource.getRawHandle().getKey().str() +
               "> has no blob");
    llvm::ArrayRef<char> data = blob->getData();
    Tensor t = empty(shape, TensorOptions().dtype(*dtype));
    if (data.size() != t.nbytes())
      jitError("dense_resource<" + resource.getRawHandle().getKey().str() +
               "> holds " + std::to_string(data.size()) + " bytes, " +
               describe(type) + " needs " + std::to_string(t.nbytes()));
    if (!data.empty())
      std::memcpy(t.unsafeGetTensorImpl()->data(), data.data(), data.size());
    return t;
  }
  auto dense = mlir::dyn_cast<mlir::DenseElementsAttr>(attr);
  if (!dense)
    jitError("unsupported constant attribute for " + describe(type));
  Tensor t = empty(shape, TensorOptions().dtype(*dtype));
  char *out = static_cast<char *>(t.unsafeGetTensorImpl()->data());
  size_t size = t.element_size();
  auto put = [&](int64_t i, uint64_t bits) {
    std::memcpy(out + i * int64_t(size), &bits, size);
  };
  int64_t i = 0;
  if (isFloatingType(*dtype)) {
    for (const llvm::APFloat &v : dense.getValues<llvm::APFloat>())
      put(i++, v.bitcastToAPInt().getZExtValue());
  } else {
    for (const llvm::APInt &v : dense.getValues<llvm::APInt>())
      put(i++, v.getZExtValue());
  }
  return t;
}

ScalarType valueDtype(mlir::Value v) {
  return *scalarTypeOf(
      mlir::cast<mlir::RankedTensorType>(v.getType()).getElementType());
}

std::vector<int64_t> wrapDims(std::vector<int64_t> dims, int64_t rank) {
  for (int64_t &d : dims)
    if (d < 0)
      d += rank;
  return dims;
}

} // namespace jit
} // namespace tcc
