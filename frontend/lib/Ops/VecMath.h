//===- VecMath.h - Branch-free float math the vectorizer can use ----------===//
//
// libm calls stop the auto-vectorizer, so float32 exp, log, log1p, tanh,
// sigmoid and erf use these approximations: straight-line code (selects,
// no branches) that vectorizes in the loops of Loops.h. Double precision
// uses libm. Maximum errors against float64 references, checked by
// test/unittests/Frontend/VecMathTest.cpp over dense ranges:
//
//   vexp    relative 2e-7 (about 2 ulp) on [-87, 88.7]; 0 below -87.34
//   vlog    relative 2e-7 on normal and subnormal inputs
//   vlog1p  relative 3e-7
//   vtanh   relative 3e-7 (absolute 1e-7 near zero crossings)
//   vsigmoid relative 5e-7 where sigmoid > 1e-30
//   verf    absolute 3e-7
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_VECMATH_H
#define TCC_LIB_OPS_VECMATH_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace tcc {
namespace detail {

inline int32_t asInt(float f) {
  int32_t i;
  std::memcpy(&i, &f, 4);
  return i;
}
inline float asFloat(int32_t i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}

/// e^x: Cody-Waite reduction to r in [-ln2/2, ln2/2], a degree-6 polynomial
/// (Cephes expf), and 2^n built in the exponent bits.
inline float vexp(float x) {
  const float hi = 88.72283905206835f, lo = -87.33654475f;
  float xc = x > hi ? hi : (x < lo ? lo : x);
  xc = x != x ? 0.0f : xc; // NaN: computed on 0, replaced below
  float n = std::floor(xc * 1.44269504088896341f + 0.5f);
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  float y = p * r * r + r + 1.0f;
  // 2^n as 2^n1 * 2^n2 (n1 = floor(n/2)) so that every n in [-126, 128]
  // uses two normal scale factors.
  int32_t ni = int32_t(n);
  int32_t n1 = ni >> 1, n2 = ni - n1;
  y = y * asFloat(int32_t(uint32_t(n1 + 127) << 23)) *
      asFloat(int32_t(uint32_t(n2 + 127) << 23));
  y = x > hi ? INFINITY : y;
  y = x < lo ? 0.0f : y;
  return x != x ? x : y;
}

/// ln x: x = m * 2^e with m in [sqrt(1/2), sqrt(2)), a degree-9 polynomial
/// in m - 1 (Cephes logf). Subnormals are scaled up first.
inline float vlog(float x) {
  bool tiny = x < 1.17549435e-38f;
  float xs = tiny ? x * 8388608.0f : x; // 2^23
  int32_t bits = asInt(xs);
  int32_t e = ((bits >> 23) & 0xff) - 126;
  float m = asFloat((bits & 0x807fffff) | 0x3f000000); // [0.5, 1)
  bool small = m < 0.707106781186547524f;
  float ef = float(e) - (small ? 1.0f : 0.0f) - (tiny ? 23.0f : 0.0f);
  m = small ? m + m - 1.0f : m - 1.0f;
  float z = m * m;
  float p = 7.0376836292e-2f;
  p = p * m - 1.1514610310e-1f;
  p = p * m + 1.1676998740e-1f;
  p = p * m - 1.2420140846e-1f;
  p = p * m + 1.4249322787e-1f;
  p = p * m - 1.6668057665e-1f;
  p = p * m + 2.0000714765e-1f;
  p = p * m - 2.4999993993e-1f;
  p = p * m + 3.3333331174e-1f;
  float y = p * m * z;
  y = y + ef * -2.12194440e-4f;
  y = y - 0.5f * z;
  float r = m + y + ef * 0.693359375f;
  r = x == INFINITY ? INFINITY : r;
  r = x == 0.0f ? -INFINITY : r;
  r = x < 0.0f ? NAN : r;
  return x != x ? x : r;
}

/// ln(1 + x) without cancellation: log(u) * x / (u - 1) with u = 1 + x.
inline float vlog1p(float x) {
  float u = 1.0f + x;
  float d = u - 1.0f;
  float r = vlog(u) * (x / (d == 0.0f ? 1.0f : d));
  r = d == 0.0f ? x : r;
  return u == INFINITY ? vlog(u) : r;
}

/// tanh: an odd polynomial near 0 (Cephes tanhf), else 1 - 2/(e^2|x| + 1).
inline float vtanh(float x) {
  float ax = std::fabs(x);
  float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  float small = x + x * z * p;
  float big = 1.0f - 2.0f / (vexp(2.0f * ax) + 1.0f);
  big = x < 0 ? -big : big;
  // tanh is odd: the sign of x, so that tanh(-0) is -0 (small rounds it to +0).
  return std::copysign(ax < 0.625f ? small : big, x);
}

inline float vsigmoid(float x) { return 1.0f / (1.0f + vexp(-x)); }

/// erf: Taylor series to degree 21 for |x| < 1, Abramowitz & Stegun 7.1.26
/// (absolute error 1.5e-7) beyond.
inline float verf(float x) {
  float ax = std::fabs(x);
  float z = x * x;
  // 2/sqrt(pi) * sum (-1)^k x^(2k+1) / (k! (2k+1)), k = 0..10
  // (truncation error below 1.2e-9 for |x| < 1)
  float p = 1.48071928e-08f;
  p = p * z - 1.63658447e-07f;
  p = p * z + 1.64621144e-06f;
  p = p * z - 1.49256504e-05f;
  p = p * z + 1.20553330e-04f;
  p = p * z - 8.54832702e-04f;
  p = p * z + 5.22397763e-03f;
  p = p * z - 2.68661706e-02f;
  p = p * z + 1.12837917e-01f;
  p = p * z - 3.76126389e-01f;
  p = p * z + 1.12837917e+00f;
  float small = x * p;
  float t = 1.0f / (1.0f + 0.3275911f * ax);
  float q = 1.061405429f;
  q = q * t - 1.453152027f;
  q = q * t + 1.421413741f;
  q = q * t - 0.284496736f;
  q = q * t + 0.254829592f;
  float big = 1.0f - q * t * vexp(-z);
  big = x < 0 ? -big : big;
  return ax < 1.0f ? small : big;
}

inline double vexp(double x) { return std::exp(x); }
inline double vlog(double x) { return std::log(x); }
inline double vlog1p(double x) { return std::log1p(x); }
inline double vtanh(double x) { return std::tanh(x); }
inline double vsigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }
inline double verf(double x) { return std::erf(x); }

/// The elementary functions the eager kernels give tcc/runtime/ScalarOps.h:
/// the approximations above for float, libm for double.
struct EagerMath {
  template <class T> static T exp(T x) { return vexp(x); }
  template <class T> static T log(T x) { return vlog(x); }
  template <class T> static T log1p(T x) { return vlog1p(x); }
  template <class T> static T tanh(T x) { return vtanh(x); }
  template <class T> static T erf(T x) { return verf(x); }
  template <class T> static T sin(T x) { return std::sin(x); }
  template <class T> static T cos(T x) { return std::cos(x); }
  template <class T> static T pow(T x, T y) { return std::pow(x, y); }
};

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_VECMATH_H
