//===- ReferenceKernels.cpp - naive float64 GEMM and conv2d ---------------===//

#include "ReferenceKernels.h"

#include <algorithm>
#include <cmath>

namespace tcc {
namespace test {
namespace {

double activate(const tcc_epilogue &e, double x) {
  switch (e.activation) {
  case TCC_ACTIVATION_RELU:
    return x > 0 ? x : 0;
  case TCC_ACTIVATION_CLAMP:
    return std::min<double>(std::max<double>(x, e.clamp_min), e.clamp_max);
  case TCC_ACTIVATION_GELU:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case TCC_ACTIVATION_GELU_TANH:
    return 0.5 * x *
           (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  case TCC_ACTIVATION_SILU:
    return x / (1 + std::exp(-x));
  case TCC_ACTIVATION_SIGMOID:
    return 1 / (1 + std::exp(-x));
  case TCC_ACTIVATION_TANH:
    return std::tanh(x);
  default:
    return x;
  }
}

} // namespace

void referenceSgemm(const tcc_sgemm_args &g) {
  for (int64_t i = 0; i < g.m; ++i)
    for (int64_t j = 0; j < g.n; ++j) {
      double acc = 0;
      for (int64_t p = 0; p < g.k; ++p) {
        double a = g.trans_a ? g.a[p * g.lda + i] : g.a[i * g.lda + p];
        double b = g.trans_b ? g.b[j * g.ldb + p] : g.b[p * g.ldb + j];
        acc += a * b;
      }
      double v = acc;
      if (const tcc_epilogue *e = g.epilogue) {
        v = e->alpha * acc;
        if (e->bias)
          v += e->bias[e->bias_per_row ? i : j];
        if (e->residual)
          v += double(e->beta) * e->residual[i * e->ld_residual + j];
        v = activate(*e, v);
      }
      g.c[i * g.ldc + j] = float(v);
    }
}

void referenceConv2d(const tcc_conv2d_args &c) {
  int64_t oh =
      (c.in_height + 2 * c.pad_h - c.dilation_h * (c.kernel_height - 1) - 1) /
          c.stride_h +
      1;
  int64_t ow =
      (c.in_width + 2 * c.pad_w - c.dilation_w * (c.kernel_width - 1) - 1) /
          c.stride_w +
      1;
  int64_t icg = c.in_channels / c.groups, ocg = c.out_channels / c.groups;
  bool nhwc = c.layout == TCC_LAYOUT_NHWC;
  auto inAt = [&](int64_t n, int64_t ch, int64_t y, int64_t x) {
    return nhwc ? ((n * c.in_height + y) * c.in_width + x) * c.in_channels + ch
                : ((n * c.in_channels + ch) * c.in_height + y) * c.in_width + x;
  };
  auto wAt = [&](int64_t o, int64_t ch, int64_t y, int64_t x) {
    return nhwc ? ((o * c.kernel_height + y) * c.kernel_width + x) * icg + ch
                : ((o * icg + ch) * c.kernel_height + y) * c.kernel_width + x;
  };
  auto outAt = [&](int64_t n, int64_t o, int64_t y, int64_t x) {
    return nhwc ? ((n * oh + y) * ow + x) * c.out_channels + o
                : ((n * c.out_channels + o) * oh + y) * ow + x;
  };
  for (int64_t n = 0; n < c.batch; ++n)
    for (int64_t o = 0; o < c.out_channels; ++o)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t x = 0; x < ow; ++x) {
          int64_t g = o / ocg;
          double acc = 0;
          for (int64_t ch = 0; ch < icg; ++ch)
            for (int64_t ky = 0; ky < c.kernel_height; ++ky)
              for (int64_t kx = 0; kx < c.kernel_width; ++kx) {
                int64_t iy = y * c.stride_h - c.pad_h + ky * c.dilation_h;
                int64_t ix = x * c.stride_w - c.pad_w + kx * c.dilation_w;
                if (iy < 0 || iy >= c.in_height || ix < 0 || ix >= c.in_width)
                  continue;
                acc += double(c.input[inAt(n, g * icg + ch, iy, ix)]) *
                       c.weight[wAt(o, ch, ky, kx)];
              }
          double v = acc;
          int64_t at = outAt(n, o, y, x);
          if (const tcc_epilogue *e = c.epilogue) {
            v = e->alpha * acc;
            if (e->bias)
              v += e->bias[o];
            if (e->residual)
              v += double(e->beta) * e->residual[at];
            v = activate(*e, v);
          }
          c.output[at] = float(v);
        }
}

} // namespace test
} // namespace tcc
