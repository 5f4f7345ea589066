//===- ArtifactFuzzer.cpp - libFuzzer target for the artifact verifier ----===//
//
// Any bytes must give OK or an error status, never a crash, a sanitizer
// report or a hang. Seeds: models written by tcc-make-test-model. The
// header hash is recomputed before verifying, so mutations of the header
// reach the FlatBuffers verifier and the semantic validator instead of all
// stopping at the hash check.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Aligned, as the loader guarantees for files (mmap) and memory (copy).
  std::vector<uint64_t> aligned((size + 7) / 8);
  if (size)
    std::memcpy(aligned.data(), data, size);
  auto *bytes = reinterpret_cast<uint8_t *>(aligned.data());
  if (size >= tcc::runtime::kArtifactPreambleSize) {
    uint32_t headerSize;
    std::memcpy(&headerSize, bytes + 12, 4);
    if (headerSize <= size - tcc::runtime::kArtifactPreambleSize) {
      uint64_t hash = tcc::runtime::hash64(
          bytes + tcc::runtime::kArtifactPreambleSize, headerSize);
      std::memcpy(bytes + 16, &hash, 8);
    }
  }
  const tcc::artifact::Model *model = nullptr;
  tcc::runtime::Status s =
      tcc::runtime::verifyArtifactBytes(bytes, size, &model);
  if (s.ok())
    (void)tcc::runtime::checkCpuModules(*model);
  return 0;
}
