//===- ImportTable.cpp - runtime functions the code may call --------------===//
//
// Compiled code has no undefined symbols: what it cannot inline (the tuned
// microkernels, memory functions, libm calls that lowering leaves behind) it
// calls through a table the loader fills from this list. Adding an entry
// here is all it takes to offer another function to the code generator.
//
//===----------------------------------------------------------------------===//

#include "ImportTable.h"

#include "tcc/runtime/kernels.h"

#include <cstring>
#include <math.h>
#include <string.h>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

struct Import {
  const char *name;
  void *address;
};

// Casts to the C signature, which picks the C function among <cmath>'s
// overloads.
using F1 = float (*)(float);
using F2 = float (*)(float, float);
using F3 = float (*)(float, float, float);
using D1 = double (*)(double);
using D2 = double (*)(double, double);
using D3 = double (*)(double, double, double);
#define TCC_IMPORT(name, type)                                                 \
  { #name, reinterpret_cast < void *>(static_cast <type>(&::name)) }

const Import kImports[] = {
    // Microkernels (kernels.h).
    {"tcc_sgemm", reinterpret_cast<void *>(&tcc_sgemm)},
    {"tcc_sgemm_pack_b", reinterpret_cast<void *>(&tcc_sgemm_pack_b)},
    {"tcc_sgemm_packed_b_size",
     reinterpret_cast<void *>(&tcc_sgemm_packed_b_size)},
    {"tcc_conv2d", reinterpret_cast<void *>(&tcc_conv2d)},
    {"tcc_conv2d_workspace_size",
     reinterpret_cast<void *>(&tcc_conv2d_workspace_size)},
    // Memory.
    TCC_IMPORT(memcpy, void *(*)(void *, const void *, size_t)),
    TCC_IMPORT(memmove, void *(*)(void *, const void *, size_t)),
    TCC_IMPORT(memset, void *(*)(void *, int, size_t)),
    // libm, float.
    TCC_IMPORT(expf, F1),
    TCC_IMPORT(exp2f, F1),
    TCC_IMPORT(expm1f, F1),
    TCC_IMPORT(logf, F1),
    TCC_IMPORT(log2f, F1),
    TCC_IMPORT(log10f, F1),
    TCC_IMPORT(log1pf, F1),
    TCC_IMPORT(sqrtf, F1),
    TCC_IMPORT(cbrtf, F1),
    TCC_IMPORT(sinf, F1),
    TCC_IMPORT(cosf, F1),
    TCC_IMPORT(tanf, F1),
    TCC_IMPORT(asinf, F1),
    TCC_IMPORT(acosf, F1),
    TCC_IMPORT(atanf, F1),
    TCC_IMPORT(sinhf, F1),
    TCC_IMPORT(coshf, F1),
    TCC_IMPORT(tanhf, F1),
    TCC_IMPORT(asinhf, F1),
    TCC_IMPORT(acoshf, F1),
    TCC_IMPORT(atanhf, F1),
    TCC_IMPORT(erff, F1),
    TCC_IMPORT(erfcf, F1),
    TCC_IMPORT(floorf, F1),
    TCC_IMPORT(ceilf, F1),
    TCC_IMPORT(roundf, F1),
    TCC_IMPORT(truncf, F1),
    TCC_IMPORT(rintf, F1),
    TCC_IMPORT(nearbyintf, F1),
    TCC_IMPORT(fabsf, F1),
    TCC_IMPORT(powf, F2),
    TCC_IMPORT(atan2f, F2),
    TCC_IMPORT(fmodf, F2),
    TCC_IMPORT(fminf, F2),
    TCC_IMPORT(fmaxf, F2),
    TCC_IMPORT(copysignf, F2),
    TCC_IMPORT(fmaf, F3),
    // libm, double.
    TCC_IMPORT(exp, D1),
    TCC_IMPORT(exp2, D1),
    TCC_IMPORT(expm1, D1),
    TCC_IMPORT(log, D1),
    TCC_IMPORT(log2, D1),
    TCC_IMPORT(log10, D1),
    TCC_IMPORT(log1p, D1),
    TCC_IMPORT(sqrt, D1),
    TCC_IMPORT(cbrt, D1),
    TCC_IMPORT(sin, D1),
    TCC_IMPORT(cos, D1),
    TCC_IMPORT(tan, D1),
    TCC_IMPORT(asin, D1),
    TCC_IMPORT(acos, D1),
    TCC_IMPORT(atan, D1),
    TCC_IMPORT(sinh, D1),
    TCC_IMPORT(cosh, D1),
    TCC_IMPORT(tanh, D1),
    TCC_IMPORT(asinh, D1),
    TCC_IMPORT(acosh, D1),
    TCC_IMPORT(atanh, D1),
    TCC_IMPORT(erf, D1),
    TCC_IMPORT(erfc, D1),
    TCC_IMPORT(floor, D1),
    TCC_IMPORT(ceil, D1),
    TCC_IMPORT(round, D1),
    TCC_IMPORT(trunc, D1),
    TCC_IMPORT(rint, D1),
    TCC_IMPORT(nearbyint, D1),
    TCC_IMPORT(fabs, D1),
    TCC_IMPORT(pow, D2),
    TCC_IMPORT(atan2, D2),
    TCC_IMPORT(fmod, D2),
    TCC_IMPORT(fmin, D2),
    TCC_IMPORT(fmax, D2),
    TCC_IMPORT(copysign, D2),
    TCC_IMPORT(fma, D3),
};

} // namespace

void *findImport(const std::string &name) {
  for (const Import &import : kImports)
    if (name == import.name)
      return import.address;
  return nullptr;
}

} // namespace detail
} // namespace runtime
} // namespace tcc
