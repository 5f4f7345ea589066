//===- Isa.cpp - Run-time choice of the kernels' instruction set ----------===//

#include "Isa.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {

Isa detected_isa() {
#if defined(__x86_64__) || defined(__i386__)
  // libgcc/compiler-rt also check that the OS saves the wider registers.
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx2") &&
      __builtin_cpu_supports("fma"))
    return Isa::Avx512;
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return Isa::Avx2;
#endif
  return Isa::Portable;
}

namespace {
Isa choose_isa() {
  Isa isa = detected_isa();
  const char *forced = std::getenv("TCC_KERNELS_ISA");
  if (forced == nullptr || *forced == '\0')
    return isa;
  Isa wanted;
  if (std::strcmp(forced, "portable") == 0)
    wanted = Isa::Portable;
  else if (std::strcmp(forced, "avx2") == 0)
    wanted = Isa::Avx2;
  else if (std::strcmp(forced, "avx512") == 0)
    wanted = Isa::Avx512;
  else {
    std::fprintf(stderr,
                 "tcc: ignoring TCC_KERNELS_ISA=%s (expected avx512, avx2 or "
                 "portable)\n",
                 forced);
    return isa;
  }
  // A variant the CPU lacks cannot be forced; only lowering is possible.
  return static_cast<int>(wanted) < static_cast<int>(isa) ? wanted : isa;
}
} // namespace

Isa active_isa() {
  static const Isa isa = choose_isa();
  return isa;
}

const char *isa_name(Isa isa) {
  switch (isa) {
  case Isa::Avx512:
    return "avx512";
  case Isa::Avx2:
    return "avx2";
  case Isa::Portable:
    return "portable";
  }
  return "portable";
}

} // namespace kernels
} // namespace runtime
} // namespace tcc
