//===- Registry.cpp - Every code generation target, by name ---------------===//

#include "tcc/Codegen/CpuTarget.h"
#include "tcc/Codegen/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/TargetParser/Triple.h"

using namespace mlir;
using namespace mlir::tcc;

namespace mlir::tcc {
#define TCC_TARGET(Name) TargetRegistration register##Name##Target();
#include "Targets.def"
} // namespace mlir::tcc

namespace {
const std::vector<TargetRegistration> &registry() {
  static const std::vector<TargetRegistration> targets = {
#define TCC_TARGET(Name) register##Name##Target(),
#include "Targets.def"
  };
  return targets;
}

const TargetRegistration *findRegistration(StringRef name) {
  for (const TargetRegistration &r : registry())
    if (name == r.name)
      return &r;
  return nullptr;
}

/// The target whose triples have LLVM architecture `arch`.
const TargetRegistration *findByArch(StringRef arch) {
  for (const TargetRegistration &r : registry())
    if (*r.llvmArch && arch == r.llvmArch)
      return &r;
  return nullptr;
}
} // namespace

ArrayRef<TargetRegistration> mlir::tcc::registeredTargets() {
  return registry();
}

std::vector<std::string> mlir::tcc::targetNames() {
  std::vector<std::string> names;
  for (const TargetRegistration &r : registry())
    names.push_back(r.name);
  llvm::sort(names);
  return names;
}

void mlir::tcc::registerTargets() {
  for (const TargetRegistration &r : registry())
    registerTargetCapabilities(r.capabilities());
}

std::unique_ptr<Target> mlir::tcc::resolveTarget(const TargetRequest &request,
                                                 std::string *error) {
  // The target: named, or the triple's architecture's, or this machine's.
  std::string name = request.target;
  if (!request.triple.empty() &&
      llvm::Triple(request.triple).getArch() == llvm::Triple::UnknownArch) {
    *error = "unknown target triple '" + request.triple + "'";
    return nullptr;
  }
  const TargetRegistration *registration = nullptr;
  if (name.empty() && !request.triple.empty())
    name = llvmArchOf(request.triple);
  if (name.empty() || name == "cpu" || name == "host")
    name = llvmArchOf(hostTriple());
  registration = findRegistration(name);
  if (!registration)
    registration = findByArch(name);
  if (!registration) {
    *error = "unknown target '" + name +
             "' (targets: " + llvm::join(targetNames(), ", ") +
             ", or cpu for this machine's)";
    return nullptr;
  }
  if (!request.gpu.empty() && !registration->takesGpuArchitectures) {
    *error = std::string("--gpu applies to GPU targets (cuda), not to ") +
             registration->name;
    return nullptr;
  }
  if (request.allowTf32 && !registration->takesGpuArchitectures) {
    *error = std::string("--allow-tf32 applies to GPU targets (cuda), not "
                         "to ") +
             registration->name;
    return nullptr;
  }
  if (!request.cudaConv.empty() && !registration->takesGpuArchitectures) {
    *error = std::string("--cuda-conv applies to the cuda target, not to ") +
             registration->name;
    return nullptr;
  }
  TargetRequest named = request;
  named.target = registration->name;
  return registration->create(named, error);
}
