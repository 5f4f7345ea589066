//===- Compile.cpp - tcc::jit::compile: trace, compile, load, run ---------===//
//
// The compile step runs MLIR and LLVM on the traced module; no frontend code
// runs inside it, so no frontend exception unwinds through MLIR frames, and
// the diagnostics MLIR emits are captured as text for the fallback warning.
//
//===----------------------------------------------------------------------===//

#include "ModuleState.h"
#include "TracedGraphAccess.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Codegen/Target.h"
#include "tcc/Frontend/RuntimeDtype.h"
#include "tcc/jit.h"
#include "tcc/runtime/Runtime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"

#include <chrono>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>

namespace tcc {
namespace jit {

struct CompiledModule::Impl {
  EagerFunction eager;
  std::string fallbackReason; // empty when compiled
  Signature signature;
  CompileStats stats;
  int numThreads = 1;
  // The device sessions run on: a null handle for the CPU, else the plugin
  // (cuda) the model was loaded for, opened as tcc-run --device opens it.
  runtime::Device device;
  runtime::Model model;
  runtime::Pool pool;
  // Sessions not in use; a call takes one (or creates one) and returns it.
  mutable std::mutex sessionsMutex;
  mutable std::vector<runtime::Session> idleSessions;
};

namespace {

/// The pool compiled modules of `numThreads` threads run on: one per thread
/// count for the whole process, so that compiled modules (and the copies
/// with_num_threads makes) share their workers. With a pool each, an idle
/// worker of one module spins (TCC_POOL_SPIN_US) on the vCPU that the next
/// module's worker needs, which then runs at 1-thread speed (figures:
/// docs/performance.md, "Measurements behind choices in the code").
runtime::Status sharedPool(int numThreads, runtime::Pool *out) {
  static std::mutex mutex;
  // Never destroyed, like the eager library's pool: joining workers from a
  // static destructor can deadlock.
  static auto *pools = new std::map<int, runtime::Pool>();
  std::lock_guard<std::mutex> lock(mutex);
  auto it = pools->find(numThreads);
  if (it == pools->end()) {
    runtime::Pool pool;
    runtime::Status s = runtime::Pool::create(numThreads, &pool);
    if (!s.ok())
      return s;
    it = pools->emplace(numThreads, std::move(pool)).first;
  }
  *out = it->second;
  return runtime::Status();
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

std::string shapeString(IntArrayRef shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

/// Compiles the traced module into `bytes`; returns the reason on failure.
std::string compileTrace(const TracedGraph &graph,
                         const CompileOptions &options,
                         std::vector<uint8_t> *bytes,
                         mlir::tcc::ModelCompileStats *stats) {
  const ModuleState &state = TracedGraphAccess::state(graph);
  mlir::MLIRContext *context = state.context.get();
  // Diagnostics name the op without printing it, as `tcc compile` does.
  context->printOpOnDiagnostic(false);
  mlir::DialectRegistry registry;
  mlir::tcc::registerCodegenDialects(registry);
  context->appendDialectRegistry(registry);

  mlir::tcc::ModelCompileOptions compileOptions;
  compileOptions.optLevel = options.opt_level;
  mlir::tcc::TargetRequest request;
  request.cpu = options.cpu;
  request.triple = options.target_triple;
  request.gpu = options.gpu;
  request.allowTf32 = options.allow_tf32;
  request.cudaConv = options.cuda_conv;
  if (options.device == "cuda")
    request.target = "cuda";
  else if (options.device != "cpu")
    return "unknown device '" + options.device + "' (devices: cpu, cuda)";
  if (!options.precision.empty() && options.precision != "bf16" &&
      options.precision != "fp16")
    return "precision must be bf16 or fp16, not '" + options.precision + "'";
  if (!options.precision.empty() && options.device != "cuda")
    return "precision applies to the cuda device, not to " + options.device;
  compileOptions.precision = options.precision;
  std::string targetError;
  compileOptions.target = mlir::tcc::resolveTarget(request, &targetError);
  if (!compileOptions.target)
    return "compiling the trace failed: " + targetError;
  mlir::FailureOr<std::vector<uint8_t>> compiled;
  std::string diagnostics;
  {
    // compileModel lowers the module it is given: compile a clone, so the
    // traced graph stays as it was.
    mlir::OwningOpRef<mlir::ModuleOp> module = state.module.get().clone();
    DiagnosticCapture capture(context);
    compiled = mlir::tcc::compileModel(*module, compileOptions, stats);
    diagnostics = capture.text();
  }
  if (mlir::failed(compiled))
    return "compiling the trace failed" +
           (diagnostics.empty() ? std::string(" (no diagnostic)")
                                : ": " + diagnostics);
  *bytes = std::move(*compiled);
  return "";
}

/// Compiles the traced module and loads it; returns the reason on failure.
std::string compileAndLoad(const TracedGraph &graph,
                           const CompileOptions &options,
                           CompiledModule::Impl &impl) {
  mlir::tcc::ModelCompileStats stats;
  std::vector<uint8_t> artifact;
  std::string problem = compileTrace(graph, options, &artifact, &stats);
  if (!problem.empty())
    return problem;
  const std::vector<uint8_t> *bytes = &artifact;

  runtime::Status status;
  if (options.device != "cpu") {
    // The device first, as the tools open it: without a driver this is
    // the reason ("device 'cuda': no CUDA driver: ...").
    status = runtime::Device::open(options.device, &impl.device);
    if (!status.ok())
      return status.message();
  }
  status =
      runtime::Model::loadMemory(bytes->data(), bytes->size(), &impl.model);
  if (!status.ok())
    return "the runtime cannot load the compiled model: " + status.message();
  // A GPU runs the whole plan; the host's pool would have nothing to do.
  if (impl.numThreads > 1 && !impl.device) {
    status = sharedPool(impl.numThreads, &impl.pool);
    if (!status.ok())
      return "cannot create a pool of " + std::to_string(impl.numThreads) +
             " threads: " + status.message();
  }
  // A first session checks that the arena can be allocated.
  runtime::Session session;
  status = impl.model.createSession(impl.pool ? impl.pool.parallel() : nullptr,
                                    &session, impl.device);
  if (!status.ok())
    return "cannot create a session of the compiled model: " +
           status.message();
  impl.idleSessions.push_back(std::move(session));

  CompileStats &s = impl.stats;
  s.kernels = stats.kernels;
  s.library_calls = stats.libraryCalls;
  s.copies = stats.copies;
  s.arena_bytes = stats.arenaBytes;
  s.intermediate_bytes = stats.intermediateBytes;
  s.artifact_bytes = bytes->size();
  return "";
}

/// The runtime's signature must be the traced one: the callable checks
/// inputs against the traced signature and allocates outputs from it.
std::string checkArtifactSignature(const CompiledModule::Impl &impl) {
  auto check = [&](const char *what, size_t count,
                   const std::vector<TensorSpec> &specs,
                   auto info) -> std::string {
    if (count != specs.size())
      return std::string("the compiled model has ") + std::to_string(count) +
             " " + what + "s, the trace " + std::to_string(specs.size());
    for (size_t i = 0; i < count; ++i) {
      runtime::TensorInfo t;
      runtime::Status s = info(i, &t);
      if (!s.ok())
        return s.message();
      if (to_runtime_dtype(specs[i].dtype) != t.dtype ||
          t.shape != specs[i].shape)
        return std::string("the compiled model's ") + what + " " +
               std::to_string(i) + " differs from the trace's (" +
               toString(specs[i].dtype) + " " + shapeString(specs[i].shape) +
               ")";
    }
    return "";
  };
  std::string problem = check(
      "input", impl.model.inputCount(), impl.signature.inputs,
      [&](size_t i, runtime::TensorInfo *t) { return impl.model.input(i, t); });
  if (problem.empty())
    problem = check("output", impl.model.outputCount(),
                    impl.signature.outputs,
                    [&](size_t i, runtime::TensorInfo *t) {
                      return impl.model.output(i, t);
                    });
  return problem;
}

[[noreturn]] void throwRunError(const std::string &message) {
  jitError("tcc::jit::compile: running the compiled model failed: " +
           message);
}

} // namespace

CompiledModule compileProgram(
    const std::function<TracedGraph(const TraceOptions &)> &traceProgram,
    CompiledModule::EagerFunction eager, const CompileOptions &options) {
  if (options.opt_level != 0 && options.opt_level != 2)
    jitError("tcc::jit::compile: opt_level must be 0 or 2, not " +
             std::to_string(options.opt_level));
  if (options.num_threads < 0)
    jitError("tcc::jit::compile: num_threads must be >= 0, not " +
             std::to_string(options.num_threads));
  auto impl = std::make_shared<CompiledModule::Impl>();
  impl->eager = std::move(eager);
  impl->numThreads =
      options.num_threads ? options.num_threads : get_num_threads();

  std::string reason;
  Clock::time_point start = Clock::now();
  std::optional<TracedGraph> graph;
  try {
    NoGradGuard noGrad;
    graph.emplace(traceProgram(options.trace));
  } catch (const JitError &e) {
    reason = std::string("cannot trace the program: ") + e.what();
  }
  impl->stats.trace_seconds = secondsSince(start);
  if (graph) {
    impl->signature = graph->signature();
    start = Clock::now();
    reason = compileAndLoad(*graph, options, *impl);
    if (reason.empty())
      reason = checkArtifactSignature(*impl);
    impl->stats.compile_seconds = secondsSince(start);
  }
  if (!reason.empty()) {
    // Nothing of a half-built model stays behind.
    impl->idleSessions.clear();
    impl->model = runtime::Model();
    impl->device = runtime::Device();
    impl->pool = runtime::Pool();
    CompileStats timing = impl->stats;
    impl->stats = CompileStats();
    impl->stats.trace_seconds = timing.trace_seconds;
    impl->stats.compile_seconds = timing.compile_seconds;
    impl->fallbackReason = reason;
    if (!options.fallback)
      jitError("tcc::jit::compile: " + reason);
    if (options.print_warnings)
      std::cerr << "tcc::jit::compile: warning: running the program eagerly: "
                << reason << "\n";
  }
  return CompiledModule(std::move(impl));
}

std::vector<std::uint8_t> compileProgramArtifact(
    const std::function<TracedGraph(const TraceOptions &)> &traceProgram,
    const CompileOptions &options) {
  if (options.opt_level != 0 && options.opt_level != 2)
    jitError("tcc::jit::compile_artifact: opt_level must be 0 or 2, not " +
             std::to_string(options.opt_level));
  std::optional<TracedGraph> graph;
  try {
    NoGradGuard noGrad;
    graph.emplace(traceProgram(options.trace));
  } catch (const JitError &e) {
    jitError(std::string("tcc::jit::compile_artifact: cannot trace the "
                         "program: ") +
             e.what());
  }
  std::vector<uint8_t> bytes;
  mlir::tcc::ModelCompileStats stats;
  std::string problem = compileTrace(*graph, options, &bytes, &stats);
  if (!problem.empty())
    jitError("tcc::jit::compile_artifact: " + problem);
  return bytes;
}

CompiledModule::CompiledModule(std::shared_ptr<const Impl> impl)
    : impl_(std::move(impl)) {}

bool CompiledModule::is_compiled() const {
  return impl_->fallbackReason.empty();
}
const std::string &CompiledModule::fallback_reason() const {
  return impl_->fallbackReason;
}
const Signature &CompiledModule::signature() const { return impl_->signature; }
const CompileStats &CompiledModule::stats() const { return impl_->stats; }
int CompiledModule::num_threads() const { return impl_->numThreads; }

CompiledModule CompiledModule::with_num_threads(int numThreads) const {
  if (numThreads < 1)
    jitError("tcc::jit::CompiledModule::with_num_threads: the thread count "
             "must be positive, not " +
             std::to_string(numThreads));
  auto impl = std::make_shared<Impl>();
  impl->eager = impl_->eager;
  impl->fallbackReason = impl_->fallbackReason;
  impl->signature = impl_->signature;
  impl->stats = impl_->stats;
  impl->numThreads = numThreads;
  impl->device = impl_->device;
  impl->model = impl_->model;
  if (is_compiled() && numThreads > 1 && !impl->device) {
    runtime::Status s = sharedPool(numThreads, &impl->pool);
    if (!s.ok())
      jitError("tcc::jit::CompiledModule::with_num_threads: cannot create a "
               "pool of " +
               std::to_string(numThreads) + " threads: " + s.message());
  }
  return CompiledModule(std::move(impl));
}

std::vector<Tensor>
CompiledModule::forward(const std::vector<Tensor> &inputs) const {
  const Impl &impl = *impl_;
  if (!is_compiled())
    return impl.eager(inputs);

  const std::vector<TensorSpec> &specs = impl.signature.inputs;
  if (inputs.size() != specs.size())
    jitError("tcc::jit::compile: the compiled program takes " +
             std::to_string(specs.size()) + " inputs, " +
             std::to_string(inputs.size()) + " were given");
  std::vector<Tensor> bound(inputs.size());
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &x = inputs[i];
    const TensorSpec &spec = specs[i];
    std::string which = "input " + std::to_string(i) + " ('" + spec.name + "')";
    if (!x.defined())
      jitError("tcc::jit::compile: " + which + " is an undefined tensor");
    if (!x.is_cpu())
      jitError("tcc::jit::compile: " + which +
               " is not on the CPU (compiled models run on CPU tensors)");
    if (x.scalar_type() != spec.dtype)
      jitError("tcc::jit::compile: " + which + " has dtype " +
               toString(x.scalar_type()) + ", the program was compiled for " +
               toString(spec.dtype));
    if (x.sizes().vec() != spec.shape)
      jitError("tcc::jit::compile: " + which + " has shape " +
               shapeString(x.sizes()) + ", the program was compiled for " +
               shapeString(spec.shape) + " (compile again for other shapes)");
    bound[i] = x.contiguous();
  }

  runtime::Session session;
  {
    std::lock_guard<std::mutex> lock(impl.sessionsMutex);
    if (!impl.idleSessions.empty()) {
      session = std::move(impl.idleSessions.back());
      impl.idleSessions.pop_back();
    }
  }
  if (!session) {
    runtime::Status s = impl.model.createSession(
        impl.pool ? impl.pool.parallel() : nullptr, &session, impl.device);
    if (!s.ok())
      throwRunError(s.message());
  }

  std::vector<Tensor> outputs;
  runtime::Status status;
  for (size_t i = 0; i < bound.size() && status.ok(); ++i)
    status = session.bindInput(i, bound[i].data_ptr(), bound[i].nbytes());
  for (size_t i = 0; i < impl.signature.outputs.size() && status.ok(); ++i) {
    const TensorSpec &spec = impl.signature.outputs[i];
    outputs.push_back(empty(spec.shape, spec.dtype));
    status = session.bindOutput(i, outputs.back().data_ptr(),
                                outputs.back().nbytes());
  }
  if (status.ok())
    status = session.run();
  // The session keeps pointers to the buffers: unbind the outputs, which
  // belong to the caller now (inputs are rebound on every call).
  for (size_t i = 0; i < outputs.size(); ++i)
    (void)session.bindOutput(i, nullptr, 0); // cannot fail: index in range
  if (!status.ok())
    throwRunError(status.message());
  {
    std::lock_guard<std::mutex> lock(impl.sessionsMutex);
    impl.idleSessions.push_back(std::move(session));
  }
  return outputs;
}

} // namespace jit
} // namespace tcc
