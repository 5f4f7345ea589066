//===- SgemmStep.cpp - batched GEMM: fp32 through tcc_sgemm ---------------===//
//
// On the host, fp32 through tcc_sgemm. On cuda modules the device runs the
// step through cuBLASLt, also with bf16 or fp16 operands (Sgemm.dtype).
//
//===----------------------------------------------------------------------===//

#include "Epilogue.h"
#include "StepKind.h"

#include "../Artifact/Checks.h"
#include "../Artifact/StepChecks.h"
#include "../Executor/Model.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/kernels.h"

#include <cctype>
#include <cstdio>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;

// A dtype's name, and its number when this runtime does not know it.
std::string dtypeWithValue(DType d) {
  if (uint8_t(d) > uint8_t(DType::MAX))
    return "unknown dtype " + std::to_string(int(d));
  return dtypeName(d);
}

// The element types: f32 everywhere (tcc_sgemm's), or on a cuda module bf16
// or f16 operands with c in that type or f32 (what cuBLASLt computes with
// CUBLAS_COMPUTE_32F); tf32 only for f32 operands.
Status checkDTypes(const StepChecker &check, const Step &step, const Sgemm &g,
                   const std::string &where) {
  DType ab = g.dtype(), c = g.c_dtype();
  if (ab != DType::F32 && ab != DType::BF16 && ab != DType::F16)
    return corrupt(where, ": dtype ", dtypeWithValue(ab),
                   " (a and b are f32, bf16 or f16)");
  if (c != DType::F32 && c != ab)
    return corrupt(where, ": c_dtype ", dtypeWithValue(c), " with ",
                   dtypeName(ab), " operands (c is f32 or the operands' type)");
  if (ab == DType::F32)
    return Status();
  const CodeModule *module =
      check.model().code_modules()->Get(step.code_module()); // validated
  if (module->kind()->str() != kCudaModuleKind)
    return corrupt(where, ": ", dtypeName(ab),
                   " operands run on cuda modules only, not on module ",
                   step.code_module(), " of kind '", module->kind()->str(),
                   "'");
  if (g.tf32())
    return corrupt(where, ": tf32 with ", dtypeName(ab),
                   " operands (tf32 rounds f32 operands)");
  if (g.b_packed())
    return corrupt(where, ": packed b with ", dtypeName(ab),
                   " operands (tcc_sgemm's packing is f32)");
  return Status();
}

