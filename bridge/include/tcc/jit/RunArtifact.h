//===- RunArtifact.h - Run an artifact's bytes on eager tensors -*- C++ -*-===//
//
// The step that checks and tests share when they compare compiled code with
// the reference interpreter: load an artifact from memory with
// libtcc_runtime, bind eager tensors as its inputs, run it once and copy its
// outputs into fresh eager tensors. Like <tcc/jit.h>, this header includes
// nothing from MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_RUNARTIFACT_H
#define TCC_JIT_RUNARTIFACT_H

#include "tcc/tcc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace jit {

/// Runs the artifact `bytes` on `inputs` (bound by position, made
/// contiguous) on the calling thread; appends one fresh tensor per output to
/// `outputs`. Returns "" or what failed: loading, a count or size that does
/// not match the artifact's signature, running, or an output dtype the eager
/// library lacks.
std::string runArtifact(const std::vector<uint8_t> &bytes,
                        const std::vector<Tensor> &inputs,
                        std::vector<Tensor> *outputs);

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_RUNARTIFACT_H
