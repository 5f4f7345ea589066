//===- ScalarOps.h - What each elementwise op computes on one element -----===//
//
// The one definition of the scalar semantics of tcc's elementwise ops, as
// PyTorch's CPU kernels define them, NaN, infinities, -0 and subnormals
// included. The dialect's folders, the constant evaluator, the eager
// frontend and the reference interpreter call these functions; the code
// generator's lowering (arith/math ops, which cannot call C++) and the
// runtime's vector activations are tested against them.
//
// It lives in the runtime's public headers because that is the lowest layer
// whose users need it (the frontend and the runtime must not see MLIR), and
// it is header-only so nothing links for it: plain C++17, no MLIR, no LLVM.
//
// Float functions are templates over the element type T and a Math policy
// that supplies the elementary functions (exp, log, erf, ...): Libm by
// default, the eager frontend's vectorizable approximations for its f32
// kernels. The formula, and so every special case, stays the same.
// Integer functions take any integer type; the folders widen to int64_t or
// uint64_t, compute, and truncate back, which is the wrap-around of two's
// complement arithmetic.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_SCALAROPS_H
#define TCC_RUNTIME_SCALAROPS_H

#include <cmath>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>

namespace tcc {
namespace scalar {

/// The elementary functions of the C library.
struct Libm {
  template <class T> static T exp(T x) { return std::exp(x); }
  template <class T> static T log(T x) { return std::log(x); }
  template <class T> static T log1p(T x) { return std::log1p(x); }
  template <class T> static T tanh(T x) { return std::tanh(x); }
  template <class T> static T erf(T x) { return std::erf(x); }
  template <class T> static T sin(T x) { return std::sin(x); }
  template <class T> static T cos(T x) { return std::cos(x); }
  template <class T> static T pow(T x, T y) { return std::pow(x, y); }
};

template <class T> constexpr bool isFloat = std::is_floating_point<T>::value;

template <class T> bool isNan(T x) {
  if constexpr (isFloat<T>)
    return x != x;
  else
    return false;
}

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

/// Integers wrap: -INT_MIN is INT_MIN.
template <class T> T neg(T x) {
  if constexpr (isFloat<T>)
    return -x;
  else
    return T(std::make_unsigned_t<T>(0) - std::make_unsigned_t<T>(x));
}

/// |-0| is +0 and |NaN| is NaN; integers wrap (|INT_MIN| is INT_MIN).
template <class T> T abs(T x) {
  if constexpr (isFloat<T>)
    return std::fabs(x);
  else if constexpr (std::is_unsigned<T>::value)
    return x;
  else
    return x < 0 ? neg(x) : x;
}

/// libtorch's clamp_min(x, 0): NaN stays NaN and -0 stays -0 (only values
/// below zero become +0).
template <class T> T relu(T x) { return x < T(0) ? T(0) : x; }

/// -1, 0 or 1, as libtorch's (0 < x) - (x < 0): NaN and -0 give +0.
template <class T> T sign(T x) { return T((T(0) < x) - (x < T(0))); }

template <class T> bool logicalNot(T x) { return x == T(0); }

/// floor, ceil and round leave integers as they are.
template <class T> T floor(T x) {
  if constexpr (isFloat<T>)
    return std::floor(x);
  else
    return x;
}
template <class T> T ceil(T x) {
  if constexpr (isFloat<T>)
    return std::ceil(x);
  else
    return x;
}
/// Half to even in the default rounding mode, as torch.round.
template <class T> T round(T x) {
  if constexpr (isFloat<T>)
    return std::nearbyint(x);
  else
    return x;
}
template <class T> T sqrt(T x) { return std::sqrt(x); }
/// Rounds twice (the square root, then the quotient), as ATen's rsqrt.
template <class T> T rsqrt(T x) { return T(1) / std::sqrt(x); }

template <class T, class Math = Libm> T exp(T x) { return Math::exp(x); }
template <class T, class Math = Libm> T log(T x) { return Math::log(x); }
template <class T, class Math = Libm> T log1p(T x) { return Math::log1p(x); }
template <class T, class Math = Libm> T tanh(T x) { return Math::tanh(x); }
template <class T, class Math = Libm> T erf(T x) { return Math::erf(x); }
template <class T, class Math = Libm> T sin(T x) { return Math::sin(x); }
template <class T, class Math = Libm> T cos(T x) { return Math::cos(x); }

/// 1 / (1 + exp(-x)): exp overflows to inf for very negative x, giving +0.
template <class T, class Math = Libm> T sigmoid(T x) {
  return T(1) / (T(1) + Math::exp(-x));
}

/// x / (1 + exp(-x)), as ATen computes it (not x * sigmoid(x), which rounds
/// once more); -inf gives NaN there, as in PyTorch.
template <class T, class Math = Libm> T silu(T x) {
  return x / (T(1) + Math::exp(-x));
}

/// The exact form: x * Phi(x) = 0.5 x (1 + erf(x / sqrt 2)), multiplying by
/// 1 / sqrt 2 as computed in double (one ulp below M_SQRT1_2), as the eager
/// kernels always have.
template <class T, class Math = Libm> T gelu(T x) {
  constexpr double kSqrt2 = 1.41421356237309504880;
  return T(0.5) * x * (T(1) + Math::erf(x * T(1.0 / kSqrt2)));
}

/// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
template <class T, class Math = Libm> T geluTanh(T x) {
  constexpr double kSqrt2OverPi = 0.79788456080286535588;
  T inner = T(kSqrt2OverPi) * (x + T(0.044715) * x * x * x);
  return T(0.5) * x * (T(1) + Math::tanh(inner));
}

/// min(max(x, lo), hi), so hi wins when lo > hi; NaN stays NaN. An absent
/// bound bounds nothing.
template <class T>
T clamp(T x, std::optional<T> lo, std::optional<T> hi) {
  if (lo && x < *lo)
    x = *lo;
  if (hi && *hi < x)
    x = *hi;
  return x;
}

//===----------------------------------------------------------------------===//
// Binary
//===----------------------------------------------------------------------===//

/// The unsigned type integer T's arithmetic wraps in: T's own, but at least
/// unsigned int, since narrower types promote to int, whose overflow is
/// undefined (65535 * 65535 as uint16_t).
template <class T>
using WrapType = std::common_type_t<unsigned, std::make_unsigned_t<T>>;

/// Integer +, - and * wrap (two's complement).
template <class T> T add(T a, T b) {
  if constexpr (isFloat<T>)
    return a + b;
  else
    return T(WrapType<T>(a) + WrapType<T>(b));
}
template <class T> T sub(T a, T b) {
  if constexpr (isFloat<T>)
    return a - b;
  else
    return T(WrapType<T>(a) - WrapType<T>(b));
}
template <class T> T mul(T a, T b) {
  if constexpr (isFloat<T>)
    return a * b;
  else
    return T(WrapType<T>(a) * WrapType<T>(b));
}
/// True division (floats only).
template <class T> T div(T a, T b) { return a / b; }

/// C's pow for floats (x^0 = 1 and 1^y = 1, NaN included).
template <class T, class Math = Libm> T pow(T a, T b) {
  return Math::pow(a, b);
}

/// NaN wins; -0 orders below +0 (IEEE 754-2019 maximum).
template <class T> T maximum(T a, T b) {
  if (isNan(a))
    return a;
  if (isNan(b))
    return b;
  if constexpr (isFloat<T>)
    if (a == b)
      return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

/// NaN wins; -0 orders below +0 (IEEE 754-2019 minimum).
template <class T> T minimum(T a, T b) {
  if (isNan(a))
    return a;
  if (isNan(b))
    return b;
  if constexpr (isFloat<T>)
    if (a == b)
      return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

/// Python's remainder: the sign of the divisor. Floats: fmod, moved by one
/// divisor when the signs differ (x % 0 and inf % y are NaN). Integers: empty
/// for a zero divisor (PyTorch raises; callers decide), and x % -1 is 0.
template <class T> std::optional<T> remainder(T a, T b) {
  if constexpr (isFloat<T>) {
    T mod = std::fmod(a, b);
    if (mod != 0 && ((b < 0) != (mod < 0)))
      mod += b;
    return mod;
  } else {
    if (b == 0)
      return std::nullopt;
    if constexpr (std::is_signed<T>::value)
      if (b == -1) // INT_MIN % -1 would trap
        return T(0);
    T mod = a % b;
    if constexpr (std::is_signed<T>::value)
      if (mod != 0 && ((b < 0) != (mod < 0)))
        mod += b;
    return mod;
  }
}

/// Python's floor division. Floats: ATen's div_floor_floating, (a - fmod(a,
/// b)) / b corrected toward -inf and rounded to a whole number, with a
/// signed zero for a zero quotient and a / 0 for a zero divisor. Integers:
/// empty for a zero divisor (PyTorch raises; callers decide), and
/// INT_MIN / -1 wraps to INT_MIN.
template <class T> std::optional<T> floorDivide(T a, T b) {
  if constexpr (isFloat<T>) {
    if (b == 0)
      return a / b;
    T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
      div -= T(1);
    if (div == 0)
      return std::copysign(T(0), a / b);
    T floored = std::floor(div);
    if (div - floored > T(0.5))
      floored += T(1);
    return floored;
  } else {
    if (b == 0)
      return std::nullopt;
    if constexpr (std::is_signed<T>::value) {
      if (b == -1)
        return neg(a);
      T q = a / b;
      if ((a % b != 0) && ((a < 0) != (b < 0)))
        --q;
      return q;
    } else {
      return T(a / b);
    }
  }
}

/// Comparisons: ordered, so only != holds for NaN.
template <class T> bool eq(T a, T b) { return a == b; }
template <class T> bool ne(T a, T b) { return a != b; }
template <class T> bool lt(T a, T b) { return a < b; }
template <class T> bool le(T a, T b) { return a <= b; }
template <class T> bool gt(T a, T b) { return a > b; }
template <class T> bool ge(T a, T b) { return a >= b; }

/// Logical ops: any non-zero value (NaN included) is true.
template <class T> bool logicalAnd(T a, T b) { return a != T(0) && b != T(0); }
template <class T> bool logicalOr(T a, T b) { return a != T(0) || b != T(0); }
template <class T> bool logicalXor(T a, T b) {
  return (a != T(0)) != (b != T(0));
}

//===----------------------------------------------------------------------===//
// Casts (Tensor.to(dtype))
//===----------------------------------------------------------------------===//

/// To bool: non-zero (NaN included) is true.
template <class T> bool toBool(T x) { return x != T(0); }

/// A float to an integer type of `width` bits: truncated toward zero; empty
/// when the result has no exact meaning (NaN, or out of the type's range),
/// where a compiled kernel's value is unspecified.
inline std::optional<int64_t> floatToInteger(double x, unsigned width,
                                             bool isUnsigned) {
  double v = std::trunc(x);
  double limit = std::ldexp(1.0, int(width) - (isUnsigned ? 0 : 1));
  double lowest = isUnsigned ? 0.0 : -limit;
  if (!(v >= lowest && v < limit))
    return std::nullopt;
  if (isUnsigned && width == 64)
    return int64_t(uint64_t(v));
  return int64_t(v);
}

//===----------------------------------------------------------------------===//
// Quantization (docs/quantization.md)
//===----------------------------------------------------------------------===//

/// The values of a quantized integer type: u8 [0, 255], s8 [-128, 127],
/// s32 [-2^31, 2^31 - 1].
struct QuantRange {
  int64_t lowest, highest;
};
inline QuantRange quantRange(unsigned width, bool isUnsigned) {
  if (isUnsigned)
    return {0, int64_t((uint64_t(1) << width) - 1)};
  return {-(int64_t(1) << (width - 1)), (int64_t(1) << (width - 1)) - 1};
}

/// saturate(round_half_to_even(value) + zeroPoint): the last step of
/// quantize and requantize. `value` is the real number divided by the step
/// (already rounded to the type it was computed in). NaN gives the zero
/// point (the quantized 0); infinities saturate.
inline int64_t roundToQuantized(double value, int64_t zeroPoint,
                                QuantRange range) {
  if (value != value)
    return zeroPoint;
  double shifted = std::nearbyint(value) + double(zeroPoint);
  if (!(shifted > double(range.lowest)))
    return range.lowest;
  if (!(shifted < double(range.highest)))
    return range.highest;
  return int64_t(shifted);
}

/// ONNX QuantizeLinear: saturate(round_half_to_even(x / scale) + zeroPoint).
/// T is the type the quotient is rounded to (the input's float type; f16
/// and bf16 divide in float and round the quotient to their own type
/// before calling this with it).
template <class T>
int64_t quantize(T x, T scale, int64_t zeroPoint, QuantRange range) {
  return roundToQuantized(double(T(x / scale)), zeroPoint, range);
}

/// ONNX DequantizeLinear: (q - zeroPoint) * scale, the difference exact in
/// 64 bits and converted to T once, then multiplied in T.
template <class T> T dequantize(int64_t q, int64_t zeroPoint, T scale) {
  return T(q - zeroPoint) * scale;
}

/// An int32 accumulator scaled to a quantized output (tcc.requantize):
///   v = T(acc) * multiplier      (T is the multiplier's compute type: f32
///                                 for f32, f16 and bf16; f64 for f64; each
///                                 step rounded to nearest even)
///   q = saturate(round_half_to_even(v) + zeroPoint)
/// With an f32 multiplier this is the int8 kernels' epilogue
/// (runtime/lib/kernels/QEpilogue.inc, tcc_int8_epilogue_value), so the
/// interpreter, the linalg lowering and the kernels agree bit for bit
/// (docs/quantization.md, "Requantization"). T is float or double.
template <class T>
int64_t requantize(int32_t acc, T multiplier, int64_t zeroPoint,
                   QuantRange range) {
  return roundToQuantized(double(T(acc) * multiplier), zeroPoint, range);
}

} // namespace scalar
} // namespace tcc

#endif // TCC_RUNTIME_SCALAROPS_H
