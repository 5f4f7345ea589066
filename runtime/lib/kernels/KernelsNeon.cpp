//===- KernelsNeon.cpp - AArch64 NEON variant: 6x16 microkernel -----------===//
//
// A 6 x 16 tile of C lives in 24 of the 32 NEON registers (four 4-float
// vectors per row); per k the kernel loads four vectors of the B panel and
// multiplies them by 6 values of A (24 FMAs for 10 loads). The shared
// sources (VecMath.inc, SmallGemm.inc, Depthwise.inc, Im2col.inc) run on
// 4-float vectors.
//
// NEON is part of the AArch64 baseline that every file here is compiled for,
// so no target attribute is needed; the variant is still chosen at run time
// (the "neon" feature), and TCC_ISA=portable selects the portable one.
//
//===----------------------------------------------------------------------===//

#include "MicroKernel.h"

#include <arm_neon.h>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

#define TCC_TARGET
#define TCC_INLINE inline __attribute__((always_inline))

using V = float32x4_t;
using M = uint32x4_t;
constexpr int kWidth = 4;

TCC_INLINE V vset(float x) { return vdupq_n_f32(x); }
TCC_INLINE V vload(const float *p) { return vld1q_f32(p); }
TCC_INLINE void vstore(float *p, V v) { vst1q_f32(p, v); }
TCC_INLINE V vadd(V a, V b) { return vaddq_f32(a, b); }
TCC_INLINE V vsub(V a, V b) { return vsubq_f32(a, b); }
TCC_INLINE V vmul(V a, V b) { return vmulq_f32(a, b); }
TCC_INLINE V vdiv(V a, V b) { return vdivq_f32(a, b); }
TCC_INLINE V vfma(V a, V b, V c) { return vfmaq_f32(c, a, b); }
// x86's rule (b when either is NaN), which VecMath.inc relies on; NEON's
// FMAX/FMIN would return the NaN instead.
TCC_INLINE V vmax(V a, V b) { return vbslq_f32(vcgtq_f32(a, b), a, b); }
TCC_INLINE V vmin(V a, V b) { return vbslq_f32(vcltq_f32(a, b), a, b); }
TCC_INLINE V vabs(V v) { return vabsq_f32(v); }
TCC_INLINE V vcopysign(V mag, V sign) {
  return vbslq_f32(vdupq_n_u32(0x80000000u), sign, mag);
}
TCC_INLINE V vround(V v) { return vrndnq_f32(v); } // ties to even
TCC_INLINE V vpow2i(V n) {
  int32x4_t e = vaddq_s32(vcvtq_s32_f32(n), vdupq_n_s32(127));
  return vreinterpretq_f32_s32(vshlq_n_s32(e, 23));
}
TCC_INLINE M vlt(V a, V b) { return vcltq_f32(a, b); }
TCC_INLINE M vgt(V a, V b) { return vcgtq_f32(a, b); }
TCC_INLINE M visnan(V v) { return vmvnq_u32(vceqq_f32(v, v)); }
TCC_INLINE V vselect(M m, V yes, V no) { return vbslq_f32(m, yes, no); }

#include "VecMath.inc"

TCC_INLINE float vhsum(V v) { return vaddvq_f32(v); }

// NEON has no masked loads: partial vectors go through a stack copy, which
// touches only the n floats asked for.
TCC_INLINE V vload_partial(const float *p, int64_t n) {
  float lanes[kWidth] = {};
  for (int64_t i = 0; i < n; ++i)
    lanes[i] = p[i];
  return vld1q_f32(lanes);
}
TCC_INLINE void vstore_partial(float *p, V v, int64_t n) {
  float lanes[kWidth];
  vst1q_f32(lanes, v);
  for (int64_t i = 0; i < n; ++i)
    p[i] = lanes[i];
}

TCC_INLINE V vgather(const float *p, int64_t stride, int64_t n) {
  float lanes[kWidth] = {};
  for (int64_t i = 0; i < n; ++i)
    lanes[i] = p[i * stride];
  return vld1q_f32(lanes);
}

#include "SmallGemm.inc"

// After SmallGemm.inc, whose partial loads it uses.
#include "Depthwise.inc"
#include "Im2col.inc"

constexpr int kMR = 6;
constexpr int kNR = 16;
constexpr int kVecs = kNR / kWidth;

// The first n floats of p (n may be <= 0 or >= kWidth).
TCC_INLINE V load_cols(const float *p, int n) {
  return n >= kWidth ? vld1q_f32(p) : vload_partial(p, n < 0 ? 0 : n);
}
TCC_INLINE void store_cols(float *p, V v, int n) {
  if (n >= kWidth)
    vst1q_f32(p, v);
  else if (n > 0)
    vstore_partial(p, v, n);
}

// c[r][v] += bv[v] * A(r) for rows r..R-1 of a packed micro-panel, whose
// row values sit in two registers (lanes 0-3 of a03, 0-1 of a45): two loads
// of A per k, and the 24 sums, 4 B vectors and A fit the 32 registers
// (with one scalar load per row GCC spills sums).
template <int R, int r = 0>
TCC_INLINE void fma_packed_rows(V (&c)[R][kVecs], const V (&bv)[kVecs],
                                float32x4_t a03, float32x2_t a45) {
  if constexpr (r < R) {
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) {
      if constexpr (r < 4)
        c[r][v] = vfmaq_laneq_f32(c[r][v], bv[v], a03, r);
      else
        c[r][v] = vfmaq_lane_f32(c[r][v], bv[v], a45, r - 4);
    }
    fma_packed_rows<R, r + 1>(c, bv, a03, a45);
  }
}

