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
