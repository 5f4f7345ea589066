//===- Isa.h - Choosing AVX-512 / AVX2 / portable loops at run time -------===//
//
// Shared sources are compiled for the baseline x86-64 ISA. Hot loops are
// instantiated three times, two of them inside functions carrying
// __attribute__((target(...))) with their level's features, and one is
// chosen per call from the process's activeIsa() (tcc/runtime/CpuFeatures.h:
// the runtime's one definition of what this CPU runs; TCC_ISA=avx2|portable
// in the environment forces a lower level, to test those paths on an AVX-512
// machine).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_ISA_H
#define TCC_LIB_OPS_ISA_H

#include "tcc/runtime/CpuFeatures.h"

namespace tcc {
namespace detail {

using runtime::activeIsa;
using runtime::Isa;

} // namespace detail
} // namespace tcc

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TCC_HAVE_ISA_VARIANTS 1
#define TCC_TARGET_AVX2 __attribute__((target(TCC_ISA_AVX2_FEATURES)))
#define TCC_TARGET_AVX512 __attribute__((target(TCC_ISA_AVX512_FEATURES)))
#else
#define TCC_HAVE_ISA_VARIANTS 0
#define TCC_TARGET_AVX2
#define TCC_TARGET_AVX512
#endif

#endif // TCC_LIB_OPS_ISA_H
