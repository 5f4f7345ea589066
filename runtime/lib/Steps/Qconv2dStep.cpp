//===- Qconv2dStep.cpp - quantized convolution through tcc_qconv2d --------===//
//
// One group through tcc_qconv2d (weights packed at compile time), depthwise
// through tcc_qdepthwise_conv2d. The kernels read and write NHWC; a step
// whose input or output is stored NCHW (the dialect's tcc.conv2d_integer
// is NCHW) converts it through the session's workspace: the input and the
// residual to NHWC before the kernel, the result back after it.
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "QEpilogue.h"
#include "StepKind.h"

#include "../Artifact/Checks.h"
#include "../Artifact/StepChecks.h"
#include "../Executor/Model.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/kernels_int8.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;

int64_t outputSize(int64_t in, int64_t pad, int64_t dilation, int64_t kernel,
                   int64_t stride) {
  return (in + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
}

int64_t outHeight(const Qconv2d &c) {
  return outputSize(c.in_height(), c.pad_h(), c.dilation_h(), c.kernel_height(),
                    c.stride_h());
}
int64_t outWidth(const Qconv2d &c) {
  return outputSize(c.in_width(), c.pad_w(), c.dilation_w(), c.kernel_width(),
                    c.stride_w());
}

uint64_t roundUp(uint64_t bytes) {
  return (bytes + kArtifactAlignment - 1) / kArtifactAlignment *
         kArtifactAlignment;
}

// Workspace bytes of a step with NCHW tensors: the input, the residual
// and the output in NHWC where they are stored NCHW, each aligned.
struct NchwWorkspace {
  uint64_t input = 0, residual = 0, output = 0, total = 0;
};
NchwWorkspace nchwWorkspace(const Qconv2d &c) {
  NchwWorkspace w;
  uint64_t inputElems = uint64_t(c.batch() * c.in_channels() * c.in_height() *
                                 c.in_width());
  uint64_t outputElems =
      uint64_t(c.batch() * c.out_channels() * outHeight(c) * outWidth(c));
  bool residual = c.epilogue() && c.epilogue()->residual() >= 0;
  w.input = 0;
  w.residual = c.nchw_input() ? roundUp(inputElems) : 0;
  w.output =
      w.residual + (c.nchw_residual() && residual ? roundUp(outputElems) : 0);
  w.total = w.output + (c.nchw_output()
                            ? roundUp(outputElems * qoutputBytes(c.epilogue()))
                            : 0);
  return w;
}

Status validate(const StepChecker &check, const Step &step,
                const std::string &where) {
  const Qconv2d &c = *step.op_as_Qconv2d();
  for (int64_t v : {c.batch(), c.in_channels(), c.in_height(), c.in_width(),
                    c.out_channels(), c.kernel_height(), c.kernel_width(),
                    c.stride_h(), c.stride_w(), c.dilation_h(), c.dilation_w()})
    if (v < 1)
      return corrupt(where, ": a size, stride or dilation is less than 1");
  if (c.pad_h() < 0 || c.pad_w() < 0)
    return corrupt(where, ": negative padding");
  if (c.depthwise() && c.in_channels() != c.out_channels())
    return corrupt(where, ": a depthwise convolution maps ", c.in_channels(),
                   " channels to ", c.out_channels());
  const int64_t in[2] = {c.in_height(), c.in_width()};
  const int64_t pad[2] = {c.pad_h(), c.pad_w()};
  const int64_t dil[2] = {c.dilation_h(), c.dilation_w()};
  const int64_t ker[2] = {c.kernel_height(), c.kernel_width()};
  for (int d = 0; d < 2; ++d) {
    uint64_t padded, effective;
    if (!checkedMul(uint64_t(pad[d]), 2, &padded) ||
        !checkedAdd(padded, uint64_t(in[d]), &padded) ||
        !checkedMul(uint64_t(dil[d]), uint64_t(ker[d] - 1), &effective) ||
        padded > uint64_t(INT64_MAX) / 2 || effective >= uint64_t(INT64_MAX))
      return corrupt(where, ": spatial sizes overflow");
    if (effective + 1 > padded)
      return corrupt(where, ": the dilated kernel (", effective + 1,
                     ") is larger than the padded input (", padded, ")");
  }
  int32_t zpLo = c.input_signed() ? -128 : 0;
  int32_t zpHi = c.input_signed() ? 127 : 255;
  if (c.input_zero_point() < zpLo || c.input_zero_point() > zpHi)
    return corrupt(where, ": input zero point ", c.input_zero_point(),
                   " is outside the input's range [", zpLo, ", ", zpHi, "]");
  uint64_t inputElems = 0, outputElems = 0, patch = 0;
  TCC_RETURN_IF_ERROR(checkedProduct(
      {c.batch(), c.in_channels(), c.in_height(), c.in_width(), 4}, where,
      &inputElems));
  inputElems /= 4;
  TCC_RETURN_IF_ERROR(checkedProduct(
      {c.batch(), c.out_channels(), outHeight(c), outWidth(c), 4}, where,
      &outputElems));
  outputElems /= 4;
  TCC_RETURN_IF_ERROR(
      checkedProduct({c.kernel_height(), c.kernel_width(),
                      c.depthwise() ? c.out_channels() : c.in_channels()},
                     where, &patch));

  const Buffer *input = nullptr, *weight = nullptr, *output = nullptr;
  TCC_RETURN_IF_ERROR(check.buffer(c.input(), where + ": input", &input));
  TCC_RETURN_IF_ERROR(check.buffer(c.weight(), where + ": weight", &weight));
  TCC_RETURN_IF_ERROR(check.buffer(c.output(), where + ": output", &output));
  TCC_RETURN_IF_ERROR(check.requireDType(
      input, c.input_signed() ? DType::I8 : DType::U8, where + ": input"));
  TCC_RETURN_IF_ERROR(
      check.requireElements(input, inputElems, where + ": input"));
  if (c.depthwise()) {
    // The int8 weight's bytes, derived at compile time like packed ones.
    TCC_RETURN_IF_ERROR(
        check.requireDType(weight, DType::U8, where + ": weight"));
    TCC_RETURN_IF_ERROR(
        check.requireElements(weight, patch, where + ": weight"));
  } else {
    if (patch > uint64_t(TCC_INT8_MAX_K))
      return corrupt(where, ": a patch of ", patch,
                     " values exceeds the int8 kernels' ", TCC_INT8_MAX_K);
    TCC_RETURN_IF_ERROR(check.requirePackedQB(
        weight, int64_t(patch), c.out_channels(), where + ": packed weight"));
  }
  TCC_RETURN_IF_ERROR(check.requireWritable(output, where + ": output"));
  TCC_RETURN_IF_ERROR(check.checkQEpilogue(
      c.epilogue(), c.out_channels(), output, c.output(), outputElems, where));
  TCC_RETURN_IF_ERROR(
      check.requireElements(output, outputElems, where + ": output"));
  TCC_RETURN_IF_ERROR(
      check.requireDisjoint(output, input, where + ": output and input"));
  return check.requireDisjoint(output, weight, where + ": output and weight");
}

void prepare(tcc_session_s &session, const Step &step, uint32_t index) {
  NchwWorkspace w = nchwWorkspace(*step.op_as_Qconv2d());
  if (w.total == 0)
    return;
  session.useSessionWorkspace[index] = true;
  session.workspaceBytes = std::max<size_t>(session.workspaceBytes, w.total);
}

// dst[b][y][x][c] = src[b][c][y][x] (toNhwc) or the inverse, for pixels
// [p0, p1) of every image, in tiles of 16 channels x 64 pixels so that
// both sides stay in cache lines.
template <typename T>
void convertPixels(const void *source, void *destination, int64_t batch,
                   int64_t channels, int64_t pixels, bool toNhwc, int64_t p0,
                   int64_t p1) {
  constexpr int64_t kChannels = 16, kPixels = 64;
  const T *src = static_cast<const T *>(source);
  T *dst = static_cast<T *>(destination);
  for (int64_t b = 0; b < batch; ++b) {
    const int64_t base = b * channels * pixels;
    for (int64_t c0 = 0; c0 < channels; c0 += kChannels)
      for (int64_t q0 = p0; q0 < p1; q0 += kPixels) {
        const int64_t c1 = std::min(channels, c0 + kChannels),
                      q1 = std::min(p1, q0 + kPixels);
        if (toNhwc) {
          for (int64_t p = q0; p < q1; ++p)
            for (int64_t c = c0; c < c1; ++c)
              dst[base + p * channels + c] = src[base + c * pixels + p];
        } else {
          for (int64_t c = c0; c < c1; ++c)
            for (int64_t p = q0; p < q1; ++p)
              dst[base + c * pixels + p] = src[base + p * channels + c];
        }
      }
  }
}

struct Conversion {
  const void *src;
  void *dst;
  int64_t batch, channels, pixels, pixelsPerTask;
  size_t bytes;
  bool toNhwc;
};

void convertTask(void *arg, int64_t task) {
  const Conversion &c = *static_cast<const Conversion *>(arg);
  const int64_t p0 = task * c.pixelsPerTask,
                p1 = std::min(c.pixels, p0 + c.pixelsPerTask);
  if (c.bytes == 1)
    convertPixels<uint8_t>(c.src, c.dst, c.batch, c.channels, c.pixels,
                           c.toNhwc, p0, p1);
  else
    convertPixels<uint32_t>(c.src, c.dst, c.batch, c.channels, c.pixels,
                            c.toNhwc, p0, p1);
}

// The conversion split by pixels over the session's threads, each task
// at least kConversionTaskBytes: where the model's input enters a chain
// of int8 convolutions (ResNet's stem) nothing else runs beside it.
constexpr int64_t kConversionTaskBytes = int64_t(16) << 10;
void convertLayout(const void *src, void *dst, int64_t batch, int64_t channels,
                   int64_t pixels, size_t bytes, bool toNhwc,
                   const tcc_parallel *parallel) {
  const int64_t total = batch * channels * pixels * int64_t(bytes);
  const int64_t tasks = std::max<int64_t>(
      1, parallel ? std::min<int64_t>(parallel->num_threads,
                                      total / kConversionTaskBytes)
                  : 1);
  const int64_t pixelsPerTask = (pixels + tasks - 1) / tasks;
  Conversion c{src, dst, batch, channels, pixels, pixelsPerTask, bytes, toNhwc};
  if (tasks == 1)
    convertTask(&c, 0);
  else
    parallel->parallel_for(parallel->pool, tasks, convertTask, &c);
}

Status run(tcc_session_s &session, const Step &step, uint32_t index) {
  const Qconv2d *c = step.op_as_Qconv2d();
  uint8_t *const *addr = session.bufferAddresses.data();
  const void *input = addr[c->input()];
  void *output = addr[c->output()];
  const QEpilogue *e = c->epilogue();
  const void *residual =
      e && e->residual() >= 0 ? addr[e->residual()] : nullptr;
  const int64_t inPixels = c->in_height() * c->in_width();
  const int64_t outPixels = outHeight(*c) * outWidth(*c);
  const size_t outBytes = qoutputBytes(e);
  NchwWorkspace w = nchwWorkspace(*c);
  uint8_t *ws = session.workspace;
  if (c->nchw_input()) {
    convertLayout(input, ws + w.input, c->batch(), c->in_channels(), inPixels,
                  1, true, session.parallelOrNull());
    input = ws + w.input;
  }
  if (residual && c->nchw_residual()) {
    convertLayout(residual, ws + w.residual, c->batch(), c->out_channels(),
                  outPixels, 1, true, session.parallelOrNull());
    residual = ws + w.residual;
  }
  if (c->nchw_output())
    output = ws + w.output;
  tcc_qepilogue epilogue;
  const tcc_qepilogue *ep = nullptr;
  if (e) {
    epilogue = toQEpilogue(*e, addr, residual, 0);
    ep = &epilogue;
  }
  // The fields the two kernels' arguments share, named alike in both.
  auto fillCommon = [&](auto &args) {
    args.batch = c->batch();
    args.in_height = c->in_height();
    args.in_width = c->in_width();
    args.kernel_height = c->kernel_height();
    args.kernel_width = c->kernel_width();
    args.stride_h = c->stride_h();
    args.stride_w = c->stride_w();
    args.pad_h = c->pad_h();
    args.pad_w = c->pad_w();
    args.dilation_h = c->dilation_h();
    args.dilation_w = c->dilation_w();
    args.input = input;
    args.input_signed = c->input_signed();
    args.input_zero_point = c->input_zero_point();
    args.output = output;
    args.epilogue = ep;
  };
  tcc_kernel_status s;
  const char *function;
  if (c->depthwise()) {
    tcc_qdepthwise_args args{};
    fillCommon(args);
    args.channels = c->in_channels();
    args.weight = reinterpret_cast<const int8_t *>(addr[c->weight()]);
    function = "tcc_qdepthwise_conv2d";
    s = tcc_qdepthwise_conv2d(&args, session.parallelOrNull());
  } else {
    tcc_qconv2d_args args{};
    fillCommon(args);
    args.in_channels = c->in_channels();
    args.out_channels = c->out_channels();
    args.packed_weight = addr[c->weight()];
    function = "tcc_qconv2d";
    s = tcc_qconv2d(&args, session.parallelOrNull());
  }
  if (s != TCC_KERNEL_OK)
    return libraryCallFailed(index, function, s);
  if (c->nchw_output())
    convertLayout(output, addr[c->output()], c->batch(), c->out_channels(),
                  outPixels, outBytes, false, session.parallelOrNull());
  return Status();
}

void describe(const Model &, const Step &step, StepDescription *out) {
  const Qconv2d *c = step.op_as_Qconv2d();
  out->role = "qconv2d library call";
  char buf[320];
  std::snprintf(
      buf, sizeof(buf),
      "qconv2d%s %s->%s %lldx%lldx%lldx%lld -> %lld channels, kernel "
      "%lldx%lld, stride %lldx%lld, pad %lldx%lld, %s input -> %s",
      c->depthwise() ? " depthwise" : "", c->nchw_input() ? "NCHW" : "NHWC",
      c->nchw_output() ? "NCHW" : "NHWC",
      (long long)c->batch(), (long long)c->in_channels(),
      (long long)c->in_height(), (long long)c->in_width(),
      (long long)c->out_channels(), (long long)c->kernel_height(),
      (long long)c->kernel_width(), (long long)c->stride_h(),
      (long long)c->stride_w(), (long long)c->pad_h(), (long long)c->pad_w(),
      c->input_signed() ? "s8" : "u8",
      describeQEpilogue(c->epilogue()).c_str());
  out->summary = buf;
  out->fields.push_back(
      StepField::string("input_layout", c->nchw_input() ? "nchw" : "nhwc"));
  out->fields.push_back(
      StepField::string("output_layout", c->nchw_output() ? "nchw" : "nhwc"));
  if (c->epilogue() && c->epilogue()->residual() >= 0)
    out->fields.push_back(StepField::string(
        "residual_layout", c->nchw_residual() ? "nchw" : "nhwc"));
  for (auto [k, v] :
       {std::pair("batch", c->batch()),
        std::pair("in_channels", c->in_channels()),
        std::pair("out_channels", c->out_channels()),
        std::pair("kernel_height", c->kernel_height()),
        std::pair("kernel_width", c->kernel_width()),
        std::pair("input_zero_point", int64_t(c->input_zero_point()))})
    out->fields.push_back(StepField::integer(k, v));
  out->fields.push_back(StepField::boolean("depthwise", c->depthwise()));
  out->fields.push_back(
      StepField::string("output", describeQEpilogue(c->epilogue())));
  out->flops = 2.0 * double(c->batch()) * double(c->out_channels()) *
               double(outHeight(*c)) * double(outWidth(*c)) *
               double(c->depthwise() ? 1 : c->in_channels()) *
               double(c->kernel_height()) * double(c->kernel_width());
}

void buffers(const Step &step, std::vector<uint32_t> *out) {
  const Qconv2d *c = step.op_as_Qconv2d();
  out->insert(out->end(), {c->input(), c->weight(), c->output()});
  appendEpilogueBuffers(c->epilogue(), out);
}

} // namespace

extern const StepKind kQconv2dStep = {
    "qconv2d", Op::Qconv2d, validate, nullptr, prepare, run, describe, buffers};

} // namespace detail
} // namespace runtime
} // namespace tcc
