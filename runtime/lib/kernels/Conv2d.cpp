//===- Conv2d.cpp - fp32 2-D convolution through the GEMM -----------------===//
//
// Three paths, picked from the shape:
// - pointwise (1x1, stride 1, no padding): the input already is the GEMM
//   operand; no copy at all (NHWC runs the whole batch as one GEMM).
// - depthwise (groups == in == out channels, up to 64 taps): direct
//   vectorized kernels (Depthwise.inc), since a GEMM of one row per group
//   would waste the microkernel.
// - Winograd F(2x2, 3x3) for NHWC 3x3 stride-1 convolutions with enough
//   channels (Winograd.cpp): 2.25x fewer multiplies than im2col.
// - everything else: im2col, then the GEMM with the epilogue fused. NCHW
//   (out = W x cols) never stores the columns: the GEMM builds each panel
//   of them in cache as it packs B (an implicit GEMM, Im2col.inc). NHWC
//   (out = cols x W^T) writes the columns of as many images as fit ~16 MiB
//   to the workspace, runs one tall GEMM over them (or, for many rows of
//   shallow columns, a block of rows at a time in a per-thread buffer that
//   stays in cache),
//   and packs the weights once per call, unless they come packed
//   (tcc_conv2d_pack_weight, at compile time for constant weights).
// Each GEMM and each copy runs in parallel through tcc_parallel; NCHW
// images whose GEMMs are too small to split run one per thread.
//
//===----------------------------------------------------------------------===//

#include "MicroKernel.h"
#include "PackedB.h"
#include "Sgemm.h"
#include "Status.h"
#include "Winograd.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <new>

