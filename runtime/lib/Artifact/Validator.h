//===- Validator.h - semantic checks of a verified header -------*- C++ -*-===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_VALIDATOR_H
#define TCC_RUNTIME_LIB_ARTIFACT_VALIDATOR_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstddef>
#include <cstdint>

namespace tcc {
namespace runtime {
namespace detail {

// Where the segments are, once their layout has been checked.
struct SegmentLayout {
  uint64_t constantsOffset = 0, constantsSize = 0;
};

// Checks everything the FlatBuffers verifier cannot: versions, the segment
// layout (in bounds, aligned, in order, zero padding, nothing after the
// last), code modules and memory spaces, every step's kind known by name,
// every index in range, every size consistent with its shape and
// dtype, every access of every plan step in bounds. `model` must have passed
// the FlatBuffers verifier; `file` is the whole file, whose header of
// `headerSize` bytes starts at kArtifactPreambleSize. Segment hashes are not
// checked here (see checkSegmentHashes).
Status validateModel(const tcc::artifact::Model &model, const uint8_t *file,
                     size_t fileSize, size_t headerSize, SegmentLayout *layout);

// A Signature table, when present, holds a 32-byte public key and a
// 64-byte signature (what a loader without a key can still show).
Status checkSignatureTable(const tcc::artifact::Model &model);

// Compares each segment's hash64 with the one the header records.
Status checkSegmentHashes(const tcc::artifact::Model &model,
                          const uint8_t *file);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_VALIDATOR_H
