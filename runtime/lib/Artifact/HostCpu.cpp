//===- HostCpu.cpp - does this host's CPU run the model's CPU code? -------===//
//
// A "cpu" code module names its target triple and the ISA extensions its
// code uses (LLVM's names); each must be present (CpuFeatures.h defines
// "present"), or the first instruction that needs it would crash the
// process. A name this runtime does not know fails the load rather than
// being skipped. Modules of other kinds are their devices' to check
// (Executor/ModelDevices.cpp).
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/CpuFeatures.h"

#include "Checks.h"

namespace tcc {
namespace runtime {

using detail::cat;

namespace {

Status checkCpuModule(const tcc::artifact::CodeModule &module,
                      const std::string &prefix) {
  std::string triple =
      module.target_triple() ? module.target_triple()->str() : "";
  // The host module of a GPU model: no code, so any host CPU serves.
  if (triple.empty() && module.code_segment() < 0 &&
      (!module.cpu_features() || module.cpu_features()->size() == 0))
    return Status();
  std::string arch = triple.substr(0, triple.find('-'));
  if (arch != hostCpuArch())
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  cat(prefix, "model targets '", triple,
                      "' but this host is ", hostCpuArch()));
  const auto *features = module.cpu_features();
  for (uint32_t i = 0; features && i < features->size(); ++i) {
    std::string name = features->Get(i)->str();
    CpuFeatureState has = hostCpuFeature(name);
    if (has == CpuFeatureState::Unknown)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat(prefix, "model requires CPU feature '", name,
                        "', which this runtime cannot check"));
    if (has == CpuFeatureState::Absent)
      return Status(TCC_STATUS_FAILED_PRECONDITION,
                    cat(prefix, "model requires CPU feature '", name,
                        "', which this CPU lacks (model built for cpu '",
                        module.cpu() ? module.cpu()->str() : "", "')"));
  }
  return Status();
}

} // namespace

Status checkCpuModules(const tcc::artifact::Model &model) {
  const auto *modules = model.code_modules();
  uint32_t numModules = modules ? modules->size() : 0;
  for (uint32_t i = 0; i < numModules; ++i) {
    const tcc::artifact::CodeModule &module = *modules->Get(i);
    if (module.kind()->str() != kCpuModuleKind)
      continue;
    // Named only when there are several, so single-target messages read
    // as before.
    std::string prefix = numModules > 1 ? cat("code module ", i, ": ") : "";
    TCC_RETURN_IF_ERROR(checkCpuModule(module, prefix));
  }
  return Status();
}

} // namespace runtime
} // namespace tcc
