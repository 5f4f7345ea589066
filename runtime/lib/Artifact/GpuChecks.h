//===- GpuChecks.h - validation of cuda modules and GPU launches -*- C++ -*-===//
//
// The parts of the semantic validator that concern GPU code: a cuda code
// module's images (their segments, architectures and formats) and the
// launches of its kernels. Like the rest of the validator, these read a
// header the FlatBuffers verifier accepted and trust none of its values.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_GPUCHECKS_H
#define TCC_RUNTIME_LIB_ARTIFACT_GPUCHECKS_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {

// Checks the images of code module `index` (kind "cuda"): at least one;
// each on a Code segment no other module or image owns (`owner`, indexed by
// segment, -1 for none, updated here); a valid architecture name; one image
// per architecture and format; a PTX image for every architecture; the
// bytes start as their format does (`file`, whose segment bounds are
// checked already). A module of any other kind must have no images.
Status checkCudaImages(const tcc::artifact::Model &model, uint32_t index,
                       const uint8_t *file, std::vector<int> &owner);

// Checks the launches of kernel `index`: a kernel of a cuda module has at
// least one, each naming a function, with a grid and a block of three
// positive dimensions within CUDA's limits and parameters among the
// kernel's bindings, and runs as one tile; other kernels have none.
Status checkGpuLaunches(const tcc::artifact::Model &model, uint32_t index);

// Whether `arch` names a CUDA architecture as the compiler and the device
// spell it: "sm_" and a number of two or three digits ("sm_80", "sm_90").
bool isCudaArchName(const std::string &arch);

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_GPUCHECKS_H
