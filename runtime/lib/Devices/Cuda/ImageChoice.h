//===- ImageChoice.h - which image of a cuda module a GPU loads -*- C++ -*-===//
//
// A cuda module carries, per architecture, PTX and (where ptxas ran) a
// cubin. A GPU of compute capability X.Y loads the cubin of sm_XY when there
// is one (no JIT); otherwise the PTX of the newest architecture not newer
// than the GPU, which the driver compiles at load. A module with nothing
// the GPU can run is refused, naming the GPU's architecture and the
// module's.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_IMAGECHOICE_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_IMAGECHOICE_H

#include "tcc/runtime/Status.h"

#include <string>
#include <vector>

namespace tcc {
namespace cuda {

struct ImageInfo {
  std::string arch; // "sm_90"
  bool cubin = false;
};

struct ImageChoice {
  size_t index = 0; // into the module's images
  bool jit = false; // PTX, compiled by the driver at load
};

// "sm_90" -> 90; -1 for a name that is not sm_ and digits.
int archNumber(const std::string &arch);

// Chooses the image for a GPU of compute capability major.minor.
runtime::Status chooseImage(const std::vector<ImageInfo> &images, int major,
                            int minor, ImageChoice *out);

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_IMAGECHOICE_H
