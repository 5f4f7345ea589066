//===- ArtifactActivation.h - The schema's Activation is Activations.def --===//
//
// flatc generates artifact::Activation from runtime/schema/artifact.fbs, so
// it cannot be derived from Activations.def. This is the one place that ties
// them: each value of the list must exist in the schema with the same number,
// and the schema must end where the list does. The writer (the code
// generator) and the reader (the executor) convert through it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_ARTIFACTACTIVATION_H
#define TCC_RUNTIME_ARTIFACTACTIVATION_H

#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/kernels.h"

#include <cstdint>

namespace tcc {
namespace runtime {

#define TCC_ACTIVATION(Name, NAME, value)                                      \
  static_assert(int(artifact::Activation::Name) == TCC_ACTIVATION_##NAME,      \
                "artifact.fbs's Activation::" #Name                            \
                " differs from Activations.def");
#include "tcc/runtime/Activations.def"
#undef TCC_ACTIVATION

/// The largest value of Activations.def.
inline constexpr int kLastActivation = [] {
  int last = 0;
#define TCC_ACTIVATION(Name, NAME, value) last = value > last ? value : last;
#include "tcc/runtime/Activations.def"
#undef TCC_ACTIVATION
  return last;
}();
static_assert(int(artifact::Activation::MAX) == kLastActivation,
              "artifact.fbs's Activation has a value Activations.def lacks");

/// The schema's form of a tcc_activation (or of an enum derived from
/// Activations.def), and back.
constexpr artifact::Activation toArtifactActivation(int activation) {
  return artifact::Activation(activation);
}
constexpr int32_t fromArtifactActivation(artifact::Activation activation) {
  return int32_t(activation);
}

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_ARTIFACTACTIVATION_H
