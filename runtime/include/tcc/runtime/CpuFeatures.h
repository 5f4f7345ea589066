//===- CpuFeatures.h - What this CPU may run: one definition ----*- C++ -*-===//
//
// Every decision that depends on the host CPU reads it from here: the
// loader's check of an artifact's required features, the ISA level the
// runtime's kernels and the eager loops dispatch to, and the benches.
//
// The definition (x86-64): a feature is present when CPUID reports it and,
// for the AVX and AVX-512 families, XGETBV says the OS saves their register
// state (XCR0). This is the reading LLVM's sys::getHostCPUFeatures makes, so
// code compiled for this host by tcc (which asks LLVM) loads on this host,
// and the gating per feature is LLVM's. /proc/cpuinfo is not consulted: it
// is the kernel's edited view (hypervisors and kernels drop flags the CPU
// executes, e.g. rdseed on some VMs), and the loader must agree with the
// compiler, not with a description.
//
// AArch64 (Linux): a feature is present when the kernel's hardware
// capability words (getauxval AT_HWCAP, AT_HWCAP2) report every bit it
// needs. The kernel sets a bit only when it lets user space run the
// instructions (SVE: when it saves SVE state), the role XGETBV plays on
// x86; the ID registers themselves are not readable from user space.
//
// Names are LLVM's target feature names without '+' ("avx2", "sse4.1",
// "dotprod"). Other architectures have no table: every feature is unknown
// there, and an artifact listing any fails to load.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_CPUFEATURES_H
#define TCC_RUNTIME_CPUFEATURES_H

#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace tcc {
namespace runtime {

enum class CpuFeatureState { Absent, Present, Unknown };

/// Whether the host may run instructions of `name` (Unknown: a name this
/// runtime has no way to check).
TCC_RUNTIME_API CpuFeatureState hostCpuFeature(std::string_view name);

/// True when every name in the comma-separated `names` is Present.
TCC_RUNTIME_API bool hostCpuHasAll(std::string_view names);

/// The host's architecture as a triple spells it: "x86_64", "aarch64".
TCC_RUNTIME_API const char *hostCpuArch();

/// The names this runtime can check on CPUs of `arch` (a triple's first
/// component), i.e. that an artifact for that architecture may list as
/// cpu_features. Empty for architectures without a table.
TCC_RUNTIME_API std::vector<std::string> cpuFeatureNames(std::string_view arch);

/// cpuFeatureNames(hostCpuArch()), computed once.
TCC_RUNTIME_API const std::vector<std::string> &knownCpuFeatures();

//===----------------------------------------------------------------------===//
// ISA levels of the hand-written kernels and eager loops
//===----------------------------------------------------------------------===//

// A level's features are what its code may be compiled for: a variant's
// __attribute__((target(...))) names these features or a subset of them.
#define TCC_ISA_AVX2_FEATURES "avx2,fma"
#define TCC_ISA_AVX512_FEATURES "avx512f,avx512bw,avx512dq,avx512vl,avx2,fma"
#define TCC_ISA_NEON_FEATURES "neon"

// The int8 kernels' variants within a level (kernels_int8.h): each needs its
// level's features and these. A variant's __attribute__((target(...)))
// names these features or a subset of them.
#define TCC_INT8_AVX512VNNI_FEATURES TCC_ISA_AVX512_FEATURES ",avx512vnni"
#define TCC_INT8_AVXVNNI_FEATURES TCC_ISA_AVX2_FEATURES ",avxvnni"
#define TCC_INT8_NEON_DOTPROD_FEATURES TCC_ISA_NEON_FEATURES ",dotprod"
#define TCC_INT8_NEON_I8MM_FEATURES TCC_ISA_NEON_FEATURES ",i8mm"

/// Levels of two families: x86-64 (Portable < Avx2 < Avx512) and AArch64
/// (Portable < Neon). Values are stable names, not an order across
/// families: compare levels with isaAtMost.
enum class Isa { Portable = 0, Avx2 = 1, Avx512 = 2, Neon = 3 };

/// The highest level whose features the host has (cached).
TCC_RUNTIME_API Isa hostIsa();

/// The level in use: hostIsa(), lowered by TCC_ISA=avx2|neon|portable in
/// the environment (to test the lower variants on any machine; a level the
/// host lacks cannot be forced). Read once per process.
TCC_RUNTIME_API Isa activeIsa();

/// "avx512", "avx2", "neon" or "portable".
TCC_RUNTIME_API const char *isaName(Isa isa);

/// Whether code for `lower` runs wherever `level` does: the same level,
/// Portable, or a lower level of the same family.
TCC_RUNTIME_API bool isaAtMost(Isa lower, Isa level);

namespace detail {

/// One CPUID query's registers.
struct CpuidRegs {
  uint32_t eax = 0, ebx = 0, ecx = 0, edx = 0;
};
using CpuidFn = std::function<CpuidRegs(uint32_t leaf, uint32_t subleaf)>;

/// The x86 features a CPU answering `cpuid` may run, given XCR0 (read only
/// when CPUID reports OSXSAVE; otherwise no register state is enabled).
/// hostCpuFeature is this function on the real CPUID and XGETBV; tests feed
/// it other CPUs. Returned in knownCpuFeatures() order.
TCC_RUNTIME_API std::vector<std::string> x86CpuFeatures(const CpuidFn &cpuid,
                                                        uint64_t xcr0);

/// The AArch64 features of a CPU whose Linux kernel reports these hardware
/// capability words (AT_HWCAP, AT_HWCAP2). hostCpuFeature is this function
/// on the process's auxiliary vector; tests feed it other CPUs. Returned in
/// cpuFeatureNames("aarch64") order.
TCC_RUNTIME_API std::vector<std::string> aarch64CpuFeatures(uint64_t hwcap,
                                                            uint64_t hwcap2);

/// The level `has` allows (has: is a named feature present?).
TCC_RUNTIME_API Isa isaFor(const std::function<bool(std::string_view)> &has);

} // namespace detail

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_CPUFEATURES_H
