//===- StridedView.h - Values as strided views of other values --*- C++ -*-===//
//
// Transposes, slices and reshapes need not be computed when their consumer
// can read the producer's buffer through strides and an offset. These are
// the planner's view computations: a value as a strided view of a root
// value, and whether a view reads as a batch of matrices.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_STRIDEDVIEW_H
#define TCC_CODEGEN_STRIDEDVIEW_H

#include "mlir/IR/Value.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace mlir::tcc {

/// value[i_0, ..., i_n] = root[offset + sum_d i_d * strides[d]] (elements).
struct StridedView {
  Value root;
  SmallVector<int64_t> shape, strides;
  int64_t offset = 0;
};

/// Row-major strides of `shape`.
SmallVector<int64_t> contiguousStrides(ArrayRef<int64_t> shape);

/// `value` as a view of itself.
StridedView contiguousView(Value value);

/// The strides of `view` reshaped to `shape`, when no copy is needed: each
/// run of old dimensions that merges or splits must be contiguous (as
/// torch's view()).
std::optional<SmallVector<int64_t>> reshapeStrides(const StridedView &view,
                                                   ArrayRef<int64_t> shape);

/// How `view` reads as rows x cols matrices after one flattened batch dim
/// equal to `batch`: leading dimension, transposed or not, batch stride
/// (0: one matrix shared by the batch). False when its strides don't fit.
bool fitsStrides(const StridedView &view, ArrayRef<int64_t> batch,
                 int64_t &ld, bool &trans, int64_t &batchStride);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_STRIDEDVIEW_H
