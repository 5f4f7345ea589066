//===- ArtifactFormat.h - byte layout of a compiled model -------*- C++ -*-===//
//
// The constants and helpers that the writer (ArtifactBuilder, the code
// generator) and the reader (the loader) share, so the layout is defined
// once. The FlatBuffer header's schema is runtime/schema/artifact.fbs.
//
//   bytes  0..7   magic "TCCMODEL"
//   bytes  8..11  u32 format version (kArtifactFormatVersion)
//   bytes 12..15  u32 header size H (bytes of the FlatBuffer)
//   bytes 16..23  u64 hash64 of the H header bytes
//   bytes 24..31  zero
//   bytes 32..    the FlatBuffer `Model` (identifier "TCCM")
//   zero padding to a multiple of 64, then each segment at the first
//   multiple of 64 after the previous one ends; the file ends with the last
//   segment. Integers are little-endian.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_ARTIFACTFORMAT_H
#define TCC_RUNTIME_ARTIFACTFORMAT_H

#include "tcc/runtime/tcc_runtime.h"

#include <cstddef>
#include <cstdint>

namespace tcc {
namespace runtime {

// Bumped on any change that an older reader would misread. Readers accept
// exactly this version. 2: Conv2d.weight_packed. 3: code modules, memory
// spaces, steps naming their kind and where they run. Additions since are
// optional fields and tables that need no bump (see the schema).
inline constexpr uint32_t kArtifactFormatVersion = 3;

inline constexpr char kArtifactMagic[8] = {'T', 'C', 'C', 'M',
                                           'O', 'D', 'E', 'L'};
inline constexpr size_t kArtifactPreambleSize = 32;
// Alignment of segments in the file and of arena/packed-weight memory.
inline constexpr size_t kArtifactAlignment = 64;
// FlatBuffers' own limit on one buffer (the header).
inline constexpr uint64_t kMaxHeaderSize = (uint64_t(1) << 31) - 1;

// The symbol of the import table in the code segment (see `imports` in the
// schema).
inline constexpr const char *kImportTableSymbol = "tcc_imports";

// CodeModule.kind of an ELF shared object for a CPU, the one kind this
// runtime loads.
inline constexpr const char *kCpuModuleKind = "cpu";
// CodeModule.kind of PTX and cubin images for NVIDIA GPUs, loaded by the
// plugin device "cuda" (libtcc_device_cuda.so).
inline constexpr const char *kCudaModuleKind = "cuda";
// Threads per block that every CUDA GPU of compute capability 2.0 or newer
// supports, which the compiler's launches keep within.
inline constexpr uint32_t kCudaMaxThreadsPerBlock = 1024;

struct ArtifactPreamble {
  uint32_t formatVersion = 0;
  uint32_t headerSize = 0;
  uint64_t headerHash = 0;
};

// Writes the 32 preamble bytes.
TCC_RUNTIME_API void encodePreamble(const ArtifactPreamble &preamble,
                                    uint8_t out[kArtifactPreambleSize]);

// Rounds `size` up to a multiple of kArtifactAlignment (no overflow check:
// callers pass sizes far below 2^64).
inline uint64_t alignToArtifact(uint64_t size) {
  return (size + kArtifactAlignment - 1) & ~uint64_t(kArtifactAlignment - 1);
}

// hash64: XXH64 with seed 0 (Yann Collet's xxHash, 64-bit variant, written
// from its published specification). It reads 32 bytes per step in four
// independent multiply-rotate lanes, ~10 GB/s on one core, so hashing code
// and weights at load costs little next to reading them. It detects
// corruption; it is not a cryptographic signature.
TCC_RUNTIME_API uint64_t hash64(const void *data, size_t size);

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_ARTIFACTFORMAT_H
