//===- HostCpu.cpp - does this host run the model's code? -----------------===//
//
// The artifact lists the ISA extensions its code uses (LLVM's names); each
// must be present (CpuFeatures.h defines "present"), or the first
// instruction that needs it would crash the process. A name this runtime
// does not know fails the load rather than being skipped.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/CpuFeatures.h"

#include "Checks.h"

namespace tcc {
namespace runtime {

using detail::cat;

Status checkHostSupports(const tcc::artifact::Model &model) {
  std::string triple =
      model.target_triple() ? model.target_triple()->str() : "";
  std::string arch = triple.substr(0, triple.find('-'));
  if (arch != hostCpuArch())
    return Status(
        TCC_STATUS_FAILED_PRECONDITION,
        cat("model targets '", triple, "' but this host is ", hostCpuArch()));
  const auto *features = model.cpu_features();
  for (uint32_t i = 0; features && i < features->size(); ++i) {
    std::string name = features->Get(i)->str();
    CpuFeatureState has = hostCpuFeature(name);
    if (has == CpuFeatureState::Unknown)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("model requires CPU feature '", name,
                        "', which this runtime cannot check"));
    if (has == CpuFeatureState::Absent)
      return Status(TCC_STATUS_FAILED_PRECONDITION,
                    cat("model requires CPU feature '", name,
                        "', which this CPU lacks (model built for cpu '",
                        model.cpu() ? model.cpu()->str() : "", "')"));
  }
  return Status();
}

} // namespace runtime
} // namespace tcc
