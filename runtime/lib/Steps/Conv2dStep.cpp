//===- Conv2dStep.cpp - fp32 convolution through tcc_conv2d ---------------===//

#include "Epilogue.h"
#include "StepKind.h"

#include "../Artifact/Checks.h"
#include "../Artifact/Conv2dArgs.h"
#include "../Artifact/StepChecks.h"
#include "../Executor/Model.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <cstdio>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;

Status validate(const StepChecker &check, const Step &step,
                const std::string &where) {
  const Conv2d &c = *step.op_as_Conv2d();
  for (int64_t v :
       {c.batch(), c.in_channels(), c.in_height(), c.in_width(),
        c.out_channels(), c.kernel_height(), c.kernel_width(), c.stride_h(),
        c.stride_w(), c.dilation_h(), c.dilation_w(), c.groups()})
    if (v < 1)
      return corrupt(where, ": a size, stride, dilation or group count is "
                            "less than 1");
  if (c.pad_h() < 0 || c.pad_w() < 0)
    return corrupt(where, ": negative padding");
  if (c.in_channels() % c.groups() != 0 || c.out_channels() % c.groups() != 0)
    return corrupt(where, ": channels ", c.in_channels(), "->",
                   c.out_channels(), " are not divisible by groups ",
                   c.groups());
  int64_t outSize[2];
  const int64_t in[2] = {c.in_height(), c.in_width()};
  const int64_t pad[2] = {c.pad_h(), c.pad_w()};
  const int64_t dil[2] = {c.dilation_h(), c.dilation_w()};
  const int64_t ker[2] = {c.kernel_height(), c.kernel_width()};
  const int64_t stride[2] = {c.stride_h(), c.stride_w()};
  for (int d = 0; d < 2; ++d) {
    uint64_t padded, effective;
    if (!checkedMul(uint64_t(pad[d]), 2, &padded) ||
        !checkedAdd(padded, uint64_t(in[d]), &padded) ||
        !checkedMul(uint64_t(dil[d]), uint64_t(ker[d] - 1), &effective) ||
        padded > uint64_t(INT64_MAX) || effective >= uint64_t(INT64_MAX))
      return corrupt(where, ": spatial sizes overflow");
    effective += 1;
    if (effective > padded)
      return corrupt(where, ": the dilated kernel (", effective,
                     ") is larger than the padded input (", padded, ")");
    outSize[d] = int64_t((padded - effective) / uint64_t(stride[d]) + 1);
  }
  uint64_t inputElems = 0, weightElems = 0, outputElems = 0;
  TCC_RETURN_IF_ERROR(checkedProduct(
      {c.batch(), c.in_channels(), c.in_height(), c.in_width()}, where,
      &inputElems));
  TCC_RETURN_IF_ERROR(
      checkedProduct({c.out_channels(), c.in_channels() / c.groups(),
                      c.kernel_height(), c.kernel_width()},
                     where, &weightElems));
  TCC_RETURN_IF_ERROR(
      checkedProduct({c.batch(), c.out_channels(), outSize[0], outSize[1]},
                     where, &outputElems));

  const Buffer *input = nullptr, *weight = nullptr, *output = nullptr;
  TCC_RETURN_IF_ERROR(check.buffer(c.input(), where + ": input", &input));
  TCC_RETURN_IF_ERROR(check.buffer(c.weight(), where + ": weight", &weight));
  TCC_RETURN_IF_ERROR(check.buffer(c.output(), where + ": output", &output));
  TCC_RETURN_IF_ERROR(check.requireDType(input, DType::F32, where + ": input"));
  TCC_RETURN_IF_ERROR(check.requireDType(output, DType::F32, where + ": output"));
  TCC_RETURN_IF_ERROR(check.requireWritable(output, where + ": output"));
  TCC_RETURN_IF_ERROR(check.requireElements(input, inputElems, where + ": input"));
  if (c.weight_packed()) {
    std::string what = where + ": packed weight";
    TCC_RETURN_IF_ERROR(check.requireDType(weight, DType::U8, what));
    if (weight->storage() != Storage::Constant)
      return corrupt(what, ": must be a constant");
    if (weight->offset() % kArtifactAlignment != 0)
      return corrupt(what, ": offset must be a multiple of ",
                     kArtifactAlignment);
    tcc_conv2d_args args = conv2dArgs(c);
    uint64_t packed = tcc_conv2d_packed_weight_size(&args);
    if (packed == 0)
      return corrupt(what, ": this convolution takes no packed weights");
    TCC_RETURN_IF_ERROR(check.requireElements(weight, packed, what));
  } else {
    TCC_RETURN_IF_ERROR(check.requireDType(weight, DType::F32, where + ": weight"));
    TCC_RETURN_IF_ERROR(
        check.requireElements(weight, weightElems, where + ": weight"));
  }
  TCC_RETURN_IF_ERROR(
      check.requireElements(output, outputElems, where + ": output"));
  TCC_RETURN_IF_ERROR(
      check.requireDisjoint(output, input, where + ": output and input"));
  TCC_RETURN_IF_ERROR(
      check.requireDisjoint(output, weight, where + ": output and weight"));
  if (c.workspace() != -1) {
    const Buffer *w = nullptr;
    TCC_RETURN_IF_ERROR(check.buffer(c.workspace(), where + ": workspace", &w));
    if (w->storage() != Storage::Arena)
      return corrupt(where, ": workspace is not in the arena");
    if (w->offset() % kArtifactAlignment != 0)
      return corrupt(where, ": workspace offset is not a multiple of ",
                     kArtifactAlignment);
    for (auto [other, name] : {std::pair(input, ": workspace and input"),
                               std::pair(weight, ": workspace and weight"),
                               std::pair(output, ": workspace and output")})
      TCC_RETURN_IF_ERROR(check.requireDisjoint(w, other, where + name));
  }
  return check.checkEpilogue(c.epilogue(), uint64_t(c.out_channels()), outputElems,
                       where);
}

