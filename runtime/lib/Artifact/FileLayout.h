//===- FileLayout.h - a header and its segments as one file -----*- C++ -*-===//
//
// The one place that lays out an artifact's bytes (ArtifactFormat.h):
// ArtifactBuilder::finish writes new models through it, signArtifact
// rewrites a model whose header grew a signature.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_FILELAYOUT_H
#define TCC_RUNTIME_LIB_ARTIFACT_FILELAYOUT_H

#include "tcc/runtime/artifact_generated.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace tcc {
namespace runtime {

struct SegmentBytes {
  const uint8_t *data;
  size_t size;
};

namespace detail {

// The file of `model` whose segment table lists `payloads` in order (kind,
// size and hash set; offsets are computed here): preamble, header, zero
// padding, segments. `edit` (tests) may change the header after the layout.
std::vector<uint8_t>
writeArtifactFile(tcc::artifact::ModelT &model,
                  const std::vector<SegmentBytes> &payloads,
                  const std::function<void(tcc::artifact::ModelT &)> &edit);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_FILELAYOUT_H
