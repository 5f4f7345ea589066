//===- KernelsAvx2.cpp - AVX2+FMA variant: 6x16 ymm microkernel -----------===//
//
// A 6 x 16 tile of C lives in 12 ymm accumulators; per k the kernel loads
// two vectors of the B panel and broadcasts 6 values of A. Every function
// here carries TCC_TARGET and internal linkage (see Isa.h).
//
//===----------------------------------------------------------------------===//

#include "MicroKernel.h"

#include <immintrin.h>

#include <array>
#include <utility>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

#define TCC_TARGET __attribute__((target(TCC_ISA_AVX2_FEATURES)))
#define TCC_INLINE TCC_TARGET inline __attribute__((always_inline))

using V = __m256;
using M = __m256;
constexpr int kWidth = 8;

TCC_INLINE V vset(float x) { return _mm256_set1_ps(x); }
TCC_INLINE V vload(const float *p) { return _mm256_loadu_ps(p); }
TCC_INLINE void vstore(float *p, V v) { _mm256_storeu_ps(p, v); }
TCC_INLINE V vadd(V a, V b) { return _mm256_add_ps(a, b); }
TCC_INLINE V vsub(V a, V b) { return _mm256_sub_ps(a, b); }
TCC_INLINE V vmul(V a, V b) { return _mm256_mul_ps(a, b); }
TCC_INLINE V vdiv(V a, V b) { return _mm256_div_ps(a, b); }
TCC_INLINE V vfma(V a, V b, V c) { return _mm256_fmadd_ps(a, b, c); }
TCC_INLINE V vmax(V a, V b) { return _mm256_max_ps(a, b); }
TCC_INLINE V vmin(V a, V b) { return _mm256_min_ps(a, b); }
TCC_INLINE V vabs(V v) {
  return _mm256_and_ps(v, _mm256_castsi256_ps(_mm256_set1_epi32(0x7fffffff)));
}
TCC_INLINE V vcopysign(V mag, V sign) {
  const V sign_bit = _mm256_castsi256_ps(_mm256_set1_epi32(int(0x80000000u)));
  return _mm256_or_ps(_mm256_andnot_ps(sign_bit, mag),
                      _mm256_and_ps(sign_bit, sign));
}
TCC_INLINE V vround(V v) {
  return _mm256_round_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
TCC_INLINE V vpow2i(V n) {
  __m256i e = _mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127));
  return _mm256_castsi256_ps(_mm256_slli_epi32(e, 23));
}
TCC_INLINE M vlt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_LT_OQ); }
TCC_INLINE M vgt(V a, V b) { return _mm256_cmp_ps(a, b, _CMP_GT_OQ); }
TCC_INLINE M visnan(V v) { return _mm256_cmp_ps(v, v, _CMP_UNORD_Q); }
TCC_INLINE V vselect(M m, V yes, V no) { return _mm256_blendv_ps(no, yes, m); }

#include "VecMath.inc"

TCC_INLINE float vhsum(V v) {
  __m128 x = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  x = _mm_add_ps(x, _mm_movehl_ps(x, x));
  x = _mm_add_ss(x, _mm_movehdup_ps(x));
  return _mm_cvtss_f32(x);
}

TCC_INLINE __m256i lane_mask(int64_t n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(int(n)),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}
TCC_INLINE V vload_partial(const float *p, int64_t n) {
  return _mm256_maskload_ps(p, lane_mask(n));
}
TCC_INLINE void vstore_partial(float *p, V v, int64_t n) {
  _mm256_maskstore_ps(p, lane_mask(n), v);
}

// Scalar loads rather than vgatherdps: no slower on AVX2 parts (Haswell and
// Zen 2/3 gather at about one element per cycle), and QEMU 7.2 computes
// wrong results for some gathers that real CPUs get right.
TCC_INLINE V vgather(const float *p, int64_t stride, int64_t n) {
  float lanes[kWidth] = {};
  for (int64_t i = 0; i < n; ++i)
    lanes[i] = p[i * stride];
  return vload(lanes);
}

#include "SmallGemm.inc"

// After SmallGemm.inc, whose partial loads it uses.
#include "Depthwise.inc"
#include "Im2col.inc"

constexpr int kMR = 6;
constexpr int kNR = 16;

// Lanes < cols set; masked loads never touch the other lanes' memory.
TCC_INLINE __m256i column_mask(int cols) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(cols),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

