//===- Isa.h - Which instruction set the kernels run on -------------------===//
//
// Kernels exist in three variants: AVX-512 (F), AVX2+FMA and portable C++.
// The variant is picked once per process from the CPU (cpuid) and may be
// lowered with TCC_KERNELS_ISA=avx2|portable, for tests.
//
// No file of the library is compiled with -mavx2/-mavx512f: the variant files
// mark each of their functions with __attribute__((target(...))) and keep
// them in anonymous namespaces, so no inline or template function with
// AVX-512 code can be picked by the linker for code that runs on other CPUs.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_ISA_H
#define TCC_RUNTIME_KERNELS_ISA_H

namespace tcc {
namespace runtime {
namespace kernels {

enum class Isa { Portable = 0, Avx2 = 1, Avx512 = 2 };

/// The best variant this CPU (and OS) supports.
Isa detected_isa();
/// The variant the kernels use: detected_isa(), lowered by TCC_KERNELS_ISA.
Isa active_isa();
const char *isa_name(Isa isa);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_ISA_H
