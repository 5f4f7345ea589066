//===- TensorData.cpp - ONNX element types and tensor contents ------------===//

#include "TensorData.h"

#include "ExternalData.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/STLExtras.h"

#include <cstring>

using namespace mlir;
using namespace mlir::tcc;
using ::onnx::TensorProto;

Type mlir::tcc::onnx::elementTypeOf(MLIRContext *context, int32_t dataType) {
  Builder b(context);
  switch (dataType) {
  case TensorProto::FLOAT: return b.getF32Type();
  case TensorProto::DOUBLE: return b.getF64Type();
  case TensorProto::FLOAT16: return b.getF16Type();
  case TensorProto::BFLOAT16: return b.getBF16Type();
  case TensorProto::INT64: return b.getI64Type();
  case TensorProto::INT32: return b.getI32Type();
  case TensorProto::INT8: return b.getI8Type();
  case TensorProto::UINT8:
    return IntegerType::get(context, 8, IntegerType::Unsigned);
  case TensorProto::BOOL: return b.getI1Type();
  default: return {};
  }
}

int32_t mlir::tcc::onnx::dataTypeOf(Type t) {
  if (t.isF32()) return TensorProto::FLOAT;
  if (t.isF64()) return TensorProto::DOUBLE;
  if (t.isF16()) return TensorProto::FLOAT16;
  if (t.isBF16()) return TensorProto::BFLOAT16;
  if (t.isInteger(1)) return TensorProto::BOOL;
  if (t.isUnsignedInteger(8)) return TensorProto::UINT8;
  if (t.isSignlessInteger(8)) return TensorProto::INT8;
  if (t.isSignlessInteger(32)) return TensorProto::INT32;
  if (t.isSignlessInteger(64)) return TensorProto::INT64;
  return 0;
}

std::string mlir::tcc::onnx::dataTypeName(int32_t dataType) {
  if (TensorProto::DataType_IsValid(dataType))
    return TensorProto::DataType_Name(
        static_cast<TensorProto::DataType>(dataType));
  return "data type " + std::to_string(dataType);
}

std::string mlir::tcc::onnx::checkShape(ArrayRef<int64_t> dims) {
  if (static_cast<int64_t>(dims.size()) > kMaxRank)
    return "rank " + std::to_string(dims.size()) + " is above the limit of " +
           std::to_string(kMaxRank);
  int64_t count = 1;
  for (int64_t d : dims) {
    if (d < 0)
      return "dimension " + std::to_string(d) + " is negative";
    if (d != 0 && count > kMaxElements / d)
      return "shape " + shapeText(dims) + " has more than 2^40 elements" +
             (llvm::is_contained(dims, 0) ? " (its nonzero dims)" : "");
    count *= std::max<int64_t>(d, 1);
  }
  return "";
}

std::string mlir::tcc::onnx::shapeText(ArrayRef<int64_t> dims) {
  std::string s;
  for (size_t i = 0; i < dims.size(); ++i)
    s += (i ? "x" : "") + std::to_string(dims[i]);
  return s.empty() ? "(a scalar)" : s;
}

namespace {
/// Copies `values` (a repeated field of the proto) into `out`'s elements,
/// converting each with `store`. The count is checked before `out` grows to
/// its shape, so a tensor claiming 2^40 elements costs nothing.
template <class Field, class Store>
std::string copyTyped(const Field &values, const char *field,
                      ConstantData *out, Store store) {
  int64_t n = out->numElements();
  if (values.size() != n)
    return "it has " + std::to_string(values.size()) + " values in " + field +
           " for " + std::to_string(n) + " elements";
  out->bytes.resize(n * out->elementBytes());
  for (int64_t i = 0; i < n; ++i)
    store(i, values.Get(static_cast<int>(i)));
  return "";
}
} // namespace

std::string mlir::tcc::onnx::readTensor(MLIRContext *context, const TensorProto &tensor,
                             const std::string &modelDir, ConstantData *out) {
  Type element = elementTypeOf(context, tensor.data_type());
  if (!element)
    return "its element type " + dataTypeName(tensor.data_type()) +
           " is not one tcc supports";
  std::vector<int64_t> dims(tensor.dims().begin(), tensor.dims().end());
  if (std::string problem = checkShape(dims); !problem.empty())
    return problem;
  if (tensor.has_segment())
    return "it is a segment of a tensor, which the importer does not read";
  // The bytes are allocated only once the source is known to hold them.
  *out = ConstantData{RankedTensorType::get(dims, element), {}};
  uint64_t bytes = uint64_t(out->numElements()) * out->elementBytes();
  if (tensor.data_location() == TensorProto::EXTERNAL)
    return readExternalData(tensor, modelDir, bytes, &out->bytes);
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != bytes)
      return "its raw data has " + std::to_string(tensor.raw_data().size()) +
             " bytes, but its shape and type need " + std::to_string(bytes);
    out->bytes.assign(tensor.raw_data().begin(), tensor.raw_data().end());
    if (element.isInteger(1))
      for (char &c : out->bytes)
        c = c != 0;
    return "";
  }
  ConstantData &data = *out;
  switch (tensor.data_type()) {
  case TensorProto::FLOAT:
    return copyTyped(tensor.float_data(), "float_data", out,
                     [&](int64_t i, float v) { data.setFloat(i, v); });
  case TensorProto::DOUBLE:
    return copyTyped(tensor.double_data(), "double_data", out,
                     [&](int64_t i, double v) { data.setFloat(i, v); });
  case TensorProto::INT64:
    return copyTyped(tensor.int64_data(), "int64_data", out,
                     [&](int64_t i, int64_t v) { data.setInt(i, v); });
  case TensorProto::FLOAT16:
  case TensorProto::BFLOAT16:
    // The 16 bits of each value, in int32_data.
    return copyTyped(tensor.int32_data(), "int32_data", out,
                     [&](int64_t i, int32_t v) {
                       uint16_t bits = static_cast<uint16_t>(v);
                       std::memcpy(data.bytes.data() + 2 * i, &bits, 2);
                     });
  default: // INT32, INT8, UINT8, BOOL
    return copyTyped(tensor.int32_data(), "int32_data", out,
                     [&](int64_t i, int32_t v) { data.setInt(i, v); });
  }
}
