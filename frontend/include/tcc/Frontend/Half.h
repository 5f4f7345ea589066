//===- Half.h - float16 and bfloat16 value types ----------------*- C++ -*-===//
//
// Storage types for 16-bit floats. Arithmetic converts to float (as libtorch's
// c10::Half and c10::BFloat16 do); conversions round to nearest even, as
// tcc/runtime/Float16.h defines them for eager and compiled code alike.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_HALF_H
#define TCC_FRONTEND_HALF_H

#include "tcc/runtime/Float16.h"

#include <cstdint>

namespace tcc {
struct Half {
  uint16_t x = 0;
  struct from_bits_t {};
  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  Half(float f) : x(runtime::floatToHalfBits(f)) {}
  operator float() const { return runtime::halfBitsToFloat(x); }
  static Half fromBits(uint16_t bits) { return Half(bits, from_bits_t{}); }
};

struct BFloat16 {
  uint16_t x = 0;
  struct from_bits_t {};
  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  BFloat16(float f) : x(runtime::floatToBFloat16Bits(f)) {}
  operator float() const { return runtime::bfloat16BitsToFloat(x); }
  static BFloat16 fromBits(uint16_t bits) {
    return BFloat16(bits, from_bits_t{});
  }
};

} // namespace tcc

#endif // TCC_FRONTEND_HALF_H
