//===- QConv2d.cpp - int8 NHWC convolution as an implicit GEMM ------------===//
//
// tcc_qgemm whose A rows are the input's patches: the GEMM driver asks for
// a block of rows (output pixels) and K range at a time, which are gathered
// from the NHWC input into its per-thread scratch right before they are
// packed (im2col one block at a time, never the whole matrix). Each row is
// kernel_height * kernel_width runs of in_channels contiguous bytes, or the
// zero point where the tap falls in the padding.
//
//===----------------------------------------------------------------------===//

#include "Qgemm.h"
#include "Sgemm.h"
#include "Status.h"

#include <algorithm>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

struct Patches {
  const tcc_qconv2d_args *p;
  int64_t out_h, out_w;
  int64_t span_h; // input rows one patch covers: dilation_h * (kh - 1) + 1
  uint8_t zero_byte; // the input zero point as stored
};

// Copies and fills of a patch's runs (kw * cin bytes: 21 for a 7x7 stem
// of 3 channels, 192 for a 3x3 layer of 64) as fixed-size moves that the
// compiler inlines, the last one overlapping the one before: a call to
// memcpy/memset per run costs more than the run itself.
inline void copy_run(uint8_t *d, const uint8_t *s, int64_t n) {
  if (n >= 32) {
    int64_t i = 0;
    for (; i + 32 <= n; i += 32)
      std::memcpy(d + i, s + i, 32);
    if (i < n)
      std::memcpy(d + n - 32, s + n - 32, 32);
  } else if (n >= 16) {
    std::memcpy(d, s, 16);
    std::memcpy(d + n - 16, s + n - 16, 16);
  } else if (n >= 8) {
    std::memcpy(d, s, 8);
    std::memcpy(d + n - 8, s + n - 8, 8);
  } else {
    for (int64_t i = 0; i < n; ++i)
      d[i] = s[i];
  }
}

inline void fill_run(uint8_t *d, uint8_t byte, int64_t n) {
  if (n > 0)
    std::memset(d, byte, size_t(n));
}

// One output pixel's whole patch (K bytes) into d: per filter row, the
// taps inside the image are one contiguous run of the input row when
// dilation_w is 1 (one copy), the rest the zero point.
void gather_patch(const Patches &s, int64_t b, int64_t oy, int64_t ox,
                  uint8_t *d) {
  const tcc_qconv2d_args &p = *s.p;
  const uint8_t *input = static_cast<const uint8_t *>(p.input);
  const int64_t cin = p.in_channels, kw = p.kernel_width;
  const int64_t ix0 = ox * p.stride_w - p.pad_w;
  for (int64_t ky = 0; ky < p.kernel_height; ++ky, d += kw * cin) {
    const int64_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
    if (iy < 0 || iy >= p.in_height) {
      fill_run(d, s.zero_byte, kw * cin);
      continue;
    }
    const uint8_t *row = input + (b * p.in_height + iy) * p.in_width * cin;
    if (p.dilation_w == 1) {
      const int64_t first = std::clamp<int64_t>(-ix0, 0, kw);
      const int64_t last = std::clamp<int64_t>(p.in_width - ix0, first, kw);
      fill_run(d, s.zero_byte, first * cin);
      copy_run(d + first * cin, row + (ix0 + first) * cin,
               (last - first) * cin);
      fill_run(d + last * cin, s.zero_byte, (kw - last) * cin);
      continue;
    }
    for (int64_t kx = 0; kx < kw; ++kx) {
      const int64_t ix = ix0 + kx * p.dilation_w;
      if (ix < 0 || ix >= p.in_width)
        fill_run(d + kx * cin, s.zero_byte, cin);
      else
        copy_run(d + kx * cin, row + ix * cin, cin);
    }
  }
}

void gather_rows(const void *context, int64_t row0, int64_t rows, int64_t k0,
                 int64_t count, uint8_t *dst, int64_t ld) {
  const Patches &s = *static_cast<const Patches *>(context);
  const tcc_qconv2d_args &p = *s.p;
  const uint8_t *input = static_cast<const uint8_t *>(p.input);
  const int64_t cin = p.in_channels;
  const bool whole = k0 == 0 && count == p.kernel_height * p.kernel_width * cin;
  if (whole) { // the pixel's coordinates step along with the rows
    const int64_t run = p.kernel_width * cin,
                  tap_rows = p.dilation_h * p.in_width * cin;
    int64_t b = row0 / (s.out_h * s.out_w);
    int64_t oy = row0 / s.out_w % s.out_h, ox = row0 % s.out_w;
    for (int64_t r = 0; r < rows; ++r) {
      const int64_t iy0 = oy * p.stride_h - p.pad_h,
                    ix0 = ox * p.stride_w - p.pad_w;
      if (p.dilation_w == 1 && iy0 >= 0 && iy0 + s.span_h <= p.in_height &&
          ix0 >= 0 && ix0 + p.kernel_width <= p.in_width) {
        // The patch lies inside the image: a run per filter row.
        const uint8_t *src = input + ((b * p.in_height + iy0) * p.in_width +
                                      ix0) * cin;
        uint8_t *d = dst + r * ld;
        for (int64_t ky = 0; ky < p.kernel_height;
             ++ky, d += run, src += tap_rows)
          copy_run(d, src, run);
      } else {
        gather_patch(s, b, oy, ox, dst + r * ld);
      }
      if (++ox == s.out_w) {
        ox = 0;
        if (++oy == s.out_h) {
          oy = 0;
          ++b;
        }
      }
    }
    return;
  }
  for (int64_t r = 0; r < rows; ++r) {
    const int64_t pixel = row0 + r;
    const int64_t b = pixel / (s.out_h * s.out_w);
    const int64_t oy = pixel / s.out_w % s.out_h, ox = pixel % s.out_w;
    // A range of K (the bounded-stack path): run by run.
    uint8_t *d = dst + r * ld - k0;
    for (int64_t kk = k0, end = k0 + count; kk < end;) {
      const int64_t tap = kk / cin, c = kk % cin;
      const int64_t ky = tap / p.kernel_width, kx = tap % p.kernel_width;
      const int64_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
      const int64_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
      const int64_t n = std::min(cin - c, end - kk);
      if (iy < 0 || iy >= p.in_height || ix < 0 || ix >= p.in_width)
        std::memset(d + kk, s.zero_byte, size_t(n));
      else
        std::memcpy(d + kk,
                    input + ((b * p.in_height + iy) * p.in_width + ix) * cin +
                        c,
                    size_t(n));
      kk += n;
    }
  }
}

