//===- CpuFeaturesTest.cpp - the runtime's definition of a CPU's features -===//
//
// x86CpuFeatures on CPUs described by hand (CPUID bit positions from the
// Intel SDM vol. 2A), so the rules hold whatever machine runs the test: a
// feature needs its CPUID bit, its leaf must exist, and AVX/AVX-512 need the
// OS to save their registers (XCR0). aarch64CpuFeatures likewise on
// described HWCAP words (bits from Linux's uapi/asm/hwcap.h). The host's
// own answers are checked against an expectation only where the test names
// the CPU (QEMU's -cpu; TCC_EXPECT_CPU_FEATURES).
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/CpuFeatures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <string_view>
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

// Linux HWCAP bits (uapi/asm/hwcap.h) of the features the tests name.
constexpr uint64_t kHwcapFp = 1u << 0, kHwcapAsimd = 1u << 1,
                   kHwcapAes = 1u << 3, kHwcapPmull = 1u << 4,
                   kHwcapFphp = 1u << 9, kHwcapAsimdhp = 1u << 10,
                   kHwcapAsimddp = 1u << 20, kHwcapSve = 1u << 22;
constexpr uint64_t kHwcap2Sve2 = 1u << 1, kHwcap2I8mm = 1u << 13,
                   kHwcap2Bf16 = 1u << 14;

TEST(CpuFeatures, AArch64FeaturesFollowTheirHwcapBits) {
  // A Cortex-A53 as Linux reports it: FP, ASIMD, AES, PMULL, SHA1, SHA2,
  // CRC32, EVTSTRM and CPUID.
  const uint64_t a53 = kHwcapFp | kHwcapAsimd | (1u << 2) | kHwcapAes |
                       kHwcapPmull | (1u << 5) | (1u << 6) | (1u << 7) |
                       (1u << 11);
  EXPECT_EQ(detail::aarch64CpuFeatures(a53, 0),
            (std::vector<std::string>{"fp-armv8", "neon", "aes", "sha2", "crc"}));
  EXPECT_EQ(isaOf(detail::aarch64CpuFeatures(a53, 0)), Isa::Neon);

  // dotprod, SVE and the HWCAP2 features each need their own bit.
  auto n1 = detail::aarch64CpuFeatures(
      a53 | kHwcapAsimddp | kHwcapSve, kHwcap2I8mm | kHwcap2Bf16);
  EXPECT_TRUE(has(n1, "dotprod"));
  EXPECT_TRUE(has(n1, "sve"));
  EXPECT_TRUE(has(n1, "i8mm"));
  EXPECT_TRUE(has(n1, "bf16"));
  EXPECT_FALSE(has(n1, "sve2"));
  EXPECT_FALSE(has(n1, "fullfp16"));
  EXPECT_TRUE(has(detail::aarch64CpuFeatures(0, kHwcap2Sve2), "sve2"));

  // Without ASIMD there is no NEON level.
  EXPECT_EQ(isaOf(detail::aarch64CpuFeatures(kHwcapFp, 0)), Isa::Portable);
}

TEST(CpuFeatures, AArch64FeaturesSpanningSeveralBitsNeedAll) {
  // LLVM's "aes" includes PMULL and "fullfp16" covers scalar and vector
  // half precision: one of the two bits is not enough.
  EXPECT_FALSE(has(detail::aarch64CpuFeatures(kHwcapAes, 0), "aes"));
  EXPECT_TRUE(has(detail::aarch64CpuFeatures(kHwcapAes | kHwcapPmull, 0), "aes"));
  EXPECT_FALSE(has(detail::aarch64CpuFeatures(kHwcapFphp, 0), "fullfp16"));
  EXPECT_TRUE(has(detail::aarch64CpuFeatures(kHwcapFphp | kHwcapAsimdhp, 0),
                  "fullfp16"));
}

TEST(CpuFeatures, AArch64TableNamesAreUniqueAndDetectable) {
  std::vector<std::string> names = cpuFeatureNames("aarch64");
  ASSERT_FALSE(names.empty());
  std::vector<std::string> sorted = names;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end());
  EXPECT_EQ(detail::aarch64CpuFeatures(~uint64_t(0), ~uint64_t(0)), names);
  EXPECT_TRUE(detail::aarch64CpuFeatures(0, 0).empty());
}

TEST(CpuFeatures, IsaLevelsLowerOnlyWithinTheirFamily) {
  EXPECT_TRUE(isaAtMost(Isa::Portable, Isa::Neon));
  EXPECT_TRUE(isaAtMost(Isa::Portable, Isa::Avx512));
  EXPECT_TRUE(isaAtMost(Isa::Avx2, Isa::Avx512));
  EXPECT_TRUE(isaAtMost(Isa::Neon, Isa::Neon));
  EXPECT_FALSE(isaAtMost(Isa::Avx512, Isa::Avx2));
  EXPECT_FALSE(isaAtMost(Isa::Neon, Isa::Avx512));
  EXPECT_FALSE(isaAtMost(Isa::Avx2, Isa::Neon));
  EXPECT_FALSE(isaAtMost(Isa::Neon, Isa::Portable));
}

TEST(CpuFeatures, HostAnswersFollowTheTable) {
  // The host's answers are the table applied to its own CPU: every known
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
  EXPECT_EQ(hostCpuHasAll(TCC_ISA_AVX2_FEATURES),
            hostIsa() == Isa::Avx2 || hostIsa() == Isa::Avx512);
  EXPECT_EQ(hostCpuHasAll(TCC_ISA_NEON_FEATURES), hostIsa() == Isa::Neon);
  EXPECT_TRUE(isaAtMost(activeIsa(), hostIsa()));
  // Under QEMU the emulated CPU model fixes the level and the features (see
  // test/unittests/CMakeLists.txt): "+name" must be present, "-name" absent.
  if (const char *expected = std::getenv("TCC_EXPECT_ISA")) {
    EXPECT_STREQ(isaName(hostIsa()), expected);
  }
  if (const char *expected = std::getenv("TCC_EXPECT_CPU_FEATURES")) {
    std::string_view list = expected;
    ASSERT_FALSE(list.empty());
    while (!list.empty()) {
      size_t comma = list.find(',');
      std::string item(list.substr(0, comma));
      list = comma == std::string_view::npos ? "" : list.substr(comma + 1);
      ASSERT_TRUE(item.size() > 1 && (item[0] == '+' || item[0] == '-'))
          << "TCC_EXPECT_CPU_FEATURES entry '" << item << "'";
      CpuFeatureState want = item[0] == '+' ? CpuFeatureState::Present
                                            : CpuFeatureState::Absent;
      EXPECT_EQ(hostCpuFeature(item.substr(1)), want) << item;
    }
  }
#if defined(__x86_64__)
  EXPECT_STREQ(hostCpuArch(), "x86_64");
  // Every x86-64 CPU has SSE2 (the architecture's baseline).
  EXPECT_EQ(hostCpuFeature("sse2"), CpuFeatureState::Present);
#elif defined(__aarch64__)
  EXPECT_STREQ(hostCpuArch(), "aarch64");
  // Linux on AArch64 requires FP and Advanced SIMD (GCC's baseline too).
  EXPECT_EQ(hostCpuFeature("neon"), CpuFeatureState::Present);
  EXPECT_EQ(hostCpuFeature("fp-armv8"), CpuFeatureState::Present);
#endif
}