template <int R, bool kDirectA>
void microkernel(int64_t kc, const float *a, int64_t lda, const float *b,
                 int64_t ldb, int cols, const TileStore &st) {
  V c[R][kVecs];
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v)
      c[r][v] = vdupq_n_f32(0.0f);
  for (int64_t k = 0; k < kc; ++k) {
    V bv[kVecs];
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v)
      bv[v] = vld1q_f32(b + v * kWidth);
    if constexpr (kDirectA) { // rows lda apart: one value per row
#pragma GCC unroll 6
      for (int r = 0; r < R; ++r) {
        const float ar = a[r * lda];
#pragma GCC unroll 4
        for (int v = 0; v < kVecs; ++v)
          c[r][v] = vfmaq_n_f32(c[r][v], bv[v], ar);
      }
    } else { // a panel row holds kMR values, whatever R is
      fma_packed_rows<R>(c, bv, vld1q_f32(a),
                         R > 4 ? vld1_f32(a + 4) : vdup_n_f32(0.0f));
    }
    a += kDirectA ? 1 : kMR;
    b += ldb;
  }

  const V alpha = vset(st.alpha);
  V bias[kVecs];
#pragma GCC unroll 4
  for (int v = 0; v < kVecs; ++v)
    bias[v] = st.bias && !st.bias_per_row
                  ? load_cols(st.bias + v * kWidth, cols - v * kWidth)
                  : vset(0.0f);
  const V beta = vset(st.beta);
  // ReLU and clamp are applied before the store (a max or two); the other
  // activations are longer code, run over the stored tile afterwards.
  const bool in_registers = st.activation == TCC_ACTIVATION_RELU ||
                            st.activation == TCC_ACTIVATION_CLAMP;
  const V lo = vset(st.clamp_min), hi = vset(st.clamp_max);
#pragma GCC unroll 6
  for (int r = 0; r < R; ++r) {
    float *cr = st.c + r * st.ldc;
#pragma GCC unroll 4
    for (int v = 0; v < kVecs; ++v) {
      const int n = cols - v * kWidth;
      V x = vmul(c[r][v], alpha);
      if (st.accumulate) {
        x = vadd(x, load_cols(cr + v * kWidth, n));
      } else {
        if (st.bias)
          x = vadd(x, st.bias_per_row ? vset(st.bias[r]) : bias[v]);
        if (st.residual)
          x = vfma(beta,
                   load_cols(st.residual + r * st.ld_residual + v * kWidth, n),
                   x);
      }
      if (in_registers)
        x = vrelu_or_clamp(x, st.activation, lo, hi);
      store_cols(cr + v * kWidth, x, n);
    }
  }
  if (st.activation != TCC_ACTIVATION_NONE && !in_registers)
    activate_rows(st.c, st.ldc, R, cols, st.activation, st.clamp_min,
                  st.clamp_max);
}

using RowKernel = void (*)(int64_t, const float *, int64_t, const float *,
                           int64_t, int, const TileStore &);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel<1, false>, microkernel<2, false>, microkernel<3, false>,
    microkernel<4, false>, microkernel<5, false>, microkernel<6, false>};
constexpr RowKernel kDirectRowKernels[kMR] = {
    microkernel<1, true>, microkernel<2, true>, microkernel<3, true>,
    microkernel<4, true>, microkernel<5, true>, microkernel<6, true>};

void dispatch_microkernel(int64_t kc, const float *a, int64_t lda,
                          const float *b, int64_t ldb, int rows, int cols,
                          const TileStore &st) {
  (lda ? kDirectRowKernels : kRowKernels)[rows - 1](kc, a, lda, b, ldb, cols,
                                                    st);
}

// Sized for the common Arm cores (32-64 KiB L1d, 512 KiB-1 MiB L2): a
// 256 x 16 strip of a B panel and a 6 x 256 micro-panel of A stay in L1,
// the 96 x 256 A block and the 256 x 512 B block in L2.
constexpr int kKC = 256, kMC = 96, kNC = 512;
constexpr int kFewRowsKC = kKC; // untuned: as deep as kKC
static_assert(kMR <= kMaxMr && kKC <= kFewRowsKC && kFewRowsKC <= kMaxKc &&
                  kMC <= kMaxMc && kNC <= kMaxNc && kMC % kMR == 0 &&
                  kNC % kPanelWidth == 0 && kPanelWidth % kNR == 0,
              "blocking must fit the scratch sizes of MicroKernel.h");

const IsaKernels kKernels = {Isa::Neon,
                             kMR,
                             kNR,
                             kKC,
                             kFewRowsKC,
                             kMC,
                             kNC,
                             dispatch_microkernel,
                             nullptr, // no narrow microkernel
                             0,
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

const IsaKernels *neon_kernels() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