namespace tcc {
namespace runtime {
namespace kernels {
namespace {

struct ConvShape {
  int64_t batch, channels, height, width;
  int64_t out_channels, kh, kw, sh, sw, ph, pw, dh, dw, groups;
  int64_t out_h, out_w;
  int64_t icg, ocg; // channels per group
  int64_t k;        // GEMM depth: icg * kh * kw
  int64_t pixels;   // out_h * out_w
  bool nhwc;
};

enum class ConvPath { Pointwise, Depthwise, Winograd, Im2col };

ConvGeometry geometry(const ConvShape &s) {
  return {s.channels, s.height, s.width, s.out_w, s.kh, s.kw,
          s.sh,       s.sw,     s.ph,    s.pw,    s.dh, s.dw};
}

ConvPath choose_path(const ConvShape &s) {
  // Below 2^30 each, so neither this nor batch * tiles (< 32 * 2^31) below
  // overflows.
  const int64_t tiles = ((s.out_h + 1) / 2) * ((s.out_w + 1) / 2);
  if (s.kh == 1 && s.kw == 1 && s.sh == 1 && s.sw == 1 && s.ph == 0 &&
      s.pw == 0)
    return ConvPath::Pointwise;
  if (s.groups == s.channels && s.out_channels == s.channels &&
      s.kh * s.kw <= kMaxDepthwiseTaps)
    return ConvPath::Depthwise;
  if (s.nhwc && s.kh == 3 && s.kw == 3 && s.sh == 1 && s.sw == 1 && s.dh == 1 &&
      s.dw == 1 && s.groups == 1 && s.channels >= kWinogradMinChannels &&
      s.out_channels >= kWinogradMinChannels &&
      (tiles >= kWinogradMinTiles || s.batch * tiles >= kWinogradMinTiles))
    return ConvPath::Winograd;
  return ConvPath::Im2col;
}

WinogradShape winograd_shape(const ConvShape &s) {
  return {s.batch, s.channels, s.height, s.width, s.out_channels,
          s.ph,    s.pw,       s.out_h,  s.out_w};
}

// NHWC im2col writes the columns of this many images at once (one GEMM for
// all of them: small images still make a tall GEMM), within ~16 MiB.
int64_t nhwc_images_per_chunk(const ConvShape &s) {
  const int64_t budget = int64_t(1) << 22; // floats
  const int64_t per_image = std::max<int64_t>(1, s.pixels * s.k);
  return std::max<int64_t>(1, std::min(s.batch, budget / per_image));
}

// Whether the shape's GEMM takes the weights as B (NHWC, not depthwise),
// so that they can come packed.
bool takes_packed_weight(const ConvShape &s) {
  return s.nhwc && choose_path(s) != ConvPath::Depthwise;
}

// Bytes of one group's packed weights, then of all groups, or -1.
int64_t packed_group_bytes(const ConvShape &s) {
  int64_t floats = packed_b_floats(s.k, s.ocg);
  return floats < 0 ? -1 : int64_t(tcc_sgemm_packed_b_size(s.k, s.ocg));
}
int64_t packed_weight_bytes(const ConvShape &s) {
  if (choose_path(s) == ConvPath::Winograd)
    return winograd_packed_weight_bytes(winograd_shape(s));
  int64_t group = packed_group_bytes(s);
  return group < 0 ? -1 : checked_product({s.groups, group});
}

// Workspace bytes for a checked shape, or -1 when the size overflows.
int64_t workspace_bytes(const ConvShape &s, bool weight_packed) {
  switch (choose_path(s)) {
  case ConvPath::Pointwise:
    return 0;
  case ConvPath::Depthwise: // NHWC keeps the weights as [ky][kx][channel]
    return s.nhwc ? checked_product({s.kh, s.kw, s.channels, 4}) : 0;
  case ConvPath::Winograd:
    return winograd_workspace_bytes(winograd_shape(s), weight_packed);
  case ConvPath::Im2col:
    break;
  }
  if (!s.nhwc) // columns are packed on the fly by the GEMM
    return 0;
  int64_t weights = weight_packed ? 0 : packed_weight_bytes(s);
  int64_t columns =
      checked_product({nhwc_images_per_chunk(s), s.pixels, s.k, 4});
  if (weights < 0 || columns < 0 || weights > INT64_MAX / 2 - columns)
    return -1;
  return weights + round_up(columns, 64);
}

// Sizes, strides and layout: all that the workspace size depends on.
tcc_kernel_status check_shape(const tcc_conv2d_args *a, ConvShape *s) {
  if (!a)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "conv2d: args is NULL");
  if (a->layout != TCC_LAYOUT_NCHW && a->layout != TCC_LAYOUT_NHWC)
    return fail(TCC_KERNEL_INVALID_ARGUMENT, "conv2d: unknown layout %d",
                a->layout);
  if (tcc_kernel_status status =
          check_sizes("conv2d", {{"batch", a->batch, 0},
                                 {"in_channels", a->in_channels, 1},
                                 {"in_height", a->in_height, 1},
                                 {"in_width", a->in_width, 1},
                                 {"out_channels", a->out_channels, 1},
                                 {"kernel_height", a->kernel_height, 1},
                                 {"kernel_width", a->kernel_width, 1},
                                 {"stride_h", a->stride_h, 1},
                                 {"stride_w", a->stride_w, 1},
                                 {"pad_h", a->pad_h, 0},
                                 {"pad_w", a->pad_w, 0},
                                 {"dilation_h", a->dilation_h, 1},
                                 {"dilation_w", a->dilation_w, 1},
                                 {"groups", a->groups, 1}}))
    return status;
  if (a->in_channels % a->groups || a->out_channels % a->groups)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: in_channels (%lld) and out_channels (%lld) must be "
                "divisible by groups (%lld)",
                (long long)a->in_channels, (long long)a->out_channels,
                (long long)a->groups);
  s->batch = a->batch;
  s->channels = a->in_channels;
  s->height = a->in_height;
  s->width = a->in_width;
  s->out_channels = a->out_channels;
  s->kh = a->kernel_height;
  s->kw = a->kernel_width;
  s->sh = a->stride_h;
  s->sw = a->stride_w;
  s->ph = a->pad_h;
  s->pw = a->pad_w;
  s->dh = a->dilation_h;
  s->dw = a->dilation_w;
  s->groups = a->groups;
  s->nhwc = a->layout == TCC_LAYOUT_NHWC;
  s->icg = s->channels / s->groups;
  s->ocg = s->out_channels / s->groups;
  // Every size is below 2^31, so none of this overflows.
  int64_t span_h = s->dh * (s->kh - 1) + 1, span_w = s->dw * (s->kw - 1) + 1;
  int64_t padded_h = s->height + 2 * s->ph, padded_w = s->width + 2 * s->pw;
  if (padded_h < span_h || padded_w < span_w)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: the padded input (%lld x %lld) is smaller than the "
                "dilated kernel (%lld x %lld)",
                (long long)padded_h, (long long)padded_w, (long long)span_h,
                (long long)span_w);
  s->out_h = (padded_h - span_h) / s->sh + 1;
  s->out_w = (padded_w - span_w) / s->sw + 1;
  s->pixels = checked_product({s->out_h, s->out_w});
  s->k = checked_product({s->icg, s->kh, s->kw});
  int64_t input = checked_product({s->batch, s->channels, s->height, s->width});
  int64_t output = checked_product({s->batch, s->out_channels, s->pixels});
  int64_t weight = checked_product({s->out_channels, s->k});
  if (s->pixels < 0 || s->k < 0 || input < 0 || output < 0 || weight < 0 ||
      input > INT64_MAX / 8 || output > INT64_MAX / 8 ||
      weight > INT64_MAX / 8 || workspace_bytes(*s, false) < 0 ||
      packed_weight_bytes(*s) < 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: tensor sizes overflow 64-bit byte offsets");
  return TCC_KERNEL_OK;
}

tcc_kernel_status check_conv(const tcc_conv2d_args *a,
                             const tcc_parallel *parallel, ConvShape *s) {
  if (tcc_kernel_status st = check_shape(a, s))
    return st;
  if (parallel && (!parallel->parallel_for || parallel->num_threads < 1))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "tcc_parallel needs a parallel_for function and num_threads "
                ">= 1 (got %d)",
                parallel->num_threads);
  if (s->batch == 0)
    return TCC_KERNEL_OK;
  if (!a->input || (!a->weight && !a->packed_weight) || !a->output)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: input, weight and output must not be NULL");
  if (tcc_kernel_status st = check_epilogue(a->epilogue, 0, false))
    return st;
  const bool packed = a->packed_weight != nullptr;
  if (packed) {
    if (!takes_packed_weight(*s))
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "conv2d: this convolution takes no packed weights "
                  "(tcc_conv2d_packed_weight_size is 0)");
    if (reinterpret_cast<uintptr_t>(a->packed_weight) % 64 != 0)
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "conv2d: packed_weight must be 64-byte aligned");
    if (choose_path(*s) == ConvPath::Winograd) {
      if (tcc_kernel_status st = winograd_check_packed_weight(
              winograd_shape(*s), a->packed_weight))
        return st;
    } else {
      const int64_t stride = packed_group_bytes(*s);
      for (int64_t grp = 0; grp < s->groups; ++grp)
        if (tcc_kernel_status st = check_packed_b(
                static_cast<const char *>(a->packed_weight) + grp * stride,
                s->k, s->ocg))
          return st;
    }
  }
  if (workspace_bytes(*s, packed) > 0) {
    if (!a->workspace)
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "conv2d: workspace is NULL, needs %lld bytes "
                  "(tcc_conv2d_workspace_size)",
                  (long long)workspace_bytes(*s, packed));
    if (reinterpret_cast<uintptr_t>(a->workspace) % 64 != 0)
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "conv2d: workspace must be 64-byte aligned");
  }
  return TCC_KERNEL_OK;
}