Status validate(const StepChecker &check, const Step &step,
                const std::string &where) {
  const Sgemm &g = *step.op_as_Sgemm();
  TCC_RETURN_IF_ERROR(checkDTypes(check, step, g, where));
  for (int64_t v :
       {g.m(), g.n(), g.k(), g.lda(), g.ldb(), g.ldc(), g.a_batch_stride(),
        g.b_batch_stride(), g.c_batch_stride()})
    if (v < 0)
      return corrupt(where, ": negative size, leading dimension or stride");
  if (g.batch() < 1)
    return corrupt(where, ": batch ", g.batch(), " is less than 1");
  // Sizes fit the kernels' int64 arithmetic with room to spare.
  uint64_t mnk = 0;
  TCC_RETURN_IF_ERROR(checkedProduct({g.m(), g.n(), g.k(), 4}, where, &mnk));

  const Buffer *a = nullptr, *b = nullptr, *c = nullptr;
  TCC_RETURN_IF_ERROR(check.buffer(g.a(), where + ": a", &a));
  TCC_RETURN_IF_ERROR(check.buffer(g.b(), where + ": b", &b));
  TCC_RETURN_IF_ERROR(check.buffer(g.c(), where + ": c", &c));
  TCC_RETURN_IF_ERROR(check.requireDType(a, g.dtype(), where + ": a"));
  TCC_RETURN_IF_ERROR(check.requireDType(c, g.c_dtype(), where + ": c"));
  TCC_RETURN_IF_ERROR(check.requireWritable(c, where + ": c"));

  uint64_t span = 0;
  TCC_RETURN_IF_ERROR(matrixSpan(g.batch(), g.trans_a() ? g.k() : g.m(),
                                 g.trans_a() ? g.m() : g.k(), g.lda(),
                                 g.a_batch_stride(), where + ": a", &span));
  TCC_RETURN_IF_ERROR(check.requireElements(a, span, where + ": a"));

  if (g.b_packed()) {
    std::string what = where + ": packed b";
    TCC_RETURN_IF_ERROR(check.requireDType(b, DType::U8, what));
    if (b->storage() != Storage::Constant && b->storage() != Storage::Arena)
      return corrupt(what, ": must be in the constants or the arena");
    if (b->offset() % kArtifactAlignment != 0 ||
        g.b_batch_stride() % int64_t(kArtifactAlignment) != 0)
      return corrupt(what, ": offset and batch stride must be multiples of ",
                     kArtifactAlignment);
    uint64_t packed = tcc_sgemm_packed_b_size(g.k(), g.n()), first;
    if (!checkedMul(uint64_t(g.batch() - 1), uint64_t(g.b_batch_stride()),
                    &first) ||
        !checkedAdd(first, packed, &span))
      return corrupt(what, ": extent overflows 64-bit sizes");
    TCC_RETURN_IF_ERROR(check.requireElements(b, span, what));
  } else {
    TCC_RETURN_IF_ERROR(check.requireDType(b, g.dtype(), where + ": b"));
    TCC_RETURN_IF_ERROR(matrixSpan(g.batch(), g.trans_b() ? g.n() : g.k(),
                                   g.trans_b() ? g.k() : g.n(), g.ldb(),
                                   g.b_batch_stride(), where + ": b", &span));
    TCC_RETURN_IF_ERROR(check.requireElements(b, span, where + ": b"));
  }

  // Each batch writes its own elements, so the work of a step is bounded
  // by the size of c (a batch of 2^40 over one matrix would run for days):
  // the matrices follow each other (stacked) or lie side by side in c's
  // rows (a result written through a transpose).
  uint64_t one = 0, row = 0;
  TCC_RETURN_IF_ERROR(
      matrixSpan(1, g.m(), g.n(), g.ldc(), 0, where + ": c", &one));
  uint64_t stride = uint64_t(g.c_batch_stride());
  bool stacked = stride >= one;
  bool sideBySide = stride >= uint64_t(g.n()) &&
                    checkedMul(uint64_t(g.batch() - 1), stride, &row) &&
                    checkedAdd(row, uint64_t(g.n()), &row) &&
                    row <= uint64_t(g.ldc());
  if (g.batch() > 1 && one && !stacked && !sideBySide)
    return corrupt(where, ": c: batches overlap (batch stride ",
                   g.c_batch_stride(), ", ", g.m(), "x", g.n(),
                   " matrices with ldc ", g.ldc(), ")");
  TCC_RETURN_IF_ERROR(matrixSpan(g.batch(), g.m(), g.n(), g.ldc(),
                                 g.c_batch_stride(), where + ": c", &span));
  TCC_RETURN_IF_ERROR(check.requireElements(c, span, where + ": c"));
  TCC_RETURN_IF_ERROR(check.requireDisjoint(c, a, where + ": c and a"));
  TCC_RETURN_IF_ERROR(check.requireDisjoint(c, b, where + ": c and b"));
  const Epilogue *e = g.epilogue();
  // cuBLASLt's bias is of D's type (CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE's
  // default), its C (the residual) of D's type and layout.
  return check.checkEpilogue(e, e && e->bias_per_row() ? g.m() : g.n(), span,
                             where, g.c_dtype());
}

Status run(tcc_session_s &session, const Step &step, uint32_t index) {
  const Sgemm *g = step.op_as_Sgemm();
  if (g->m() == 0 || g->n() == 0)
    return Status();
  uint8_t *const *addr = session.bufferAddresses.data();
  tcc_sgemm_args args{};
  args.m = g->m();
  args.n = g->n();
  args.k = g->k();
  args.lda = g->lda();
  args.ldb = g->ldb();
  args.ldc = g->ldc();
  args.trans_a = g->trans_a();
  args.trans_b = g->trans_b();
  for (int64_t b = 0; b < g->batch(); ++b) {
    args.a =
        reinterpret_cast<const float *>(addr[g->a()]) + b * g->a_batch_stride();
    if (g->b_packed()) {
      args.b = nullptr;
      args.packed_b = addr[g->b()] + b * g->b_batch_stride();
    } else {
      args.b = reinterpret_cast<const float *>(addr[g->b()]) +
               b * g->b_batch_stride();
      args.packed_b = nullptr;
    }
    args.c = reinterpret_cast<float *>(addr[g->c()]) + b * g->c_batch_stride();
    tcc_epilogue epilogue;
    args.epilogue = nullptr;
    if (const Epilogue *e = g->epilogue()) {
      const float *residual =
          e->residual() >= 0
              ? reinterpret_cast<const float *>(addr[e->residual()]) +
                    b * g->c_batch_stride()
              : nullptr;
      epilogue = toEpilogue(e, addr, residual, g->ldc());
      args.epilogue = &epilogue;
    }
    tcc_kernel_status s = tcc_sgemm(&args, session.parallelOrNull());
    if (s != TCC_KERNEL_OK)
      return libraryCallFailed(index, "tcc_sgemm", s);
  }
  return Status();
}

