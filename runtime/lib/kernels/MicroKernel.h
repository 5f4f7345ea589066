//===- MicroKernel.h - What each ISA variant provides to the GEMM driver --===//
//
// The driver (Sgemm.cpp) does blocking, packing and threading in portable
// C++; each ISA variant provides a register-blocked microkernel that computes
// a rows x cols tile of C over one block of K and stores it with the epilogue
// applied, plus packing routines.
//
// Packed layouts (shared by all variants, so a pre-packed B works with each):
// - A: micro-panels of `mr` rows; inside one, element (r, k) is at k*mr + r.
// - B: panels of kPanelWidth columns; inside one, element (k, c) is at
//   k*ldb + c (ldb = kPanelWidth when packed), zero beyond the last column.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_MICROKERNEL_H
#define TCC_RUNTIME_KERNELS_MICROKERNEL_H

#include "Isa.h"
#include "tcc/runtime/kernels.h"

#include <cstdint>

namespace tcc {
namespace runtime {
namespace kernels {

/// Columns per packed B panel, for every ISA (the packed-B format).
constexpr int kPanelWidth = 32;

/// How a microkernel stores its tile; pointers are at the tile's origin.
struct TileStore {
  float *c;
  int64_t ldc;
  /// Later K blocks: c += alpha * acc. The first: c = alpha * acc + bias +
  /// beta * residual (bias and residual may be null).
  bool accumulate;
  float alpha;
  const float *bias; // bias[row] when bias_per_row, else bias[col]
  bool bias_per_row;
  const float *residual;
  int64_t ld_residual;
  float beta;
  /// Applied after the store on the last K block (TCC_ACTIVATION_NONE on the
  /// others).
  int activation;
  float clamp_min, clamp_max;
};

/// acc = sum over k < kc of A(r, k) * b[k*ldb + c], for r < rows (1..mr)
/// and c < cols (1..nr), then stored as `store` says. A(r, k) is a[k*mr + r]
/// (a micro-panel of packed A) when lda is 0, else a[r*lda + k] (A read in
/// place, row-major). Reads nr columns of b even when cols < nr.
using MicroKernelFn = void (*)(int64_t kc, const float *a, int64_t lda,
                               const float *b, int64_t ldb, int rows,
                               int cols, const TileStore &store);

/// Packs rows x kc of A (row r, column k at a[r*row_stride + k*col_stride])
/// into micro-panels of mr rows.
using PackAFn = void (*)(const float *a, int64_t row_stride, int64_t col_stride,
                         int64_t rows, int64_t kc, int mr, float *dst);

/// Packs one B panel: kc x cols (cols <= kPanelWidth; element (k, c) at
/// b[k*k_stride + c*col_stride]), zero-filling columns cols..kPanelWidth.
using PackBPanelFn = void (*)(const float *b, int64_t k_stride,
                              int64_t col_stride, int64_t kc, int cols,
                              float *dst);

/// In place: x[i] = activation(x[i]) for i < n.
using ActivateFn = void (*)(float *x, int64_t n, int activation,
                            float clamp_min, float clamp_max);

/// GEMMs with at most kSmallM rows skip packing and walk B in the order it
/// is stored (kernels.h's TCC_SGEMM_STREAMED_ROWS, which the compiler reads
/// too).
constexpr int kSmallM = TCC_SGEMM_STREAMED_ROWS;
struct SmallGemm {
  int64_t m, n, k;
  // A(r, kk) = a[r * a_row_stride + kk * a_col_stride]
  const float *a;
  int64_t a_row_stride, a_col_stride;
  // rows: B is k x n row-major; dots: B^T is n x k row-major; panels: the
  // pre-packed panels (PackedB.h, after the header)
  const float *b;
  int64_t ldb;
  float *c;
  int64_t ldc;
  float alpha, beta, clamp_min, clamp_max;
  const float *bias;
  bool bias_per_row;
  const float *residual;
  int64_t ld_residual;
  int activation;
  int64_t kc; // the K blocks of the microkernel path
  float *acc; // rows: scratch for m x (j1 - j0) partial sums
};

/// Columns [j0, j1) of C. `small_rows` streams B's rows and computes each
/// element with exactly the operations of the microkernel path (same bits
/// as with packed B); `small_dots` takes dot products of A's rows (which
/// must be contiguous) with the rows of a transposed B; `small_panels` streams
/// pre-packed B panels (same bits as the microkernel path).
using SmallGemmFn = void (*)(const SmallGemm &g, int64_t j0, int64_t j1);

/// A convolution's geometry, for the direct depthwise kernels (filters of at
/// most kMaxDepthwiseTaps taps) and the implicit-GEMM columns.
constexpr int kMaxDepthwiseTaps = 64;
struct ConvGeometry {
  int64_t channels, height, width, out_w, kh, kw, sh, sw, ph, pw, dh, dw;
};

/// Rows [k0, k0 + kc) of the kPanelWidth-wide panel of im2col columns that
/// starts at output pixel `first` (cols valid, zero past them), for one
/// image and group of an NCHW input (channels x height x width): row
/// (ic, ky, kx), column p = (oy, ox) holds input[ic][iy][ix] or padding.
using ConvColumnsFn = void (*)(const ConvGeometry &s, const float *input,
                               int64_t k0, int64_t kc, int64_t first, int cols,
                               float *dst);

/// NHWC im2col rows of output pixels [begin, end) of one image (height x
/// width x channels, one group, dilation 1 along the width), k = kh * kw *
/// channels floats each: row p = (oy, ox), column (ky, kx, ic) holds
/// image[iy][ix][ic] or padding.
using Im2colNhwcFn = void (*)(const ConvGeometry &s, const float *image,
                              int64_t begin, int64_t end, float *dst);

/// NCHW output row oy, without epilogue: one channel's plane and kh x kw
/// filter, out_w outputs.
using DepthwiseRowFn = void (*)(const ConvGeometry &s, const float *input,
                                const float *weight, int64_t oy, float *out);

/// out = activation(alpha * acc + bias[c] + beta * residual), per output.
struct DepthwiseEpilogue {
  float alpha, beta;
  const float *bias; // per channel, or null
  int activation;
  float clamp_min, clamp_max;
};

/// NHWC output row oy, channels [c0, c1), epilogue applied: one image
/// (height x width x channels), the filters as [ky][kx][channel]; out and
/// residual (null, or shaped as out) point at the row's first output.
using DepthwiseNhwcRowFn = void (*)(const ConvGeometry &s, const float *image,
                                    const float *weight, int64_t oy,
                                    int64_t c0, int64_t c1,
                                    const DepthwiseEpilogue &e, float *out,
                                    const float *residual);

struct IsaKernels {
  Isa isa;
  int mr; // rows per microkernel call
  int nr; // columns per microkernel call; divides kPanelWidth
  int kc; // K block: a kc x kPanelWidth B panel stays in L1
  // K block of GEMMs whose rows fit one block of A (m <= mc): B then
  // streams from the L3 or memory, each panel used ceil(m / mr) times, and
  // deeper blocks make its slices longer contiguous runs for the hardware
  // prefetchers (an mc x few_rows_kc block of A stays in L2). >= kc.
  int few_rows_kc;
  int mc; // rows of A packed at once (multiple of mr): stays in L2
  int nc; // columns of B packed at once (multiple of kPanelWidth)
  MicroKernelFn microkernel;
  // Optional (null where the variant has none): a microkernel for tiles of
  // at most narrow_cols columns and up to 2 * mr rows with packed A (two
  // micro-panels, the second kc * mr floats after the first), up to mr with
  // A read in place. Same FMAs per element as `microkernel`, so the same
  // bits.
  MicroKernelFn narrow_microkernel;
  int narrow_cols;
  PackAFn pack_a;
  PackBPanelFn pack_b_panel;
  ActivateFn activate;
  ConvColumnsFn conv_columns;
  Im2colNhwcFn im2col_nhwc_pixels;
  SmallGemmFn small_rows;
  SmallGemmFn small_dots;
  SmallGemmFn small_panels;
  DepthwiseRowFn depthwise_nchw_row;
  DepthwiseNhwcRowFn depthwise_nhwc_row;
};

/// The variants; each is defined only where its ISA can run (the x86 ones
/// in x86-64 builds, NEON in AArch64 builds).
const IsaKernels *avx512_kernels();
const IsaKernels *avx2_kernels();
const IsaKernels *neon_kernels();
const IsaKernels &portable_kernels();
/// The variant activeIsa() names.
const IsaKernels &active_kernels();

/// Largest blocking over all variants, for sizing scratch memory.
constexpr int kMaxMr = 12;
constexpr int kMaxKc = 1024;
constexpr int kMaxMc = 384;
constexpr int kMaxNc = 2048;

/// Portable packers, which variants may reuse.
void pack_a_portable(const float *a, int64_t row_stride, int64_t col_stride,
                     int64_t rows, int64_t kc, int mr, float *dst);
void pack_b_panel_portable(const float *b, int64_t k_stride, int64_t col_stride,
                           int64_t kc, int cols, float *dst);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_MICROKERNEL_H
