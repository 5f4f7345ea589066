//===- Elementwise.h - What the Unary and Binary trace mappings share -----===//

#ifndef TCC_JIT_LIB_OPS_ELEMENTWISE_H
#define TCC_JIT_LIB_OPS_ELEMENTWISE_H

#include "TraceContext.h"

#include <vector>

namespace tcc {
namespace jit {
namespace elementwise {

using Values = std::vector<mlir::Value>;

/// float16 and bfloat16, whose eager kernels compute in f32 (opmath).
inline bool isReducedFloat(ScalarType t) { return t == kHalf || t == kBFloat16; }

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
