//===- Session.cpp - running the execution plan ---------------------------===//
//
// Every offset, index and size used here was validated at load, so a run
// only resolves buffer addresses and calls kernels. Runs do not allocate,
// except each output's own buffer on the first run that needs it.
//
//===----------------------------------------------------------------------===//

#include "Model.h"

#include "../Artifact/Checks.h"
#include "../Artifact/Conv2dArgs.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using tcc::runtime::Status;
using tcc::runtime::detail::cat;
using namespace tcc::artifact;

namespace {

// Tiles [0, tiles) of one KernelCall split into contiguous chunks. Tiles
// are independent, so the split does not change the results.
struct TileJob {
  tcc_kernel_fn kernel;
  void *const *bindings;
  int64_t tiles, chunks;
};

void runChunk(void *arg, int64_t chunk) {
  const auto *job = static_cast<const TileJob *>(arg);
  // tiles * chunk cannot overflow: chunks <= a small multiple of threads.
  int64_t begin = job->tiles / job->chunks * chunk +
                  std::min(chunk, job->tiles % job->chunks);
  int64_t end = begin + job->tiles / job->chunks +
                (chunk < job->tiles % job->chunks ? 1 : 0);
  job->kernel(job->bindings, begin, end);
}

tcc_epilogue toEpilogue(const Epilogue *e, uint8_t *const *addresses,
                        const float *residual, int64_t ldResidual) {
  tcc_epilogue out{};
  out.alpha = e->alpha();
  out.bias = e->bias() >= 0
                 ? reinterpret_cast<const float *>(addresses[e->bias()])
                 : nullptr;
  out.bias_per_row = e->bias_per_row();
  out.residual = residual;
  out.ld_residual = ldResidual;
  out.beta = e->beta();
  out.activation = int32_t(e->activation());
  out.clamp_min = e->clamp_min();
  out.clamp_max = e->clamp_max();
  return out;
}


Status kernelFailed(uint32_t step, const char *kernel,
                    tcc_kernel_status status) {
  return Status(TCC_STATUS_INTERNAL, cat("plan step ", step, ": ", kernel,
                                         " failed with status ", int(status)));
}

} // namespace

Status tcc_session_s::create(tcc_model_s *model,
                             const tcc_session_options_t &options,
                             tcc_session_s **out) {
  if (!options.allocator.alloc || !options.allocator.free)
    return Status(TCC_STATUS_INVALID_ARGUMENT, "allocator lacks alloc/free");
  if (options.parallel &&
      (!options.parallel->parallel_for || options.parallel->num_threads < 1))
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  "parallel has no parallel_for or num_threads < 1");
  std::unique_ptr<tcc_session_s> session(new tcc_session_s());
  session->allocator = options.allocator;
  if (options.parallel) {
    session->hasParallel = true;
    session->parallel = *options.parallel;
  }
  const Model &m = model->header();
  session->inputs.assign(model->inputs.size(), nullptr);
  session->boundOutputs.assign(model->outputs.size(), nullptr);
  session->ownOutputs.assign(model->outputs.size(), nullptr);
  session->bufferAddresses.assign(m.buffers() ? m.buffers()->size() : 0,
                                  nullptr);
  session->bindings.assign(model->maxBindings, nullptr);

  const tcc_allocator_t &a = session->allocator;
  // Every space is host memory (the model's load checked it).
  const auto *spaces = m.memory_spaces();
  session->arenas.assign(spaces ? spaces->size() : 0, nullptr);
  for (uint32_t i = 0; i < session->arenas.size(); ++i) {
    uint64_t bytes = spaces->Get(i)->arena_bytes();
    if (bytes == 0)
      continue;
    if (bytes > SIZE_MAX)
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED, "arena too large");
    session->arenas[i] = static_cast<uint8_t *>(
        a.alloc(a.self, size_t(bytes), tcc::runtime::kArtifactAlignment));
    if (!session->arenas[i])
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate the ", bytes, "-byte arena"));
  }

  // A conv2d's workspace need depends on the thread count, known only now.
  const auto *plan = m.plan();
  session->useSessionWorkspace.assign(plan ? plan->size() : 0, false);
  for (uint32_t i = 0; plan && i < plan->size(); ++i) {
    const Conv2d *c = plan->Get(i)->op_as_Conv2d();
    if (!c)
      continue;
    tcc_conv2d_args args = tcc::runtime::detail::conv2dArgs(*c);
    // Packed weights are constants (validated): their address is known.
    if (c->weight_packed())
      args.packed_weight = model->artifact->constants() +
                           m.buffers()->Get(c->weight())->offset();
    size_t need = tcc_conv2d_workspace_size(&args, session->parallelOrNull());
    uint64_t have =
        c->workspace() >= 0 ? m.buffers()->Get(c->workspace())->byte_size() : 0;
    if (need > have) {
      session->useSessionWorkspace[i] = true;
      session->workspaceBytes = std::max(session->workspaceBytes, need);
    }
  }
  if (session->workspaceBytes) {
    session->workspace = static_cast<uint8_t *>(a.alloc(
        a.self, session->workspaceBytes, tcc::runtime::kArtifactAlignment));
    if (!session->workspace)
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate a ", session->workspaceBytes,
                        "-byte conv2d workspace"));
  }
  tcc_model_retain(model);
  session->model = model;
  *out = session.release();
  return Status();
}

tcc_session_s::~tcc_session_s() {
  for (uint8_t *arena : arenas)
    if (arena)
      allocator.free(allocator.self, arena);
  if (workspace)
    allocator.free(allocator.self, workspace);
  for (void *p : ownOutputs)
    if (p)
      allocator.free(allocator.self, p);
  if (model)
    tcc_model_release(model);
}

