//===- ConstantEvaluator.h - Evaluating tcc ops on constants ----*- C++ -*-===//
//
// What tcc-fold-constants computes for ops that the dialect's folders leave
// alone (they fold splats only). Not the reference interpreter (tcc::jit):
// that would make the passes depend on the eager frontend, and its errors
// are C++ exceptions, which must never unwind through MLIR frames. Every
// failure here is an empty optional instead; the unit tests compare each op
// with the interpreter.
//
// Covered: reshape, transpose, broadcast_to, slice, concat, pad, cast, the
// unary and binary pointwise ops, comparisons, logical ops, select, clamp,
// gelu, dropout. What each pointwise op computes per element comes from
// tcc/IR/ScalarSemantics.h, the table the dialect's folders use too. Floats
// are computed in double and rounded once to the element type (for +, -, *,
// / and sqrt that is the correctly rounded result; transcendental functions
// may differ from the runtime's kernels in the last bit). Integers wrap as
// the eager ops do.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PASSES_CONSTANTEVALUATOR_H
#define TCC_PASSES_CONSTANTEVALUATOR_H

#include "tcc/Passes/ConstantData.h"

#include "mlir/IR/Operation.h"

namespace mlir::tcc {

/// The result of `op` (one result, a ranked tensor) on `operands`, or nullopt
/// when the op is not covered or a value has no exact meaning (a float cast
/// to an integer type it does not fit, an integer division by zero).
std::optional<ConstantData> evaluateConstantOp(Operation *op,
                                               ArrayRef<ConstantData> operands);

/// `in` with dims permuted: result dim i is input dim permutation[i].
ConstantData transposeConstant(const ConstantData &in,
                               ArrayRef<int64_t> permutation);

} // namespace mlir::tcc

#endif // TCC_PASSES_CONSTANTEVALUATOR_H