template <int R, bool kDirectA>
TCC_TARGET void microkernel(int64_t kc, const float *a, int64_t lda,
                            const float *b, int64_t ldb, int cols,
                            const TileStore &st) {
  V c0[R], c1[R];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r)
    c0[r] = c1[r] = _mm256_setzero_ps();
  for (int64_t k = 0; k < kc; ++k) {
    V b0 = _mm256_loadu_ps(b), b1 = _mm256_loadu_ps(b + kWidth);
#pragma GCC unroll 6
    for (int r = 0; r < R; ++r) {
      V ar = _mm256_broadcast_ss(a + (kDirectA ? r * lda : r));
      c0[r] = _mm256_fmadd_ps(ar, b0, c0[r]);
      c1[r] = _mm256_fmadd_ps(ar, b1, c1[r]);
    }
    a += kDirectA ? 1 : kMR;
    b += ldb;
  }

  const __m256i m0 = column_mask(cols), m1 = column_mask(cols - kWidth);
  const V alpha = vset(st.alpha);
  V bias0 = _mm256_setzero_ps(), bias1 = _mm256_setzero_ps();
  if (st.bias && !st.bias_per_row) {
    bias0 = _mm256_maskload_ps(st.bias, m0);
    bias1 = _mm256_maskload_ps(st.bias + kWidth, m1);
  }
  const V beta = vset(st.beta);
  // ReLU and clamp are applied before the store (a max or two); the other
  // activations are longer code, run over the stored tile afterwards.
  const bool in_registers = st.activation == TCC_ACTIVATION_RELU ||
                            st.activation == TCC_ACTIVATION_CLAMP;
  const V lo = vset(st.clamp_min), hi = vset(st.clamp_max);
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    float *cr = st.c + r * st.ldc;
    V x0 = vmul(c0[r], alpha), x1 = vmul(c1[r], alpha);
    if (st.accumulate) {
      x0 = vadd(x0, _mm256_maskload_ps(cr, m0));
      x1 = vadd(x1, _mm256_maskload_ps(cr + kWidth, m1));
    } else {
      if (st.bias) {
        V b0 = st.bias_per_row ? vset(st.bias[r]) : bias0;
        V b1 = st.bias_per_row ? vset(st.bias[r]) : bias1;
        x0 = vadd(x0, b0);
        x1 = vadd(x1, b1);
      }
      if (st.residual) {
        const float *rr = st.residual + r * st.ld_residual;
        x0 = vfma(beta, _mm256_maskload_ps(rr, m0), x0);
        x1 = vfma(beta, _mm256_maskload_ps(rr + kWidth, m1), x1);
      }
    }
    if (in_registers) {
      x0 = vrelu_or_clamp(x0, st.activation, lo, hi);
      x1 = vrelu_or_clamp(x1, st.activation, lo, hi);
    }
    _mm256_maskstore_ps(cr, m0, x0);
    _mm256_maskstore_ps(cr + kWidth, m1, x1);
  }
  if (st.activation != TCC_ACTIVATION_NONE && !in_registers)
    activate_rows(st.c, st.ldc, R, cols, st.activation, st.clamp_min,
                  st.clamp_max);
}

