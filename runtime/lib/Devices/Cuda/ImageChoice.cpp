//===- ImageChoice.cpp - which image of a cuda module a GPU loads ---------===//

#include "ImageChoice.h"

#include <set>

namespace tcc {
namespace cuda {

int archNumber(const std::string &arch) {
  if (arch.size() < 4 || arch.size() > 7 || arch.compare(0, 3, "sm_") != 0)
    return -1;
  int number = 0;
  for (size_t i = 3; i < arch.size(); ++i) {
    if (arch[i] < '0' || arch[i] > '9')
      return -1;
    number = number * 10 + (arch[i] - '0');
  }
  return number;
}

runtime::Status chooseImage(const std::vector<ImageInfo> &images, int major,
                            int minor, ImageChoice *out) {
  const int gpu = major * 10 + minor;
  int bestPtx = -1;
  for (size_t i = 0; i < images.size(); ++i) {
    int arch = archNumber(images[i].arch);
    if (images[i].cubin && arch == gpu) {
      *out = {i, false};
      return runtime::Status();
    }
    if (!images[i].cubin && arch >= 0 && arch <= gpu &&
        (bestPtx < 0 || arch > archNumber(images[size_t(bestPtx)].arch)))
      bestPtx = int(i);
  }
  if (bestPtx >= 0) {
    *out = {size_t(bestPtx), true};
    return runtime::Status();
  }
  std::set<std::string> archs;
  for (const ImageInfo &image : images)
    archs.insert(image.arch);
  std::string list;
  for (const std::string &arch : archs)
    list += (list.empty() ? "" : ", ") + arch;
  return runtime::Status(
      TCC_STATUS_FAILED_PRECONDITION,
      "the GPU is sm_" + std::to_string(gpu) + " (compute capability " +
          std::to_string(major) + "." + std::to_string(minor) +
          "), but the artifact has code for " +
          (list.empty() ? std::string("no architecture") : list) +
          " only (compile with --gpu sm_" + std::to_string(gpu) +
          " or an older architecture)");
}

} // namespace cuda
} // namespace tcc