tcc_kernel_status check(const tcc_qconv2d_args *p, int64_t &out_h,
                        int64_t &out_w) {
  if (!p)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qconv2d: args is NULL");
  if (tcc_kernel_status status =
          check_sizes("qconv2d", {{"batch", p->batch, 0},
                                  {"in_channels", p->in_channels, 0},
                                  {"in_height", p->in_height, 0},
                                  {"in_width", p->in_width, 0},
                                  {"out_channels", p->out_channels, 0},
                                  {"kernel_height", p->kernel_height, 1},
                                  {"kernel_width", p->kernel_width, 1},
                                  {"stride_h", p->stride_h, 1},
                                  {"stride_w", p->stride_w, 1},
                                  {"pad_h", p->pad_h, 0},
                                  {"pad_w", p->pad_w, 0},
                                  {"dilation_h", p->dilation_h, 1},
                                  {"dilation_w", p->dilation_w, 1}}))
    return status;
  const int64_t span_h = p->dilation_h * (p->kernel_height - 1) + 1,
                span_w = p->dilation_w * (p->kernel_width - 1) + 1;
  if (p->in_height + 2 * p->pad_h < span_h ||
      p->in_width + 2 * p->pad_w < span_w)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qconv2d: the filter (%lld x %lld with dilation) is larger "
                "than the padded input (%lld x %lld)",
                (long long)span_h, (long long)span_w,
                (long long)(p->in_height + 2 * p->pad_h),
                (long long)(p->in_width + 2 * p->pad_w));
  out_h = (p->in_height + 2 * p->pad_h - span_h) / p->stride_h + 1;
  out_w = (p->in_width + 2 * p->pad_w - span_w) / p->stride_w + 1;
  if (checked_product({p->batch, out_h, out_w, p->out_channels, 4}) < 0 ||
      checked_product({p->batch, p->in_height, p->in_width, p->in_channels}) <
          0 ||
      checked_product({p->kernel_height, p->kernel_width, p->in_channels}) < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qconv2d: the tensors' sizes overflow");
  const int32_t zmin = p->input_signed ? -128 : 0;
  if (p->input_zero_point < zmin || p->input_zero_point > zmin + 255)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qconv2d: input_zero_point (%d) is outside the %s range "
                "[%d, %d]",
                p->input_zero_point, p->input_signed ? "int8" : "uint8", zmin,
                zmin + 255);
  const int64_t k = p->kernel_height * p->kernel_width * p->in_channels;
  if (p->batch * out_h * out_w > 0 && k > 0 && !p->input)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qconv2d: input is NULL");
  return TCC_KERNEL_OK;
}

} // namespace

} // namespace kernels
} // namespace runtime
} // namespace tcc

using namespace tcc::runtime::kernels;

extern "C" tcc_kernel_status tcc_qconv2d(const tcc_qconv2d_args *p,
                                         const tcc_parallel *parallel) {
  int64_t out_h = 0, out_w = 0;
  if (tcc_kernel_status s = check(p, out_h, out_w))
    return s;
  tcc_qepilogue epilogue;
  if (p->epilogue) {
    epilogue = *p->epilogue;
    epilogue.ld_residual = std::max<int64_t>(1, p->out_channels);
  }
  tcc_qgemm_args g{};
  g.m = p->batch * out_h * out_w;
  g.n = p->out_channels;
  g.k = p->kernel_height * p->kernel_width * p->in_channels;
  g.a = p->input;
  g.lda = p->in_channels;
  g.a_signed = p->input_signed;
  g.a_zero_point = p->input_zero_point;
  g.packed_b = p->packed_weight;
  g.c = p->output;
  g.ldc = std::max<int64_t>(1, p->out_channels);
  g.epilogue = p->epilogue ? &epilogue : nullptr;
  const bool in_place = p->kernel_height == 1 && p->kernel_width == 1 &&
                        p->stride_h == 1 && p->stride_w == 1 &&
                        p->pad_h == 0 && p->pad_w == 0;
  if (in_place) // the input is A: rows of in_channels bytes
    return qgemm_with(int8_active(), &g, parallel);
  Patches patches{p, out_h, out_w,
                  p->dilation_h * (p->kernel_height - 1) + 1,
                  uint8_t(p->input_zero_point)};
  QRowSource source{gather_rows, &patches};
  return qgemm_with(int8_active(), &g, parallel, &source);
}