// --- im2col ------------------------------------------------------------------

// The GEMM's B for one image and group of an NCHW input (icg x height x
// width): B(kk, p) = input[ic][iy][ix] for kk = (ic, ky, kx) and output pixel
// p = (oy, ox). Never stored whole: the GEMM asks for kc x 32 panels as it
// goes, so the columns are built in cache right before use.
struct ImplicitColumns {
  ConvGeometry geometry;
  const IsaKernels *isa;
  const float *input;
};

void pack_columns(const void *context, int64_t k0, int64_t kc, int64_t first,
                  int cols, float *dst) {
  const ImplicitColumns &c = *static_cast<const ImplicitColumns *>(context);
  c.isa->conv_columns(c.geometry, c.input, k0, kc, first, cols, dst);
}

// One image and group of an NHWC input as a pixels x k row-major matrix:
// row (oy, ox), column kk = (ky, kx, ic), matching OHWI weights.
struct Im2colNhwc {
  const ConvShape *s;
  const IsaKernels *isa;
  const float *input; // the first image, offset to the group's channels
  float *columns;
  int64_t rows; // images * pixels
  int64_t tasks;
};

// Rows [begin, end) of the columns, written from dst on.
void im2col_nhwc_rows(const Im2colNhwc &job, int64_t begin, int64_t end,
                      float *dst) {
  const ConvShape &s = *job.s;
  const int64_t image_floats = s.height * s.width * s.channels;
  if (s.groups == 1 && s.dw == 1) {
    // Each kernel row is one run of adjacent pixels' channels (7 copies
    // instead of 49 for a 7x7 kernel over RGB): the ISA's vector copies,
    // one call per image's stretch of rows.
    const ConvGeometry g = geometry(s);
    for (int64_t row = begin; row < end;) {
      const int64_t image = row / s.pixels, p = row % s.pixels;
      const int64_t count = std::min(end - row, s.pixels - p);
      job.isa->im2col_nhwc_pixels(g, job.input + image * image_floats, p,
                                  p + count, dst + (row - begin) * s.k);
      row += count;
    }
    return;
  }
  for (int64_t row = begin; row < end; ++row) {
    const int64_t image = row / s.pixels, p = row % s.pixels;
    const int64_t oy = p / s.out_w, ox = p % s.out_w;
    const float *input = job.input + image * image_floats;
    float *out = dst + (row - begin) * s.k;
    for (int64_t ky = 0; ky < s.kh; ++ky)
      for (int64_t kx = 0; kx < s.kw; ++kx, out += s.icg) {
        int64_t iy = oy * s.sh - s.ph + ky * s.dh;
        int64_t ix = ox * s.sw - s.pw + kx * s.dw;
        if (iy < 0 || iy >= s.height || ix < 0 || ix >= s.width)
          std::memset(out, 0, sizeof(float) * s.icg);
        else
          std::memcpy(out, input + (iy * s.width + ix) * s.channels,
                      sizeof(float) * s.icg);
      }
  }
}

