//===- KernelsAvx512.cpp - AVX-512 variant: 12x32 zmm microkernel ---------===//
//
// A 12 x 32 tile of C lives in 24 zmm accumulators; per k the kernel loads
// two vectors of the B panel and broadcasts 12 values of A (24 FMAs for 14
// loads). Every function here carries TCC_TARGET and internal linkage (see
// Isa.h for why no -mavx512f flag is used).
//
//===----------------------------------------------------------------------===//

#include "MicroKernel.h"

#include <immintrin.h>

#include <array>
#include <utility>

// GCC 12's AVX-512 intrinsics start from _mm512_undefined_ps(), which
// -Wmaybe-uninitialized reports at every use (GCC bug 105593).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

// A subset of TCC_ISA_AVX512_FEATURES, the level that selects this variant:
// the microkernels need no AVX-512 BW/DQ/VL instructions.
#define TCC_TARGET __attribute__((target("avx512f,avx2,fma")))
#define TCC_INLINE TCC_TARGET inline __attribute__((always_inline))

using V = __m512;
using M = __mmask16;
constexpr int kWidth = 16;

TCC_INLINE V vset(float x) { return _mm512_set1_ps(x); }
TCC_INLINE V vload(const float *p) { return _mm512_loadu_ps(p); }
TCC_INLINE void vstore(float *p, V v) { _mm512_storeu_ps(p, v); }
TCC_INLINE V vadd(V a, V b) { return _mm512_add_ps(a, b); }
TCC_INLINE V vsub(V a, V b) { return _mm512_sub_ps(a, b); }
TCC_INLINE V vmul(V a, V b) { return _mm512_mul_ps(a, b); }
TCC_INLINE V vdiv(V a, V b) { return _mm512_div_ps(a, b); }
TCC_INLINE V vfma(V a, V b, V c) { return _mm512_fmadd_ps(a, b, c); }
TCC_INLINE V vmax(V a, V b) { return _mm512_max_ps(a, b); }
TCC_INLINE V vmin(V a, V b) { return _mm512_min_ps(a, b); }
TCC_INLINE V vabs(V v) {
  return _mm512_castsi512_ps(
      _mm512_and_si512(_mm512_castps_si512(v), _mm512_set1_epi32(0x7fffffff)));
}
TCC_INLINE V vcopysign(V mag, V sign) {
  __m512i m =
      _mm512_and_si512(_mm512_castps_si512(mag), _mm512_set1_epi32(0x7fffffff));
  __m512i s = _mm512_and_si512(_mm512_castps_si512(sign),
                               _mm512_set1_epi32(int(0x80000000u)));
  return _mm512_castsi512_ps(_mm512_or_si512(m, s));
}
TCC_INLINE V vround(V v) {
  return _mm512_roundscale_ps(v, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
}
TCC_INLINE V vpow2i(V n) {
  __m512i e = _mm512_add_epi32(_mm512_cvtps_epi32(n), _mm512_set1_epi32(127));
  return _mm512_castsi512_ps(_mm512_slli_epi32(e, 23));
}
TCC_INLINE M vlt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_LT_OQ); }
TCC_INLINE M vgt(V a, V b) { return _mm512_cmp_ps_mask(a, b, _CMP_GT_OQ); }
TCC_INLINE M visnan(V v) { return _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q); }
TCC_INLINE V vselect(M m, V yes, V no) {
  return _mm512_mask_blend_ps(m, no, yes);
}

#define TCC_HAS_VSCALEF
TCC_INLINE V vscalef(V p, V n) { return _mm512_scalef_ps(p, n); }

#include "VecMath.inc"

TCC_INLINE float vhsum(V v) { return _mm512_reduce_add_ps(v); }

TCC_INLINE M column_mask(int cols) {
  return cols >= kWidth ? M(0xffff) : cols <= 0 ? M(0) : M((1u << cols) - 1);
}

TCC_INLINE V vload_partial(const float *p, int64_t n) {
  return _mm512_maskz_loadu_ps(column_mask(int(n)), p);
}
TCC_INLINE void vstore_partial(float *p, V v, int64_t n) {
  _mm512_mask_storeu_ps(p, column_mask(int(n)), v);
}

TCC_INLINE V vgather(const float *p, int64_t stride, int64_t n) {
  const __m512i index = _mm512_mullo_epi32(
      _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15),
      _mm512_set1_epi32(int(stride)));
  return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), column_mask(int(n)),
                                  index, p, 4);
}

