//===- QKernelsNeon.cpp - int8 variants: AArch64 sdot and plain NEON ------===//
//
// Armv8.0 and dotprod NEON multiply s8 by s8 (sdot, smull) but not u8 by
// s8 (usdot / sudot come with i8mm). Without i8mm the variants take A as
// a - 128, an int8 (the packer flips its top bit); the driver's
// compensation adds 128 * colsum(B) back. Products then fit int16 (at most
// 128 * 128).
// - neon-i8mm: the dotprod kernel with sudot (s8 B x u8 A), A as stored.
// - neon-dotprod (Armv8.2 dotprod): an 8 x 8 int32 tile; per group of 4 K
//   values, two loads of B (4 columns each), two of A (4 rows each) and 16
//   sdot by element.
// - neon (Armv8.0): smull of 8 bytes (2 columns x 4 K values) by a row's 4
//   bytes, twice, then sadalp pairs them into int32: each lane holds one
//   column's partial sum of 2 K values, added together at the end. A 4 x 8
//   tile.
//
//===----------------------------------------------------------------------===//

#include "QMicroKernel.h"

#include <arm_neon.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

#define TCC_TARGET

#include "QEpilogue.inc"

//===--- neon-dotprod -----------------------------------------------------===//

// GCC's sdot intrinsics are compiled for Armv8.2-A + dotprod, and only
// inline into functions compiled for at least that. Sound: dotprod is an
// Armv8.2 extension, so a CPU that has it implements Armv8.2-A.
#define TCC_DOTPROD __attribute__((target("arch=armv8.2-a+dotprod")))

constexpr int kDotMR = 8, kDotNR = 8;

// c[r][v] += B(columns 4v..4v+3) . A(row r), rows r..R-1; rows 0-3 are the
// lanes of a03, rows 4-7 of a47 (lane indices must be constants).
template <int R, int r = 0>
TCC_DOTPROD inline __attribute__((always_inline)) void
dot_rows(int32x4_t (&c)[R][2], int8x16_t b0, int8x16_t b1, int8x16_t a03,
         int8x16_t a47) {
  if constexpr (r < R) {
    const int8x16_t a = r < 4 ? a03 : a47;
    c[r][0] = vdotq_laneq_s32(c[r][0], b0, a, r % 4);
    c[r][1] = vdotq_laneq_s32(c[r][1], b1, a, r % 4);
    dot_rows<R, r + 1>(c, b0, b1, a03, a47);
  }
}

template <int R>
TCC_DOTPROD void dot_microkernel_rows(int64_t groups, const int8_t *a,
                                      const int8_t *b, int32_t *acc,
                                      bool accumulate) {
  int32x4_t c[R][2];
  for (int r = 0; r < R; ++r)
    c[r][0] = c[r][1] = vdupq_n_s32(0);
  for (int64_t g = 0; g < groups; ++g) {
    const int8x16_t b0 = vld1q_s8(b), b1 = vld1q_s8(b + 16);
    const int8x16_t a03 = vld1q_s8(a);
    const int8x16_t a47 = R > 4 ? vld1q_s8(a + 16) : a03;
    dot_rows<R>(c, b0, b1, a03, a47);
    a += kDotMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
  }
  for (int r = 0; r < R; ++r) {
    int32_t *out = acc + r * kQPanelWidth;
    if (accumulate) {
      c[r][0] = vaddq_s32(c[r][0], vld1q_s32(out));
      c[r][1] = vaddq_s32(c[r][1], vld1q_s32(out + 4));
    }
    vst1q_s32(out, c[r][0]);
    vst1q_s32(out + 4, c[r][1]);
  }
}

using DotRowKernel = void (*)(int64_t, const int8_t *, const int8_t *,
                              int32_t *, bool);
constexpr DotRowKernel kDotRowKernels[kDotMR] = {
    dot_microkernel_rows<1>, dot_microkernel_rows<2>, dot_microkernel_rows<3>,
    dot_microkernel_rows<4>, dot_microkernel_rows<5>, dot_microkernel_rows<6>,
    dot_microkernel_rows<7>, dot_microkernel_rows<8>};

void dot_microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                     int32_t *acc, bool accumulate) {
  kDotRowKernels[rows - 1](groups, static_cast<const int8_t *>(a), b, acc,
                           accumulate);
}

const QIsaKernels kDotKernels = {
    "neon-dotprod", TCC_INT8_NEON_DOTPROD_FEATURES,
    Isa::Neon,      kDotMR,
    kDotNR,         1,
    128,            qpack_a_bytes,
    dot_microkernel, epilogue_row, epilogue_tile, nullptr};

//===--- neon-i8mm --------------------------------------------------------===//

// sudot multiplies signed bytes (B) by unsigned ones (A's lane): A stays
// u8, no flip, no offset. i8mm is an Armv8.2 extension, hence the arch.
#define TCC_I8MM __attribute__((target("arch=armv8.2-a+i8mm")))

template <int R, int r = 0>
TCC_I8MM inline __attribute__((always_inline)) void
sudot_rows(int32x4_t (&c)[R][2], int8x16_t b0, int8x16_t b1, uint8x16_t a03,
           uint8x16_t a47) {
  if constexpr (r < R) {
    const uint8x16_t a = r < 4 ? a03 : a47;
    c[r][0] = vsudotq_laneq_s32(c[r][0], b0, a, r % 4);
    c[r][1] = vsudotq_laneq_s32(c[r][1], b1, a, r % 4);
    sudot_rows<R, r + 1>(c, b0, b1, a03, a47);
  }
}

