//===- QKernelsAvx2.cpp - int8 variant: AVX2 without VNNI, 3x16 tile ------===//
//
// AVX2's byte multiply-add, vpmaddubsw, sums two u8 x s8 products into a
// saturating int16: 255 * 127 * 2 overflows it, so on full-range data it
// gives wrong sums (the trouble of ONNX Runtime's AVX2 u8s8 path without
// reduce_range). Here both operands are widened to int16 first (A when it
// is packed, B as it is loaded) and multiplied with vpmaddwd, whose two
// products per int32 lane (at most 2 * 255 * 128) cannot overflow: exact
// for every input, at about half the throughput of vpmaddubsw. Splitting
// an operand (b = 16 h + l) to keep vpmaddubsw exact would take two of
// them plus a shift and widening adds per step: more work, not less.
//
// Each int32 lane holds one column's two partial sums (k = 4g, 4g + 1 and
// 4g + 2, 4g + 3), added together once at the end. The tile is 3 rows x 16
// columns: 12 ymm accumulators, one of B, A broadcast.
//
//===----------------------------------------------------------------------===//

#include "QMicroKernel.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

#define TCC_TARGET __attribute__((target(TCC_ISA_AVX2_FEATURES)))

#include "QEpilogue.inc"

constexpr int kMR = 3, kNR = 16;

// qpack_a_bytes's layout with int16 elements.
TCC_TARGET void pack_a_int16(const uint8_t *a, int64_t lda, int64_t rows,
                             int64_t k0, int64_t groups, int64_t k, int mr,
                             uint8_t flip, void *dst) {
  int16_t *d = static_cast<int16_t *>(dst);
  const int64_t valid = std::max<int64_t>(
      0, std::min(groups * kQKGroup, k - k0));
  const int64_t whole = valid / kQKGroup;
  for (int64_t i = 0; i < rows; i += mr, d += groups * kQKGroup * mr) {
    const int present = int(std::min<int64_t>(mr, rows - i));
    for (int r = 0; r < mr; ++r) {
      int16_t *out = d + r * kQKGroup;
      const uint8_t *src = a + (i + r) * lda + k0;
      for (int64_t g = 0; g < groups; ++g)
        for (int t = 0; t < kQKGroup; ++t) {
          const int64_t kk = g * kQKGroup + t;
          out[g * mr * kQKGroup + t] =
              r < present && (g < whole || kk < valid)
                  ? int16_t(uint8_t(src[kk] ^ flip))
                  : int16_t(0);
        }
    }
  }
}

template <int R>
TCC_TARGET void microkernel_rows(int64_t groups, const int16_t *a,
                                 const int8_t *b, int32_t *acc,
                                 bool accumulate) {
  // c[r][v]: columns 4v..4v+3, two partial sums each.
  __m256i c[R][4];
#pragma GCC unroll 3
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v)
      c[r][v] = _mm256_setzero_si256();
  for (int64_t g = 0; g < groups; ++g) {
    __m256i ar[R];
#pragma GCC unroll 3
    for (int r = 0; r < R; ++r) {
      int64_t quad;
      std::memcpy(&quad, a + r * kQKGroup, sizeof quad);
      ar[r] = _mm256_set1_epi64x(quad);
    }
#pragma GCC unroll 4
    for (int v = 0; v < 4; ++v) {
      const __m256i bw = _mm256_cvtepi8_epi16(
          _mm_loadu_si128(reinterpret_cast<const __m128i *>(b + 16 * v)));
#pragma GCC unroll 3
      for (int r = 0; r < R; ++r)
        c[r][v] = _mm256_add_epi32(c[r][v], _mm256_madd_epi16(bw, ar[r]));
    }
    a += kMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
  }
#pragma GCC unroll 3
  for (int r = 0; r < R; ++r) {
    // hadd leaves 64-bit pairs of columns (0,1) (4,5) (2,3) (6,7): reorder.
    __m256i lo = _mm256_permute4x64_epi64(_mm256_hadd_epi32(c[r][0], c[r][1]),
                                          0xD8);
    __m256i hi = _mm256_permute4x64_epi64(_mm256_hadd_epi32(c[r][2], c[r][3]),
                                          0xD8);
    __m256i *out = reinterpret_cast<__m256i *>(acc + r * kQPanelWidth);
    if (accumulate) {
      lo = _mm256_add_epi32(lo, _mm256_loadu_si256(out));
      hi = _mm256_add_epi32(hi, _mm256_loadu_si256(out + 1));
    }
    _mm256_storeu_si256(out, lo);
    _mm256_storeu_si256(out + 1, hi);
  }
}

using RowKernel = void (*)(int64_t, const int16_t *, const int8_t *,
                           int32_t *, bool);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel_rows<1>, microkernel_rows<2>, microkernel_rows<3>};

void microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                 int32_t *acc, bool accumulate) {
  kRowKernels[rows - 1](groups, static_cast<const int16_t *>(a), b, acc,
                        accumulate);
}

const QIsaKernels kKernels = {"avx2",
                              TCC_ISA_AVX2_FEATURES,
                              Isa::Avx2,
                              kMR,
                              kNR,
                              2,
                              0,
                              pack_a_int16,
                              microkernel,
                              epilogue_row,
                              epilogue_tile,
                              nullptr};

} // namespace

const QIsaKernels *int8_avx2() { return &kKernels; }

void qepilogue_row_avx2(const QEpilogue &e, int32_t *acc,
                        const int32_t *offset, const float *scale, int cols,
                        int64_t row, int64_t col0) {
  epilogue_row(e, acc, offset, scale, cols, row, col0);
}

void qepilogue_tile_avx2(const QEpilogue &e, int32_t *acc,
                         const int32_t *offset, const float *scale, int rows,
                         int cols, int64_t row, int64_t col0) {
  epilogue_tile(e, acc, offset, scale, rows, cols, row, col0);
}

} // namespace kernels
} // namespace runtime
} // namespace tcc
