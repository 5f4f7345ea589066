//===- CpuFeaturesTest.cpp - the runtime's definition of a CPU's features -===//
//
// x86CpuFeatures on CPUs described by hand (CPUID bit positions from the
// Intel SDM vol. 2A), so the rules hold whatever machine runs the test: a
// feature needs its CPUID bit, its leaf must exist, and AVX/AVX-512 need the
// OS to save their registers (XCR0).
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/CpuFeatures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <utility>

using namespace tcc::runtime;
using detail::CpuidRegs;

namespace {

constexpr uint64_t kXcr0Avx = 0x7;           // x87, XMM, YMM
constexpr uint64_t kXcr0Avx512 = 0x7 | 0xE0; // and opmask, ZMM_Hi256, Hi16_ZMM

// A CPU described leaf by leaf; unlisted leaves read as zeros.
struct FakeCpu {
  std::map<std::pair<uint32_t, uint32_t>, CpuidRegs> leaves;

  FakeCpu(uint32_t maxLeaf = 7, uint32_t maxExtLeaf = 0x80000001u) {
    leaves[{0, 0}].eax = maxLeaf;
    leaves[{0x80000000u, 0}].eax = maxExtLeaf;
  }
  FakeCpu &set(uint32_t leaf, uint32_t subleaf, uint32_t CpuidRegs::*reg,
               int bit) {
    leaves[{leaf, subleaf}].*reg |= uint32_t(1) << bit;
    return *this;
  }
  // SSE2, OSXSAVE and AVX in leaf 1; AVX2, AVX-512 F/DQ/BW/VL in leaf 7.
  FakeCpu &avx512Machine() {
    set(1, 0, &CpuidRegs::edx, 26);
    set(1, 0, &CpuidRegs::ecx, 27);
    set(1, 0, &CpuidRegs::ecx, 28);
    set(1, 0, &CpuidRegs::ecx, 12); // FMA
    for (int bit : {5, 16, 17, 30, 31})
      set(7, 0, &CpuidRegs::ebx, bit);
    return *this;
  }
  std::vector<std::string> features(uint64_t xcr0) const {
    return detail::x86CpuFeatures(
        [this](uint32_t leaf, uint32_t subleaf) {
          auto it = leaves.find({leaf, subleaf});
          return it == leaves.end() ? CpuidRegs() : it->second;
        },
        xcr0);
  }
};

bool has(const std::vector<std::string> &features, const std::string &name) {
  return std::find(features.begin(), features.end(), name) != features.end();
}

Isa isaOf(const std::vector<std::string> &features) {
  return detail::isaFor(
      [&](std::string_view name) { return has(features, std::string(name)); });
}

} // namespace

TEST(CpuFeatures, Avx512NeedsTheOsToSaveZmmState) {
  FakeCpu cpu;
  cpu.avx512Machine();
  auto all = cpu.features(kXcr0Avx512);
  EXPECT_TRUE(has(all, "avx512f"));
  EXPECT_TRUE(has(all, "avx512vl"));
  EXPECT_EQ(isaOf(all), Isa::Avx512);

  // Same CPUID, but the OS enables only YMM state: AVX2 yes, AVX-512 no.
  auto ymmOnly = cpu.features(kXcr0Avx);
  EXPECT_TRUE(has(ymmOnly, "avx2"));
  EXPECT_TRUE(has(ymmOnly, "fma"));
  EXPECT_FALSE(has(ymmOnly, "avx512f"));
  EXPECT_FALSE(has(ymmOnly, "avx512bw"));
  EXPECT_EQ(isaOf(ymmOnly), Isa::Avx2);
}

TEST(CpuFeatures, AvxNeedsOsxsaveAndYmmState) {
  FakeCpu cpu;
  cpu.avx512Machine();
  // XCR0 without YMM: nothing of the AVX family, SSE still there.
  auto xmmOnly = cpu.features(0x3);
  EXPECT_TRUE(has(xmmOnly, "sse2"));
  EXPECT_FALSE(has(xmmOnly, "avx"));
  EXPECT_FALSE(has(xmmOnly, "avx2"));
  EXPECT_FALSE(has(xmmOnly, "fma"));
  EXPECT_EQ(isaOf(xmmOnly), Isa::Portable);

  // OSXSAVE clear: XCR0 cannot be read, so whatever value is passed is
  // ignored.
  cpu.leaves[{1, 0}].ecx &= ~(uint32_t(1) << 27);
  auto noXsave = cpu.features(kXcr0Avx512);
  EXPECT_TRUE(has(noXsave, "sse2"));
  EXPECT_FALSE(has(noXsave, "avx"));
  EXPECT_FALSE(has(noXsave, "avx512f"));
}

