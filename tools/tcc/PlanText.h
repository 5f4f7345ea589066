//===- PlanText.h - Plan steps described for people ------------*- C++ -*-===//
//
// What tcc inspect and tcc bench --profile print for a step of a compiled
// model's execution plan.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_PLANTEXT_H
#define TCC_TOOLS_TCC_PLANTEXT_H

#include "tcc/runtime/artifact_generated.h"

#include <string>
#include <vector>

namespace tcc {
namespace tool {

/// The strings of a FlatBuffers string vector (empty for null).
std::vector<std::string> strings(
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v);

/// The step's kind: "kernel", "sgemm", "conv2d" or "copy".
const char *opName(artifact::Op op);

/// The source ops a step computes: its own list, else its kernel's.
std::vector<std::string> sourceOps(const artifact::Model &m,
                                   const artifact::Step &step);

/// Floating-point operations of a GEMM or convolution step (2 per
/// multiply-add), 0 for other steps.
double stepFlops(const artifact::Step &step);

/// Bytes a generated kernel or copy step moves at least once: the sizes of
/// a kernel's bindings (inputs, outputs, scratch), or a copy's source and
/// destination; 0 for library calls (their rate is stepFlops').
double stepBytes(const artifact::Model &m, const artifact::Step &step);

/// One line: the kernel and its tiles, or the GEMM / convolution shape.
std::string stepSummary(const artifact::Model &m, const artifact::Step &step);

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_PLANTEXT_H
