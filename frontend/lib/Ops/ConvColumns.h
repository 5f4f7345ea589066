//===- ConvColumns.h - Batched im2col/col2im for the convolution GEMMs ----===//
//
// The eager convolutions run as GEMMs over "columns": row (c, i, j) of a
// conv2d's columns holds, for output pixel p of image s of a chunk of
// images, the input element that tap (i, j) of channel c reads there (0 in
// the padding), at column s * P + p (P = oh * ow). With a whole chunk of
// images in one matrix, each of the three GEMMs of a convolution (forward,
// weight gradient, input gradient) is one call per group rather than one
// per image, and the weight gradient can reuse the forward's columns.
// Feature maps enter and leave these GEMMs as [channels][s * P + p]:
// gatherPlanes and scatterPlanes convert from and to NCHW.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_CONVCOLUMNS_H
#define TCC_LIB_OPS_CONVCOLUMNS_H

#include <cstdint>

namespace tcc {
namespace detail {

/// Sizes of one convolution, named as in conv2d (for conv_transpose2d,
/// "input" is the conv2d output it maps from and "out" the conv2d input).
struct ConvGeometry {
  int64_t n, c, h, w; // conv2d input
  int64_t o, oh, ow;  // conv2d output
  int64_t kh, kw;     // kernel
  int64_t sh, sw, ph, pw, dh, dw, groups;
  int64_t cg() const { return c / groups; }
  int64_t og() const { return o / groups; }
  int64_t kdim() const { return cg() * kh * kw; } // GEMM depth per group
  int64_t pixels() const { return oh * ow; }
  int64_t columnRows() const { return c * kh * kw; } // all groups
};

/// Most column elements one chunk of images may hold: 16 MiB of float.
constexpr int64_t kColumnsBudget = int64_t(1) << 22;

/// Column elements a chunk of the input gradient holds: 256 KiB of float,
/// so the GEMM's output is still in L2 when col2im reads it.
constexpr int64_t kCacheColumnsBudget = int64_t(1) << 16;

/// Images per chunk so that a chunk's columns fit `budget` elements (at
/// least one image).
int64_t columnsChunk(const ConvGeometry &g, int64_t budget = kColumnsBudget);

/// Writes the columns of images [first, first + count) of the contiguous
/// NCHW input `x` (all groups): columns[row][s * P + p], row-major with
/// count * P elements per row.
template <class T>
void im2colBatch(const T *x, const ConvGeometry &g, int64_t first,
                 int64_t count, T *columns);

/// The adjoint of im2colBatch: sets images [first, first + count) of the
/// contiguous NCHW `x` to the sum of the column elements that read each of
/// its elements (overwriting them: no pre-zeroed output needed). Column
/// elements that read padding may be zeroed on the way (`columns` is
/// scratch).
template <class T>
void col2imBatch(T *columns, const ConvGeometry &g, int64_t first,
                 int64_t count, T *x);

/// Planes of an [N][R][P] tensor as the R rows of a chunk: returns the
/// matrix m[r][s * P + p] = src[first + s][r][p] for s < count, written to
/// `scratch`, or, for a single image, that image in place.
template <class T>
const T *gatherPlanes(const T *src, int64_t rows, int64_t pixels, int64_t first,
                      int64_t count, T *scratch);

/// The inverse: dst[first + s][r][p] = src[r][s * P + p] (+ bias[r] when
/// bias is not null).
template <class T>
void scatterPlanes(const T *src, const T *bias, int64_t rows, int64_t pixels,
                   int64_t first, int64_t count, T *dst);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_CONVCOLUMNS_H
