//===- MathApproximations.h - Math expansions tcc adds ----------*- C++ -*-===//
//
// Private to codegen/lib: expansions used by tcc-expand-math next to MLIR's
// own (which cover f32, and f16/bf16 through f32).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_LIB_MATHAPPROXIMATIONS_H
#define TCC_CODEGEN_LIB_MATHAPPROXIMATIONS_H

#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {

/// Scalar f64 exp, expm1, log, log1p, tanh, erf, sin and cos as arith ops
/// (no libm calls), and f32 sin/cos through them; error bounds in
/// ApproximateF64.cpp.
void populateF64MathExpansionPatterns(RewritePatternSet &patterns);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_LIB_MATHAPPROXIMATIONS_H
