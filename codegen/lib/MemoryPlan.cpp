//===- MemoryPlan.cpp - Arena offsets from buffer lifetimes ---------------===//

#include "tcc/Codegen/MemoryPlan.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <algorithm>
#include <numeric>

using namespace mlir::tcc;

static uint64_t alignUp(uint64_t n, uint64_t alignment) {
  return (n + alignment - 1) / alignment * alignment;
}

ArenaPlan mlir::tcc::planArena(const std::vector<BufferLifetime> &buffers,
                               uint64_t alignment) {
  ArenaPlan plan;
  plan.offsets.assign(buffers.size(), 0);
  std::vector<size_t> order(buffers.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return buffers[a].bytes > buffers[b].bytes;
  });

  struct Placed {
    uint64_t begin, end;
    const BufferLifetime *life;
  };
  std::vector<Placed> placed; // kept sorted by begin
  for (size_t i : order) {
    const BufferLifetime &life = buffers[i];
    plan.totalBytes += life.bytes;
    uint64_t size = alignUp(std::max<uint64_t>(life.bytes, 1), alignment);
    // First gap between placed buffers that are alive at the same time.
    uint64_t offset = 0;
    for (const Placed &other : placed) {
      bool overlapsInTime = other.life->firstStep <= life.lastStep &&
                            life.firstStep <= other.life->lastStep;
      if (!overlapsInTime || other.end <= offset)
        continue;
      if (other.begin >= offset + size)
        break;
      offset = alignUp(other.end, alignment);
    }
    plan.offsets[i] = offset;
    Placed entry{offset, offset + size, &life};
    placed.insert(std::upper_bound(placed.begin(), placed.end(), entry,
                                   [](const Placed &a, const Placed &b) {
                                     return a.begin < b.begin;
                                   }),
                  entry);
    plan.arenaBytes = std::max(plan.arenaBytes, offset + size);
  }
  return plan;
}

ArenaPlan mlir::tcc::planArena(const std::vector<BufferLifetime> &buffers) {
  return planArena(buffers, ::tcc::runtime::kArtifactAlignment);
}
