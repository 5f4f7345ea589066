//===- QKernelsPortable.cpp - Portable int8 variant, shared packer, choice -===//
//
// Plain C++ int32 arithmetic, the fallback on every architecture and the
// home of the byte packer for A and of the choice of variant.
//
//===----------------------------------------------------------------------===//

#include "QMicroKernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {

void qpack_a_bytes(const uint8_t *a, int64_t lda, int64_t rows, int64_t k0,
                   int64_t groups, int64_t k, int mr, uint8_t flip,
                   void *dst) {
  uint8_t *d = static_cast<uint8_t *>(dst);
  const uint32_t flip4 = flip * 0x01010101u;
  // Groups wholly inside A, then the one that k cuts (zero past k).
  const int64_t valid = std::max<int64_t>(
      0, std::min(groups * kQKGroup, k - k0));
  const int64_t whole = valid / kQKGroup, tail = valid % kQKGroup;
  for (int64_t i = 0; i < rows; i += mr, d += groups * kQKGroup * mr) {
    const int present = int(std::min<int64_t>(mr, rows - i));
    for (int r = 0; r < mr; ++r) {
      uint8_t *out = d + r * kQKGroup;
      if (r >= present) {
        for (int64_t g = 0; g < groups; ++g)
          std::memset(out + g * mr * kQKGroup, 0, kQKGroup);
        continue;
      }
      const uint8_t *src = a + (i + r) * lda + k0;
      for (int64_t g = 0; g < whole; ++g) {
        uint32_t quad;
        std::memcpy(&quad, src + g * kQKGroup, kQKGroup);
        quad ^= flip4;
        std::memcpy(out + g * mr * kQKGroup, &quad, kQKGroup);
      }
      for (int64_t g = whole; g < groups; ++g) {
        uint8_t quad[kQKGroup] = {};
        for (int t = 0; g == whole && t < tail; ++t)
          quad[t] = uint8_t(src[g * kQKGroup + t] ^ flip);
        std::memcpy(out + g * mr * kQKGroup, quad, kQKGroup);
      }
    }
  }
}

namespace {

#define TCC_TARGET

#include "QEpilogue.inc"

constexpr int kMR = 4, kNR = 8;

void microkernel(int64_t groups, const void *a_panel, const int8_t *b,
                 int rows, int32_t *acc, bool accumulate) {
  const uint8_t *a = static_cast<const uint8_t *>(a_panel);
  int32_t c[kMR][kNR] = {};
  for (int64_t g = 0; g < groups; ++g) {
    for (int r = 0; r < kMR; ++r)
      for (int j = 0; j < kNR; ++j)
        for (int t = 0; t < kQKGroup; ++t)
          c[r][j] += int32_t(a[r * kQKGroup + t]) *
                     int32_t(b[j * kQKGroup + t]);
    a += kMR * kQKGroup;
    b += kQPanelWidth * kQKGroup;
  }
  for (int r = 0; r < rows; ++r)
    for (int j = 0; j < kNR; ++j)
      acc[r * kQPanelWidth + j] =
          accumulate ? int32_t(uint32_t(acc[r * kQPanelWidth + j]) +
                               uint32_t(c[r][j]))
                     : c[r][j];
}

const QIsaKernels kPortable = {
    "portable",    "",          Isa::Portable, kMR,           kNR,    1, 0,
    qpack_a_bytes, microkernel, epilogue_row,  epilogue_tile, nullptr};

} // namespace

const QIsaKernels &int8_portable() { return kPortable; }

const QIsaKernels *const *int8_variants() {
  static const QIsaKernels *const variants[] = {
#if defined(__x86_64__)
      int8_avx512vnni(), int8_avxvnni(), int8_avx2(),
#elif defined(__aarch64__)
      int8_neon_i8mm(), int8_neon_dotprod(), int8_neon(),
#endif
      &kPortable, nullptr};
  return variants;
}

const QIsaKernels &int8_active() {
  static const QIsaKernels *const chosen = [] {
    for (const QIsaKernels *const *v = int8_variants(); *v; ++v)
      if (isaAtMost((*v)->family, activeIsa()) &&
          hostCpuHasAll((*v)->features))
        return *v;
    return &kPortable;
  }();
  return *chosen;
}

} // namespace kernels
} // namespace runtime
} // namespace tcc
