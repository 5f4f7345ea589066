//===- MaxPool2x2.cpp - Vectorized 2x2 / stride 2 float max pooling -------===//

#include "MaxPool2x2.h"
#include "Isa.h"

#if TCC_HAVE_ISA_VARIANTS
#include <immintrin.h>
#endif

namespace tcc {
namespace detail {

#if TCC_HAVE_ISA_VARIANTS
namespace {

/// Even and odd columns of up to 32 floats of a row (masks `lo` and `hi`
/// select the ones to read of the first and second 16).
TCC_TARGET_AVX512 inline void splitRow(const float *row, __mmask16 lo,
                                       __mmask16 hi, __m512 &even,
                                       __m512 &odd) {
  const __m512i evens = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                          22, 24, 26, 28, 30);
  const __m512i odds = _mm512_add_epi32(evens, _mm512_set1_epi32(1));
  __m512 a = _mm512_maskz_loadu_ps(lo, row);
  __m512 b = _mm512_maskz_loadu_ps(hi, row + 16);
  even = _mm512_permutex2var_ps(a, evens, b);
  odd = _mm512_permutex2var_ps(a, odds, b);
}

/// Takes v where it beats best (greater, or NaN), recording its offset.
TCC_TARGET_AVX512 inline void consider(__m512 v, int32_t offset, __m512 &best,
                                       __m512i &at) {
  __mmask16 take = _mm512_cmp_ps_mask(v, best, _CMP_GT_OQ) |
                   _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
  best = _mm512_mask_mov_ps(best, take, v);
  at = _mm512_mask_mov_epi32(at, take, _mm512_set1_epi32(offset));
}

/// Up to 16 outputs of one output row: window x reads row0[2x], row0[2x +
/// 1], row1[2x], row1[2x + 1], in that order. `base` is the flat index of
/// row0[0] in its plane.
TCC_TARGET_AVX512 void maxPoolRowAvx512(const float *row0, const float *row1,
                                        int64_t w, int64_t base, int64_t count,
                                        float *out, int64_t *indices) {
  const __mmask16 lanes = __mmask16((1u << count) - 1);
  // 2 * count input columns: the first 16 and the rest.
  const int64_t inputs = 2 * count;
  const __mmask16 lo = __mmask16(inputs >= 16 ? 0xffff : (1u << inputs) - 1);
  const __mmask16 hi = __mmask16(inputs > 16 ? (1u << (inputs - 16)) - 1 : 0);
  __m512 v0, v1, v2, v3;
  splitRow(row0, lo, hi, v0, v1);
  splitRow(row1, lo, hi, v2, v3);
  // The offset inside the window of the current best: 0, 1, w or w + 1.
  __m512 best = v0;
  __m512i at = _mm512_setzero_si512();
  consider(v1, 1, best, at);
  consider(v2, int32_t(w), best, at);
  consider(v3, int32_t(w + 1), best, at);
  _mm512_mask_storeu_ps(out, lanes, best);
  // index = base + 2 * lane + offset, in 64 bits.
  const __m512i lane2 = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                          22, 24, 26, 28, 30);
  const __m512i rel = _mm512_add_epi32(lane2, at);
  const __m512i base64 = _mm512_set1_epi64(base);
  __m512i first = _mm512_add_epi64(
      base64, _mm512_cvtepi32_epi64(_mm512_castsi512_si256(rel)));
  __m512i second = _mm512_add_epi64(
      base64, _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(rel, 1)));
  _mm512_mask_storeu_epi64(indices, __mmask8(lanes & 0xff), first);
  _mm512_mask_storeu_epi64(indices + 8, __mmask8(lanes >> 8), second);
}

TCC_TARGET_AVX512 void maxPoolPlanesAvx512(const float *input, int64_t planes,
                                           int64_t h, int64_t w, int64_t oh,
                                           int64_t ow, float *out,
                                           int64_t *indices) {
  for (int64_t p = 0; p < planes; ++p) {
    const float *plane = input + p * h * w;
    for (int64_t y = 0; y < oh; ++y) {
      const float *row0 = plane + 2 * y * w;
      float *o = out + (p * oh + y) * ow;
      int64_t *i = indices + (p * oh + y) * ow;
      for (int64_t x = 0; x < ow; x += 16) {
        const int64_t count = ow - x < 16 ? ow - x : 16;
        maxPoolRowAvx512(row0 + 2 * x, row0 + w + 2 * x, w, 2 * y * w + 2 * x,
                         count, o + x, i + x);
      }
    }
  }
}

} // namespace
#endif

bool maxPool2x2Float(const float *input, int64_t planes, int64_t h, int64_t w,
                     int64_t oh, int64_t ow, float *out, int64_t *indices) {
#if TCC_HAVE_ISA_VARIANTS
  // Offsets inside a window must fit the 32-bit lanes.
  if (activeIsa() == Isa::Avx512 && w < (int64_t(1) << 30)) {
    maxPoolPlanesAvx512(input, planes, h, w, oh, ow, out, indices);
    return true;
  }
#endif
  return false;
}

} // namespace detail
} // namespace tcc
