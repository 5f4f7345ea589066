//===- MaxPool2x2.h - Vectorized 2x2 / stride 2 float max pooling ---------===//
//
// The usual CNN downsampling (kernel 2, stride 2, no padding) on float32,
// with AVX-512: each output row's windows are two input rows split into
// even and odd columns by permutes, compared with masks (no branch per
// element, which random data mispredicts half the time).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_MAXPOOL2X2_H
#define TCC_LIB_OPS_MAXPOOL2X2_H

#include <cstdint>

namespace tcc {
namespace detail {

/// Max pooling with kernel 2x2, stride 2, no padding, dilation 1 of
/// `planes` contiguous h x w float planes into oh x ow outputs (2 oh <= h,
/// 2 ow <= w), with flat argmax indices y * w + x inside each plane: the
/// first maximum of a window in row-major order, or its last NaN (the
/// general kernel's rule). Returns false, doing nothing, when this CPU has
/// no AVX-512 (the caller then runs its portable loop).
bool maxPool2x2Float(const float *input, int64_t planes, int64_t h, int64_t w,
                     int64_t oh, int64_t ow, float *out, int64_t *indices);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_MAXPOOL2X2_H
