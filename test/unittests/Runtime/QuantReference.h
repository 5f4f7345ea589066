//===- QuantReference.h - Plain int references for the int8 kernel tests --===//
//
// The int8 kernels' semantics (docs/int8-kernels.md) written the obvious
// way: sums in int64, then the epilogue one element at a time with
// std::nearbyint (round half to even in the default rounding mode) and a
// clamp, in the order the document gives. The kernels must match it bit
// for bit.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_RUNTIME_QUANTREFERENCE_H
#define TCC_TEST_RUNTIME_QUANTREFERENCE_H

#include "tcc/runtime/kernels_int8.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace tcc_test {

/// int64 to int32 as the kernels' int32 arithmetic wraps.
inline int32_t wrap32(int64_t x) { return int32_t(uint32_t(uint64_t(x))); }

/// The range of an output kind's values (U8 or S8).
inline int32_t qmin_of(int output) { return output == TCC_QOUTPUT_U8 ? 0 : -128; }
inline int32_t qmax_of(int output) { return output == TCC_QOUTPUT_U8 ? 255 : 127; }

/// One output element: `acc` is the int32 sum with bias; `residual` the
/// residual's value (when e.residual is set), as an int.
struct QValue {
  int32_t i = 0; // INT32, U8, S8
  float f = 0;   // F32
};
inline QValue reference_epilogue(const tcc_qepilogue *e, int64_t column,
                                 int32_t acc, int32_t residual) {
  QValue out;
  if (!e || e->output == TCC_QOUTPUT_INT32) {
    out.i = acc;
    return out;
  }
  const float scale = e->scale[e->scale_per_column ? column : 0];
  float v = float(acc) * scale;
  if (e->output == TCC_QOUTPUT_F32) {
    out.f = e->relu && v < 0 ? 0.0f : v;
    return out;
  }
  int64_t lo = qmin_of(e->output), hi = qmax_of(e->output);
  if (e->residual && e->residual_qdq) {
    // requantize, dequantize both, add, quantize: each an f32 operation.
    double p = std::nearbyint(std::min(std::max(double(v), -1e9), 1e9)) +
               e->product_zero_point;
    p = std::min<double>(std::max<double>(p, lo), hi);
    volatile float pd = float(int32_t(p) - e->product_zero_point) *
                        e->product_scale;
    volatile float rd =
        float(residual - e->residual_zero_point) * e->residual_scale;
    volatile float sum = pd + rd;
    v = sum / e->output_scale;
  } else if (e->residual)
    v = std::fma(float(residual - e->residual_zero_point), e->residual_scale,
                 v);
  double r = std::nearbyint(std::min(std::max(double(v), -1e9), 1e9));
  int64_t q = int64_t(r) + e->output_zero_point;
  if (e->relu)
    lo = std::max<int64_t>(lo, e->output_zero_point);
  out.i = int32_t(std::min(std::max(q, lo), hi));
  return out;
}

/// Random bytes in [lo, hi].
inline std::vector<uint8_t> random_u8(size_t n, unsigned seed, int lo = 0,
                                      int hi = 255) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<uint8_t> v(n);
  for (uint8_t &x : v)
    x = uint8_t(dist(gen));
  return v;
}
inline std::vector<int8_t> random_s8(size_t n, unsigned seed, int lo = -128,
                                     int hi = 127) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(lo, hi);
  std::vector<int8_t> v(n);
  for (int8_t &x : v)
    x = int8_t(dist(gen));
  return v;
}

/// The int8 variants this CPU runs, named once per test binary on stdout
/// (which variants ran), and those it cannot.
inline std::vector<std::string> runnable_int8_variants() {
  static const std::vector<std::string> variants = [] {
    std::vector<std::string> yes;
    std::string no;
    int32_t runs = 0;
    for (int32_t i = 0; const char *name = tcc_int8_variant(i, &runs); ++i) {
      if (runs)
        yes.push_back(name);
      else
        no += std::string(" ") + name;
    }
    std::string list;
    for (const std::string &v : yes)
      list += " " + v;
    std::printf("[int8 variants] running:%s; not on this CPU:%s; "
                "tcc_qgemm uses %s\n",
                list.c_str(), no.empty() ? " none" : no.c_str(),
                tcc_int8_isa());
    return yes;
  }();
  return variants;
}

} // namespace tcc_test

#endif // TCC_TEST_RUNTIME_QUANTREFERENCE_H
