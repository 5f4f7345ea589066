//===- PackedQB.h - The pre-packed int8 B format (TCC_PACKED_QB_VERSION) --===//
//
// Version 1, for k x n int8 B with np = ceil(n / 32) panels and
// groups = ceil(k / 4):
// - a 64-byte header (PackedQBHeader);
// - int32 column sums, np * 32 of them (zero past n): sum over k of B(k, j);
// - np panels of groups * 32 * 4 bytes: in panel p, byte
//   (g * 32 + c) * 4 + t holds B(4 g + t, 32 p + c), zero past k and n.
// Every part starts 64-byte aligned. The layout is the same for every ISA.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_PACKEDQB_H
#define TCC_RUNTIME_KERNELS_PACKEDQB_H

#include "QMicroKernel.h"

#include <cstdint>

namespace tcc {
namespace runtime {
namespace kernels {

struct PackedQBHeader {
  char magic[8]; // kPackedQBMagic, not NUL-terminated
  uint32_t version;
  uint32_t panel_width; // kQPanelWidth
  uint32_t k_group;     // kQKGroup
  uint32_t reserved0;   // zero
  int64_t k, n;
  uint8_t reserved[24]; // zero
};
static_assert(sizeof(PackedQBHeader) == 64, "the header is 64 bytes");

constexpr char kPackedQBMagic[8] = {'T', 'C', 'C', 'P', 'A', 'C', 'K', 'Q'};

/// The parts of a packed k x n B: where the column sums and the panels
/// start and how big one panel is, in bytes.
struct PackedQBLayout {
  int64_t panels, groups;
  int64_t sums_offset, panels_offset, panel_bytes, total_bytes;
};

/// False when the sizes are negative, k exceeds TCC_INT8_MAX_K or the
/// total overflows.
bool packed_qb_layout(int64_t k, int64_t n, PackedQBLayout &layout);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_PACKEDQB_H