// Tiles of at most 8 columns (the last of a 16-column step whose width
// leaves 8 or fewer): one ymm per row instead of two, for up to 12 rows of
// packed A (two micro-panels, the second kc * kMR floats on) or 6 read in
// place. Each element gets the FMAs and the epilogue of the 6 x 16 kernel,
// so the same bits.
template <int R, bool kDirectA>
TCC_TARGET void narrow_microkernel(int64_t kc, const float *a, int64_t lda,
                                   const float *b, int64_t ldb, int cols,
                                   const TileStore &st) {
  static_assert(!kDirectA || R <= kMR, "6 rows at most in place");
  constexpr int kHalf = R < kMR ? R : kMR;
  V c[R];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r)
    c[r] = _mm256_setzero_ps();
  const float *a2 = R > kMR ? a + kMR * kc : a;
  for (int64_t k = 0; k < kc; ++k) {
    const V bk = _mm256_loadu_ps(b);
#pragma GCC unroll 6
    for (int r = 0; r < kHalf; ++r)
      c[r] = _mm256_fmadd_ps(_mm256_broadcast_ss(a + (kDirectA ? r * lda : r)),
                             bk, c[r]);
#pragma GCC unroll 6
    for (int r = kMR; r < R; ++r)
      c[r] = _mm256_fmadd_ps(_mm256_broadcast_ss(a2 + r - kMR), bk, c[r]);
    a += kDirectA ? 1 : kMR;
    a2 += kMR;
    b += ldb;
  }

  const __m256i m0 = column_mask(cols);
  const V alpha = vset(st.alpha);
  V bias0 = _mm256_setzero_ps();
  if (st.bias && !st.bias_per_row)
    bias0 = _mm256_maskload_ps(st.bias, m0);
  const V beta = vset(st.beta);
  const bool in_registers = st.activation == TCC_ACTIVATION_RELU ||
                            st.activation == TCC_ACTIVATION_CLAMP;
  const V lo = vset(st.clamp_min), hi = vset(st.clamp_max);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    float *cr = st.c + r * st.ldc;
    V x = vmul(c[r], alpha);
    if (st.accumulate) {
      x = vadd(x, _mm256_maskload_ps(cr, m0));
    } else {
      if (st.bias)
        x = vadd(x, st.bias_per_row ? vset(st.bias[r]) : bias0);
      if (st.residual)
        x = vfma(beta, _mm256_maskload_ps(st.residual + r * st.ld_residual, m0),
                 x);
    }
    if (in_registers)
      x = vrelu_or_clamp(x, st.activation, lo, hi);
    _mm256_maskstore_ps(cr, m0, x);
  }
  if (st.activation != TCC_ACTIVATION_NONE && !in_registers)
    activate_rows(st.c, st.ldc, R, cols, st.activation, st.clamp_min,
                  st.clamp_max);
}

using RowKernel = void (*)(int64_t, const float *, int64_t, const float *,
                           int64_t, int, const TileStore &);
constexpr RowKernel kRowKernels[kMR] = {microkernel<1, false>, microkernel<2, false>,
                                        microkernel<3, false>, microkernel<4, false>,
                                        microkernel<5, false>, microkernel<6, false>};
constexpr RowKernel kDirectRowKernels[kMR] = {microkernel<1, true>, microkernel<2, true>,
                                        microkernel<3, true>, microkernel<4, true>,
                                        microkernel<5, true>, microkernel<6, true>};

template <bool kDirectA, int... R>
constexpr std::array<RowKernel, sizeof...(R)>
narrow_kernels(std::integer_sequence<int, R...>) {
  return {narrow_microkernel<R + 1, kDirectA>...};
}
constexpr auto kNarrowKernels =
    narrow_kernels<false>(std::make_integer_sequence<int, 2 * kMR>());
constexpr auto kDirectNarrowKernels =
    narrow_kernels<true>(std::make_integer_sequence<int, kMR>());

TCC_TARGET void dispatch_narrow_microkernel(int64_t kc, const float *a,
                                            int64_t lda, const float *b,
                                            int64_t ldb, int rows, int cols,
                                            const TileStore &st) {
  (lda ? kDirectNarrowKernels[rows - 1] : kNarrowKernels[rows - 1])(
      kc, a, lda, b, ldb, cols, st);
}

TCC_TARGET void dispatch_microkernel(int64_t kc, const float *a, int64_t lda,
                                     const float *b, int64_t ldb, int rows,
                                     int cols, const TileStore &st) {
  (lda ? kDirectRowKernels : kRowKernels)[rows - 1](kc, a, lda, b, ldb, cols,
                                                    st);
}

constexpr int kKC = 256, kMC = 96, kNC = 1024;
constexpr int kFewRowsKC = kKC; // untuned: as deep as kKC
static_assert(kMR <= kMaxMr && kKC <= kFewRowsKC && kFewRowsKC <= kMaxKc &&
                  kMC <= kMaxMc && kNC <= kMaxNc && kMC % kMR == 0 &&
                  kNC % kPanelWidth == 0,
              "blocking must fit the scratch sizes of MicroKernel.h");

const IsaKernels kKernels = {Isa::Avx2,
                             kMR,
                             kNR,
                             kKC,
                             kFewRowsKC,
                             kMC,
                             kNC,
                             dispatch_microkernel,
                             dispatch_narrow_microkernel,
                             kWidth,
                             pack_a_portable,
                             pack_b_panel_portable,
                             activate,
                             conv_columns,
                             im2col_nhwc_pixels,
                             small_rows,
                             small_dots,
                             small_panels,
                             depthwise_nchw_row,
                             depthwise_nhwc_row};

} // namespace

const IsaKernels *avx2_kernels() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
