//===- PackedB.h - The pre-packed B format (TCC_PACKED_B_VERSION) ---------===//
//
// Version 1: a 64-byte header, then ceil(n / 32) panels of k x 32 floats.
// Inside panel p, element (kk, c) holds B(kk, 32 p + c), row-major, and the
// columns past n are zero. The layout does not depend on the ISA: every
// microkernel reads 32-wide panels (the AVX2 and portable ones a part at a
// time), so weights packed once at compile time run on any CPU.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_PACKEDB_H
#define TCC_RUNTIME_KERNELS_PACKEDB_H

#include "MicroKernel.h"

#include <cstdint>

namespace tcc {
namespace runtime {
namespace kernels {

struct PackedBHeader {
  char magic[8]; // kPackedBMagic, not NUL-terminated
  uint32_t version;
  uint32_t panel_width;
  int64_t k, n;
  uint8_t reserved[32]; // zero
};
static_assert(sizeof(PackedBHeader) == 64, "the header is 64 bytes");

constexpr char kPackedBMagic[8] = {'T', 'C', 'C', 'P', 'A', 'C', 'K', 'B'};

/// Floats of panel data for k x n (0 when the size overflows).
int64_t packed_b_floats(int64_t k, int64_t n);

/// Writes the header for k x n.
void write_packed_b_header(int64_t k, int64_t n, void *packed);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_PACKEDB_H
