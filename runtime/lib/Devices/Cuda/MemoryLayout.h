//===- MemoryLayout.h - where a model's buffers live on the GPU -*- C++ -*-===//
//
// The device's memory for a model, from the artifact's memory plan:
//  - constants: the bytes of the constants segment that buffers use, copied
//    to the GPU once, at load (per model);
//  - one arena per session: every memory space's arena, one after another;
//  - the inputs and the outputs: one block each per session on the GPU,
//    mirrored by pinned host staging blocks of the same layout, so that a
//    run's copies are between fixed addresses (which a CUDA graph needs).
// Every buffer is a region and an offset in it; addresses follow from the
// regions' bases alone.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_MEMORYLAYOUT_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_MEMORYLAYOUT_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstdint>
#include <vector>

namespace tcc {
namespace cuda {

// Offsets in the device blocks are multiples of this (cuMemAlloc's own
// alignment, and more than any kernel's vector loads need).
constexpr uint64_t kDeviceAlignment = 256;

enum class Region : uint8_t { Constants, Arena, Inputs, Outputs };

struct Placement {
  Region region = Region::Arena;
  uint64_t offset = 0; // within the region's block
};

struct MemoryLayout {
  std::vector<Placement> buffers; // by Model.buffers
  // The constants segment's bytes [constantsBegin, constantsEnd).
  uint64_t constantsBegin = 0, constantsEnd = 0;
  uint64_t arenaBytes = 0;
  std::vector<uint64_t> arenaBase; // by memory space, within the arena
  std::vector<uint64_t> inputOffset, inputBytes;   // by model input
  std::vector<uint64_t> outputOffset, outputBytes; // by model output
  uint64_t inputsBytes = 0, outputsBytes = 0;      // the blocks' sizes

  uint64_t constantsBytes() const { return constantsEnd - constantsBegin; }
};

// The layout of a validated model. Errors: sizes that overflow.
runtime::Status layOutMemory(const tcc::artifact::Model &model,
                             MemoryLayout *out);

// The bases of the regions' blocks (device addresses).
struct RegionBases {
  uint64_t constants = 0, arena = 0, inputs = 0, outputs = 0;
};

// Every buffer's device address.
std::vector<uint64_t> bufferAddresses(const MemoryLayout &layout,
                                      const RegionBases &bases);

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_MEMORYLAYOUT_H
