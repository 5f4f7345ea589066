//===- ImportTable.cpp - runtime functions the code may call --------------===//
//
// Compiled code has no undefined symbols: what it cannot inline (the tuned
// microkernels, memory functions, libm calls that lowering leaves behind) it
// calls through a table the loader fills from this list. Adding an entry
// here is all it takes to offer another function to the code generator.
//
//===----------------------------------------------------------------------===//

#include "ImportTable.h"

#include "tcc/runtime/Float16.h"
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

// 16-bit float conversions (Float16Imports.def), on bits.
float f16_to_f32(uint16_t bits) { return halfBitsToFloat(bits); }
uint16_t f32_to_f16(float value) { return floatToHalfBits(value); }
uint16_t f32_to_bf16(float value) { return floatToBFloat16Bits(value); }

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
    // libm.
#define TCC_LIBM_IMPORT(name, type) TCC_IMPORT(name, type),
#include "tcc/runtime/LibmImports.def"
    // 16-bit floats.
#define TCC_FLOAT16_IMPORT(name, from, to)                                     \
  {#name, reinterpret_cast<void *>(&from##_to_##to)},
#include "tcc/runtime/Float16Imports.def"
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
