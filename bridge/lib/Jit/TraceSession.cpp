//===- TraceSession.cpp - trace() and the traced graph --------------------===//

#include "ModuleState.h"
#include "Tracer.h"
#include "Types.h"

#include "tcc/IR/TccDialect.h"
#include "tcc/runtime/FileWrite.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {
namespace jit {

namespace detail {
void throwArityError(std::size_t given) {
  jitError("tcc::jit::trace: the program takes neither " +
           std::to_string(given) +
           " Tensor arguments nor one std::vector<Tensor> (" +
           std::to_string(given) + " example inputs were given; at most " +
           std::to_string(kMaxTraceArity) + " separate arguments work)");
}
} // namespace detail

// --- TraceSession -----------------------------------------------------------

struct TraceSession::State {
  std::unique_ptr<Tracer> tracer;
  tcc::detail::OpObserver *previous = nullptr;
  bool recording = false;
  std::string function;
};

TraceSession::TraceSession(const std::vector<Tensor> &inputs,
                           TraceOptions options)
    : state_(std::make_unique<State>()) {
  state_->function = options.function_name;
  state_->tracer = std::make_unique<Tracer>(inputs, options);
}

TraceSession::~TraceSession() {
  if (state_->recording)
    tcc::detail::setObserver(state_->previous);
}

void TraceSession::name_constant(const std::string &name,
                                 const Tensor &tensor) {
  state_->tracer->nameConstant(name, tensor);
}

void TraceSession::start() {
  if (state_->recording)
    jitError("tcc::jit::trace: the session is already recording");
  if (tcc::detail::currentObserver())
    jitError("tcc::jit::trace: this thread is already tracing (traces do "
             "not nest)");
  state_->previous = tcc::detail::setObserver(state_->tracer.get());
  state_->recording = true;
}

TracedGraph TraceSession::finish(const std::vector<Tensor> &outputs) {
  if (state_->recording) {
    tcc::detail::setObserver(state_->previous);
    state_->recording = false;
  }
  std::shared_ptr<ModuleState> module = state_->tracer->finish(outputs);
  return TracedGraph(std::move(module), state_->function,
                     state_->tracer->warnings());
}

// --- TracedGraph
// ---------------------------------------------------------------

TracedGraph::TracedGraph(std::shared_ptr<const ModuleState> state,
                         std::string function,
                         std::vector<std::string> warnings)
    : state_(std::move(state)), function_(std::move(function)),
      warnings_(std::move(warnings)) {}
TracedGraph::TracedGraph(TracedGraph &&) noexcept = default;
TracedGraph &TracedGraph::operator=(TracedGraph &&) noexcept = default;
TracedGraph::~TracedGraph() = default;

std::string TracedGraph::str() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  state_->module.get()->print(os);
  return text;
}

namespace {
/// Writes `bytes` to `path` whole or not at all (an existing file stays as
/// it was when writing fails), or throws naming the path.
void writeOrThrow(const std::string &path, const std::string &bytes) {
  std::string error =
      runtime::writeFileAtomically(path, bytes.data(), bytes.size());
  if (!error.empty())
    jitError("cannot write " + error);
}
} // namespace

void TracedGraph::save(const std::string &path) const {
  writeOrThrow(path, str());
}

void TracedGraph::save_bytecode(const std::string &path) const {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (mlir::failed(mlir::writeBytecodeToFile(state_->module.get(), os)))
    jitError("cannot write bytecode to " + path);
  os.flush();
  writeOrThrow(path, bytes);
}

std::vector<Tensor> TracedGraph::run(const std::vector<Tensor> &inputs) const {
  return Interpreter(*this).run(function_, inputs);
}

const std::string &TracedGraph::function_name() const { return function_; }

Signature TracedGraph::signature() const {
  return Interpreter(*this).signature(function_);
}

const std::vector<std::string> &TracedGraph::warnings() const {
  return warnings_;
}

} // namespace jit
} // namespace tcc
