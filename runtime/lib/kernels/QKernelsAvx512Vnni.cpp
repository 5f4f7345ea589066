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

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

#define TCC_TARGET __attribute__((target(TCC_INT8_AVX512VNNI_FEATURES)))

#include "QEpilogue.inc"

constexpr int kMR = 12, kNR = 32;

template <int R>
TCC_TARGET void microkernel_rows(int64_t groups, const uint8_t *a,
                                 const int8_t *b, int32_t *acc,
                                 bool accumulate) {
  __m512i c0[R], c1[R];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r)
    c0[r] = c1[r] = _mm512_setzero_si512();
  for (int64_t g = 0; g < groups; ++g) {
    const __m512i b0 = _mm512_loadu_si512(b), b1 = _mm512_loadu_si512(b + 64);
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * kQKGroup, sizeof quad);
      const __m512i ar = _mm512_set1_epi32(quad);
      c0[r] = _mm512_dpbusd_epi32(c0[r], ar, b0);
      c1[r] = _mm512_dpbusd_epi32(c1[r], ar, b1);
    }
    a += kMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
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
                           int32_t *, bool);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel_rows<1>, microkernel_rows<2>,  microkernel_rows<3>,
    microkernel_rows<4>, microkernel_rows<5>,  microkernel_rows<6>,
    microkernel_rows<7>, microkernel_rows<8>,  microkernel_rows<9>,
    microkernel_rows<10>, microkernel_rows<11>, microkernel_rows<12>};

void microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                 int32_t *acc, bool accumulate) {
  kRowKernels[rows - 1](groups, static_cast<const uint8_t *>(a), b, acc,
                        accumulate);
}

const QIsaKernels kKernels = {"avx512vnni",  TCC_INT8_AVX512VNNI_FEATURES,
                              Isa::Avx512,   kMR,
                              kNR,           1,
                              0,             qpack_a_bytes,
                              microkernel,   epilogue_row};

} // namespace

const QIsaKernels *int8_avx512vnni() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