// A conv2d's workspace need depends on the thread count, known only when a
// session is created: a plan's workspace too small for this pool is
// replaced by the session's own.
void prepare(tcc_session_s &session, const Step &step, uint32_t index) {
  const Conv2d *c = step.op_as_Conv2d();
  const Model &m = session.model->header();
  tcc_conv2d_args args = conv2dArgs(*c);
  // Packed weights are constants (validated): their address is known.
  if (c->weight_packed())
    args.packed_weight = session.model->artifact->constants() +
                         m.buffers()->Get(c->weight())->offset();
  size_t need = tcc_conv2d_workspace_size(&args, session.parallelOrNull());
  uint64_t have =
      c->workspace() >= 0 ? m.buffers()->Get(c->workspace())->byte_size() : 0;
  if (need > have) {
    session.useSessionWorkspace[index] = true;
    session.workspaceBytes = std::max(session.workspaceBytes, need);
  }
}

Status run(tcc_session_s &session, const Step &step, uint32_t index) {
  const Conv2d *c = step.op_as_Conv2d();
  uint8_t *const *addr = session.bufferAddresses.data();
  tcc_conv2d_args args = conv2dArgs(*c);
  args.input = reinterpret_cast<const float *>(addr[c->input()]);
  if (c->weight_packed())
    args.packed_weight = addr[c->weight()];
  else
    args.weight = reinterpret_cast<const float *>(addr[c->weight()]);
  args.output = reinterpret_cast<float *>(addr[c->output()]);
  args.workspace = session.useSessionWorkspace[index] ? session.workspace
                   : c->workspace() >= 0 ? addr[c->workspace()]
                                         : nullptr;
  tcc_epilogue epilogue;
  if (const Epilogue *e = c->epilogue()) {
    const float *residual =
        e->residual() >= 0
            ? reinterpret_cast<const float *>(addr[e->residual()])
            : nullptr;
    // tcc_conv2d reads the residual in the output's layout (no stride).
    epilogue = toEpilogue(e, addr, residual, 0);
    args.epilogue = &epilogue;
  }
  tcc_kernel_status s = tcc_conv2d(&args, session.parallelOrNull());
  if (s != TCC_KERNEL_OK)
    return libraryCallFailed(index, "tcc_conv2d", s);
  return Status();
}

int64_t outputSize(int64_t in, int64_t pad, int64_t dilation, int64_t kernel,
                   int64_t stride) {
  return (in + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
}

void describe(const Model &, const Step &step, StepDescription *out) {
  const Conv2d *c = step.op_as_Conv2d();
  out->role = "conv2d library call";
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "conv2d %s %lldx%lldx%lldx%lld -> %lld channels, kernel "
                "%lldx%lld, stride %lldx%lld, pad %lldx%lld, groups %lld",
                c->nhwc() ? "NHWC" : "NCHW", (long long)c->batch(),
                (long long)c->in_channels(), (long long)c->in_height(),
                (long long)c->in_width(), (long long)c->out_channels(),
                (long long)c->kernel_height(), (long long)c->kernel_width(),
                (long long)c->stride_h(), (long long)c->stride_w(),
                (long long)c->pad_h(), (long long)c->pad_w(),
                (long long)c->groups());
  out->summary = buf;
  out->fields.push_back(
      StepField::string("layout", c->nhwc() ? "nhwc" : "nchw"));
  for (auto [k, v] : {std::pair("batch", c->batch()),
                      std::pair("in_channels", c->in_channels()),
                      std::pair("out_channels", c->out_channels()),
                      std::pair("kernel_height", c->kernel_height()),
                      std::pair("kernel_width", c->kernel_width()),
                      std::pair("groups", c->groups())})
    out->fields.push_back(StepField::integer(k, v));
  double pixels = double(outputSize(c->in_height(), c->pad_h(),
                                    c->dilation_h(), c->kernel_height(),
                                    c->stride_h())) *
                  double(outputSize(c->in_width(), c->pad_w(), c->dilation_w(),
                                    c->kernel_width(), c->stride_w()));
  out->flops = 2.0 * double(c->batch()) * double(c->out_channels()) * pixels *
               double(c->in_channels() / c->groups()) *
               double(c->kernel_height()) * double(c->kernel_width());
}

void buffers(const Step &step, std::vector<uint32_t> *out) {
  const Conv2d *c = step.op_as_Conv2d();
  out->insert(out->end(), {c->input(), c->weight(), c->output()});
  if (c->workspace() >= 0)
    out->push_back(uint32_t(c->workspace()));
  appendEpilogueBuffers(c->epilogue(), out);
}

} // namespace

extern const StepKind kConv2dStep = {"conv2d", Op::Conv2d, validate, nullptr,
                                     prepare,  run,        describe, buffers};

} // namespace detail
} // namespace runtime
} // namespace tcc