template <int R>
TCC_I8MM void i8mm_microkernel_rows(int64_t groups, const uint8_t *a,
                                    const int8_t *b, int32_t *acc,
                                    bool accumulate) {
  int32x4_t c[R][2];
  for (int r = 0; r < R; ++r)
    c[r][0] = c[r][1] = vdupq_n_s32(0);
  for (int64_t g = 0; g < groups; ++g) {
    const int8x16_t b0 = vld1q_s8(b), b1 = vld1q_s8(b + 16);
    const uint8x16_t a03 = vld1q_u8(a);
    const uint8x16_t a47 = R > 4 ? vld1q_u8(a + 16) : a03;
    sudot_rows<R>(c, b0, b1, a03, a47);
    a += kDotMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
  }
  for (int r = 0; r < R; ++r) {
    int32_t *out = acc + r * kQPanelWidth;
    if (accumulate) {
      c[r][0] = vaddq_s32(c[r][0], vld1q_s32(out));
      c[r][1] = vaddq_s32(c[r][1], vld1q_s32(out + 4));
    }
    vst1q_s32(out, c[r][0]);
    vst1q_s32(out + 4, c[r][1]);
  }
}

using I8mmRowKernel = void (*)(int64_t, const uint8_t *, const int8_t *,
                               int32_t *, bool);
constexpr I8mmRowKernel kI8mmRowKernels[kDotMR] = {
    i8mm_microkernel_rows<1>, i8mm_microkernel_rows<2>,
    i8mm_microkernel_rows<3>, i8mm_microkernel_rows<4>,
    i8mm_microkernel_rows<5>, i8mm_microkernel_rows<6>,
    i8mm_microkernel_rows<7>, i8mm_microkernel_rows<8>};

void i8mm_microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                      int32_t *acc, bool accumulate) {
  kI8mmRowKernels[rows - 1](groups, static_cast<const uint8_t *>(a), b, acc,
                            accumulate);
}

const QIsaKernels kI8mmKernels = {
    "neon-i8mm",      TCC_INT8_NEON_I8MM_FEATURES,
    Isa::Neon,        kDotMR,
    kDotNR,           1,
    0,                qpack_a_bytes,
    i8mm_microkernel, epilogue_row, epilogue_tile, nullptr};

//===--- neon (no dotprod) ------------------------------------------------===//

constexpr int kMR = 4, kNR = 8;

template <int R>
void microkernel_rows(int64_t groups, const int8_t *a, const int8_t *b,
                      int32_t *acc, bool accumulate) {
  // c[r][p]: columns 2p and 2p + 1, two partial sums each.
  int32x4_t c[R][4];
  for (int r = 0; r < R; ++r)
    for (int p = 0; p < 4; ++p)
      c[r][p] = vdupq_n_s32(0);
  for (int64_t g = 0; g < groups; ++g) {
    const int8x16_t b0 = vld1q_s8(b), b1 = vld1q_s8(b + 16);
    for (int r = 0; r < R; ++r) {
      int32_t quad;
      std::memcpy(&quad, a + r * kQKGroup, sizeof quad);
      const int8x8_t ar = vreinterpret_s8_s32(vdup_n_s32(quad));
      c[r][0] = vpadalq_s16(c[r][0], vmull_s8(vget_low_s8(b0), ar));
      c[r][1] = vpadalq_s16(c[r][1], vmull_s8(vget_high_s8(b0), ar));
      c[r][2] = vpadalq_s16(c[r][2], vmull_s8(vget_low_s8(b1), ar));
      c[r][3] = vpadalq_s16(c[r][3], vmull_s8(vget_high_s8(b1), ar));
    }
    a += kMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
  }
  for (int r = 0; r < R; ++r) {
    int32x4_t lo = vpaddq_s32(c[r][0], c[r][1]);
    int32x4_t hi = vpaddq_s32(c[r][2], c[r][3]);
    int32_t *out = acc + r * kQPanelWidth;
    if (accumulate) {
      lo = vaddq_s32(lo, vld1q_s32(out));
      hi = vaddq_s32(hi, vld1q_s32(out + 4));
    }
    vst1q_s32(out, lo);
    vst1q_s32(out + 4, hi);
  }
}

using RowKernel = void (*)(int64_t, const int8_t *, const int8_t *, int32_t *,
                           bool);
constexpr RowKernel kRowKernels[kMR] = {
    microkernel_rows<1>, microkernel_rows<2>, microkernel_rows<3>,
    microkernel_rows<4>};

void microkernel(int64_t groups, const void *a, const int8_t *b, int rows,
                 int32_t *acc, bool accumulate) {
  kRowKernels[rows - 1](groups, static_cast<const int8_t *>(a), b, acc,
                        accumulate);
}

const QIsaKernels kKernels = {"neon",        TCC_ISA_NEON_FEATURES,
                              Isa::Neon,     kMR,
                              kNR,           1,
                              128,           qpack_a_bytes,
                              microkernel,   epilogue_row,
                              epilogue_tile, nullptr};

} // namespace

const QIsaKernels *int8_neon_i8mm() { return &kI8mmKernels; }
const QIsaKernels *int8_neon_dotprod() { return &kDotKernels; }
const QIsaKernels *int8_neon() { return &kKernels; }

} // namespace kernels
} // namespace runtime
} // namespace tcc
