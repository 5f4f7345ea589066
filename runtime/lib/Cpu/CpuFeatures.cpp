//===- CpuFeatures.cpp - What this CPU may run (x86-64 and AArch64) -------===//
//
// See CpuFeatures.h for the definition and why it is this one. The x86
// table is LLVM's sys::getHostCPUFeatures for the features tcc can require,
// bit for bit and gate for gate (a test compares the two on the build host).
// The AArch64 table maps Linux's hardware capability bits to LLVM's names.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/CpuFeatures.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>

#if defined(__x86_64__)
#include <cpuid.h>
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace tcc {
namespace runtime {

using detail::CpuidFn;
using detail::CpuidRegs;

namespace {

enum Reg { EAX, EBX, ECX, EDX };

// Which register state the OS must save for the feature to be usable.
enum Gate {
  NoGate,
  AvxState,    // XCR0 bits 1-2 (XMM, YMM), plus the AVX bit in CPUID
  Avx512State, // AvxState and XCR0 bits 5-7 (opmask, ZMM_Hi256, Hi16_ZMM)
};

// The CPUID queries the table reads. Leaf 7 subleaf 1 exists when leaf 7
// subleaf 0 reports max subleaf >= 1 in EAX.
enum Leaf { Leaf1, Leaf7, Leaf7Sub1, ExtLeaf1, kLeafCount };

struct FeatureBit {
  const char *name;
  Leaf leaf;
  Reg reg;
  int bit;
  Gate gate;
};

// Bits from the Intel SDM vol. 2A (CPUID) and AMD APM vol. 3.
constexpr FeatureBit kX86Features[] = {
    {"cmov", Leaf1, EDX, 15, NoGate},
    {"cx8", Leaf1, EDX, 8, NoGate},
    {"mmx", Leaf1, EDX, 23, NoGate},
    {"fxsr", Leaf1, EDX, 24, NoGate},
    {"sse", Leaf1, EDX, 25, NoGate},
    {"sse2", Leaf1, EDX, 26, NoGate},
    {"sse3", Leaf1, ECX, 0, NoGate},
    {"pclmul", Leaf1, ECX, 1, NoGate},
    {"ssse3", Leaf1, ECX, 9, NoGate},
    {"fma", Leaf1, ECX, 12, AvxState},
    {"cx16", Leaf1, ECX, 13, NoGate},
    {"sse4.1", Leaf1, ECX, 19, NoGate},
    {"sse4.2", Leaf1, ECX, 20, NoGate},
    {"crc32", Leaf1, ECX, 20, NoGate},
    {"movbe", Leaf1, ECX, 22, NoGate},
    {"popcnt", Leaf1, ECX, 23, NoGate},
    {"aes", Leaf1, ECX, 25, NoGate},
    {"xsave", Leaf1, ECX, 26, AvxState},
    {"avx", Leaf1, ECX, 28, AvxState},
    {"f16c", Leaf1, ECX, 29, AvxState},
    {"rdrnd", Leaf1, ECX, 30, NoGate},
    {"fsgsbase", Leaf7, EBX, 0, NoGate},
    {"bmi", Leaf7, EBX, 3, NoGate},
    {"avx2", Leaf7, EBX, 5, AvxState},
    {"bmi2", Leaf7, EBX, 8, NoGate},
    {"avx512f", Leaf7, EBX, 16, Avx512State},
    {"avx512dq", Leaf7, EBX, 17, Avx512State},
    {"rdseed", Leaf7, EBX, 18, NoGate},
    {"adx", Leaf7, EBX, 19, NoGate},
    {"avx512ifma", Leaf7, EBX, 21, Avx512State},
    {"clflushopt", Leaf7, EBX, 23, NoGate},
    {"clwb", Leaf7, EBX, 24, NoGate},
    {"avx512cd", Leaf7, EBX, 28, Avx512State},
    {"sha", Leaf7, EBX, 29, NoGate},
    {"avx512bw", Leaf7, EBX, 30, Avx512State},
    {"avx512vl", Leaf7, EBX, 31, Avx512State},
    {"avx512vbmi", Leaf7, ECX, 1, Avx512State},
    {"avx512vbmi2", Leaf7, ECX, 6, Avx512State},
    {"gfni", Leaf7, ECX, 8, NoGate},
    {"vaes", Leaf7, ECX, 9, AvxState},
    {"vpclmulqdq", Leaf7, ECX, 10, AvxState},
    {"avx512vnni", Leaf7, ECX, 11, Avx512State},
    {"avx512bitalg", Leaf7, ECX, 12, Avx512State},
    {"avx512vpopcntdq", Leaf7, ECX, 14, Avx512State},
    {"rdpid", Leaf7, ECX, 22, NoGate},
    {"avx512vp2intersect", Leaf7, EDX, 8, Avx512State},
    {"avx512fp16", Leaf7, EDX, 23, Avx512State},
    {"avxvnni", Leaf7Sub1, EAX, 4, AvxState},
    {"avx512bf16", Leaf7Sub1, EAX, 5, Avx512State},
    {"sahf", ExtLeaf1, ECX, 0, NoGate},
    {"lzcnt", ExtLeaf1, ECX, 5, NoGate},
    {"sse4a", ExtLeaf1, ECX, 6, NoGate},
    {"prfchw", ExtLeaf1, ECX, 8, NoGate},
};

// An AArch64 feature and the capability bits Linux reports for it; LLVM
// features that cover several instruction groups need every group's bit
// ("aes" includes PMULL, "sha3" SHA512, "sm4" SM3).
struct HwcapBits {
  const char *name;
  uint64_t hwcap, hwcap2; // all of these bits
};

// Bits from Linux's arch/arm64/include/uapi/asm/hwcap.h.
constexpr uint64_t bit(int n) { return uint64_t(1) << n; }
constexpr HwcapBits kAArch64Features[] = {
    {"fp-armv8", bit(0), 0},           // FP
    {"neon", bit(1), 0},               // ASIMD
    {"aes", bit(3) | bit(4), 0},       // AES, PMULL
    {"sha2", bit(5) | bit(6), 0},      // SHA1, SHA2
    {"crc", bit(7), 0},                // CRC32
    {"lse", bit(8), 0},                // ATOMICS
    {"fullfp16", bit(9) | bit(10), 0}, // FPHP, ASIMDHP
    {"rdm", bit(12), 0},               // ASIMDRDM
    {"jsconv", bit(13), 0},            // JSCVT
    {"complxnum", bit(14), 0},         // FCMA
    {"rcpc", bit(15), 0},              // LRCPC
    {"ccpp", bit(16), 0},              // DCPOP
    {"sha3", bit(17) | bit(21), 0},    // SHA3, SHA512
    {"sm4", bit(18) | bit(19), 0},     // SM3, SM4
    {"dotprod", bit(20), 0},           // ASIMDDP
    {"sve", bit(22), 0},               // SVE
    {"fp16fml", bit(23), 0},           // ASIMDFHM
    {"dit", bit(24), 0},               // DIT
    {"lse2", bit(25), 0},              // USCAT
    {"rcpc-immo", bit(26), 0},         // ILRCPC
    {"flagm", bit(27), 0},             // FLAGM
    {"ssbs", bit(28), 0},              // SSBS
    {"sb", bit(29), 0},                // SB
    {"pauth", bit(30) | bit(31), 0},   // PACA, PACG
    {"ccdp", 0, bit(0)},               // DCPODP
    {"sve2", 0, bit(1)},               // SVE2
    {"sve2-aes", 0, bit(2) | bit(3)},  // SVEAES, SVEPMULL
    {"sve2-bitperm", 0, bit(4)},       // SVEBITPERM
    {"sve2-sha3", 0, bit(5)},          // SVESHA3
    {"sve2-sm4", 0, bit(6)},           // SVESM4
    {"altnzcv", 0, bit(7)},            // FLAGM2
    {"fptoint", 0, bit(8)},            // FRINT
    {"f32mm", 0, bit(10)},             // SVEF32MM
    {"f64mm", 0, bit(11)},             // SVEF64MM
    {"i8mm", 0, bit(13)},              // I8MM
    {"bf16", 0, bit(14)},              // BF16
    {"rand", 0, bit(16)},              // RNG
    {"bti", 0, bit(17)},               // BTI
    {"mte", 0, bit(18)},               // MTE
    {"sme", 0, bit(23)},               // SME
    {"cssc", 0, bit(34)},              // CSSC
    {"mops", 0, bit(43)},              // MOPS
};

uint32_t reg(const CpuidRegs &r, Reg which) {
  switch (which) {
  case EAX:
    return r.eax;
  case EBX:
    return r.ebx;
  case ECX:
    return r.ecx;
  case EDX:
    return r.edx;
  }
  return 0;
}

#if defined(__x86_64__)
CpuidRegs hostCpuid(uint32_t leaf, uint32_t subleaf) {
  CpuidRegs r;
  __cpuid_count(leaf, subleaf, r.eax, r.ebx, r.ecx, r.edx);
  return r;
}

uint64_t hostXcr0() {
  // xgetbv faults unless CPUID.1:ECX.OSXSAVE[bit 27] is set.
  if (!((hostCpuid(1, 0).ecx >> 27) & 1))
    return 0;
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t(hi) << 32) | lo;
}

const std::vector<std::string> &hostFeatures() {
  static const std::vector<std::string> features =
      detail::x86CpuFeatures(hostCpuid, hostXcr0());
  return features;
}
#elif defined(__aarch64__) && defined(__linux__)
const std::vector<std::string> &hostFeatures() {
  static const std::vector<std::string> features =
      detail::aarch64CpuFeatures(getauxval(AT_HWCAP), getauxval(AT_HWCAP2));
  return features;
}
#else
const std::vector<std::string> &hostFeatures() {
  static const std::vector<std::string> none;
  return none;
}
#endif

bool isKnown(std::string_view name) {
  for (const std::string &known : knownCpuFeatures())
    if (name == known)
      return true;
  return false;
}

template <class F> bool allOf(std::string_view names, const F &has) {
  while (!names.empty()) {
    size_t comma = names.find(',');
    if (!has(names.substr(0, comma)))
      return false;
    names = comma == std::string_view::npos ? std::string_view()
                                            : names.substr(comma + 1);
  }
  return true;
}

constexpr Isa kIsas[] = {Isa::Portable, Isa::Avx2, Isa::Avx512, Isa::Neon};

Isa chooseIsa() {
  Isa isa = hostIsa();
  const char *forced = std::getenv("TCC_ISA");
  if (forced == nullptr || *forced == '\0')
    return isa;
  for (Isa wanted : kIsas)
    if (std::strcmp(forced, isaName(wanted)) == 0)
      // Only lowering is possible: code for a level the host lacks would
      // trap.
      return isaAtMost(wanted, isa) ? wanted : isa;
  std::fprintf(stderr,
               "tcc: ignoring TCC_ISA=%s (expected avx512, avx2, neon or "
               "portable)\n",
               forced);
  return isa;
}

} // namespace

std::vector<std::string> detail::x86CpuFeatures(const CpuidFn &cpuid,
                                                uint64_t xcr0) {
  CpuidRegs leaves[kLeafCount];
  bool present[kLeafCount] = {};
  uint32_t maxLeaf = cpuid(0, 0).eax;
  if (maxLeaf >= 1) {
    leaves[Leaf1] = cpuid(1, 0);
    present[Leaf1] = true;
  }
  if (maxLeaf >= 7) {
    leaves[Leaf7] = cpuid(7, 0);
    present[Leaf7] = true;
    if (leaves[Leaf7].eax >= 1) {
      leaves[Leaf7Sub1] = cpuid(7, 1);
      present[Leaf7Sub1] = true;
    }
  }
  if (cpuid(0x80000000u, 0).eax >= 0x80000001u) {
    leaves[ExtLeaf1] = cpuid(0x80000001u, 0);
    present[ExtLeaf1] = true;
  }

  bool osxsave = (leaves[Leaf1].ecx >> 27) & 1;
  if (!osxsave)
    xcr0 = 0;
  bool avxState =
      osxsave && ((leaves[Leaf1].ecx >> 28) & 1) && (xcr0 & 0x6) == 0x6;
  bool avx512State = avxState && (xcr0 & 0xE0) == 0xE0;

  std::vector<std::string> features;
  for (const FeatureBit &f : kX86Features) {
    bool bit = present[f.leaf] && ((reg(leaves[f.leaf], f.reg) >> f.bit) & 1);
    bool gate = f.gate == NoGate     ? true
                : f.gate == AvxState ? avxState
                                     : avx512State;
    if (bit && gate)
      features.push_back(f.name);
  }
  return features;
}

std::vector<std::string> detail::aarch64CpuFeatures(uint64_t hwcap,
                                                    uint64_t hwcap2) {
  std::vector<std::string> features;
  for (const HwcapBits &f : kAArch64Features)
    if ((hwcap & f.hwcap) == f.hwcap && (hwcap2 & f.hwcap2) == f.hwcap2)
      features.push_back(f.name);
  return features;
}

// The families' names never overlap, so one function serves both.
Isa detail::isaFor(const std::function<bool(std::string_view)> &has) {
  if (allOf(TCC_ISA_AVX512_FEATURES, has))
    return Isa::Avx512;
  if (allOf(TCC_ISA_AVX2_FEATURES, has))
    return Isa::Avx2;
  if (allOf(TCC_ISA_NEON_FEATURES, has))
    return Isa::Neon;
  return Isa::Portable;
}

CpuFeatureState hostCpuFeature(std::string_view name) {
  if (!isKnown(name))
    return CpuFeatureState::Unknown;
  for (const std::string &f : hostFeatures())
    if (f == name)
      return CpuFeatureState::Present;
  return CpuFeatureState::Absent;
}

bool hostCpuHasAll(std::string_view names) {
  return allOf(names, [](std::string_view name) {
    return hostCpuFeature(name) == CpuFeatureState::Present;
  });
}

const char *hostCpuArch() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "unknown";
#endif
}

