//===- Half.h - float16 and bfloat16 value types ----------------*- C++ -*-===//
//
// Storage types for 16-bit floats. Arithmetic converts to float (as libtorch's
// c10::Half and c10::BFloat16 do); conversions round to nearest even.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_HALF_H
#define TCC_FRONTEND_HALF_H

#include <cstdint>
#include <cstring>

namespace tcc {
namespace detail {
inline uint32_t floatBits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bitsFloat(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

/// IEEE binary16 from binary32, round to nearest even; NaN stays NaN.
inline uint16_t floatToHalfBits(float f) {
  uint32_t x = floatBits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absx = x & 0x7fffffffu;
  if (absx >= 0x7f800000u) // inf or nan
    return uint16_t(sign | 0x7c00u | (absx > 0x7f800000u ? 0x200u : 0u));
  if (absx >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return uint16_t(sign | 0x7c00u);
  if (absx < 0x38800000u) { // result is subnormal (or zero) in half
    // Adding 0.5 shifts the value so that the float adder rounds for us.
    float v = bitsFloat(absx) + 0.5f;
    return uint16_t(sign | (floatBits(v) - 0x3f000000u));
  }
  uint32_t mantOdd = (absx >> 13) & 1u;
  absx += 0xc8000fffu + mantOdd; // rebias exponent (-112 << 23) and round
  return uint16_t(sign | (absx >> 13));
}

inline float halfBitsToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0x1f)
    return bitsFloat(sign | 0x7f800000u | (mant << 13));
  if (exp == 0) { // zero or subnormal: mant * 2^-24
    float v = float(mant) * 5.9604644775390625e-8f;
    return sign ? -v : v;
  }
  return bitsFloat(sign | ((exp + 112u) << 23) | (mant << 13));
}

inline uint16_t floatToBFloat16Bits(float f) {
  uint32_t x = floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u); // quiet NaN
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}
inline float bfloat16BitsToFloat(uint16_t b) {
  return bitsFloat(uint32_t(b) << 16);
}
} // namespace detail

struct Half {
  uint16_t x = 0;
  struct from_bits_t {};
  Half() = default;
  constexpr Half(uint16_t bits, from_bits_t) : x(bits) {}
  Half(float f) : x(detail::floatToHalfBits(f)) {}
  operator float() const { return detail::halfBitsToFloat(x); }
  static Half fromBits(uint16_t bits) { return Half(bits, from_bits_t{}); }
};

struct BFloat16 {
  uint16_t x = 0;
  struct from_bits_t {};
  BFloat16() = default;
  constexpr BFloat16(uint16_t bits, from_bits_t) : x(bits) {}
  BFloat16(float f) : x(detail::floatToBFloat16Bits(f)) {}
  operator float() const { return detail::bfloat16BitsToFloat(x); }
  static BFloat16 fromBits(uint16_t bits) {
    return BFloat16(bits, from_bits_t{});
  }
};

} // namespace tcc

#endif // TCC_FRONTEND_HALF_H
