//===- KernelsPortable.cpp - Portable C++ variant and shared packers ------===//
//
// The fallback for CPUs without AVX2 or NEON: plain C++ that the compiler
// vectorizes for the baseline ISA. The same vector-math source as
// the x86 variants runs here on one float at a time. Also home of the
// portable packing routines that every variant may use.
//
//===----------------------------------------------------------------------===//

#include "MicroKernel.h"

#include <cmath>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {

void pack_a_portable(const float *a, int64_t row_stride, int64_t col_stride,
                     int64_t rows, int64_t kc, int mr, float *dst) {
  for (int64_t i = 0; i < rows; i += mr, dst += mr * kc) {
    int64_t panel_rows = rows - i < mr ? rows - i : mr;
    const float *src = a + i * row_stride;
    if (col_stride == 1) { // rows are contiguous: read along them
      for (int64_t r = 0; r < panel_rows; ++r)
        for (int64_t k = 0; k < kc; ++k)
          dst[k * mr + r] = src[r * row_stride + k];
    } else {
      for (int64_t k = 0; k < kc; ++k)
        for (int64_t r = 0; r < panel_rows; ++r)
          dst[k * mr + r] = src[r * row_stride + k * col_stride];
    }
  }
}

void pack_b_panel_portable(const float *b, int64_t k_stride, int64_t col_stride,
                           int64_t kc, int cols, float *dst) {
  if (col_stride == 1) {
    for (int64_t k = 0; k < kc; ++k) {
      float *d = dst + k * kPanelWidth;
      std::memcpy(d, b + k * k_stride, sizeof(float) * cols);
      for (int c = cols; c < kPanelWidth; ++c)
        d[c] = 0.0f;
    }
    return;
  }
  for (int64_t k = 0; k < kc; ++k)
    for (int c = cols; c < kPanelWidth; ++c)
      dst[k * kPanelWidth + c] = 0.0f;
  for (int c = 0; c < cols; ++c) { // columns are contiguous: read along them
    const float *src = b + c * col_stride;
    for (int64_t k = 0; k < kc; ++k)
      dst[k * kPanelWidth + c] = src[k * k_stride];
  }
}

namespace {

#define TCC_TARGET
#define TCC_INLINE inline

using V = float;
using M = bool;
constexpr int kWidth = 1;

TCC_INLINE V vset(float x) { return x; }
TCC_INLINE V vload(const float *p) { return *p; }
TCC_INLINE void vstore(float *p, V v) { *p = v; }
TCC_INLINE V vadd(V a, V b) { return a + b; }
TCC_INLINE V vsub(V a, V b) { return a - b; }
TCC_INLINE V vmul(V a, V b) { return a * b; }
TCC_INLINE V vdiv(V a, V b) { return a / b; }
TCC_INLINE V vfma(V a, V b, V c) { return a * b + c; }
TCC_INLINE V vmax(V a, V b) { return a > b ? a : b; }
TCC_INLINE V vmin(V a, V b) { return a < b ? a : b; }
TCC_INLINE V vabs(V v) { return std::fabs(v); }
TCC_INLINE V vcopysign(V mag, V sign) { return std::copysign(mag, sign); }
TCC_INLINE V vround(V v) { return std::nearbyint(v); }
TCC_INLINE V vpow2i(V n) {
  // Callers pass n in range; NaN (an exp of NaN, discarded later) must not
  // reach the integer conversion.
  n = n >= -126.0f && n <= 127.0f ? n : 0.0f;
  int32_t bits = (static_cast<int32_t>(n) + 127) << 23;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}
TCC_INLINE M vlt(V a, V b) { return a < b; }
TCC_INLINE M vgt(V a, V b) { return a > b; }
TCC_INLINE M visnan(V v) { return v != v; }
TCC_INLINE V vselect(M m, V yes, V no) { return m ? yes : no; }

#include "VecMath.inc"

TCC_INLINE float vhsum(V v) { return v; }

// kWidth is 1: a partial vector is empty.
TCC_INLINE V vload_partial(const float *, int64_t) { return 0.0f; }
TCC_INLINE void vstore_partial(float *, V, int64_t) {}

TCC_INLINE V vgather(const float *p, int64_t, int64_t) { return *p; }

#include "SmallGemm.inc"

// After SmallGemm.inc, whose partial loads it uses.
#include "Depthwise.inc"
#include "Im2col.inc"

constexpr int kMR = 4;
constexpr int kNR = 8;

template <int R, bool kDirectA>
void microkernel(int64_t kc, const float *a, int64_t lda, const float *b,
                 int64_t ldb, int cols, const TileStore &st) {
  float acc[R][kNR] = {};
  for (int64_t k = 0; k < kc; ++k) {
    for (int r = 0; r < R; ++r)
      for (int c = 0; c < kNR; ++c)
        acc[r][c] += a[kDirectA ? r * lda : r] * b[c];
    a += kDirectA ? 1 : kMR;
    b += ldb;
  }
  for (int r = 0; r < R; ++r) {
    float *cr = st.c + r * st.ldc;
    for (int c = 0; c < cols; ++c) {
      float x = st.alpha * acc[r][c];
      if (st.accumulate) {
        x += cr[c];
      } else {
        if (st.bias)
          x += st.bias_per_row ? st.bias[r] : st.bias[c];
        if (st.residual)
          x += st.beta * st.residual[r * st.ld_residual + c];
      }
      cr[c] = x;
    }
    if (st.activation != TCC_ACTIVATION_NONE)
      activate(cr, cols, st.activation, st.clamp_min, st.clamp_max);
  }
}

using RowKernel = void (*)(int64_t, const float *, int64_t, const float *,
                           int64_t, int, const TileStore &);
constexpr RowKernel kRowKernels[kMR] = {microkernel<1, false>, microkernel<2, false>,
                                        microkernel<3, false>, microkernel<4, false>};
constexpr RowKernel kDirectRowKernels[kMR] = {microkernel<1, true>, microkernel<2, true>,
                                        microkernel<3, true>, microkernel<4, true>};

void dispatch_microkernel(int64_t kc, const float *a, int64_t lda,
                          const float *b, int64_t ldb, int rows, int cols,
                          const TileStore &st) {
  (lda ? kDirectRowKernels : kRowKernels)[rows - 1](kc, a, lda, b, ldb, cols,
                                                    st);
}

constexpr int kKC = 256, kMC = 128, kNC = 512;
constexpr int kFewRowsKC = kKC; // untuned: as deep as kKC
static_assert(kMR <= kMaxMr && kKC <= kFewRowsKC && kFewRowsKC <= kMaxKc &&
                  kMC <= kMaxMc && kNC <= kMaxNc && kMC % kMR == 0 &&
                  kNC % kPanelWidth == 0,
              "blocking must fit the scratch sizes of MicroKernel.h");

const IsaKernels kKernels = {Isa::Portable,
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

const IsaKernels &portable_kernels() { return kKernels; }

const IsaKernels &active_kernels() {
  static const IsaKernels *const kernels = [] {
    // activeIsa() names only levels this architecture has, whose variant
    // files are in the build (runtime/CMakeLists.txt).
    switch (activeIsa()) {
#if defined(__x86_64__)
    case Isa::Avx512:
      return avx512_kernels();
    case Isa::Avx2:
      return avx2_kernels();
#elif defined(__aarch64__)
    case Isa::Neon:
      return neon_kernels();
#endif
    default:
      break;
    }
    return &kKernels;
  }();
  return *kernels;
}

} // namespace kernels
} // namespace runtime
} // namespace tcc