Status tcc_session_s::prepareOutputs() {
  for (size_t i = 0; i < ownOutputs.size(); ++i) {
    if (boundOutputs[i] || ownOutputs[i])
      continue;
    size_t bytes = model->outputs[i].byteSize;
    ownOutputs[i] = allocator.alloc(allocator.self, bytes ? bytes : 1,
                                    tcc::runtime::kArtifactAlignment);
    if (!ownOutputs[i])
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate ", bytes, " bytes for output '",
                        model->outputs[i].name, "'"));
  }
  return Status();
}

Status tcc_session_s::run() {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i])
      return Status(
          TCC_STATUS_FAILED_PRECONDITION,
          cat("input ", i, " '", model->inputs[i].name, "' is not bound"));
  TCC_RETURN_IF_ERROR(prepareOutputs());

  const Model &m = model->header();
  const auto *buffers = m.buffers();
  auto *constants = const_cast<uint8_t *>(model->artifact->constants());
  for (uint32_t i = 0; i < bufferAddresses.size(); ++i) {
    const Buffer *b = buffers->Get(i);
    uint8_t *base = nullptr;
    switch (b->storage()) {
    case Storage::Arena:
      base = arenas[b->space()];
      break;
    case Storage::Constant:
      base = constants; // read-only: validation lets nothing write it
      break;
    case Storage::Input:
      base = static_cast<uint8_t *>(const_cast<void *>(inputs[b->index()]));
      break;
    case Storage::Output:
      base = static_cast<uint8_t *>(outputAddress(b->index()));
      break;
    }
    // A zero-byte buffer in an empty region has no base; it is never read.
    bufferAddresses[i] = base ? base + b->offset() : nullptr;
  }

  const auto *plan = m.plan();
  if (!profiling) {
    for (uint32_t i = 0; plan && i < plan->size(); ++i)
      TCC_RETURN_IF_ERROR(runStep(i));
    return Status();
  }
  using Clock = std::chrono::steady_clock;
  for (uint32_t i = 0; plan && i < plan->size(); ++i) {
    Clock::time_point start = Clock::now();
    TCC_RETURN_IF_ERROR(runStep(i));
    stepNanoseconds[i] += uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() -
                                                             start)
            .count());
  }
  ++profiledRuns;
  return Status();
}

Status tcc_session_s::runStep(uint32_t index) {
  const Model &m = model->header();
  const Step *step = m.plan()->Get(index);
  uint8_t *const *addr = bufferAddresses.data();
  const tcc_parallel *par = parallelOrNull();

  switch (step->op_type()) {
  case Op::KernelCall: {
    const KernelCall *call = step->op_as_KernelCall();
    uint32_t n = call->bindings() ? call->bindings()->size() : 0;
    for (uint32_t j = 0; j < n; ++j)
      bindings[j] = addr[call->bindings()->Get(j)];
    TileJob job{model->kernels[call->kernel()], bindings.data(), call->tiles(),
                1};
    if (par && par->num_threads > 1 && job.tiles > 1 &&
        model->parallelKernelStep[index]) {
      // A few chunks per thread balance uneven tiles across workers.
      job.chunks = std::min<int64_t>(job.tiles, int64_t(par->num_threads) * 4);
      par->parallel_for(par->pool, job.chunks, runChunk, &job);
    } else {
      job.kernel(job.bindings, 0, job.tiles);
    }
    return Status();
  }
  case Op::Sgemm: {
    const Sgemm *g = step->op_as_Sgemm();
    if (g->m() == 0 || g->n() == 0)
      return Status();
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
      args.a = reinterpret_cast<const float *>(addr[g->a()]) +
               b * g->a_batch_stride();
      if (g->b_packed()) {
        args.b = nullptr;
        args.packed_b = addr[g->b()] + b * g->b_batch_stride();
      } else {
        args.b = reinterpret_cast<const float *>(addr[g->b()]) +
                 b * g->b_batch_stride();
        args.packed_b = nullptr;
      }
      args.c =
          reinterpret_cast<float *>(addr[g->c()]) + b * g->c_batch_stride();
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
      tcc_kernel_status s = tcc_sgemm(&args, par);
      if (s != TCC_KERNEL_OK)
        return kernelFailed(index, "tcc_sgemm", s);
    }
    return Status();
  }
  case Op::Conv2d: {
    const Conv2d *c = step->op_as_Conv2d();
    tcc_conv2d_args args = tcc::runtime::detail::conv2dArgs(*c);
    args.input = reinterpret_cast<const float *>(addr[c->input()]);
    if (c->weight_packed())
      args.packed_weight = addr[c->weight()];
    else
      args.weight = reinterpret_cast<const float *>(addr[c->weight()]);
    args.output = reinterpret_cast<float *>(addr[c->output()]);
    args.workspace = useSessionWorkspace[index] ? workspace
                     : c->workspace() >= 0      ? addr[c->workspace()]
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
    tcc_kernel_status s = tcc_conv2d(&args, par);
    if (s != TCC_KERNEL_OK)
      return kernelFailed(index, "tcc_conv2d", s);
    return Status();
  }
  case Op::Copy: {
    const Copy *copy = step->op_as_Copy();
    if (copy->bytes())
      std::memmove(addr[copy->dst()], addr[copy->src()], copy->bytes());
    return Status();
  }
  default:
    return Status(TCC_STATUS_INTERNAL,
                  cat("plan step ", index, ": unknown operation"));
  }
}
