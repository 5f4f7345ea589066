//===- CpuTargetTest.cpp - what compiled code requires of a CPU -----------===//
//
// The compiler asks LLVM which features the host has; the runtime reads
// CPUID itself (CpuFeatures.h). Both read the same CPUID and XGETBV with the
// same gating, so on any machine, masked VMs included, they must agree, and
// code compiled for this host must load on it.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/runtime/CpuFeatures.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <algorithm>

using mlir::tcc::CpuTarget;
using namespace tcc::runtime;

namespace {

bool contains(const std::vector<std::string> &list, const std::string &name) {
  return std::find(list.begin(), list.end(), name) != list.end();
}

constexpr const char *kX86Triple = "x86_64-unknown-linux-gnu";
constexpr const char *kAArch64Triple = "aarch64-unknown-linux-gnu";

} // namespace

#if defined(__x86_64__)
TEST(CpuTarget, RuntimeAgreesWithLlvmOnThisHost) {
  llvm::StringMap<bool> llvmFeatures = llvm::sys::getHostCPUFeatures();
  ASSERT_FALSE(llvmFeatures.empty());
  for (const std::string &name : knownCpuFeatures()) {
    auto it = llvmFeatures.find(name);
    ASSERT_NE(it, llvmFeatures.end()) << "LLVM does not report " << name;
    EXPECT_EQ(hostCpuFeature(name) == CpuFeatureState::Present, it->second)
        << name;
  }
}
#endif

TEST(CpuTarget, CodeForThisHostLoadsOnThisHost) {
  for (const std::string &name : CpuTarget::host().requiredFeatures())
    EXPECT_EQ(hostCpuFeature(name), CpuFeatureState::Present) << name;
}

TEST(CpuTarget, NamedCpusRequireWhatLlvmMayEmitForThem) {
  // x86-64 is the baseline: nothing beyond the triple.
  EXPECT_EQ(CpuTarget::named("x86-64", kX86Triple).requiredFeatures(),
            std::vector<std::string>{});

  std::vector<std::string> v2 =
      CpuTarget::named("x86-64-v2", kX86Triple).requiredFeatures();
  for (const char *name :
       {"sse3", "ssse3", "sse4.1", "sse4.2", "popcnt", "cx16", "sahf"})
    EXPECT_TRUE(contains(v2, name)) << name;
  EXPECT_FALSE(contains(v2, "avx"));
  EXPECT_FALSE(contains(v2, "sse2")) << "baseline features are implied";

  // Haswell's scalar extensions count as much as its vector ones: LLVM
  // emits shlx, lzcnt and movbe for it.
  std::vector<std::string> haswell =
      CpuTarget::named("haswell", kX86Triple).requiredFeatures();
  for (const char *name :
       {"avx", "avx2", "fma", "f16c", "bmi", "bmi2", "lzcnt", "movbe"})
    EXPECT_TRUE(contains(haswell, name)) << name;
  EXPECT_FALSE(contains(haswell, "avx512f"));

  std::vector<std::string> v4 =
      CpuTarget::named("x86-64-v4", kX86Triple).requiredFeatures();
  for (const char *name : {"avx512f", "avx512bw", "avx512dq", "avx512vl",
                           "avx512cd", "avx2", "fma"})
    EXPECT_TRUE(contains(v4, name)) << name;
}

TEST(CpuTarget, AArch64CodeRequiresNeonAndTheNamedCpusExtensions) {
  // Generic ARMv8-A vectorizes with NEON, which is optional in ARMv8-A;
  // floating point (fp-armv8) every AArch64 CPU tcc targets has.
  EXPECT_EQ(CpuTarget::named("generic", kAArch64Triple).requiredFeatures(),
            std::vector<std::string>{"neon"});
  std::vector<std::string> n1 =
      CpuTarget::named("neoverse-n1", kAArch64Triple).requiredFeatures();
  for (const char *name : {"neon", "lse", "fullfp16", "dotprod", "rcpc"})
    EXPECT_TRUE(contains(n1, name)) << name;
  EXPECT_FALSE(contains(n1, "fp-armv8"));
  EXPECT_FALSE(contains(n1, "sve"));
  std::vector<std::string> v1 =
      CpuTarget::named("neoverse-v1", kAArch64Triple).requiredFeatures();
  for (const char *name : {"sve", "bf16", "i8mm"})
    EXPECT_TRUE(contains(v1, name)) << name;
}

TEST(CpuTarget, AArch64FeatureNamesAreLlvmsOnce) {
  // The runtime's names are what the artifact records: each must be an
  // LLVM AArch64 feature, or the compiler could never list it.
  mlir::tcc::initializeLlvmTargets();
  std::string error;
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(kAArch64Triple, error);
  ASSERT_NE(target, nullptr) << error;
  std::unique_ptr<llvm::MCSubtargetInfo> info(
      target->createMCSubtargetInfo(kAArch64Triple, "generic", ""));
  std::vector<std::string> names = cpuFeatureNames("aarch64");
  ASSERT_FALSE(names.empty());
  for (const std::string &name : names)
    EXPECT_TRUE(llvm::any_of(info->getAllProcessorFeatures(),
                             [&](const llvm::SubtargetFeatureKV &kv) {
                               return name == kv.Key;
                             }))
        << name << " is not an LLVM AArch64 feature";
  std::sort(names.begin(), names.end());
  EXPECT_EQ(std::adjacent_find(names.begin(), names.end()), names.end());
}
