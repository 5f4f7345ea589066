//===- Preamble.cpp - the 32 bytes before the header ----------------------===//

#include "tcc/runtime/ArtifactFormat.h"

#include <cstring>

namespace tcc {
namespace runtime {

void encodePreamble(const ArtifactPreamble &preamble,
                    uint8_t out[kArtifactPreambleSize]) {
  std::memset(out, 0, kArtifactPreambleSize);
  std::memcpy(out, kArtifactMagic, sizeof(kArtifactMagic));
  auto put = [&](size_t at, uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i)
      out[at + i] = static_cast<uint8_t>(value >> (8 * i));
  };
  put(8, preamble.formatVersion, 4);
  put(12, preamble.headerSize, 4);
  put(16, preamble.headerHash, 8);
}

} // namespace runtime
} // namespace tcc
