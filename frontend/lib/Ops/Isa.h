//===- Isa.h - Choosing AVX-512 / AVX2 / portable loops at run time -------===//
//
// Shared sources are compiled for the baseline x86-64 ISA. Hot loops are
// instantiated three times, two of them inside functions carrying
// __attribute__((target(...))), and one is chosen per call from the CPU's
// features (cpuid, read once). TCC_ISA=avx2|portable in the environment
// forces a lower level, to test those paths on an AVX-512 machine.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_ISA_H
#define TCC_LIB_OPS_ISA_H

namespace tcc {
namespace detail {

enum class Isa { Portable = 0, Avx2 = 1, Avx512 = 2 };

/// The best level this CPU supports (cached after the first call).
Isa cpuIsa();
const char *isaName(Isa isa);

} // namespace detail
} // namespace tcc

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TCC_HAVE_ISA_VARIANTS 1
#define TCC_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define TCC_TARGET_AVX512                                                      \
  __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx2,fma")))
#else
#define TCC_HAVE_ISA_VARIANTS 0
#define TCC_TARGET_AVX2
#define TCC_TARGET_AVX512
#endif

#endif // TCC_LIB_OPS_ISA_H
