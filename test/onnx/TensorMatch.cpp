//===- TensorMatch.cpp - Results against ONNX's expected outputs ----------===//

#include "TensorMatch.h"

#include <cmath>
#include <cstring>
#include <sstream>

using mlir::tcc::ConstantData;

namespace tcc::conformance {

std::optional<ScalarType> scalarTypeOf(mlir::Type t) {
  if (t.isF32()) return kFloat;
  if (t.isF64()) return kDouble;
  if (t.isF16()) return kHalf;
  if (t.isBF16()) return kBFloat16;
  if (t.isInteger(1)) return kBool;
  if (t.isUnsignedInteger(8)) return kByte;
  if (t.isSignlessInteger(8)) return kChar;
  if (t.isSignlessInteger(16)) return kShort;
  if (t.isSignlessInteger(32)) return kInt;
  if (t.isSignlessInteger(64)) return kLong;
  return std::nullopt;
}

Tensor toTensor(const ConstantData &data) {
  std::optional<ScalarType> dtype = scalarTypeOf(data.type.getElementType());
  if (!dtype)
    throw Error("an element type the eager library lacks");
  std::vector<int64_t> shape(data.type.getShape());
  Tensor t = empty(shape, *dtype);
  if (!data.bytes.empty())
    std::memcpy(t.data_ptr(), data.bytes.data(), data.bytes.size());
  return t;
}

namespace {

std::string shapeText(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// numpy.isclose with equal_nan: infinities match only themselves.
bool isClose(double got, double want, double rtol, double atol) {
  if (std::isnan(got) || std::isnan(want))
    return std::isnan(got) && std::isnan(want);
  if (std::isinf(got) || std::isinf(want))
    return got == want;
  return std::fabs(got - want) <= atol + rtol * std::fabs(want);
}

} // namespace

std::string matchTensor(const Tensor &got, const ConstantData &want,
                        double rtol, double atol) {
  std::optional<ScalarType> dtype = scalarTypeOf(want.type.getElementType());
  if (!dtype || got.scalar_type() != *dtype) {
    std::ostringstream os;
    os << "dtype " << got.scalar_type() << ", expected "
       << (dtype ? toString(*dtype) : "a type the eager library lacks");
    return os.str();
  }
  std::vector<int64_t> wantShape(want.type.getShape());
  if (got.sizes().vec() != wantShape)
    return "shape " + shapeText(got.sizes().vec()) + ", expected " +
           shapeText(wantShape);
  std::ostringstream os;
  os.precision(9);
  if (isFloatingType(*dtype)) {
    Tensor g = got.to(kDouble).contiguous();
    const double *values = g.data_ptr<double>();
    for (int64_t i = 0; i < want.numElements(); ++i)
      if (!isClose(values[i], want.getFloat(i), rtol, atol)) {
        os << "element " << i << " is " << values[i] << ", expected "
           << want.getFloat(i) << " (rtol " << rtol << ", atol " << atol
           << ")";
        return os.str();
      }
    return "";
  }
  Tensor g = got.to(kLong).contiguous();
  const int64_t *values = g.data_ptr<int64_t>();
  for (int64_t i = 0; i < want.numElements(); ++i)
    if (values[i] != want.getInt(i)) {
      os << "element " << i << " is " << values[i] << ", expected "
         << want.getInt(i);
      return os.str();
    }
  return "";
}

} // namespace tcc::conformance
