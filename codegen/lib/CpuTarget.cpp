//===- CpuTarget.cpp - CPU targets: the host, named CPUs, validation ------===//

#include "tcc/Codegen/CpuTarget.h"
#include "tcc/runtime/CpuFeatures.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

#include <memory>

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// A registered CPU target: an architecture the runtime can check features
/// of, its default triple and the CPU every processor of it matches.
struct RegisteredCpuTarget {
  const char *name;
  const char *triple;
  const char *baselineCpu;
};

constexpr RegisteredCpuTarget kCpuTargets[] = {
    {"x86_64", "x86_64-unknown-linux-gnu", "x86-64"},
};

const RegisteredCpuTarget *findTarget(StringRef name) {
  for (const RegisteredCpuTarget &t : kCpuTargets)
    if (name == t.name)
      return &t;
  return nullptr;
}

std::string archOf(StringRef triple) {
  return llvm::Triple::getArchTypeName(llvm::Triple(triple).getArch()).str();
}

/// "a, b, c" of `names`, sorted.
std::string listOf(std::vector<std::string> names) {
  llvm::sort(names);
  return llvm::join(names, ", ");
}

} // namespace

void mlir::tcc::initializeLlvmTargets() {
  static const bool once = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)once;
}

CpuTarget CpuTarget::host() {
  CpuTarget target;
  target.triple = llvm::sys::getDefaultTargetTriple();
  target.cpu = llvm::sys::getHostCPUName().str();
  llvm::StringMap<bool> features = llvm::sys::getHostCPUFeatures();
  std::vector<std::string> enabled;
  for (const auto &feature : features)
    enabled.push_back((feature.second ? "+" : "-") + feature.first().str());
  llvm::sort(enabled); // StringMap order is not deterministic
  target.features = llvm::join(enabled, ",");
  return target;
}

CpuTarget CpuTarget::named(StringRef cpu, StringRef triple) {
  CpuTarget target;
  target.triple =
      triple.empty() ? llvm::sys::getDefaultTargetTriple() : triple.str();
  target.cpu = cpu.str();
  return target;
}

std::vector<std::string> CpuTarget::requiredFeatures() const {
  // Every feature the runtime can check (its table is the one definition of
  // what a CPU runs) that this subtarget enables: LLVM may emit any of them,
  // scalar ones (lzcnt, bmi2, movbe) as much as vector ISAs. Less the
  // features of the architecture's baseline CPU, which every CPU of the
  // triple has.
  initializeLlvmTargets();
  std::string error;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t)
    return {};
  std::string arch = archOf(triple);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      t->createMCSubtargetInfo(triple, cpu, features));
  std::unique_ptr<llvm::MCSubtargetInfo> baseline;
  if (const RegisteredCpuTarget *registered = findTarget(arch))
    baseline.reset(
        t->createMCSubtargetInfo(triple, registered->baselineCpu, ""));
  std::vector<std::string> required;
  for (const std::string &feature : ::tcc::runtime::cpuFeatureNames(arch)) {
    std::string plus = "+" + feature;
    if (info && info->checkFeatures(plus) &&
        !(baseline && baseline->checkFeatures(plus)))
      required.push_back(feature);
  }
  return required;
}

std::vector<std::string> mlir::tcc::cpuTargetNames() {
  std::vector<std::string> names;
  for (const RegisteredCpuTarget &t : kCpuTargets)
    names.push_back(t.name);
  return names;
}

std::optional<CpuTarget>
mlir::tcc::resolveCpuTarget(const CpuTargetRequest &request,
                            std::string *error) {
  initializeLlvmTargets();
  const std::string hostTriple = llvm::sys::getDefaultTargetTriple();
  const std::string hostArch = archOf(hostTriple);
  // The target: named, or the triple's architecture, or this machine's.
  std::string name = request.target;
  if (!request.triple.empty() &&
      llvm::Triple(request.triple).getArch() == llvm::Triple::UnknownArch) {
    *error = "unknown target triple '" + request.triple + "'";
    return std::nullopt;
  }
  if (name.empty() && !request.triple.empty())
    name = archOf(request.triple);
  if (name.empty() || name == "cpu" || name == "host")
    name = hostArch;
  const bool namesHost = name == hostArch;
  const RegisteredCpuTarget *registered = findTarget(name);
  if (!registered) {
    *error = "unknown target '" + name +
             "' (targets: " + listOf(cpuTargetNames()) +
             ", or cpu for this machine's)";
    return std::nullopt;
  }
  std::string triple = request.triple;
  if (triple.empty())
    triple = namesHost ? hostTriple : registered->triple;
  if (archOf(triple) != name) {
    *error = "the triple '" + triple + "' is not for target '" + name + "'";
    return std::nullopt;
  }
  std::string lookupError;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, lookupError);
  if (!llvmTarget) {
    *error = "LLVM cannot generate code for '" + triple + "': " + lookupError;
    return std::nullopt;
  }
  // Checked on a subtarget of no particular CPU, which prints no warning.
  std::unique_ptr<llvm::MCSubtargetInfo> generic(
      llvmTarget->createMCSubtargetInfo(triple, "", ""));

  CpuTarget target;
  const bool native = request.cpu.empty() || request.cpu == "native";
  if (native && triple == hostTriple) {
    target = CpuTarget::host();
  } else if (native && request.cpu == "native") {
    *error = "--cpu=native (this machine's CPU) applies only to this "
             "machine's triple, not '" +
             triple + "': name a CPU";
    return std::nullopt;
  } else {
    target = CpuTarget::named(native ? registered->baselineCpu : request.cpu,
                              triple);
    if (!generic->isCPUStringValid(target.cpu)) {
      std::vector<std::string> cpus;
      for (const llvm::SubtargetSubTypeKV &kv :
           generic->getAllProcessorDescriptions())
        cpus.push_back(kv.Key);
      *error = "unknown CPU '" + target.cpu + "' for target '" + name +
               "' (CPUs: " + listOf(cpus) + ")";
      return std::nullopt;
    }
  }
  target.triple = triple;

  if (!request.features.empty()) {
    std::vector<std::string> features;
    for (StringRef feature : llvm::split(request.features, ',')) {
      feature = feature.trim();
      bool known = (feature.starts_with("+") || feature.starts_with("-")) &&
                   llvm::any_of(generic->getAllProcessorFeatures(),
                                [&](const llvm::SubtargetFeatureKV &kv) {
                                  return feature.drop_front() == kv.Key;
                                });
      if (!known) {
        *error = "unknown feature '" + feature.str() + "' for target '" + name +
                 "' (write +NAME or -NAME with LLVM's names, e.g. "
                 "+avx2,-avx512f; `tcc host` lists this machine's)";
        return std::nullopt;
      }
      features.push_back(feature.str());
    }
    if (!target.features.empty())
      features.insert(features.begin(), target.features);
    target.features = llvm::join(features, ",");
  }
  return target;
}
