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

/// A CPU architecture the runtime can check features of
/// (tcc/runtime/CpuFeatures.h): its default triple, its baseline CPU (the
/// default for another machine) and the changes to the baseline's features
/// that leave what every processor of it has (the features code may use
/// without listing them), the LLVM feature without which a CPU of its LLVM
/// target cannot run the triple's code (LLVM aborts on such a subtarget, or
/// breaks the ABI the runtime calls with), and example features for
/// messages.
struct CpuArchitecture {
  const char *name; // LLVM's
  const char *triple;
  const char *baselineCpu;
  const char *commonFeatures;
  const char *essentialFeature;
  const char *exampleFeatures;
};

constexpr CpuArchitecture kCpuArchitectures[] = {
    {"x86_64", "x86_64-unknown-linux-gnu", "x86-64", "", "64bit",
     "+avx2,-avx512f"},
    // NEON (Advanced SIMD) is optional in ARMv8-A, so code using it lists
    // it. Without fp-armv8 LLVM makes soft-float code and calls, which the
    // runtime's hard-float functions cannot serve.
    {"aarch64", "aarch64-unknown-linux-gnu", "generic", "-neon", "fp-armv8",
     "+dotprod,+i8mm"},
};

const CpuArchitecture *findArchitecture(StringRef name) {
  for (const CpuArchitecture &a : kCpuArchitectures)
    if (name == a.name)
      return &a;
  return nullptr;
}

/// Whether `cpu` with `features` has the architecture's essential feature.
bool runsArchitecture(const llvm::Target &target, StringRef triple,
                      StringRef cpu, StringRef features,
                      const CpuArchitecture &arch) {
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target.createMCSubtargetInfo(triple, cpu, features));
  return info && info->checkFeatures(std::string("+") + arch.essentialFeature);
}

/// "a, b, c" of `names`, sorted.
std::string listOf(std::vector<std::string> names) {
  llvm::sort(names);
  return llvm::join(names, ", ");
}

} // namespace

std::string mlir::tcc::llvmArchOf(StringRef triple) {
  return llvm::Triple::getArchTypeName(llvm::Triple(triple).getArch()).str();
}

std::string mlir::tcc::hostTriple() {
  return llvm::sys::getDefaultTargetTriple();
}

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
  // features every CPU of the triple has (the baseline CPU's, with the
  // architecture's commonFeatures).
  initializeLlvmTargets();
  std::string error;
  const llvm::Target *t = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!t)
    return {};
  std::string arch = llvmArchOf(triple);
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      t->createMCSubtargetInfo(triple, cpu, features));
  std::unique_ptr<llvm::MCSubtargetInfo> baseline;
  if (const CpuArchitecture *known = findArchitecture(arch))
    baseline.reset(t->createMCSubtargetInfo(triple, known->baselineCpu,
                                            known->commonFeatures));
  std::vector<std::string> required;
  for (const std::string &feature : ::tcc::runtime::cpuFeatureNames(arch)) {
    std::string plus = "+" + feature;
    if (info && info->checkFeatures(plus) &&
        !(baseline && baseline->checkFeatures(plus)))
      required.push_back(feature);
  }
  return required;
}

std::optional<CpuTarget>
mlir::tcc::resolveCpuTarget(StringRef name, const TargetRequest &request,
                            std::string *error) {
  initializeLlvmTargets();
  const CpuArchitecture *registered = findArchitecture(name);
  if (!registered) {
    *error = "no CPU architecture '" + name.str() + "'";
    return std::nullopt;
  }
  const std::string hostTriple = mlir::tcc::hostTriple();
  const bool namesHost = name == llvmArchOf(hostTriple);
  std::string triple = request.triple;
  if (triple.empty())
    triple = namesHost ? hostTriple : registered->triple;
  if (llvmArchOf(triple) != name) {
    *error = "the triple '" + triple + "' is not for target '" + name.str() +
             "'";
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
    // LLVM knows CPUs of its whole target (i386 for x86_64): only those
    // that run the triple's code are valid.
    const bool known = generic->isCPUStringValid(target.cpu);
    if (!known ||
        !runsArchitecture(*llvmTarget, triple, target.cpu, "", *registered)) {
      std::vector<std::string> cpus;
      for (const llvm::SubtargetSubTypeKV &kv :
           generic->getAllProcessorDescriptions())
        if (runsArchitecture(*llvmTarget, triple, kv.Key, "", *registered))
          cpus.push_back(kv.Key);
      std::string what =
          known ? "CPU '" + target.cpu + "' cannot run " + name.str() + " code"
                : "unknown CPU '" + target.cpu + "' for target '" +
                      name.str() + "'";
      *error = what + " (CPUs: " + listOf(cpus) + ")";
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
        *error = "unknown feature '" + feature.str() + "' for target '" +
                 name.str() +
                 "' (write +NAME or -NAME with LLVM's names, e.g. " +
                 registered->exampleFeatures +
                 "; `tcc host` lists this machine's)";
        return std::nullopt;
      }
      features.push_back(feature.str());
    }
    if (!target.features.empty())
      features.insert(features.begin(), target.features);
    target.features = llvm::join(features, ",");
    if (!runsArchitecture(*llvmTarget, triple, target.cpu, target.features,
                          *registered)) {
      *error = "--features must not remove " +
               std::string(registered->essentialFeature) + ", which every " +
               name.str() + " CPU has";
      return std::nullopt;
    }
  }
  return target;
}