std::string lower(const char *s) {
  std::string out(s ? s : "");
  for (char &c : out)
    c = char(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

void describe(const Model &, const Step &step, StepDescription *out) {
  const Sgemm *g = step.op_as_Sgemm();
  out->role = "sgemm library call";
  std::string activation;
  if (g->epilogue() && g->epilogue()->activation() != Activation::None)
    activation = ", " + lower(EnumNameActivation(g->epilogue()->activation()));
  // ", bf16" (c too) or ", bf16 -> f32"; nothing for fp32.
  std::string dtypes;
  if (g->dtype() != DType::F32 || g->c_dtype() != DType::F32) {
    dtypes = std::string(", ") + dtypeName(g->dtype());
    if (g->c_dtype() != g->dtype())
      dtypes += std::string(" -> ") + dtypeName(g->c_dtype());
  }
  char buf[256];
  std::snprintf(buf, sizeof(buf),
                "sgemm %lldx%lldx%lld (m x n x k), batch %lld%s%s%s%s%s%s",
                (long long)g->m(), (long long)g->n(), (long long)g->k(),
                (long long)g->batch(), dtypes.c_str(),
                g->trans_a() ? ", A^T" : "", g->trans_b() ? ", B^T" : "",
                g->b_packed() ? ", packed B" : "", activation.c_str(),
                g->tf32() ? ", tf32" : "");
  out->summary = buf;
  // Operands as buffer indices with their layouts: how a matmul reads a
  // transposed or sliced operand in place.
  for (auto [k, v] :
       {std::pair("m", g->m()), std::pair("n", g->n()), std::pair("k", g->k()),
        std::pair("batch", g->batch()), std::pair("a", int64_t(g->a())),
        std::pair("lda", g->lda()),
        std::pair("a_batch_stride", g->a_batch_stride()),
        std::pair("b", int64_t(g->b())), std::pair("ldb", g->ldb()),
        std::pair("b_batch_stride", g->b_batch_stride()),
        std::pair("c", int64_t(g->c())), std::pair("ldc", g->ldc()),
        std::pair("c_batch_stride", g->c_batch_stride())})
    out->fields.push_back(StepField::integer(k, v));
  // The epilogue's buffers (-1: none), as the device reads them.
  const Epilogue *e = g->epilogue();
  out->fields.push_back(StepField::integer("bias", e ? e->bias() : -1));
  out->fields.push_back(
      StepField::integer("residual", e ? e->residual() : -1));
  for (auto [k, v] : {std::pair("trans_a", g->trans_a()),
                      std::pair("trans_b", g->trans_b()),
                      std::pair("b_packed", g->b_packed()),
                      std::pair("tf32", g->tf32())})
    out->fields.push_back(StepField::boolean(k, v));
  out->fields.push_back(StepField::string("dtype", dtypeName(g->dtype())));
  out->fields.push_back(StepField::string("c_dtype", dtypeName(g->c_dtype())));
  out->flops =
      2.0 * double(g->batch()) * double(g->m()) * double(g->n()) * double(g->k());
}

void buffers(const Step &step, std::vector<uint32_t> *out) {
  const Sgemm *g = step.op_as_Sgemm();
  out->insert(out->end(), {g->a(), g->b(), g->c()});
  appendEpilogueBuffers(g->epilogue(), out);
}

} // namespace

extern const StepKind kSgemmStep = {"sgemm", Op::Sgemm, validate, nullptr,
                                    nullptr, run,       describe, buffers};

} // namespace detail
} // namespace runtime
} // namespace tcc
