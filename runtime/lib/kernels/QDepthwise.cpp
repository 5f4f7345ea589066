//===- QDepthwise.cpp - int8 depthwise 2-D convolution, NHWC --------------===//
//
// Direct: for each output pixel, the channels' int32 sums over the filter's
// taps that fall inside the image (padding reads as the zero point, so it
// adds nothing), in blocks of channels that stay in registers or L1, then
// the active int8 variant's epilogue (the GEMM's, with no column sums).
// The sums are plain loops the compiler vectorizes (int16 x int16 -> int32
// products); the work per output is small, so memory sets the pace.
//
//===----------------------------------------------------------------------===//

#include "QMicroKernel.h"
#include "Sgemm.h"
#include "Status.h"

#include <algorithm>
#include <cstring>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

constexpr int64_t kChannelBlock = 256;

struct QDepthwise {
  const tcc_qdepthwise_args *p;
  int64_t out_h, out_w;
  QEpilogue epilogue;
  QEpilogueRowFn epilogue_row;
  const int32_t *bias;      // or null
  const float *scale;       // per channel, or null (INT32 output)
  bool scale_per_channel;
  int64_t rows_per_task, rows; // rows = batch * out_h
};

// Output row (image b, row oy), all its pixels and channels.
template <typename In>
void depthwise_row(const QDepthwise &d, int64_t b, int64_t oy) {
  const tcc_qdepthwise_args &p = *d.p;
  const In *input = static_cast<const In *>(p.input);
  const int64_t C = p.channels;
  const int32_t zx = p.input_zero_point;
  alignas(64) int32_t acc[kChannelBlock];
  alignas(64) float scale_block[kChannelBlock];
  if (d.scale && !d.scale_per_channel)
    std::fill_n(scale_block, kChannelBlock, d.scale[0]);
  for (int64_t ox = 0; ox < d.out_w; ++ox) {
    const int64_t pixel = (b * d.out_h + oy) * d.out_w + ox;
    for (int64_t c0 = 0; c0 < C; c0 += kChannelBlock) {
      const int n = int(std::min(kChannelBlock, C - c0));
      std::fill_n(acc, n, 0);
      for (int64_t ky = 0; ky < p.kernel_height; ++ky) {
        const int64_t iy = oy * p.stride_h - p.pad_h + ky * p.dilation_h;
        if (iy < 0 || iy >= p.in_height)
          continue;
        for (int64_t kx = 0; kx < p.kernel_width; ++kx) {
          const int64_t ix = ox * p.stride_w - p.pad_w + kx * p.dilation_w;
          if (ix < 0 || ix >= p.in_width)
            continue;
          const In *x = input + ((b * p.in_height + iy) * p.in_width + ix) * C +
                        c0;
          const int8_t *w = p.weight + (ky * p.kernel_width + kx) * C + c0;
          for (int c = 0; c < n; ++c)
            acc[c] += int32_t(int16_t(int32_t(x[c]) - zx)) * int32_t(w[c]);
        }
      }
      d.epilogue_row(d.epilogue, acc, d.bias ? d.bias + c0 : nullptr,
                     d.scale_per_channel ? d.scale + c0 : scale_block, n,
                     pixel, c0);
    }
  }
}

void depthwise_task(void *arg, int64_t task) {
  const QDepthwise &d = *static_cast<const QDepthwise *>(arg);
  const int64_t r0 = task * d.rows_per_task,
                r1 = std::min(d.rows, r0 + d.rows_per_task);
  for (int64_t r = r0; r < r1; ++r) {
    if (d.p->input_signed)
      depthwise_row<int8_t>(d, r / d.out_h, r % d.out_h);
    else
      depthwise_row<uint8_t>(d, r / d.out_h, r % d.out_h);
  }
}

