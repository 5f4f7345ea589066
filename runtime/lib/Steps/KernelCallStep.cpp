//===- KernelCallStep.cpp - a generated kernel over its tiles -------------===//

#include "StepKind.h"

#include "../Artifact/Checks.h"
#include "../Artifact/StepChecks.h"
#include "../Executor/Model.h"

#include <algorithm>
#include <cstdio>

namespace tcc {
namespace runtime {
namespace detail {
namespace {

using namespace tcc::artifact;

// A kernel touching less than this (all its bindings together) runs its
// tiles on the calling thread: waking a worker costs more than the work
// saves (figures: docs/performance.md). Like at::internal::GRAIN_SIZE,
// 32768 floats.
constexpr uint64_t kMinParallelKernelBytes = 32768 * sizeof(float);

Status validate(const StepChecker &check, const Step &step,
                const std::string &where) {
  const KernelCall &call = *step.op_as_KernelCall();
  const Model &m = check.model();
  uint32_t numKernels = m.kernels() ? m.kernels()->size() : 0;
  if (call.kernel() >= numKernels)
    return corrupt(where, ": kernel index ", call.kernel(), " out of range (",
                   numKernels, " kernels)");
  const Kernel *kernel = m.kernels()->Get(call.kernel());
  if (kernel->code_module() != step.code_module())
    return corrupt(where, ": runs on code module ", step.code_module(),
                   " but kernel '", kernel->symbol()->str(), "' is in module ",
                   kernel->code_module());
  uint32_t numBindings = call.bindings() ? call.bindings()->size() : 0;
  if (numBindings != kernel->num_bindings())
    return corrupt(where, ": ", numBindings, " bindings but kernel '",
                   kernel->symbol()->str(), "' takes ",
                   kernel->num_bindings());
  // The kernel's declarations (checked against num_bindings by the
  // validator) say what its code touches: each bound buffer holds it, and
  // only arena and output buffers are written.
  for (uint32_t j = 0; j < numBindings; ++j) {
    const Buffer *b = nullptr;
    std::string what = cat(where, ": binding ", j);
    TCC_RETURN_IF_ERROR(check.buffer(call.bindings()->Get(j), what, &b));
    const KernelBinding *declared = kernel->bindings()->Get(j);
    if (b->byte_size() < declared->bytes())
      return corrupt(what, ": kernel '", kernel->symbol()->str(),
                     "' accesses ", declared->bytes(),
                     " bytes but the buffer has ", b->byte_size());
    if (declared->writes())
      TCC_RETURN_IF_ERROR(check.requireWritable(b, what));
  }
  // Generated code computes addresses from the tile index, so a call runs
  // exactly the tiles its kernel was compiled for.
  if (call.tiles() != kernel->tiles())
    return corrupt(where, ": tiles ", call.tiles(), " but kernel '",
                   kernel->symbol()->str(), "' was compiled for ",
                   kernel->tiles());
  return Status();
}

uint64_t bindingBytes(const Model &m, const KernelCall &call) {
  uint64_t bytes = 0; // validated: each buffer fits the arena or a segment
  for (uint32_t i = 0; call.bindings() && i < call.bindings()->size(); ++i)
    bytes += m.buffers()->Get(call.bindings()->Get(i))->byte_size();
  return bytes;
}

void load(tcc_model_s &model, const Step &step, uint32_t index) {
  const KernelCall &call = *step.op_as_KernelCall();
  if (!call.bindings())
    return;
  model.maxBindings = std::max(model.maxBindings, call.bindings()->size());
  model.parallelKernelStep[index] =
      bindingBytes(model.header(), call) >= kMinParallelKernelBytes;
}

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

Status run(tcc_session_s &session, const Step &step, uint32_t index) {
  const KernelCall *call = step.op_as_KernelCall();
  uint8_t *const *addr = session.bufferAddresses.data();
  uint32_t n = call->bindings() ? call->bindings()->size() : 0;
  for (uint32_t j = 0; j < n; ++j)
    session.bindings[j] = addr[call->bindings()->Get(j)];
  TileJob job{session.model->kernels[call->kernel()], session.bindings.data(),
              call->tiles(), 1};
  const tcc_parallel *par = session.parallelOrNull();
  if (par && par->num_threads > 1 && job.tiles > 1 &&
      session.model->parallelKernelStep[index]) {
    // A few chunks per thread balance uneven tiles across workers.
    job.chunks = std::min<int64_t>(job.tiles, int64_t(par->num_threads) * 4);
    par->parallel_for(par->pool, job.chunks, runChunk, &job);
  } else {
    job.kernel(job.bindings, 0, job.tiles);
  }
  return Status();
}

void describe(const Model &m, const Step &step, StepDescription *out) {
  const KernelCall &call = *step.op_as_KernelCall();
  std::string symbol = m.kernels()->Get(call.kernel())->symbol()->str();
  uint32_t n = call.bindings() ? call.bindings()->size() : 0;
  out->role = "kernel '" + symbol + "'";
  char buf[256];
  std::snprintf(buf, sizeof(buf), "kernel %s (%u bindings, %lld tiles)",
                symbol.c_str(), n, (long long)call.tiles());
  out->summary = buf;
  std::vector<int64_t> bindings;
  for (uint32_t i = 0; i < n; ++i)
    bindings.push_back(call.bindings()->Get(i));
  out->fields = {StepField::string("symbol", symbol),
                 StepField::integer("tiles", call.tiles()),
                 StepField::integers("bindings", std::move(bindings))};
  out->bytes = double(bindingBytes(m, call));
  if (out->sourceOps.empty()) {
    const auto *ops = m.kernels()->Get(call.kernel())->source_ops();
    for (uint32_t i = 0; ops && i < ops->size(); ++i)
      out->sourceOps.push_back(ops->Get(i)->str());
  }
}

void buffers(const Step &step, std::vector<uint32_t> *out) {
  const auto *bindings = step.op_as_KernelCall()->bindings();
  if (bindings)
    out->insert(out->end(), bindings->begin(), bindings->end());
}

} // namespace

extern const StepKind kKernelCallStep = {
    "kernel", Op::KernelCall, validate, load, nullptr, run, describe, buffers};

} // namespace detail
} // namespace runtime
} // namespace tcc
