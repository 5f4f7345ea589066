//===- QKernelsAvxVnni.cpp - int8 variant: AVX-VNNI (VEX) 6x16 tile -------===//
//
// The VEX-encoded vpdpbusd on ymm (CPUs with AVX-VNNI but no AVX-512, and
// the AVX2 level of CPUs with both): a 6 x 16 int32 tile in 12 ymm
// accumulators, reading half of a 32-column B panel per call; per group of
// 4 K values, two loads of B and one broadcast of A per row, 12 vpdpbusd.
// The epilogue is the AVX2 variant's (the same vectors, the same bits).
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

#define TCC_TARGET __attribute__((target(TCC_INT8_AVXVNNI_FEATURES)))

constexpr int kMR = 6, kNR = 16;

// A(r, g) at a[r * lda + 4 g] when kDirect, else at a[(g * kMR + r) * 4].
template <int R, bool kDirect = false>
TCC_TARGET void microkernel_rows(int64_t groups, const uint8_t *a,
                                 const int8_t *b, int32_t *acc,
                                 bool accumulate, int64_t lda = 0) {
  __m256i c0[R], c1[R];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r)
    c0[r] = c1[r] = _mm256_setzero_si256();
  for (int64_t g = 0; g < groups; ++g) {
    const __m256i b0 = _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b));
    const __m256i b1 =
        _mm256_loadu_si256(reinterpret_cast<const __m256i *>(b + 32));
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + (kDirect ? r * lda : r * kQKGroup), sizeof quad);
      const __m256i ar = _mm256_set1_epi32(quad);
      c0[r] = _mm256_dpbusd_avx_epi32(c0[r], ar, b0);
      c1[r] = _mm256_dpbusd_avx_epi32(c1[r], ar, b1);
    }
    a += kDirect ? kQKGroup : kMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
  }
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    __m256i *out = reinterpret_cast<__m256i *>(acc + r * kQPanelWidth);
    if (accumulate) {
      c0[r] = _mm256_add_epi32(c0[r], _mm256_loadu_si256(out));
      c1[r] = _mm256_add_epi32(c1[r], _mm256_loadu_si256(out + 1));
    }
    _mm256_storeu_si256(out, c0[r]);
    _mm256_storeu_si256(out + 1, c1[r]);
  }
}

using RowKernel = void (*)(int64_t, const uint8_t *, const int8_t *,
                           int32_t *, bool, int64_t);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel_rows<1>, microkernel_rows<2>, microkernel_rows<3>,
    microkernel_rows<4>, microkernel_rows<5>, microkernel_rows<6>};

void microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                 int32_t *acc, bool accumulate) {
  kRowKernels[rows - 1](groups, static_cast<const uint8_t *>(a), b, acc,
                        accumulate, 0);
}

void direct(int64_t groups, const uint8_t *a, int64_t lda, const int8_t *b,
            int32_t *acc) {
  microkernel_rows<kMR, true>(groups, a, b, acc, false, lda);
}

const QIsaKernels kKernels = {"avxvnni",
                              TCC_INT8_AVXVNNI_FEATURES,
                              Isa::Avx2,
                              kMR,
                              kNR,
                              1,
                              0,
                              qpack_a_bytes,
                              microkernel,
                              qepilogue_row_avx2,
                              qepilogue_tile_avx2,
                              direct};

} // namespace

const QIsaKernels *int8_avxvnni() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
