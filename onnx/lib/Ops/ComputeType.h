//===- ComputeType.h - The float type composed ops compute in ---*- C++ -*-===//
//
// An op that tcc has no single op for is composed of several; in f16 or
// bf16 each step would round, and the sum of those roundings exceeds what
// ONNX's reference gives (it computes in f32 and rounds once). Composed ops
// therefore run in f32 for those types and round back at the end.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_OPS_COMPUTETYPE_H
#define TCC_ONNX_LIB_OPS_COMPUTETYPE_H

#include "NodeContext.h"

namespace mlir::tcc::onnx {

/// f32 for floats narrower than 32 bits, else `t` itself.
inline Type computeTypeFor(NodeContext &n, Type t) {
  if (isa<FloatType>(t) && t.getIntOrFloatBitWidth() < 32)
    return n.builder().getF32Type();
  return t;
}

/// `build(x')` with x' = x in its compute type, rounded back to x's type.
template <class Build>
Value inComputeType(NodeContext &n, Value x, Build build) {
  Type t = NodeContext::elementTypeOf(x);
  return n.cast(build(n.cast(x, computeTypeFor(n, t))), t);
}

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_OPS_COMPUTETYPE_H
