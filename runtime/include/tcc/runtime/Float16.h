//===- Float16.h - float16 and bfloat16 conversions: the one definition ---===//
//
// The scalar semantics of converting to and from IEEE binary16 and bfloat16,
// as bits: the eager frontend's Half and BFloat16 (tcc/Frontend/Half.h) and
// the runtime functions that compiled code imports where the CPU has no
// conversion instruction (no F16C, no AVX512-BF16) both use these. Rounding
// is to nearest even; a NaN stays a NaN (quiet). Header-only, so the eager
// library and its users need nothing else from the runtime.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_FLOAT16_H
#define TCC_RUNTIME_FLOAT16_H

#include <cstdint>
#include <cstring>

namespace tcc {
namespace runtime {

namespace float16_detail {
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
} // namespace float16_detail

/// IEEE binary16 from binary32, round to nearest even; NaN stays NaN.
inline uint16_t floatToHalfBits(float f) {
  using namespace float16_detail;
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

/// binary32 from IEEE binary16 (exact).
inline float halfBitsToFloat(uint16_t h) {
  using namespace float16_detail;
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

/// bfloat16 from binary32, round to nearest even; NaN stays NaN (quieted,
/// its payload's top bits kept).
inline uint16_t floatToBFloat16Bits(float f) {
  uint32_t x = float16_detail::floatBits(f);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return uint16_t((x >> 16) | 0x40u);
  x += 0x7fffu + ((x >> 16) & 1u);
  return uint16_t(x >> 16);
}

/// binary32 from bfloat16 (exact).
inline float bfloat16BitsToFloat(uint16_t b) {
  return float16_detail::bitsFloat(uint32_t(b) << 16);
}

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_FLOAT16_H
