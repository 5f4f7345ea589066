//===- TensorData.h - ONNX element types and tensor contents ----*- C++ -*-===//

#ifndef TCC_ONNX_LIB_TENSORDATA_H
#define TCC_ONNX_LIB_TENSORDATA_H

#include "onnx.pb.h"

#include "tcc/Passes/ConstantData.h"

#include "mlir/IR/BuiltinTypes.h"

#include <string>
#include <vector>

namespace mlir::tcc::onnx {

/// Highest rank and element count of any tensor the importer accepts: the
/// IR reader's rank limit (InputLimits::maxRank), and 2^40 elements.
constexpr int64_t kMaxRank = 64;
constexpr int64_t kMaxElements = int64_t(1) << 40;

/// The tcc element type of ONNX data type `dataType`, or null when tcc has
/// none (uint16/32/64, int16, strings, complex, float8 and smaller).
Type elementTypeOf(MLIRContext *context, int32_t dataType);
/// The ONNX data type of a tcc element type (0 when none).
int32_t dataTypeOf(Type elementType);
/// "FLOAT", "UINT16", ... or "data type N".
std::string dataTypeName(int32_t dataType);

/// "" when `dims` is a shape the importer accepts (non-negative dims, rank
/// and element count within the limits above), else why not. Zero dims do
/// not excuse the others: the nonzero dims must multiply to at most 2^40
/// too, so that any product of a shape's dims fits in int64_t.
std::string checkShape(ArrayRef<int64_t> dims);

/// "1x3x224x224", or "(a scalar)" for rank 0.
std::string shapeText(ArrayRef<int64_t> dims);

/// The contents of `tensor` (raw_data, a typed field, or external data
/// read relative to `modelDir`); "" or why not (the caller names the
/// tensor).
std::string readTensor(MLIRContext *context, const ::onnx::TensorProto &tensor,
                       const std::string &modelDir, ConstantData *out);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_TENSORDATA_H
