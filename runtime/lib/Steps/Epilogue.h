//===- Epilogue.h - a step's epilogue as the microkernels take it -*- C++ -*-===//

#ifndef TCC_RUNTIME_LIB_STEPS_EPILOGUE_H
#define TCC_RUNTIME_LIB_STEPS_EPILOGUE_H

#include "tcc/runtime/ArtifactActivation.h"
#include "tcc/runtime/artifact_generated.h"
#include "tcc/runtime/kernels.h"

#include <cstdint>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {

// The tcc_epilogue of a Sgemm or Conv2d step, its bias resolved through the
// run's buffer addresses.
inline tcc_epilogue toEpilogue(const tcc::artifact::Epilogue *e,
                               uint8_t *const *addresses,
                               const float *residual, int64_t ldResidual) {
  tcc_epilogue out{};
  out.alpha = e->alpha();
  out.bias = e->bias() >= 0
                 ? reinterpret_cast<const float *>(addresses[e->bias()])
                 : nullptr;
  out.bias_per_row = e->bias_per_row();
  out.residual = residual;
  out.ld_residual = ldResidual;
  out.beta = e->beta();
  out.activation = tcc::runtime::fromArtifactActivation(e->activation());
  out.clamp_min = e->clamp_min();
  out.clamp_max = e->clamp_max();
  return out;
}

// Appends the epilogue's bias and residual buffers, where present. For
// both artifact epilogues (Epilogue and QEpilogue), which name them alike.
template <typename ArtifactEpilogue>
void appendEpilogueBuffers(const ArtifactEpilogue *e,
                           std::vector<uint32_t> *out) {
  if (!e)
    return;
  for (int32_t b : {e->bias(), e->residual()})
    if (b >= 0)
      out->push_back(uint32_t(b));
}

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_STEPS_EPILOGUE_H