void im2col_nhwc_task(void *arg, int64_t task) {
  const Im2colNhwc &job = *static_cast<const Im2colNhwc *>(arg);
  int64_t per = (job.rows + job.tasks - 1) / job.tasks;
  const int64_t begin = std::min(job.rows, task * per);
  im2col_nhwc_rows(job, begin, std::min(job.rows, begin + per),
                   job.columns + begin * job.s->k);
}

// Many rows of shallow columns (a stem such as ResNet's 7x7 over RGB, K =
// 147): each task writes a block of rows' columns and runs the GEMM over
// them at once, while they are in its L2, instead of writing all columns
// out to memory and reading them back. The block size depends only on the
// shape, so the bits do not depend on the thread count.
struct Im2colGemmBlocks {
  Im2colNhwc columns;
  const IsaKernels *isa;
  tcc_sgemm_args gemm; // over all rows; each block takes its own
  tcc_epilogue epilogue;
  int64_t block_rows;
  std::atomic<tcc_kernel_status> status{TCC_KERNEL_OK};
};

// Blocks of columns of about this many floats (256 KiB), in whole
// micro-panels and more rows than one block of A (at most 512 rows);
// blocked only when there are at least kMinIm2colBlocks of them, so that
// the threads stay balanced.
constexpr int64_t kIm2colBlockFloats = int64_t(1) << 16;
constexpr int64_t kMaxIm2colBlockRows = 512;
constexpr int64_t kMinIm2colBlocks = 16;

int64_t im2col_block_rows(const IsaKernels &isa, int64_t rows, int64_t k) {
  const int64_t block =
      round_up(std::clamp<int64_t>(kIm2colBlockFloats / std::max<int64_t>(k, 1),
                                   isa.mc + 1, kMaxIm2colBlockRows),
               isa.mr);
  return rows >= kMinIm2colBlocks * block ? block : 0;
}