tcc_kernel_status check(const tcc_qdepthwise_args *p,
                        const tcc_parallel *parallel, int64_t &out_h,
                        int64_t &out_w) {
  if (!p)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "qdepthwise: args is NULL");
  if (tcc_kernel_status s = check_parallel(parallel))
    return s;
  if (tcc_kernel_status status =
          check_sizes("qdepthwise", {{"batch", p->batch, 0},
                                     {"channels", p->channels, 0},
                                     {"in_height", p->in_height, 0},
                                     {"in_width", p->in_width, 0},
                                     {"kernel_height", p->kernel_height, 1},
                                     {"kernel_width", p->kernel_width, 1},
                                     {"stride_h", p->stride_h, 1},
                                     {"stride_w", p->stride_w, 1},
                                     {"pad_h", p->pad_h, 0},
                                     {"pad_w", p->pad_w, 0},
                                     {"dilation_h", p->dilation_h, 1},
                                     {"dilation_w", p->dilation_w, 1}}))
    return status;
  if (p->kernel_height * p->kernel_width > TCC_INT8_MAX_K)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qdepthwise: a %lld x %lld filter exceeds %d taps",
                (long long)p->kernel_height, (long long)p->kernel_width,
                TCC_INT8_MAX_K);
  const int64_t span_h = p->dilation_h * (p->kernel_height - 1) + 1,
                span_w = p->dilation_w * (p->kernel_width - 1) + 1;
  if (p->in_height + 2 * p->pad_h < span_h ||
      p->in_width + 2 * p->pad_w < span_w)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qdepthwise: the filter (%lld x %lld with dilation) is larger "
                "than the padded input (%lld x %lld)",
                (long long)span_h, (long long)span_w,
                (long long)(p->in_height + 2 * p->pad_h),
                (long long)(p->in_width + 2 * p->pad_w));
  out_h = (p->in_height + 2 * p->pad_h - span_h) / p->stride_h + 1;
  out_w = (p->in_width + 2 * p->pad_w - span_w) / p->stride_w + 1;
  const int32_t zmin = p->input_signed ? -128 : 0;
  if (p->input_zero_point < zmin || p->input_zero_point > zmin + 255)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qdepthwise: input_zero_point (%d) is outside the %s range "
                "[%d, %d]",
                p->input_zero_point, p->input_signed ? "int8" : "uint8", zmin,
                zmin + 255);
  if (tcc_kernel_status s =
          check_qepilogue("qdepthwise", p->epilogue, p->channels, false))
    return s;
  if (checked_product({p->batch, out_h, out_w, p->channels, 4}) < 0 ||
      checked_product({p->batch, p->in_height, p->in_width, p->channels}) < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qdepthwise: the tensors' sizes overflow");
  if (p->batch * p->channels * out_h * out_w == 0)
    return TCC_KERNEL_OK;
  if (!p->input || !p->weight || !p->output)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "qdepthwise: %s is NULL",
                !p->input ? "input" : !p->weight ? "weight" : "output");
  return TCC_KERNEL_OK;
}

} // namespace

} // namespace kernels
} // namespace runtime
} // namespace tcc

using namespace tcc::runtime::kernels;

extern "C" tcc_kernel_status
tcc_qdepthwise_conv2d(const tcc_qdepthwise_args *p,
                      const tcc_parallel *parallel) {
  int64_t out_h = 0, out_w = 0;
  if (tcc_kernel_status s = check(p, parallel, out_h, out_w))
    return s;
  if (p->batch * p->channels * out_h * out_w == 0)
    return TCC_KERNEL_OK;
  QDepthwise d;
  d.p = p;
  d.out_h = out_h;
  d.out_w = out_w;
  d.epilogue = resolve_qepilogue(p->epilogue, p->output, p->channels);
  if (d.epilogue.residual)
    d.epilogue.ld_residual = p->channels;
  d.epilogue_row = int8_active().epilogue_row;
  d.bias = p->epilogue ? p->epilogue->bias : nullptr;
  d.scale = p->epilogue ? p->epilogue->scale : nullptr;
  d.scale_per_channel = p->epilogue && p->epilogue->scale_per_column;
  d.rows = p->batch * out_h;
  const int64_t tasks = task_count(
      parallel, d.rows,
      d.rows * out_w * p->channels * p->kernel_height * p->kernel_width);
  d.rows_per_task = ceil_div(d.rows, tasks);
  parallel_run(parallel, ceil_div(d.rows, d.rows_per_task), depthwise_task,
               &d);
  return TCC_KERNEL_OK;
}
