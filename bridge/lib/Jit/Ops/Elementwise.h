//===- Elementwise.h - What the Unary and Binary trace mappings share -----===//
//
// The eager ops promote types before computing (PyTorch's rules); a trace
// mapping converts its operands to the dtype the eager kernel computed in
// (tcc.cast) and emits the same-typed tcc op, so the interpreter's eager
// call sees the operands the original call's kernel saw. Where an eager
// kernel computes in float for float16/bfloat16 (opmath) and rounds once,
// the mapping computes in f32 too, so the results stay bit-identical.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_OPS_ELEMENTWISE_H
#define TCC_JIT_LIB_OPS_ELEMENTWISE_H

#include "TraceContext.h"

#include <vector>

namespace tcc {
namespace jit {
namespace elementwise {

using Values = std::vector<mlir::Value>;

/// float16 and bfloat16, whose eager kernels compute in f32 (opmath).
inline bool isReducedFloat(ScalarType t) {
  return t == kHalf || t == kBFloat16;
}

template <class OpTy> mlir::Value unary(TraceContext &c, mlir::Value v) {
  return c.create<OpTy>(v, {}, v.getType());
}

template <class OpTy>
mlir::Value binary(TraceContext &c, mlir::Value a, mlir::Value b) {
  return c.create<OpTy>(mlir::ValueRange{a, b});
}

} // namespace elementwise
} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_OPS_ELEMENTWISE_H
