//===- CrossRunner.h - Conformance on another machine's runtime -*- C++ -*-===//
//
// The conformance suite can check code compiled for another target on that
// target's runtime, here or through an emulator:
//   TCC_CONFORMANCE_TARGET   the target compileIR compiles for (as `tcc
//                            compile --target`), e.g. "aarch64";
//   TCC_CONFORMANCE_RUNNER   the command that runs that target's tcc-run,
//                            e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu
//                            build-aarch64/bin/tcc-run".
// With a runner, runArtifact hands the artifact, inputs and outputs over as
// files (`tcc-run run MODEL --input X.npy ... --output Y.npy ...`), so the
// same cases, tolerances and comparisons run on both sides.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_CONFORMANCE_CROSSRUNNER_H
#define TCC_TEST_CONFORMANCE_CROSSRUNNER_H

#include "tcc/tcc.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace conformance {

/// TCC_CONFORMANCE_TARGET, or "" for this machine.
const std::string &conformanceTarget();

/// TCC_CONFORMANCE_RUNNER, or "" to run artifacts in this process.
const std::string &conformanceRunner();

/// Runs `artifact` on `inputs` with conformanceRunner(); the outputs are
/// fresh tensors. Returns "" or the error (with the runner's output).
std::string runWithRunner(const std::vector<uint8_t> &artifact,
                          const std::vector<Tensor> &inputs,
                          std::vector<Tensor> *outputs);

} // namespace conformance
} // namespace tcc

#endif // TCC_TEST_CONFORMANCE_CROSSRUNNER_H
