//===- MemoryLayout.cpp - where a model's buffers live on the GPU ---------===//

#include "MemoryLayout.h"

#include "tcc/runtime/ArtifactFormat.h"

#include <algorithm>

namespace tcc {
namespace cuda {

using namespace tcc::artifact;
using runtime::Status;

namespace {

// Appends `bytes` to a block of `*size` bytes at an aligned offset; false on
// overflow.
bool append(uint64_t bytes, uint64_t *size, uint64_t *offset) {
  uint64_t aligned =
      (*size + kDeviceAlignment - 1) / kDeviceAlignment * kDeviceAlignment;
  if (aligned < *size || aligned + bytes < aligned)
    return false;
  *offset = aligned;
  *size = aligned + bytes;
  return true;
}

Status tooLarge(const char *what) {
  return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                std::string("cuda: the model's ") + what +
                    " overflow 64-bit sizes");
}

std::vector<uint64_t>
tensorBytes(const Model &model,
            const flatbuffers::Vector<flatbuffers::Offset<TensorSpec>> *specs) {
  std::vector<uint64_t> bytes;
  for (uint32_t i = 0; specs && i < specs->size(); ++i)
    bytes.push_back(model.buffers()->Get(specs->Get(i)->buffer())->byte_size());
  return bytes;
}

} // namespace

Status layOutMemory(const Model &model, MemoryLayout *out) {
  *out = MemoryLayout();
  const auto *spaces = model.memory_spaces();
  for (uint32_t s = 0; spaces && s < spaces->size(); ++s) {
    uint64_t base = 0;
    if (!append(spaces->Get(s)->arena_bytes(), &out->arenaBytes, &base))
      return tooLarge("arenas");
    out->arenaBase.push_back(base);
  }
  // An input's or output's buffer views its whole tensor (validated), the
  // TensorSpec's buffer; its size is the tensor's.
  out->inputBytes = tensorBytes(model, model.inputs());
  out->outputBytes = tensorBytes(model, model.outputs());
  for (uint64_t bytes : out->inputBytes) {
    out->inputOffset.emplace_back();
    if (!append(bytes, &out->inputsBytes, &out->inputOffset.back()))
      return tooLarge("inputs");
  }
  for (uint64_t bytes : out->outputBytes) {
    out->outputOffset.emplace_back();
    if (!append(bytes, &out->outputsBytes, &out->outputOffset.back()))
      return tooLarge("outputs");
  }

  const auto *buffers = model.buffers();
  uint64_t first = UINT64_MAX, end = 0;
  for (uint32_t i = 0; buffers && i < buffers->size(); ++i) {
    const Buffer *b = buffers->Get(i);
    if (b->storage() == Storage::Constant && b->byte_size()) {
      first = std::min(first, b->offset());
      end = std::max(end, b->offset() + b->byte_size()); // validated
    }
  }
  if (end) {
    // From the artifact's alignment boundary, so alignments hold on the GPU.
    out->constantsBegin =
        first / runtime::kArtifactAlignment * runtime::kArtifactAlignment;
    out->constantsEnd = end;
  }
  for (uint32_t i = 0; buffers && i < buffers->size(); ++i) {
    const Buffer *b = buffers->Get(i);
    Placement p;
    switch (b->storage()) {
    case Storage::Constant:
      p.region = Region::Constants;
      // A zero-byte constant may lie outside the copied range; never read.
      p.offset = b->offset() >= out->constantsBegin
                     ? b->offset() - out->constantsBegin
                     : 0;
      break;
    case Storage::Arena:
      p.region = Region::Arena;
      p.offset = out->arenaBase[b->space()] + b->offset();
      break;
    case Storage::Input:
      p.region = Region::Inputs;
      p.offset = out->inputOffset[b->index()] + b->offset();
      break;
    case Storage::Output:
      p.region = Region::Outputs;
      p.offset = out->outputOffset[b->index()] + b->offset();
      break;
    }
    out->buffers.push_back(p);
  }
  return Status();
}

std::vector<uint64_t> bufferAddresses(const MemoryLayout &layout,
                                      const RegionBases &bases) {
  std::vector<uint64_t> addresses;
  addresses.reserve(layout.buffers.size());
  for (const Placement &p : layout.buffers) {
    uint64_t base = 0;
    switch (p.region) {
    case Region::Constants:
      base = bases.constants;
      break;
    case Region::Arena:
      base = bases.arena;
      break;
    case Region::Inputs:
      base = bases.inputs;
      break;
    case Region::Outputs:
      base = bases.outputs;
      break;
    }
    addresses.push_back(base + p.offset);
  }
  return addresses;
}

} // namespace cuda
} // namespace tcc