// Each thread's columns for one block at a time, reused from block to
// block so that they stay in its L2. (A place of its own in the workspace
// for each block sends every line of a 7.4 MB stem's columns to memory and
// back: in ResNet-18 its stores then waited on memory.) Grown once per
// thread, freed at exit; without it, the workspace's place serves.
struct ThreadColumns {
  float *data = nullptr;
  size_t floats = 0;
  ~ThreadColumns() { ::operator delete(data, std::align_val_t(64)); }
  // Room for `want` floats, or null when it cannot be had.
  float *reserve(size_t want) {
    if (want <= floats)
      return data;
    ::operator delete(data, std::align_val_t(64));
    data = static_cast<float *>(::operator new(
        want * sizeof(float), std::align_val_t(64), std::nothrow));
    floats = data ? want : 0;
    return data;
  }
};
thread_local ThreadColumns tls_columns;

void im2col_gemm_block(void *arg, int64_t block) {
  Im2colGemmBlocks &job = *static_cast<Im2colGemmBlocks *>(arg);
  const int64_t begin = block * job.block_rows;
  const int64_t end = std::min(job.columns.rows, begin + job.block_rows);
  const int64_t k = job.columns.s->k;
  float *columns = tls_columns.reserve(size_t(job.block_rows * k));
  if (!columns)
    columns = job.columns.columns + begin * k;
  im2col_nhwc_rows(job.columns, begin, end, columns);
  tcc_sgemm_args g = job.gemm;
  tcc_epilogue e;
  if (g.epilogue) {
    e = job.epilogue;
    if (e.residual)
      e.residual += begin * e.ld_residual;
    g.epilogue = &e;
  }
  g.m = end - begin;
  g.a = columns;
  g.c += begin * g.ldc;
  if (tcc_kernel_status st = sgemm_with(*job.isa, &g, nullptr))
    job.status.store(st);
}

// --- the epilogue outside the GEMM (depthwise)
// ---------------------------------

struct Epilogue {
  float alpha = 1.0f, beta = 0.0f, clamp_min = 0.0f, clamp_max = 0.0f;
  const float *bias = nullptr, *residual = nullptr;
  int activation = TCC_ACTIVATION_NONE;

  explicit Epilogue(const tcc_epilogue *e) {
    if (!e)
      return;
    alpha = e->alpha;
    bias = e->bias;
    beta = e->beta;
    residual = e->beta != 0.0f ? e->residual : nullptr;
    activation = e->activation;
    clamp_min = e->clamp_min;
    clamp_max = e->clamp_max;
  }

  // out[i] = act(alpha * out[i] + bias[i * bias_step] + beta * res[i]);
  // bias_step 0 broadcasts one channel's bias.
  void apply(const IsaKernels &isa, float *out, int64_t count,
             const float *bias_at, int64_t bias_step,
             const float *residual_at) const {
    for (int64_t i = 0; i < count; ++i) {
      float x = alpha * out[i];
      if (bias)
        x += bias_at[i * bias_step];
      if (residual)
        x += beta * residual_at[i];
      out[i] = x;
    }
    if (activation != TCC_ACTIVATION_NONE)
      isa.activate(out, count, activation, clamp_min, clamp_max);
  }
};

// --- depthwise
// -------------------------------------------------------------------

struct Depthwise {
  const ConvShape *s;
  ConvGeometry shape;
  const IsaKernels *isa;
  const float *input, *weight; // NHWC: weight as [ky][kx][channel]
  float *output;
  Epilogue epilogue;
  int64_t channel_chunk; // NHWC: channels per work item
  int64_t tasks;
};

// One output plane (image, channel) of NCHW.
void depthwise_nchw_plane(const Depthwise &d, int64_t plane) {
  const ConvShape &s = *d.s;
  const int64_t ch = plane % s.channels;
  const float *in = d.input + plane * s.height * s.width;
  const float *w = d.weight + ch * s.kh * s.kw;
  const Epilogue &e = d.epilogue;
  for (int64_t oy = 0; oy < s.out_h; ++oy) {
    const int64_t offset = plane * s.pixels + oy * s.out_w;
    d.isa->depthwise_nchw_row(d.shape, in, w, oy, d.output + offset);
    e.apply(*d.isa, d.output + offset, s.out_w, e.bias ? e.bias + ch : nullptr,
            0, e.residual ? e.residual + offset : nullptr);
  }
}

