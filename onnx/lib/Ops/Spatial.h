//===- Spatial.h - Helpers for ops over the spatial dims --------*- C++ -*-===//
//
// Conv, ConvTranspose and the pools see an input [N, C, D1, ..., Dk] with
// k = 1, 2 or 3 spatial dims. tcc has 2-D ops only: 1-D inputs run as 2-D
// ones on a height-1 image, and 3-D ones as a sum (conv) or a second pass
// (pools) of 2-D ops over the depth.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_OPS_SPATIAL_H
#define TCC_ONNX_LIB_OPS_SPATIAL_H

#include "NodeContext.h"

#include <vector>

namespace mlir::tcc::onnx {

/// The window of a conv or pool node, one entry per spatial dim.
struct Window {
  std::vector<int64_t> kernel, stride, dilation, padBegin, padEnd;
  size_t rank() const { return kernel.size(); }
  /// The span of the dilated kernel.
  int64_t extent(size_t i) const { return (kernel[i] - 1) * dilation[i] + 1; }
};

/// Reads strides/dilations/pads/auto_pad of a node whose input has shape
/// `inputShape` (1 to 3 spatial dims) and whose kernel is `kernel`.
Window readWindow(NodeContext &n, llvm::ArrayRef<int64_t> inputShape,
                  std::vector<int64_t> kernel);

/// Pads the trailing dims of `x` by `begin`/`end` (negative entries crop)
/// with `value`; the identity when all are 0.
Value padTrailing(NodeContext &n, Value x, llvm::ArrayRef<int64_t> begin,
                  llvm::ArrayRef<int64_t> end, double value);

/// The convolution of `x` [N, C, D...] by `weight` [O, C/groups, K...], 1
/// to 3 spatial dims, with `padding` zeros on both sides of each spatial
/// dim; `bias` [O] may be null.
Value convolve(NodeContext &n, Value x, Value weight, Value bias,
               llvm::ArrayRef<int64_t> stride, llvm::ArrayRef<int64_t> dilation,
               llvm::ArrayRef<int64_t> padding, int64_t groups);

/// How windowReduce combines a window.
enum class WindowReduction { Max, Sum };

/// Max or sum over each unpadded window of `x` [N, C, D...] (1 to 3
/// spatial dims) with `kernel`, `stride` and `dilation`.
Value windowReduce(NodeContext &n, Value x, WindowReduction kind,
                   llvm::ArrayRef<int64_t> kernel,
                   llvm::ArrayRef<int64_t> stride,
                   llvm::ArrayRef<int64_t> dilation);

/// The dims of `v` from `from` on.
std::vector<int64_t> dimsFrom(Value v, int64_t from);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_OPS_SPATIAL_H