TEST(CpuFeatures, ScalarFeaturesNeedOnlyTheirBit) {
  // rdseed (leaf 7 EBX 18) and lzcnt (leaf 0x80000001 ECX 5) are usable
  // whatever the OS saves: a VM whose /proc/cpuinfo omits rdseed still runs
  // it, and CPUID is what the compiler read too.
  FakeCpu cpu;
  cpu.set(7, 0, &CpuidRegs::ebx, 18).set(0x80000001u, 0, &CpuidRegs::ecx, 5);
  auto features = cpu.features(0);
  EXPECT_EQ(features, (std::vector<std::string>{"rdseed", "lzcnt"}));
}

TEST(CpuFeatures, LeavesBeyondTheMaximumAreNotRead) {
  // Bits in leaf 7 count only when leaf 0 says leaf 7 exists; leaf 7
  // subleaf 1 only when leaf 7 subleaf 0 reports it in EAX.
  FakeCpu old(/*maxLeaf=*/6, /*maxExtLeaf=*/0x80000000u);
  old.avx512Machine();
  old.set(0x80000001u, 0, &CpuidRegs::ecx, 5);
  auto features = old.features(kXcr0Avx512);
  EXPECT_TRUE(has(features, "avx"));
  EXPECT_FALSE(has(features, "avx2"));
  EXPECT_FALSE(has(features, "avx512f"));
  EXPECT_FALSE(has(features, "lzcnt"));

  FakeCpu cpu;
  cpu.avx512Machine();
  cpu.set(7, 1, &CpuidRegs::eax, 4); // AVX-VNNI, but no subleaf 1
  EXPECT_FALSE(has(cpu.features(kXcr0Avx512), "avxvnni"));
  cpu.leaves[{7, 0}].eax = 1;
  EXPECT_TRUE(has(cpu.features(kXcr0Avx512), "avxvnni"));
}

TEST(CpuFeatures, IsaLevelsNeedEveryFeatureTheirCodeIsCompiledFor) {
  FakeCpu cpu;
  cpu.avx512Machine();
  cpu.leaves[{7, 0}].ebx &= ~(uint32_t(1) << 31); // no AVX-512 VL
  EXPECT_EQ(isaOf(cpu.features(kXcr0Avx512)), Isa::Avx2);
  cpu.leaves[{1, 0}].ecx &= ~(uint32_t(1) << 12); // no FMA either
  EXPECT_EQ(isaOf(cpu.features(kXcr0Avx512)), Isa::Portable);
}

TEST(CpuFeatures, EveryKnownNameIsDetectableAndTheTableHasNoDuplicates) {
  std::vector<std::string> names = cpuFeatureNames("x86_64");
  ASSERT_FALSE(names.empty());
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());

  // A CPU with every bit set and every state enabled has every feature.
  FakeCpu all(/*maxLeaf=*/7, /*maxExtLeaf=*/0x80000001u);
  for (auto leaf : {std::make_pair(1u, 0u), std::make_pair(7u, 0u),
                    std::make_pair(7u, 1u), std::make_pair(0x80000001u, 0u)})
    all.leaves[leaf] = {~0u, ~0u, ~0u, ~0u};
  all.leaves[{7, 0}].eax = 1;
  EXPECT_EQ(all.features(~uint64_t(0)), names);
  EXPECT_TRUE(cpuFeatureNames("riscv64").empty());
}

TEST(CpuFeatures, HostAnswersFollowTheTable) {
  // The host's answers are x86CpuFeatures on its own CPUID: every known
  // name is Present or Absent, others Unknown, and hostCpuHasAll and the
  // ISA level are consistent with the per-name answers.
  std::vector<std::string> present;
  for (const std::string &name : knownCpuFeatures()) {
    CpuFeatureState state = hostCpuFeature(name);
    EXPECT_NE(state, CpuFeatureState::Unknown) << name;
    if (state == CpuFeatureState::Present)
      present.push_back(name);
  }
  EXPECT_EQ(hostCpuFeature("warp-drive"), CpuFeatureState::Unknown);
  EXPECT_FALSE(hostCpuHasAll("sse2,warp-drive"));
  EXPECT_EQ(hostIsa(), isaOf(present));
  EXPECT_EQ(hostCpuHasAll(TCC_ISA_AVX2_FEATURES), hostIsa() >= Isa::Avx2);
  EXPECT_LE(static_cast<int>(activeIsa()), static_cast<int>(hostIsa()));
  // Under QEMU the emulated CPU model fixes the level (see
  // test/unittests/CMakeLists.txt).
  if (const char *expected = std::getenv("TCC_EXPECT_ISA")) {
    EXPECT_STREQ(isaName(hostIsa()), expected);
  }
#if defined(__x86_64__)
  EXPECT_STREQ(hostCpuArch(), "x86_64");
  // Every x86-64 CPU has SSE2 (the architecture's baseline).
  EXPECT_EQ(hostCpuFeature("sse2"), CpuFeatureState::Present);
#endif
}
