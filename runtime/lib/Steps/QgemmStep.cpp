//===- QgemmStep.cpp - quantized GEMM through tcc_qgemm -------------------===//

#include "Epilogue.h"
#include "QEpilogue.h"
#include "StepKind.h"

#include "../Artifact/Checks.h"
#include "../Artifact/StepChecks.h"
#include "../Executor/Model.h"

#include "tcc/runtime/kernels_int8.h"

#include <cstdio>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;

Status validate(const StepChecker &check, const Step &step,
                const std::string &where) {
  const Qgemm &g = *step.op_as_Qgemm();
  for (int64_t v : {g.m(), g.n(), g.k(), g.lda(), g.ldc()})
    if (v < 0)
      return corrupt(where, ": negative size or leading dimension");
  if (g.k() > TCC_INT8_MAX_K)
    return corrupt(where, ": k ", g.k(), " exceeds the int8 kernels' ",
                   TCC_INT8_MAX_K);
  if (g.m() > 0 && g.lda() < g.k())
    return corrupt(where, ": lda ", g.lda(), " is less than k ", g.k());
  if (g.m() > 0 && g.ldc() < g.n())
    return corrupt(where, ": ldc ", g.ldc(), " is less than n ", g.n());
  uint64_t mnk = 0;
  TCC_RETURN_IF_ERROR(checkedProduct({g.m(), g.n(), g.k(), 4}, where, &mnk));
  int32_t zpLo = g.a_signed() ? -128 : 0, zpHi = g.a_signed() ? 127 : 255;
  if (g.a_zero_point() < zpLo || g.a_zero_point() > zpHi)
    return corrupt(where, ": a zero point ", g.a_zero_point(),
                   " is outside a's range [", zpLo, ", ", zpHi, "]");

  const Buffer *a = nullptr, *b = nullptr, *c = nullptr;
  TCC_RETURN_IF_ERROR(check.buffer(g.a(), where + ": a", &a));
  TCC_RETURN_IF_ERROR(check.buffer(g.b(), where + ": packed b", &b));
  TCC_RETURN_IF_ERROR(check.buffer(g.c(), where + ": c", &c));
  TCC_RETURN_IF_ERROR(check.requireDType(
      a, g.a_signed() ? DType::I8 : DType::U8, where + ": a"));
  TCC_RETURN_IF_ERROR(check.requireWritable(c, where + ": c"));
  uint64_t aSpan = 0, cSpan = 0;
  TCC_RETURN_IF_ERROR(
      matrixSpan(1, g.m(), g.k(), g.lda(), 0, where + ": a", &aSpan));
  TCC_RETURN_IF_ERROR(check.requireElements(a, aSpan, where + ": a"));
  TCC_RETURN_IF_ERROR(
      check.requirePackedQB(b, g.k(), g.n(), where + ": packed b"));
  TCC_RETURN_IF_ERROR(
      matrixSpan(1, g.m(), g.n(), g.ldc(), 0, where + ": c", &cSpan));
  TCC_RETURN_IF_ERROR(
      check.checkQEpilogue(g.epilogue(), g.n(), c, g.c(), cSpan, where));
  TCC_RETURN_IF_ERROR(check.requireElements(c, cSpan, where + ": c"));
  TCC_RETURN_IF_ERROR(check.requireDisjoint(c, a, where + ": c and a"));
  return check.requireDisjoint(c, b, where + ": c and b");
}

Status run(tcc_session_s &session, const Step &step, uint32_t index) {
  const Qgemm *g = step.op_as_Qgemm();
  if (g->m() == 0 || g->n() == 0)
    return Status();
  uint8_t *const *addr = session.bufferAddresses.data();
  tcc_qgemm_args args{};
  args.m = g->m();
  args.n = g->n();
  args.k = g->k();
  args.a = addr[g->a()];
  args.lda = g->lda();
  args.a_signed = g->a_signed();
  args.a_zero_point = g->a_zero_point();
  args.packed_b = addr[g->b()];
  args.c = addr[g->c()];
  args.ldc = g->ldc();
  tcc_qepilogue epilogue;
  if (const QEpilogue *e = g->epilogue()) {
    epilogue = toQEpilogue(
        *e, addr, e->residual() >= 0 ? addr[e->residual()] : nullptr, g->ldc());
    args.epilogue = &epilogue;
  }
  tcc_kernel_status s = tcc_qgemm(&args, session.parallelOrNull());
  if (s != TCC_KERNEL_OK)
    return libraryCallFailed(index, "tcc_qgemm", s);
  return Status();
}

void describe(const Model &, const Step &step, StepDescription *out) {
  const Qgemm *g = step.op_as_Qgemm();
  out->role = "qgemm library call";
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "qgemm %lldx%lldx%lld (m x n x k), %s a, packed b, -> %s",
                (long long)g->m(), (long long)g->n(), (long long)g->k(),
                g->a_signed() ? "s8" : "u8",
                describeQEpilogue(g->epilogue()).c_str());
  out->summary = buf;
  for (auto [k, v] :
       {std::pair("m", g->m()), std::pair("n", g->n()), std::pair("k", g->k()),
        std::pair("a", int64_t(g->a())), std::pair("lda", g->lda()),
        std::pair("a_zero_point", int64_t(g->a_zero_point())),
        std::pair("b", int64_t(g->b())), std::pair("c", int64_t(g->c())),
        std::pair("ldc", g->ldc())})
    out->fields.push_back(StepField::integer(k, v));
  out->fields.push_back(StepField::boolean("a_signed", g->a_signed()));
  out->fields.push_back(
      StepField::string("output", describeQEpilogue(g->epilogue())));
  out->flops = 2.0 * double(g->m()) * double(g->n()) * double(g->k());
}

void buffers(const Step &step, std::vector<uint32_t> *out) {
  const Qgemm *g = step.op_as_Qgemm();
  out->insert(out->end(), {g->a(), g->b(), g->c()});
  appendEpilogueBuffers(g->epilogue(), out);
}

} // namespace

extern const StepKind kQgemmStep = {"qgemm", Op::Qgemm, validate, nullptr,
                                    nullptr, run,       describe, buffers};

} // namespace detail
} // namespace runtime
} // namespace tcc