#include "SmallGemm.inc"

// After SmallGemm.inc, whose partial loads it uses.
#include "Depthwise.inc"
#include "Im2col.inc"

constexpr int kMR = 12;
constexpr int kNR = 32;

template <int R, bool kDirectA>
TCC_TARGET void microkernel(int64_t kc, const float *a, int64_t lda,
                            const float *b, int64_t ldb, int cols,
                            const TileStore &st) {
  V c0[R], c1[R];
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r)
    c0[r] = c1[r] = _mm512_setzero_ps();
    // The tile of C is read or written after the loop: fetch it meanwhile.
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    _mm_prefetch(reinterpret_cast<const char *>(st.c + r * st.ldc),
                 _MM_HINT_T0);
    _mm_prefetch(reinterpret_cast<const char *>(st.c + r * st.ldc + 31),
                 _MM_HINT_T0);
  }
  for (int64_t k = 0; k < kc; ++k) {
    V b0 = _mm512_loadu_ps(b), b1 = _mm512_loadu_ps(b + kWidth);
#pragma GCC unroll 12
    for (int r = 0; r < R; ++r) {
      V ar = _mm512_set1_ps(a[kDirectA ? r * lda : r]);
      c0[r] = _mm512_fmadd_ps(ar, b0, c0[r]);
      c1[r] = _mm512_fmadd_ps(ar, b1, c1[r]);
    }
    a += kDirectA ? 1 : kMR;
    b += ldb;
  }

  const M m0 = column_mask(cols), m1 = column_mask(cols - kWidth);
  const V alpha = vset(st.alpha);
  V bias0 = _mm512_setzero_ps(), bias1 = _mm512_setzero_ps();
  if (st.bias && !st.bias_per_row) {
    bias0 = _mm512_maskz_loadu_ps(m0, st.bias);
    bias1 = _mm512_maskz_loadu_ps(m1, st.bias + kWidth);
  }
  const V beta = vset(st.beta);
  // ReLU and clamp are applied before the store (a max or two); the other
  // activations are longer code, run over the stored tile afterwards.
  const bool in_registers = st.activation == TCC_ACTIVATION_RELU ||
                            st.activation == TCC_ACTIVATION_CLAMP;
  const V lo = vset(st.clamp_min), hi = vset(st.clamp_max);
#pragma GCC unroll 12
  for (int r = 0; r < R; ++r) {
    float *cr = st.c + r * st.ldc;
    V x0 = vmul(c0[r], alpha), x1 = vmul(c1[r], alpha);
    if (st.accumulate) {
      x0 = vadd(x0, _mm512_maskz_loadu_ps(m0, cr));
      x1 = vadd(x1, _mm512_maskz_loadu_ps(m1, cr + kWidth));
    } else {
      if (st.bias) {
        V b0 = st.bias_per_row ? vset(st.bias[r]) : bias0;
        V b1 = st.bias_per_row ? vset(st.bias[r]) : bias1;
        x0 = vadd(x0, b0);
        x1 = vadd(x1, b1);
      }
      if (st.residual) {
        const float *rr = st.residual + r * st.ld_residual;
        x0 = vfma(beta, _mm512_maskz_loadu_ps(m0, rr), x0);
        x1 = vfma(beta, _mm512_maskz_loadu_ps(m1, rr + kWidth), x1);
      }
    }
    if (in_registers) {
      x0 = vrelu_or_clamp(x0, st.activation, lo, hi);
      x1 = vrelu_or_clamp(x1, st.activation, lo, hi);
    }
    _mm512_mask_storeu_ps(cr, m0, x0);
    _mm512_mask_storeu_ps(cr + kWidth, m1, x1);
  }
  if (st.activation != TCC_ACTIVATION_NONE && !in_registers)
    activate_rows(st.c, st.ldc, R, cols, st.activation, st.clamp_min,
                  st.clamp_max);
}

