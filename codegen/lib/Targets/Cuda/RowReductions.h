//===- RowReductions.h - A block of threads per reduced row ----*- C++ -*-===//

#ifndef TCC_CODEGEN_TARGETS_CUDA_ROWREDUCTIONS_H
#define TCC_CODEGEN_TARGETS_CUDA_ROWREDUCTIONS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tcc::cuda {

/// Reductions shorter than this stay one thread per row: a warp would
/// mostly idle.
constexpr int64_t kMinBlockReductionLength = 32;

/// When `rows` (a one-dimensional parallel loop from 0, step 1) is a row
/// reduction, maps it to one block per row and returns true: the block's
/// threads stride over the reduced elements, each accumulating a partial
/// result, `gpu.all_reduce` combines the partials, and thread 0 folds the
/// total into the row's accumulator. Returns false, changing nothing,
/// otherwise.
///
/// A row reduction is what linalg's reductions become: a nest of `scf.for`
/// loops of constant bounds over at least kMinBlockReductionLength reduced
/// elements whose innermost body stores `combine(load acc[i], v)` back to
/// acc[i], `combine` an associative arith op with a neutral element (add,
/// mul, min, max, and, or, xor) on 32- or 64-bit values and `i` independent
/// of the reduced loops; other stores in it write a distinct element per
/// reduced iteration (softmax's exp), and nothing else touches the
/// accumulator's buffer but stores of its initial value before the nest.
bool mapRowReduction(scf::ParallelOp rows);

} // namespace mlir::tcc::cuda

#endif // TCC_CODEGEN_TARGETS_CUDA_ROWREDUCTIONS_H
