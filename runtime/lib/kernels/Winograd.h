//===- Winograd.h - F(2x2, 3x3) convolution for NHWC 3x3 stride-1 ---------===//
//
// Conv2d.cpp dispatches here for NHWC convolutions with a 3x3 kernel,
// stride 1, dilation 1, one group, at least kWinogradMinChannels input and
// output channels and at least kWinogradMinTiles 2x2 output tiles over the
// batch (any padding, any output size).
//
// Packed weights for these shapes are the 16 transformed matrices
// U[xi] = G g G^T (in_channels x out_channels, xi = 4 * row + column of the
// 4x4 transformed tile), each in tcc_sgemm_pack_b's form, one after another.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_WINOGRAD_H
#define TCC_RUNTIME_KERNELS_WINOGRAD_H

#include "tcc/runtime/kernels.h"

#include <cstdint>

namespace tcc {
namespace runtime {
namespace kernels {

/// Below this many channels the GEMMs are too thin to pay for the
/// transforms; im2col is used instead.
constexpr int64_t kWinogradMinChannels = 16;

/// The tiles are the rows of the 16 GEMMs, so few of them reuse each element
/// of the transformed weights too little: a batch-1 7x7 image (16 tiles)
/// runs slower than im2col, 14x14 (49 tiles) faster (figures:
/// docs/performance.md, "Measurements behind choices in the code").
constexpr int64_t kWinogradMinTiles = 32;

/// What the Winograd path needs of a checked convolution.
struct WinogradShape {
  int64_t batch, channels, height, width, out_channels;
  int64_t pad_h, pad_w, out_h, out_w;
};

/// Bytes of packed weights (16 packed matrices), or -1 on overflow.
int64_t winograd_packed_weight_bytes(const WinogradShape &s);

/// Workspace bytes, or -1 on overflow.
int64_t winograd_workspace_bytes(const WinogradShape &s, bool weight_packed);

/// Transforms OHWI weights and packs them (winograd_packed_weight_bytes,
/// 64-byte aligned); parallel may be null.
tcc_kernel_status winograd_pack_weight(const WinogradShape &s,
                                       const float *weight, void *packed,
                                       const tcc_parallel *parallel);

/// Checks each of the 16 packed matrices' headers.
tcc_kernel_status winograd_check_packed_weight(const WinogradShape &s,
                                               const void *packed);

/// The convolution; arguments already checked.
tcc_kernel_status winograd_conv(const WinogradShape &s,
                                const tcc_conv2d_args &a,
                                const tcc_parallel *parallel);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_WINOGRAD_H
