//===- QQuantize.cpp - Quantize, dequantize, one epilogue element ---------===//
//
// Plain loops the compiler vectorizes. Quantization clamps before it rounds
// (the bounds are integers, so the order does not change the result) and
// rounds with the 1.5 * 2^23 addition, as the epilogue does.
//
//===----------------------------------------------------------------------===//

#include "QMicroKernel.h"
#include "Status.h"

#include <algorithm>
#include <cmath>
#include <type_traits>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

bool is_byte_output(int32_t kind) {
  return kind == TCC_QOUTPUT_U8 || kind == TCC_QOUTPUT_S8;
}

template <typename Out>
void quantize(const float *x, int64_t n, float scale, int32_t zp, Out *y) {
  const int32_t qmin = std::is_signed<Out>::value ? -128 : 0, qmax = qmin + 255;
  const float lo = float(qmin - zp), hi = float(qmax - zp);
  for (int64_t i = 0; i < n; ++i) {
    float v = x[i] / scale;
    v = v != v ? 0.0f : std::min(std::max(v, lo), hi); // NaN: the zero point
    y[i] = Out(int32_t(v + 12582912.0f) - 12582912 + zp);
  }
}

template <typename In>
void dequantize(const In *x, int64_t n, float scale, int32_t zp, float *y) {
  for (int64_t i = 0; i < n; ++i)
    y[i] = float(int32_t(x[i]) - zp) * scale;
}

tcc_kernel_status check(const char *op, int64_t n, const void *x, void *y,
                        int32_t kind, float scale, int32_t zp) {
  if (n < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "%s: negative size %lld", op,
                (long long)n);
  if (!is_byte_output(kind))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: the int8 type must be TCC_QOUTPUT_U8 or _S8 (got %d)", op,
                kind);
  if (!(std::isfinite(scale) && scale > 0.0f))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: scale (%g) must be finite and positive", op,
                double(scale));
  const int32_t qmin = kind == TCC_QOUTPUT_S8 ? -128 : 0;
  if (zp < qmin || zp > qmin + 255)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "%s: zero_point (%d) is outside [%d, %d]", op, zp, qmin,
                qmin + 255);
  if (n > 0 && (!x || !y))
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "%s: %s is NULL", op,
                !x ? "x" : "y");
  return TCC_KERNEL_OK;
}

} // namespace
} // namespace kernels
} // namespace runtime
} // namespace tcc

using namespace tcc::runtime::kernels;

extern "C" tcc_kernel_status tcc_int8_quantize(const float *x, int64_t n,
                                               float scale, int32_t zero_point,
                                               int32_t output, void *y) {
  if (tcc_kernel_status s =
          check("int8_quantize", n, x, y, output, scale, zero_point))
    return s;
  if (output == TCC_QOUTPUT_U8)
    quantize(x, n, scale, zero_point, static_cast<uint8_t *>(y));
  else
    quantize(x, n, scale, zero_point, static_cast<int8_t *>(y));
  return TCC_KERNEL_OK;
}

extern "C" tcc_kernel_status tcc_int8_dequantize(const void *x, int64_t n,
                                                 int32_t input, float scale,
                                                 int32_t zero_point,
                                                 float *y) {
  if (tcc_kernel_status s =
          check("int8_dequantize", n, x, y, input, scale, zero_point))
    return s;
  if (input == TCC_QOUTPUT_U8)
    dequantize(static_cast<const uint8_t *>(x), n, scale, zero_point, y);
  else
    dequantize(static_cast<const int8_t *>(x), n, scale, zero_point, y);
  return TCC_KERNEL_OK;
}

extern "C" int32_t tcc_int8_epilogue_value(const tcc_qepilogue *e,
                                           int64_t column, int32_t acc,
                                           int32_t residual) {
  if (!e || !is_byte_output(e->output))
    return acc;
  // The portable variant's epilogue on a row of one element.
  uint8_t out = 0;
  const uint8_t res = uint8_t(residual);
  tcc_qepilogue one = *e;
  one.residual = e->residual ? &res : nullptr;
  const float scale = e->scale[e->scale_per_column ? column : 0];
  QEpilogue q = resolve_qepilogue(&one, &out, 1);
  int32_t sum = acc;
  int8_portable().epilogue_row(q, &sum, nullptr, &scale, 1, 0, 0);
  return e->output == TCC_QOUTPUT_S8 ? int32_t(int8_t(out)) : int32_t(out);
}
