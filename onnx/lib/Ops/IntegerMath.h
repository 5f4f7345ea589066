//===- IntegerMath.h - Integer arithmetic tcc has no op for -----*- C++ -*-===//
//
// C's integer semantics composed from tcc's (which are PyTorch's, flooring),
// for the families that need them: Div and Mod (Elementwise.cpp), ReduceMean
// on integers (Reduction.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_OPS_INTEGERMATH_H
#define TCC_ONNX_LIB_OPS_INTEGERMATH_H

#include "NodeContext.h"

namespace mlir::tcc::onnx {

/// a / b rounded toward zero, for integers of one type (broadcasting).
Value truncatingDivide(NodeContext &n, Value a, Value b);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_OPS_INTEGERMATH_H