// Tiles of at most 16 columns (the last of a panel whose width leaves 16
// or fewer, such as n = 16, 80 or 112): the 12 x 32 kernel would spend half
// its FMAs on zero columns. One zmm per row, for up to 24 rows of packed A
// (two micro-panels, the second kc * kMR floats on) or 12 read in place.
// Each element gets the FMAs and the epilogue of the 12 x 32 kernel, so the
// same bits.
template <int R, bool kDirectA>
TCC_TARGET void narrow_microkernel(int64_t kc, const float *a, int64_t lda,
                                   const float *b, int64_t ldb, int cols,
                                   const TileStore &st) {
  constexpr int kHalf = R < kMR ? R : kMR;
  V c[R];
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r)
    c[r] = _mm512_setzero_ps();
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r)
    _mm_prefetch(reinterpret_cast<const char *>(st.c + r * st.ldc),
                 _MM_HINT_T0);
  static_assert(!kDirectA || R <= kMR, "12 rows at most in place");
  const float *a2 = R > kMR ? a + kMR * kc : a;
  for (int64_t k = 0; k < kc; ++k) {
    const V bk = _mm512_loadu_ps(b);
#pragma GCC unroll 12
    for (int r = 0; r < kHalf; ++r)
      c[r] = _mm512_fmadd_ps(_mm512_set1_ps(a[kDirectA ? r * lda : r]), bk,
                             c[r]);
#pragma GCC unroll 12
    for (int r = kMR; r < R; ++r)
      c[r] = _mm512_fmadd_ps(_mm512_set1_ps(a2[r - kMR]), bk, c[r]);
    a += kDirectA ? 1 : kMR;
    a2 += kMR;
    b += ldb;
  }

  const M m0 = column_mask(cols);
  const V alpha = vset(st.alpha);
  V bias0 = _mm512_setzero_ps();
  if (st.bias && !st.bias_per_row)
    bias0 = _mm512_maskz_loadu_ps(m0, st.bias);
  const V beta = vset(st.beta);
  const bool in_registers = st.activation == TCC_ACTIVATION_RELU ||
                            st.activation == TCC_ACTIVATION_CLAMP;
  const V lo = vset(st.clamp_min), hi = vset(st.clamp_max);
#pragma GCC unroll 24
  for (int r = 0; r < R; ++r) {
    float *cr = st.c + r * st.ldc;
    V x = vmul(c[r], alpha);
    if (st.accumulate) {
      x = vadd(x, _mm512_maskz_loadu_ps(m0, cr));
    } else {
      if (st.bias)
        x = vadd(x, st.bias_per_row ? vset(st.bias[r]) : bias0);
      if (st.residual)
        x = vfma(beta, _mm512_maskz_loadu_ps(m0, st.residual + r * st.ld_residual),
                 x);
    }
    if (in_registers)
      x = vrelu_or_clamp(x, st.activation, lo, hi);
    _mm512_mask_storeu_ps(cr, m0, x);
  }
  if (st.activation != TCC_ACTIVATION_NONE && !in_registers)
    activate_rows(st.c, st.ldc, R, cols, st.activation, st.clamp_min,
                  st.clamp_max);
}

#include "Transpose16x16.inc"

// Transposes `lines` (<= 16) strided lines of `len` (<= 16) floats: line i
// starts at src + i * stride. Writes out_len floats of column j (lane i =
// line i, zero past `lines`) to dst + j * dst_stride, for j < len.
TCC_INLINE void transpose_block(const float *src, int64_t stride, int lines,
                                int len, float *dst, int64_t dst_stride,
                                M out_mask) {
  V r[16];
  const M in_mask = column_mask(len);
#pragma GCC unroll 16
  for (int i = 0; i < 16; ++i)
    r[i] = i < lines ? _mm512_maskz_loadu_ps(in_mask, src + i * stride)
                     : _mm512_setzero_ps();
  transpose16x16(r);
#pragma GCC unroll 16
  for (int j = 0; j < 16; ++j) // constant indices keep r in registers
    if (j < len)
      _mm512_mask_storeu_ps(dst + j * dst_stride, out_mask, r[j]);
}

