//===- MemoryPlan.h - Arena offsets from buffer lifetimes -------*- C++ -*-===//
//
// Buffers whose lifetimes do not overlap share arena bytes. Lifetimes are
// inclusive ranges of execution-plan steps; offsets are aligned (to the
// target's buffer alignment) and decided at compile time.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_MEMORYPLAN_H
#define TCC_CODEGEN_MEMORYPLAN_H

#include <cstdint>
#include <vector>

namespace mlir::tcc {

struct BufferLifetime {
  uint64_t bytes = 0;
  int64_t firstStep = 0, lastStep = 0; // inclusive
};

struct ArenaPlan {
  std::vector<uint64_t> offsets; // one per lifetime, in input order
  uint64_t arenaBytes = 0;
  uint64_t totalBytes = 0; // the sum of all buffers, what no reuse would need
};

/// Places buffers greedily, largest first, at the lowest aligned offset free
/// over their lifetime. Deterministic: ties keep the input order.
/// `alignment` is a power of two.
ArenaPlan planArena(const std::vector<BufferLifetime> &buffers,
                    uint64_t alignment);
/// At the runtime's arena alignment (kArtifactAlignment).
ArenaPlan planArena(const std::vector<BufferLifetime> &buffers);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_MEMORYPLAN_H
