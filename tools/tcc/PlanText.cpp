//===- PlanText.cpp - Plan steps described for people --------------------===//

#include "PlanText.h"

#include <cctype>
#include <cstdio>

namespace tcc {
namespace tool {

using namespace tcc::artifact;

std::vector<std::string> strings(
    const flatbuffers::Vector<flatbuffers::Offset<flatbuffers::String>> *v) {
  std::vector<std::string> out;
  for (uint32_t i = 0; v && i < v->size(); ++i)
    out.push_back(v->Get(i)->str());
  return out;
}

namespace {

std::string lower(const char *s) {
  std::string out(s ? s : "");
  for (char &c : out)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

} // namespace

const char *opName(Op op) {
  switch (op) {
  case Op::KernelCall:
    return "kernel";
  case Op::Sgemm:
    return "sgemm";
  case Op::Conv2d:
    return "conv2d";
  case Op::Copy:
    return "copy";
  default:
    return "?";
  }
}

// What the ops of a step compute: the step's own list, else its kernel's.
std::vector<std::string> sourceOps(const Model &m, const Step &step) {
  std::vector<std::string> ops = strings(step.source_ops());
  if (ops.empty())
    if (const KernelCall *call = step.op_as_KernelCall())
      ops = strings(m.kernels()->Get(call->kernel())->source_ops());
  return ops;
}

double stepFlops(const Step &step) {
  if (const Sgemm *g = step.op_as_Sgemm())
    return 2.0 * double(g->batch()) * double(g->m()) * double(g->n()) *
           double(g->k());
  if (const Conv2d *c = step.op_as_Conv2d()) {
    auto out = [](int64_t in, int64_t pad, int64_t dilation, int64_t kernel,
                  int64_t stride) {
      return (in + 2 * pad - dilation * (kernel - 1) - 1) / stride + 1;
    };
    double pixels =
        double(out(c->in_height(), c->pad_h(), c->dilation_h(),
                   c->kernel_height(), c->stride_h())) *
        double(out(c->in_width(), c->pad_w(), c->dilation_w(),
                   c->kernel_width(), c->stride_w()));
    return 2.0 * double(c->batch()) * double(c->out_channels()) * pixels *
           double(c->in_channels() / c->groups()) *
           double(c->kernel_height()) * double(c->kernel_width());
  }
  return 0;
}

double stepBytes(const Model &m, const Step &step) {
  if (const Copy *copy = step.op_as_Copy())
    return 2.0 * double(copy->bytes());
  const KernelCall *call = step.op_as_KernelCall();
  if (!call || !call->bindings() || !m.buffers())
    return 0;
  double bytes = 0;
  for (uint32_t buffer : *call->bindings())
    if (buffer < m.buffers()->size())
      bytes += double(m.buffers()->Get(buffer)->byte_size());
  return bytes;
}

std::string stepSummary(const Model &m, const Step &step) {
  char buf[256];
  switch (step.op_type()) {
  case Op::KernelCall: {
    const KernelCall *c = step.op_as_KernelCall();
    std::snprintf(buf, sizeof(buf), "kernel %s (%u bindings, %lld tiles)",
                  m.kernels()->Get(c->kernel())->symbol()->c_str(),
                  c->bindings() ? c->bindings()->size() : 0,
                  (long long)c->tiles());
    break;
  }
  case Op::Sgemm: {
    const Sgemm *g = step.op_as_Sgemm();
    std::string activation;
    if (g->epilogue() && g->epilogue()->activation() != Activation::None)
      activation =
          ", " + lower(EnumNameActivation(g->epilogue()->activation()));
    std::snprintf(buf, sizeof(buf),
                  "sgemm %lldx%lldx%lld (m x n x k), batch %lld%s%s%s%s",
                  (long long)g->m(), (long long)g->n(), (long long)g->k(),
                  (long long)g->batch(), g->trans_a() ? ", A^T" : "",
                  g->trans_b() ? ", B^T" : "",
                  g->b_packed() ? ", packed B" : "", activation.c_str());
    break;
  }
  case Op::Conv2d: {
    const Conv2d *c = step.op_as_Conv2d();
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
    break;
  }
  case Op::Copy:
    std::snprintf(buf, sizeof(buf), "copy %llu bytes",
                  (unsigned long long)step.op_as_Copy()->bytes());
    break;
  default:
    std::snprintf(buf, sizeof(buf), "?");
  }
  return buf;
}

} // namespace tool
} // namespace tcc