std::vector<std::string> cpuFeatureNames(std::string_view arch) {
  std::vector<std::string> names;
  if (arch == "x86_64")
    for (const FeatureBit &f : kX86Features)
      names.push_back(f.name);
  if (arch == "aarch64")
    for (const HwcapBits &f : kAArch64Features)
      names.push_back(f.name);
  return names;
}

const std::vector<std::string> &knownCpuFeatures() {
  static const std::vector<std::string> names = cpuFeatureNames(hostCpuArch());
  return names;
}

Isa hostIsa() {
  static const Isa isa = detail::isaFor([](std::string_view name) {
    return hostCpuFeature(name) == CpuFeatureState::Present;
  });
  return isa;
}

Isa activeIsa() {
  static const Isa isa = chooseIsa();
  return isa;
}

const char *isaName(Isa isa) {
  switch (isa) {
  case Isa::Avx512:
    return "avx512";
  case Isa::Avx2:
    return "avx2";
  case Isa::Neon:
    return "neon";
  case Isa::Portable:
    break;
  }
  return "portable";
}

bool isaAtMost(Isa lower, Isa level) {
  if (lower == level || lower == Isa::Portable)
    return true;
  return lower == Isa::Avx2 && level == Isa::Avx512;
}

} // namespace runtime
} // namespace tcc
