//===- QMicroKernel.h - What each int8 variant provides to the QGEMM driver ===//
//
// The driver (Qgemm.cpp) checks arguments, packs A and runs tiles on the
// caller's threads in portable C++; each variant provides an A packer, a
// microkernel that computes an int32 tile over the whole reduction, and the
// epilogue (QEpilogue.inc compiled for the variant's ISA).
//
// Packed B (PackedQB.h, shared by all variants): panels of kQPanelWidth
// columns; inside a panel, the kQKGroup values B(4g..4g+3, c) of column c
// sit together at byte g * kQPanelWidth * 4 + c * 4, which is what
// vpdpbusd / sdot take as one 32-bit lane. K is padded with zeros to a
// multiple of 4, columns past n are zero.
//
// Packed A: micro-panels of mr rows; inside one, the 4 values of row r in
// group g sit at element (g * mr + r) * 4, as bytes (the variant's domain:
// a, or a - 128 as int8 when a_offset is 128) or as int16 (a_bytes == 2).
// Rows past the last are zero.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_QMICROKERNEL_H
#define TCC_RUNTIME_KERNELS_QMICROKERNEL_H

#include "Isa.h"
#include "tcc/runtime/kernels_int8.h"

#include <cstdint>

namespace tcc {
namespace runtime {
namespace kernels {

/// Columns per packed B panel, and K values per 32-bit lane.
constexpr int kQPanelWidth = 32;
constexpr int kQKGroup = 4;

/// The epilogue of one call as the variants' epilogue_row reads it (the
/// driver adds the column offsets: bias and zero-point compensation).
struct QEpilogue {
  int output; // tcc_qoutput
  bool relu;
  float lo, hi; // U8/S8: v is clamped to [lo, hi] before rounding
  int32_t output_zero_point;
  const void *residual; // U8/S8, or null
  int64_t ld_residual;
  int32_t residual_zero_point;
  float residual_scale;
  // residual_qdq: the product is first requantized to [plo, phi] (v) at
  // product_zero_point, and the sum divided by output_scale.
  bool residual_qdq;
  float plo, phi;
  int32_t product_zero_point;
  float product_scale, output_scale;
  void *c;
  int64_t ldc;
};

/// Stores `cols` accumulators of output row `row`, columns col0.. (acc[i]
/// is column col0 + i): out = epilogue(acc + offset), the int32 sum
/// wrapping (offset may be null), with scale[i] the column's multiplier
/// (unused for INT32 output). Overwrites acc.
using QEpilogueRowFn = void (*)(const QEpilogue &e, int32_t *acc,
                                const int32_t *offset, const float *scale,
                                int cols, int64_t row, int64_t col0);

/// epilogue_row on `rows` rows of a tile (row r's accumulators at acc + r *
/// kQPanelWidth, cols <= kQPanelWidth), output rows row.., offset not null.
using QEpilogueTileFn = void (*)(const QEpilogue &e, int32_t *acc,
                                 const int32_t *offset, const float *scale,
                                 int rows, int cols, int64_t row,
                                 int64_t col0);

/// Packs rows x (4 * groups) of A (row r, column k at a[r * lda + k]; k0
/// is the first column, k the row length, zero past it) into micro-panels
/// of mr rows, each byte first xor-ed with `flip`.
using QPackAFn = void (*)(const uint8_t *a, int64_t lda, int64_t rows,
                          int64_t k0, int64_t groups, int64_t k, int mr,
                          uint8_t flip, void *dst);

/// acc[r * kQPanelWidth + c] (= or += with accumulate) sum over groups g of
/// A(r, g) . B(g, c), for r < rows and c < nr (all nr columns): a is a
/// micro-panel, b a panel's column (stride kQPanelWidth * 4 between groups).
using QMicroKernelFn = void (*)(int64_t groups, const void *a,
                                const int8_t *b, int rows, int32_t *acc,
                                bool accumulate);

/// The microkernel reading A in place (row r of the tile at a + r * lda,
/// bytes as stored, k a multiple of 4), for GEMMs whose few columns would
/// not repay packing A; stores a whole mr-row tile to acc as
/// QMicroKernelFn does (accumulate false).
using QDirectKernelFn = void (*)(int64_t groups, const uint8_t *a,
                                 int64_t lda, const int8_t *b, int32_t *acc);

struct QIsaKernels {
  const char *name;     // as tcc_int8_isa() reports it
  const char *features; // CPU features it needs (CpuFeatures.h names)
  Isa family;           // chosen only when isaAtMost(family, activeIsa())
  int mr, nr;           // nr divides kQPanelWidth
  int a_bytes;          // 1, or 2 (int16 A)
  int a_offset;         // 0: A as u8; 128: A - 128 as s8
  QPackAFn pack_a;
  QMicroKernelFn microkernel;
  QEpilogueRowFn epilogue_row;
  QEpilogueTileFn epilogue_tile;
  QDirectKernelFn direct; // or null (only for a_bytes 1, a_offset 0)
};

/// The variants built for this architecture, best first, ending with the
/// portable one.
const QIsaKernels *const *int8_variants();
const QIsaKernels &int8_portable();
/// The variant tcc_qgemm runs (tcc_int8_isa()).
const QIsaKernels &int8_active();

const QIsaKernels *int8_avx512vnni();
const QIsaKernels *int8_avxvnni();
const QIsaKernels *int8_avx2();
const QIsaKernels *int8_neon_i8mm();
const QIsaKernels *int8_neon_dotprod();
const QIsaKernels *int8_neon();

/// The AVX2 variant's epilogue (x86-64 builds), which AVX-VNNI shares.
void qepilogue_row_avx2(const QEpilogue &e, int32_t *acc,
                        const int32_t *offset, const float *scale, int cols,
                        int64_t row, int64_t col0);
void qepilogue_tile_avx2(const QEpilogue &e, int32_t *acc,
                         const int32_t *offset, const float *scale, int rows,
                         int cols, int64_t row, int64_t col0);

/// The portable byte packer (variants with a_bytes == 1 may reuse it).
void qpack_a_bytes(const uint8_t *a, int64_t lda, int64_t rows, int64_t k0,
                   int64_t groups, int64_t k, int mr, uint8_t flip, void *dst);


/// Argument checks shared by GEMM and depthwise; they record the message
/// on failure. `n` is the row length of the output.
tcc_kernel_status check_qepilogue(const char *op, const tcc_qepilogue *e,
                                  int64_t n, bool check_residual_ld);
/// The epilogue for `e` (null: INT32 output) storing to c.
QEpilogue resolve_qepilogue(const tcc_qepilogue *e, void *c, int64_t ldc);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_QMICROKERNEL_H