// NHWC channels per work item: whole rows, unless the batch has too few
// rows to share among threads (7x7 outputs), then chunks of at least 64
// channels (a multiple of 16, the widest vector).
int64_t nhwc_channel_chunk(const ConvShape &s) {
  constexpr int64_t kMinItems = 32, kMinChunk = 64;
  const int64_t rows = s.batch * s.out_h;
  if (rows >= kMinItems || s.channels <= kMinChunk)
    return s.channels;
  const int64_t chunks = std::min((s.channels + kMinChunk - 1) / kMinChunk,
                                  (kMinItems + rows - 1) / rows);
  return round_up((s.channels + chunks - 1) / chunks, 16);
}

// Channels [chunk * channel_chunk, ...) of one output row (image, oy) of
// NHWC.
void depthwise_nhwc_item(const Depthwise &d, int64_t item) {
  const ConvShape &s = *d.s;
  const int64_t chunks = (s.channels + d.channel_chunk - 1) / d.channel_chunk;
  const int64_t image_row = item / chunks, chunk = item % chunks;
  const int64_t image = image_row / s.out_h, oy = image_row % s.out_h;
  const int64_t c0 = chunk * d.channel_chunk;
  const int64_t c1 = std::min(s.channels, c0 + d.channel_chunk);
  const int64_t offset = image_row * s.out_w * s.channels;
  const Epilogue &e = d.epilogue;
  const DepthwiseEpilogue de{e.alpha,      e.beta,      e.bias,
                             e.activation, e.clamp_min, e.clamp_max};
  d.isa->depthwise_nhwc_row(
      d.shape, d.input + image * s.height * s.width * s.channels, d.weight, oy,
      c0, c1, de, d.output + offset,
      e.residual ? e.residual + offset : nullptr);
}

int64_t depthwise_items(const Depthwise &d) {
  const ConvShape &s = *d.s;
  if (!s.nhwc)
    return s.batch * s.channels;
  return s.batch * s.out_h *
         ((s.channels + d.channel_chunk - 1) / d.channel_chunk);
}

void depthwise_task(void *arg, int64_t task) {
  const Depthwise &d = *static_cast<const Depthwise *>(arg);
  int64_t items = depthwise_items(d);
  int64_t per = (items + d.tasks - 1) / d.tasks;
  int64_t end = std::min(items, (task + 1) * per);
  for (int64_t i = task * per; i < end; ++i)
    d.s->nhwc ? depthwise_nhwc_item(d, i) : depthwise_nchw_plane(d, i);
}

// --- the GEMM paths
// ----------------------------------------------------------------

// The user's epilogue with bias and residual moved to one GEMM's origin.
tcc_epilogue shifted_epilogue(const tcc_epilogue *e, int64_t bias_offset,
                              bool bias_per_row, int64_t residual_offset,
                              int64_t ld_residual) {
  tcc_epilogue out = *e;
  out.bias = e->bias ? e->bias + bias_offset : nullptr;
  out.bias_per_row = bias_per_row;
  out.residual = e->residual ? e->residual + residual_offset : nullptr;
  out.ld_residual = ld_residual;
  return out;
}

// The NCHW GEMM of one (image, group) item.
struct NchwGemms {
  const tcc_conv2d_args *a;
  const ConvShape *s;
  const IsaKernels *isa;
  ConvPath path;
  const tcc_parallel *parallel; // null when items run in parallel
  std::atomic<tcc_kernel_status> status{TCC_KERNEL_OK};
};

tcc_kernel_status nchw_gemm(const NchwGemms &job, int64_t item) {
  const ConvShape &s = *job.s;
  const int64_t image = item / s.groups, grp = item % s.groups;
  const float *input = job.a->input + image * s.channels * s.height * s.width +
                       grp * s.icg * s.height * s.width;
  const int64_t out_offset =
      image * s.out_channels * s.pixels + grp * s.ocg * s.pixels;
  tcc_sgemm_args g{};
  tcc_epilogue epilogue;
  if (job.a->epilogue) {
    epilogue = shifted_epilogue(job.a->epilogue, grp * s.ocg, true, out_offset,
                                s.pixels);
    g.epilogue = &epilogue;
  }
  g.m = s.ocg;
  g.n = s.pixels;
  g.k = s.k;
  g.a = job.a->weight + grp * s.ocg * s.k;
  g.lda = s.k;
  g.c = job.a->output + out_offset;
  g.ldc = s.pixels;
  g.b = input;
  g.ldb = s.pixels;
  ImplicitColumns columns{geometry(s), job.isa, input};
  BPanelSource source{pack_columns, &columns};
  return sgemm_with(*job.isa, &g, job.parallel,
                    job.path == ConvPath::Pointwise ? nullptr : &source);
}

