//===- HostCpu.cpp - does this host run the model's code? -----------------===//
//
// The artifact lists the ISA extensions its code uses (LLVM's names); each
// must be present, or the first instruction that needs it would crash the
// process. Features are read with cpuid, and the AVX/AVX-512 families also
// need the OS to save their registers (XCR0), which cpuid alone does not say.
// A name this runtime does not know fails the load rather than being
// skipped.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include "Checks.h"

#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace tcc {
namespace runtime {

using detail::cat;

namespace {

#if defined(__x86_64__)
constexpr const char *kHostArch = "x86_64";

enum Reg { EAX, EBX, ECX, EDX };
enum OsState { NoState, AvxState, Avx512State };

struct FeatureBit {
  const char *name;
  unsigned leaf, subleaf;
  Reg reg;
  int bit;
  OsState state;
};

// cpuid bits from the Intel SDM vol. 2A (CPUID) and AMD APM vol. 3.
constexpr FeatureBit kFeatures[] = {
    {"cmov", 1, 0, EDX, 15, NoState},
    {"cx8", 1, 0, EDX, 8, NoState},
    {"mmx", 1, 0, EDX, 23, NoState},
    {"fxsr", 1, 0, EDX, 24, NoState},
    {"sse", 1, 0, EDX, 25, NoState},
    {"sse2", 1, 0, EDX, 26, NoState},
    {"sse3", 1, 0, ECX, 0, NoState},
    {"pclmul", 1, 0, ECX, 1, NoState},
    {"ssse3", 1, 0, ECX, 9, NoState},
    {"fma", 1, 0, ECX, 12, AvxState},
    {"cx16", 1, 0, ECX, 13, NoState},
    {"sse4.1", 1, 0, ECX, 19, NoState},
    {"sse4.2", 1, 0, ECX, 20, NoState},
    {"crc32", 1, 0, ECX, 20, NoState},
    {"movbe", 1, 0, ECX, 22, NoState},
    {"popcnt", 1, 0, ECX, 23, NoState},
    {"aes", 1, 0, ECX, 25, NoState},
    {"xsave", 1, 0, ECX, 26, NoState},
    {"avx", 1, 0, ECX, 28, AvxState},
    {"f16c", 1, 0, ECX, 29, AvxState},
    {"rdrnd", 1, 0, ECX, 30, NoState},
    {"fsgsbase", 7, 0, EBX, 0, NoState},
    {"bmi", 7, 0, EBX, 3, NoState},
    {"avx2", 7, 0, EBX, 5, AvxState},
    {"bmi2", 7, 0, EBX, 8, NoState},
    {"avx512f", 7, 0, EBX, 16, Avx512State},
    {"avx512dq", 7, 0, EBX, 17, Avx512State},
    {"rdseed", 7, 0, EBX, 18, NoState},
    {"adx", 7, 0, EBX, 19, NoState},
    {"avx512ifma", 7, 0, EBX, 21, Avx512State},
    {"clflushopt", 7, 0, EBX, 23, NoState},
    {"clwb", 7, 0, EBX, 24, NoState},
    {"avx512cd", 7, 0, EBX, 28, Avx512State},
    {"sha", 7, 0, EBX, 29, NoState},
    {"avx512bw", 7, 0, EBX, 30, Avx512State},
    {"avx512vl", 7, 0, EBX, 31, Avx512State},
    {"avx512vbmi", 7, 0, ECX, 1, Avx512State},
    {"avx512vbmi2", 7, 0, ECX, 6, Avx512State},
    {"gfni", 7, 0, ECX, 8, NoState},
    {"vaes", 7, 0, ECX, 9, AvxState},
    {"vpclmulqdq", 7, 0, ECX, 10, AvxState},
    {"avx512vnni", 7, 0, ECX, 11, Avx512State},
    {"avx512bitalg", 7, 0, ECX, 12, Avx512State},
    {"avx512vpopcntdq", 7, 0, ECX, 14, Avx512State},
    {"rdpid", 7, 0, ECX, 22, NoState},
    {"avx512vp2intersect", 7, 0, EDX, 8, Avx512State},
    {"avx512fp16", 7, 0, EDX, 23, Avx512State},
    {"avxvnni", 7, 1, EAX, 4, AvxState},
    {"avx512bf16", 7, 1, EAX, 5, Avx512State},
    {"sahf", 0x80000001, 0, ECX, 0, NoState},
    {"lzcnt", 0x80000001, 0, ECX, 5, NoState},
    {"sse4a", 0x80000001, 0, ECX, 6, NoState},
    {"prfchw", 0x80000001, 0, ECX, 8, NoState},
};

bool cpuidBit(unsigned leaf, unsigned subleaf, Reg reg, int bit) {
  unsigned max = __get_cpuid_max(leaf & 0x80000000u, nullptr);
  if (max < leaf)
    return false;
  unsigned r[4] = {0, 0, 0, 0};
  __cpuid_count(leaf, subleaf, r[EAX], r[EBX], r[ECX], r[EDX]);
  return (r[reg] >> bit) & 1u;
}

// The register state the OS saves on context switch (XCR0).
uint64_t osSavedState() {
  if (!cpuidBit(1, 0, ECX, 27)) // OSXSAVE: xgetbv is usable
    return 0;
  uint32_t lo, hi;
  __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (uint64_t(hi) << 32) | lo;
}

bool osSupports(OsState state) {
  constexpr uint64_t kSseAvx = 0x6;        // XMM and YMM state
  constexpr uint64_t kAvx512 = 0x6 | 0xE0; // plus opmask, ZMM_Hi256, Hi16_ZMM
  uint64_t xcr0 = state == NoState ? 0 : osSavedState();
  switch (state) {
  case NoState:
    return true;
  case AvxState:
    return (xcr0 & kSseAvx) == kSseAvx;
  case Avx512State:
    return (xcr0 & kAvx512) == kAvx512;
  }
  return false;
}

// -1: unknown name, 0: absent, 1: present.
int hostHasFeature(const std::string &name) {
  for (const FeatureBit &f : kFeatures)
    if (name == f.name)
      return cpuidBit(f.leaf, f.subleaf, f.reg, f.bit) && osSupports(f.state);
  return -1;
}

std::vector<std::string> featureNames() {
  std::vector<std::string> names;
  for (const FeatureBit &f : kFeatures)
    names.push_back(f.name);
  return names;
}
#else
// No feature table for this architecture yet: any listed feature fails.
#if defined(__aarch64__)
constexpr const char *kHostArch = "aarch64";
#else
constexpr const char *kHostArch = "unknown";
#endif
int hostHasFeature(const std::string &) { return -1; }
std::vector<std::string> featureNames() { return {}; }
#endif

} // namespace

std::vector<std::string> knownCpuFeatures() { return featureNames(); }

Status checkHostSupports(const tcc::artifact::Model &model) {
  std::string triple =
      model.target_triple() ? model.target_triple()->str() : "";
  std::string arch = triple.substr(0, triple.find('-'));
  if (arch != kHostArch)
    return Status(
        TCC_STATUS_FAILED_PRECONDITION,
        cat("model targets '", triple, "' but this host is ", kHostArch));
  const auto *features = model.cpu_features();
  for (uint32_t i = 0; features && i < features->size(); ++i) {
    std::string name = features->Get(i)->str();
    int has = hostHasFeature(name);
    if (has < 0)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("model requires CPU feature '", name,
                        "', which this runtime cannot check"));
    if (has == 0)
      return Status(TCC_STATUS_FAILED_PRECONDITION,
                    cat("model requires CPU feature '", name,
                        "', which this CPU lacks (model built for cpu '",
                        model.cpu() ? model.cpu()->str() : "", "')"));
  }
  return Status();
}

} // namespace runtime
} // namespace tcc
