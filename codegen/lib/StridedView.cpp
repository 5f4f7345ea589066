//===- StridedView.cpp - Values as strided views of other values ----------===//

#include "StridedView.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::tcc;

SmallVector<int64_t> mlir::tcc::contiguousStrides(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

StridedView mlir::tcc::contiguousView(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  StridedView view{value, SmallVector<int64_t>(type.getShape()), {}};
  view.strides = contiguousStrides(view.shape);
  return view;
}

std::optional<SmallVector<int64_t>>
mlir::tcc::reshapeStrides(const StridedView &view, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> oldShape, oldStrides; // size-1 dims carry no stride
  for (auto [size, stride] : llvm::zip(view.shape, view.strides))
    if (size != 1) {
      oldShape.push_back(size);
      oldStrides.push_back(stride);
    }
  SmallVector<int64_t> strides(shape.size(), 1);
  int64_t n = int64_t(shape.size()) - 1;
  // Walk the new dims from the innermost, consuming old dims in chunks.
  int64_t d = n;
  for (int64_t oi = int64_t(oldShape.size()) - 1; oi >= 0;) {
    // One contiguous chunk of old dims [lo, oi].
    int64_t lo = oi, chunk = oldShape[oi];
    while (lo > 0 && oldStrides[lo - 1] == oldStrides[lo] * oldShape[lo]) {
      --lo;
      chunk *= oldShape[lo];
    }
    // New dims covering exactly `chunk` elements, innermost stride first.
    int64_t stride = oldStrides[oi], covered = 1;
    while (covered < chunk) {
      if (d < 0)
        return std::nullopt;
      strides[d] = stride;
      stride *= shape[d];
      covered *= shape[d];
      --d;
    }
    if (covered != chunk)
      return std::nullopt; // a new dim straddles two chunks
    oi = lo - 1;
  }
  for (; d >= 0; --d) // leading size-1 dims
    if (shape[d] != 1)
      return std::nullopt;
  return strides;
}

bool mlir::tcc::fitsStrides(const StridedView &view, ArrayRef<int64_t> batch,
                        int64_t &ld, bool &trans, int64_t &batchStride) {
  size_t rank = view.shape.size();
  int64_t rows = view.shape[rank - 2], cols = view.shape[rank - 1];
  int64_t rowStride = view.strides[rank - 2], colStride = view.strides[rank - 1];
  if (rows == 1)
    rowStride = std::max<int64_t>(cols, 1) * colStride;
  if (cols == 1)
    colStride = 1;
  if (colStride == 1 && rowStride >= cols) {
    trans = false;
    ld = rowStride;
  } else if (rowStride == 1 && colStride >= rows) {
    trans = true;
    ld = colStride;
  } else {
    return false;
  }
  // The batch dims flatten to one stride, or are all 1 (shared: stride 0).
  ArrayRef<int64_t> own = ArrayRef<int64_t>(view.shape).drop_back(2);
  if (ShapedType::getNumElements(own) == 1) {
    batchStride = 0;
  } else if (own == batch) {
    std::optional<int64_t> inner;
    for (int64_t d = int64_t(own.size()) - 1; d >= 0; --d) {
      if (own[d] == 1)
        continue;
      if (!inner)
        batchStride = view.strides[d]; // the innermost batch dim's
      else if (view.strides[d] != *inner)
        return false;
      inner = view.strides[d] * own[d];
    }
  } else {
    return false;
  }
  return true;
}