void nchw_gemm_task(void *arg, int64_t item) {
  NchwGemms &job = *static_cast<NchwGemms *>(arg);
  tcc_kernel_status st = nchw_gemm(job, item);
  if (st != TCC_KERNEL_OK)
    job.status.store(st);
}

tcc_kernel_status gemm_conv(const tcc_conv2d_args *a, const ConvShape &s,
                            ConvPath path, const tcc_parallel *parallel) {
  const IsaKernels &isa = active_kernels();
  const tcc_epilogue *user = a->epilogue;
  tcc_epilogue epilogue;
  tcc_sgemm_args g{};
  g.epilogue = user ? &epilogue : nullptr;
  const int64_t image_in = s.channels * s.height * s.width;
  const int64_t image_out = s.out_channels * s.pixels;
  char *workspace = static_cast<char *>(a->workspace);

  if (s.nhwc) {
    // Im2col's workspace: each group's packed weights (unless they come
    // packed), then the columns.
    const int64_t packed_stride = packed_group_bytes(s);
    const char *packed = static_cast<const char *>(a->packed_weight);
    float *columns = nullptr;
    if (path == ConvPath::Im2col) {
      columns = reinterpret_cast<float *>(
          workspace + (packed ? 0 : s.groups * packed_stride));
      if (!packed) {
        for (int64_t grp = 0; grp < s.groups; ++grp) // once per call
          if (tcc_kernel_status st =
                  tcc_sgemm_pack_b(s.k, s.ocg, a->weight + grp * s.ocg * s.k,
                                   s.k, 1, workspace + grp * packed_stride))
            return st;
        packed = workspace;
      }
    }
    // Pointwise runs the whole batch as one GEMM per group, im2col a chunk
    // of images at a time.
    const int64_t chunk =
        path == ConvPath::Pointwise ? s.batch : nhwc_images_per_chunk(s);
    for (int64_t image = 0; image < s.batch; image += chunk)
      for (int64_t grp = 0; grp < s.groups; ++grp) {
        const int64_t images = std::min(chunk, s.batch - image);
        const int64_t out_offset = image * image_out + grp * s.ocg;
        g.n = s.ocg;
        g.k = s.k;
        g.c = a->output + out_offset;
        g.ldc = s.out_channels;
        if (path == ConvPath::Pointwise) {
          g.m = s.batch * s.pixels;
          g.a = a->input + grp * s.icg;
          g.lda = s.channels;
          if (packed) {
            g.packed_b = packed + grp * packed_stride;
          } else {
            g.b = a->weight + grp * s.ocg * s.icg;
            g.ldb = s.icg;
            g.trans_b = 1;
          }
        } else {
          Im2colNhwc job{
              &s, &isa, a->input + image * image_in + grp * s.icg, columns,
              images * s.pixels,
              task_count(parallel, images * s.pixels, images * s.pixels * s.k)};
          g.m = images * s.pixels;
          g.a = columns;
          g.lda = s.k;
          g.packed_b = packed + grp * packed_stride;
          if (user)
            epilogue = shifted_epilogue(user, grp * s.ocg, false, out_offset,
                                        s.out_channels);
          if (int64_t block = im2col_block_rows(isa, g.m, s.k)) {
            Im2colGemmBlocks blocks{job, &isa, g, epilogue, block};
            parallel_run(parallel, ceil_div(g.m, block), im2col_gemm_block,
                         &blocks);
            if (tcc_kernel_status st = blocks.status.load())
              return st;
            continue;
          }
          parallel_run(parallel, job.tasks, im2col_nhwc_task, &job);
        }
        if (user)
          epilogue = shifted_epilogue(user, grp * s.ocg, false, out_offset,
                                      s.out_channels);
        if (tcc_kernel_status st = sgemm_with(isa, &g, parallel))
          return st;
      }
    return TCC_KERNEL_OK;
  }

  // NCHW: out (ocg x pixels) = W (ocg x k) x columns (k x pixels), one GEMM
  // per image and group. When each is too small to split across threads
  // (small images, training batches), the threads take whole GEMMs instead.
  NchwGemms job{a, &s, &isa, path, nullptr};
  const int64_t items = s.batch * s.groups;
  const int threads = parallel ? parallel->num_threads : 1;
  if (threads > 1 && items > 1 &&
      s.ocg * s.pixels * std::max<int64_t>(s.k, 1) < kMinParallelWork) {
    job.status.store(TCC_KERNEL_OK);
    parallel_run(parallel, items, nchw_gemm_task, &job);
    return job.status.load();
  }
  job.parallel = parallel;
  for (int64_t item = 0; item < items; ++item)
    if (tcc_kernel_status st = nchw_gemm(job, item))
      return st;
  return TCC_KERNEL_OK;
}

} // namespace
} // namespace kernels
} // namespace runtime
} // namespace tcc

