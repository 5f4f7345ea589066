//===- TensorMatch.h - Results against ONNX's expected outputs --*- C++ -*-===//

#ifndef TCC_TEST_ONNX_TENSORMATCH_H
#define TCC_TEST_ONNX_TENSORMATCH_H

#include "tcc/Passes/ConstantData.h"
#include "tcc/tcc.h"

#include <optional>
#include <string>

namespace tcc::conformance {

/// The eager scalar type of a tcc element type; none for one it lacks.
std::optional<ScalarType> scalarTypeOf(mlir::Type elementType);

/// A tensor holding a copy of `data` (throws tcc::Error for a type the
/// eager library lacks).
Tensor toTensor(const mlir::tcc::ConstantData &data);

/// "" when `got` has `want`'s dtype and shape and its values match:
/// floats as numpy.allclose(got, want, rtol, atol, equal_nan=True) does,
/// integers and bools exactly. Else the first difference.
std::string matchTensor(const Tensor &got, const mlir::tcc::ConstantData &want,
                        double rtol, double atol);

} // namespace tcc::conformance

#endif // TCC_TEST_ONNX_TENSORMATCH_H