TCC_TARGET void pack_a(const float *a, int64_t row_stride, int64_t col_stride,
                       int64_t rows, int64_t kc, int mr, float *dst) {
  const M panel_mask = column_mask(kMR);
  for (int64_t i = 0; i < rows; i += kMR, dst += kMR * kc) {
    const int lines = int(rows - i < kMR ? rows - i : kMR);
    const float *src = a + i * row_stride;
    if (col_stride == 1) { // rows contiguous: transpose 16 k at a time
      for (int64_t k = 0; k < kc; k += 16)
        transpose_block(src + k, row_stride, lines,
                        int(kc - k < 16 ? kc - k : 16), dst + k * kMR, kMR,
                        panel_mask);
    } else if (row_stride == 1) { // A transposed: copy kMR rows per k
      const M in_mask = column_mask(lines);
      for (int64_t k = 0; k < kc; ++k)
        _mm512_mask_storeu_ps(
            dst + k * kMR, panel_mask,
            _mm512_maskz_loadu_ps(in_mask, src + k * col_stride));
    } else {
      pack_a_portable(src, row_stride, col_stride, lines, kc, kMR, dst);
    }
  }
}

TCC_TARGET void pack_b_panel(const float *b, int64_t k_stride,
                             int64_t col_stride, int64_t kc, int cols,
                             float *dst) {
  if (col_stride == 1) {
    const M m0 = column_mask(cols), m1 = column_mask(cols - kWidth);
    for (int64_t k = 0; k < kc; ++k) {
      const float *src = b + k * k_stride;
      _mm512_storeu_ps(dst + k * kPanelWidth, _mm512_maskz_loadu_ps(m0, src));
      _mm512_storeu_ps(dst + k * kPanelWidth + kWidth,
                       _mm512_maskz_loadu_ps(m1, src + kWidth));
    }
  } else if (k_stride == 1) { // B transposed: columns contiguous
    for (int half = 0; half < 2; ++half) {
      int lines = cols - half * kWidth;
      lines = lines < 0 ? 0 : lines > kWidth ? kWidth : lines;
      for (int64_t k = 0; k < kc; k += 16)
        transpose_block(b + half * kWidth * col_stride + k, col_stride, lines,
                        int(kc - k < 16 ? kc - k : 16),
                        dst + k * kPanelWidth + half * kWidth, kPanelWidth,
                        M(0xffff));
    }
  } else {
    pack_b_panel_portable(b, k_stride, col_stride, kc, cols, dst);
  }
}

using RowKernel = void (*)(int64_t, const float *, int64_t, const float *,
                           int64_t, int, const TileStore &);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel<1, false>, microkernel<2, false>,  microkernel<3, false>,  microkernel<4, false>,
    microkernel<5, false>, microkernel<6, false>,  microkernel<7, false>,  microkernel<8, false>,
    microkernel<9, false>, microkernel<10, false>, microkernel<11, false>, microkernel<12, false>};
constexpr RowKernel kDirectRowKernels[kMR] = {
    microkernel<1, true>, microkernel<2, true>,  microkernel<3, true>,  microkernel<4, true>,
    microkernel<5, true>, microkernel<6, true>,  microkernel<7, true>,  microkernel<8, true>,
    microkernel<9, true>, microkernel<10, true>, microkernel<11, true>, microkernel<12, true>};

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

// Tuned on a Xeon with 48 KiB L1d and 2 MiB L2 per core: the 96 x 384 A
// block and the 384 x 1024 B block both stay in L2; a larger K block means
// fewer passes over C.
constexpr int kKC = 384, kMC = 96, kNC = 1024;
// A single block of rows (m <= kMC) takes K blocks of up to 1024: B's
// panels then stream in 128 KiB runs instead of 48 KiB ones, which the
// prefetchers follow better (figures: docs/performance.md, "Measurements
// behind choices in the code"); the 96 x 1024 A block is 384 KiB.
constexpr int kFewRowsKC = 1024;
static_assert(kMR <= kMaxMr && kKC <= kFewRowsKC && kFewRowsKC <= kMaxKc &&
                  kMC <= kMaxMc && kNC <= kMaxNc && kMC % kMR == 0 &&
                  kNC % kPanelWidth == 0,
              "blocking must fit the scratch sizes of MicroKernel.h");

const IsaKernels kKernels = {Isa::Avx512,
                             kMR,
                             kNR,
                             kKC,
                             kFewRowsKC,
                             kMC,
                             kNC,
                             dispatch_microkernel,
                             dispatch_narrow_microkernel,
                             kWidth,
                             pack_a,
                             pack_b_panel,
                             activate,
                             conv_columns,
                             im2col_nhwc_pixels,
                             small_rows,
                             small_dots,
                             small_panels,
                             depthwise_nchw_row,
                             depthwise_nhwc_row};

} // namespace

const IsaKernels *avx512_kernels() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
