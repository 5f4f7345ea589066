//===- QKernelsAvx512Vnni.cpp - int8 variant: AVX-512 VNNI 12x32 tile -----===//
//
// A 12 x 32 int32 tile lives in 24 zmm accumulators; per group of 4 K
// values the kernel loads two vectors of the B panel (32 columns x 4
// bytes) and broadcasts 4 bytes of A per row: 24 vpdpbusd (u8 x s8 -> s32,
// no intermediate saturation) for 14 loads. Every function carries
// TCC_TARGET and internal linkage (Isa.h says why).
//
//===----------------------------------------------------------------------===//

#include "QMicroKernel.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstring>

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), which
// -Wmaybe-uninitialized reports at every use (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

#define TCC_TARGET __attribute__((target(TCC_INT8_AVX512VNNI_FEATURES)))
#define TCC_INLINE TCC_TARGET inline __attribute__((always_inline))

#include "QEpilogue.inc"

using V = __m512;
#include "Transpose16x16.inc"

constexpr int kMR = 12, kNR = 32;

// qpack_a_bytes with the 32-bit transpose in registers: a micro-panel's
// rows, 16 groups of 4 bytes at a time, become 16 groups of kMR rows.
TCC_TARGET void pack_a(const uint8_t *a, int64_t lda, int64_t rows,
                       int64_t k0, int64_t groups, int64_t k, int mr,
                       uint8_t flip, void *dst) {
  uint8_t *d = static_cast<uint8_t *>(dst);
  const int64_t valid =
      std::max<int64_t>(0, std::min(groups * kQKGroup, k - k0));
  const int64_t whole = valid / kQKGroup;
  const __m512i flips = _mm512_set1_epi8(char(flip));
  const __mmask16 panel_rows = __mmask16((1u << kMR) - 1);
  for (int64_t i = 0; i < rows; i += kMR, d += groups * kQKGroup * kMR) {
    const int present = int(std::min<int64_t>(kMR, rows - i));
    const uint8_t *src = a + i * lda + k0;
    for (int64_t g0 = 0; g0 < whole; g0 += 16) {
      const int n = int(std::min<int64_t>(16, whole - g0));
      const __mmask16 in = __mmask16((1u << n) - 1);
      V r[16];
#pragma GCC unroll 16
      for (int row = 0; row < 16; ++row)
        r[row] = row < present
                     ? _mm512_castsi512_ps(_mm512_xor_si512(
                           _mm512_maskz_loadu_epi32(
                               in, src + row * lda + g0 * kQKGroup),
                           flips))
                     : _mm512_setzero_ps();
      transpose16x16(r);
#pragma GCC unroll 16
      for (int j = 0; j < 16; ++j)
        if (j < n)
          _mm512_mask_storeu_ps(d + (g0 + j) * kQKGroup * kMR, panel_rows,
                                r[j]);
    }
    // The group k cuts and the padding past it.
    for (int64_t g = whole; g < groups; ++g)
      for (int row = 0; row < kMR; ++row)
        for (int t = 0; t < kQKGroup; ++t) {
          const int64_t kk = g * kQKGroup + t;
          d[(g * kMR + row) * kQKGroup + t] =
              row < present && kk < valid
                  ? uint8_t(src[row * lda + kk] ^ flip)
                  : uint8_t(0);
        }
  }
}

// One group of K for R rows into accumulators c0[0..R), c1[0..R).
template <int R, bool kDirect>
TCC_INLINE void group_step(__m512i *c0, __m512i *c1, const uint8_t *&a,
                           const int8_t *&b, int64_t lda) {
  const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 64);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    int32_t quad;
    std::memcpy(&quad, a + (kDirect ? r * lda : r * kQKGroup), sizeof quad);
    const __m512i ar = _mm512_set1_epi32(quad);
    c0[r] = _mm512_dpbusd_epi32(c0[r], ar, b0);
    c1[r] = _mm512_dpbusd_epi32(c1[r], ar, b1);
  }
  a += kDirect ? kQKGroup : kMR * kQKGroup;
  b += kQPanelWidth * kQKGroup;
}

// A(r, g) at a[r * lda + 4 g] when kDirect, else at a[(g * kMR + r) * 4].
// A tile of one or two rows has too few accumulators to hide vpdpbusd's
// latency: it keeps kSets of them, for groups g = s mod kSets, and adds
// them at the end (integer sums: the order does not matter).
template <int R, bool kDirect = false>
TCC_TARGET void microkernel_rows(int64_t groups, const uint8_t *a,
                                 const int8_t *b, int32_t *acc,
                                 bool accumulate, int64_t lda = 0) {
  constexpr int kSets = R == 1 ? 4 : R == 2 ? 2 : 1;
  __m512i c0[R * kSets], c1[R * kSets];
#pragma GCC unroll 12
  for (int r = 0; r < R * kSets; ++r)
    c0[r] = c1[r] = _mm512_setzero_si512();
  int64_t g = 0;
  for (; g + kSets <= groups; g += kSets)
#pragma GCC unroll 4
    for (int set = 0; set < kSets; ++set)
      group_step<R, kDirect>(c0 + set * R, c1 + set * R, a, b, lda);
  for (; g < groups; ++g)
    group_step<R, kDirect>(c0, c1, a, b, lda);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int set = 1; set < kSets; ++set) {
      c0[r] = _mm512_add_epi32(c0[r], c0[set * R + r]);
      c1[r] = _mm512_add_epi32(c1[r], c1[set * R + r]);
    }
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    int32_t *out = acc + r * kQPanelWidth;
    if (accumulate) {
      c0[r] = _mm512_add_epi32(c0[r], _mm512_loadu_si512(out));
      c1[r] = _mm512_add_epi32(c1[r], _mm512_loadu_si512(out + 16));
    }
    _mm512_storeu_si512(out, c0[r]);
    _mm512_storeu_si512(out + 16, c1[r]);
  }
}

using RowKernel = void (*)(int64_t, const uint8_t *, const int8_t *,
                           int32_t *, bool, int64_t);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel_rows<1>, microkernel_rows<2>,  microkernel_rows<3>,
    microkernel_rows<4>, microkernel_rows<5>,  microkernel_rows<6>,
    microkernel_rows<7>, microkernel_rows<8>,  microkernel_rows<9>,
    microkernel_rows<10>, microkernel_rows<11>, microkernel_rows<12>};

void microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                 int32_t *acc, bool accumulate) {
  kRowKernels[rows - 1](groups, static_cast<const uint8_t *>(a), b, acc,
                        accumulate, 0);
}

void direct(int64_t groups, const uint8_t *a, int64_t lda, const int8_t *b,
            int32_t *acc) {
  microkernel_rows<kMR, true>(groups, a, b, acc, false, lda);
}

const QIsaKernels kKernels = {"avx512vnni",
                              TCC_INT8_AVX512VNNI_FEATURES,
                              Isa::Avx512,
                              kMR,
                              kNR,
                              1,
                              0,
                              pack_a,
                              microkernel,
                              epilogue_row,
                              epilogue_tile,
                              direct};

} // namespace

const QIsaKernels *int8_avx512vnni() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
