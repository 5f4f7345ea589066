//===- Isa.h - Which instruction set the kernels run on -------------------===//
//
// Kernels exist in three variants: AVX-512, AVX2+FMA and portable C++. The
// variant is the process's activeIsa() (tcc/runtime/CpuFeatures.h: chosen
// once from the CPU, lowered with TCC_ISA=avx2|portable for tests).
//
// No file of the library is compiled with -mavx2/-mavx512f: the variant files
// mark each of their functions with __attribute__((target(...))) naming their
// level's features (TCC_ISA_*_FEATURES) or a subset, and keep them in
// anonymous namespaces, so no inline or template function with AVX-512 code
// can be picked by the linker for code that runs on other CPUs.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_KERNELS_ISA_H
#define TCC_RUNTIME_KERNELS_ISA_H

#include "tcc/runtime/CpuFeatures.h"

namespace tcc {
namespace runtime {
namespace kernels {

using runtime::activeIsa;
using runtime::Isa;
using runtime::isaName;

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_ISA_H
