//===- Isa.cpp - CPU feature detection ------------------------------------===//

#include "Isa.h"

#include <cstdlib>
#include <cstring>

namespace tcc {
namespace detail {

namespace {
Isa detect() {
  Isa best = Isa::Portable;
#if TCC_HAVE_ISA_VARIANTS
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    best = Isa::Avx2;
  if (best == Isa::Avx2 && __builtin_cpu_supports("avx512f") &&
      __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl"))
    best = Isa::Avx512;
#endif
  if (const char *env = std::getenv("TCC_ISA")) {
    Isa forced = best;
    if (std::strcmp(env, "portable") == 0)
      forced = Isa::Portable;
    else if (std::strcmp(env, "avx2") == 0)
      forced = Isa::Avx2;
    if (int(forced) < int(best))
      best = forced;
  }
  return best;
}
} // namespace

Isa cpuIsa() {
  static const Isa isa = detect();
  return isa;
}

const char *isaName(Isa isa) {
  switch (isa) {
  case Isa::Avx512:
    return "avx512";
  case Isa::Avx2:
    return "avx2";
  case Isa::Portable:
    break;
  }
  return "portable";
}

} // namespace detail
} // namespace tcc