using namespace tcc::runtime::kernels;

extern "C" size_t tcc_conv2d_workspace_size(const tcc_conv2d_args *args,
                                            const tcc_parallel *parallel) {
  ConvShape s;
  if (check_shape(args, &s) != TCC_KERNEL_OK)
    return 0;
  (void)parallel; // the workspace does not grow with the thread count
  return size_t(workspace_bytes(s, args->packed_weight != nullptr));
}

extern "C" size_t tcc_conv2d_packed_weight_size(const tcc_conv2d_args *args) {
  ConvShape s;
  if (check_shape(args, &s) != TCC_KERNEL_OK || !takes_packed_weight(s))
    return 0;
  return size_t(packed_weight_bytes(s));
}

extern "C" tcc_kernel_status tcc_conv2d_pack_weight(const tcc_conv2d_args *args,
                                                    void *packed) {
  ConvShape s;
  if (tcc_kernel_status st = check_shape(args, &s))
    return st;
  if (!takes_packed_weight(s))
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: only NHWC convolutions other than depthwise take "
                "packed weights");
  if (!args->weight || !packed)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: weight and packed must not be NULL");
  if (reinterpret_cast<uintptr_t>(packed) % 64 != 0)
    return fail(TCC_KERNEL_INVALID_ARGUMENT,
                "conv2d: packed must be 64-byte aligned");
  if (choose_path(s) == ConvPath::Winograd)
    return winograd_pack_weight(winograd_shape(s), args->weight, packed,
                                nullptr);
  const int64_t stride = packed_group_bytes(s);
  for (int64_t grp = 0; grp < s.groups; ++grp)
    if (tcc_kernel_status st =
            tcc_sgemm_pack_b(s.k, s.ocg, args->weight + grp * s.ocg * s.k, s.k,
                             1, static_cast<char *>(packed) + grp * stride))
      return st;
  return TCC_KERNEL_OK;
}

extern "C" tcc_kernel_status tcc_conv2d(const tcc_conv2d_args *args,
                                        const tcc_parallel *parallel) {
  ConvShape s;
  if (tcc_kernel_status st = check_conv(args, parallel, &s))
    return st;
  if (s.batch == 0)
    return TCC_KERNEL_OK;
  ConvPath path = choose_path(s);
  if (path == ConvPath::Winograd)
    return winograd_conv(winograd_shape(s), *args, parallel);
  if (path != ConvPath::Depthwise)
    return gemm_conv(args, s, path, parallel);

  Depthwise d{&s,
              geometry(s),
              &active_kernels(),
              args->input,
              args->weight,
              args->output,
              Epilogue(args->epilogue),
              nhwc_channel_chunk(s),
              0};
  if (s.nhwc) { // weights [channel][ky][kx] -> [ky][kx][channel]
    float *w = static_cast<float *>(args->workspace);
    for (int64_t c = 0; c < s.channels; ++c)
      for (int64_t i = 0; i < s.kh * s.kw; ++i)
        w[i * s.channels + c] = args->weight[c * s.kh * s.kw + i];
    d.weight = w;
  }
  d.tasks = task_count(parallel, depthwise_items(d),
                       s.batch * s.channels * s.pixels * s.kh * s.kw);
  parallel_run(parallel, d.tasks, depthwise_task, &d);
  return TCC_KERNEL_OK;
}
