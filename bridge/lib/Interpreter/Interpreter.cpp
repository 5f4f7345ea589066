//===- Interpreter.cpp - Running tcc functions with the eager ops ---------===//
//
// Walks a function's single block in order with a plain loop (no MLIR walk
// callbacks, so the eager ops' exceptions never unwind through MLIR frames),
// runs each op's interpreter mapping and checks that the tensor it returns
// has the op's result type.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"
#include "ModuleState.h"
#include "Types.h"

#include "tcc/Frontend/OpObserver.h"
#include "tcc/IR/EntryFunction.h"
#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Support/InputGuards.h"
#include "tcc/jit/Interpreter.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Alignment.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>

namespace tcc {
namespace jit {

namespace {

/// Parses a module from `buffer` with the checks of tcc's tools (nesting
/// and size limits, verifier), on a large stack.
std::shared_ptr<const ModuleState>
loadModule(std::unique_ptr<llvm::MemoryBuffer> buffer, const std::string &what,
           const mlir::tcc::InputLimits &limits = {}) {
  auto state = std::make_shared<ModuleState>();
  state->context = makeContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  {
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, state->context.get(),
                                             os);
    mlir::tcc::runWithLargeStack([&] {
      state->module =
          mlir::tcc::parseModelFile(sourceMgr, state->context.get(), limits);
      return 0;
    });
  }
  if (!state->module)
    jitError("cannot load " + what + ":\n" + diagnostics);
  return state;
}

std::string functionList(mlir::ModuleOp module) {
  std::string names;
  for (auto fn : module.getOps<mlir::func::FuncOp>())
    names += (names.empty() ? "'" : ", '") + fn.getSymName().str() + "'";
  return names.empty() ? "none" : names;
}

mlir::func::FuncOp findFunction(const ModuleState &state,
                                const std::string &name) {
  mlir::ModuleOp module = state.module.get();
  auto fn = module.lookupSymbol<mlir::func::FuncOp>(name);
  if (!fn)
    jitError("tcc::jit::Interpreter: the module has no function '" + name +
             "' (functions: " + functionList(module) + ")");
  if (fn.isDeclaration())
    jitError("tcc::jit::Interpreter: function '" + name +
             "' is a declaration without a body");
  return fn;
}

TensorSpec specOf(mlir::Type type, mlir::StringAttr name,
                  const std::string &fallback) {
  auto tensor = mlir::dyn_cast<mlir::RankedTensorType>(type);
  std::optional<ScalarType> dtype =
      tensor ? scalarTypeOf(tensor.getElementType()) : std::nullopt;
  if (!dtype)
    jitError("tcc::jit::Interpreter: " + fallback + " has type " +
             describe(type) + ", which has no eager dtype");
  TensorSpec spec;
  spec.name = name ? name.getValue().str() : fallback;
  spec.dtype = *dtype;
  spec.shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  return spec;
}

class ValueTable final : public InterpretContext {
public:
  Tensor operator()(mlir::Value v) const override {
    if (!v)
      return Tensor();
    auto it = values.find(v);
    if (it == values.end())
      jitError("tcc::jit::Interpreter: a value is used before it is "
               "computed");
    return it->second;
  }
  using InterpretContext::operator();
  llvm::DenseMap<mlir::Value, Tensor> values;
};

std::string locationOf(mlir::Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->getLoc().print(os);
  return text;
}

/// `result` if it has `value`'s type; an error naming the op otherwise.
const Tensor &checkResult(mlir::Operation *op, mlir::Value value,
                          const Tensor &result, const std::string &where) {
  mlir::Type type = value.getType();
  auto tensorType = mlir::cast<mlir::RankedTensorType>(type);
  if (!result.defined() ||
      scalarTypeOf(tensorType.getElementType()) != result.dtype() ||
      !IntArrayRef(result.sizes())
           .equals(IntArrayRef(tensorType.getShape().data(),
                               tensorType.getShape().size())))
    jitError(where + "'" + op->getName().getStringRef().str() + "' at " +
             locationOf(op) + " gave " +
             (result.defined() ? describe(result) : "nothing") +
             " for a result of type " + describe(type));
  return result;
}

bool sharesStorage(const Tensor &a, const Tensor &b) {
  return a.unsafeGetTensorImpl()->storage == b.unsafeGetTensorImpl()->storage;
}

/// Runs `block`'s ops in order with the values in `table` and returns the
/// operands of its terminator (func.return or tcc.yield). A tcc.fusion runs
/// its body as a nested block: fusion changes how code is generated, not
/// what it computes.
std::vector<Tensor> runBlock(const ModuleState &state, mlir::Block &block,
                             ValueTable &table, std::vector<Tensor> &constants,
                             const std::string &where) {
  const InterpreterRegistry &registry = interpreterRegistry();
  for (mlir::Operation &op : block) {
    llvm::StringRef name = op.getName().getStringRef();
    if (llvm::isa<mlir::func::ReturnOp, mlir::tcc::YieldOp>(op))
      return table(op.getOperands());
    if (auto fusion = llvm::dyn_cast<mlir::tcc::FusionOp>(op)) {
      ValueTable inner;
      mlir::Block &fusedBody = fusion.getBlock();
      for (auto [arg, input] :
           llvm::zip_equal(fusedBody.getArguments(), fusion.getInputs()))
        inner.values[arg] = table(input);
      std::vector<Tensor> fused = runBlock(state, fusedBody, inner, constants, where);
      for (auto [result, tensor] : llvm::zip_equal(op.getResults(), fused))
        table.values[result] = checkResult(&op, result, tensor, where);
      continue;
    }
    const InterpretFn *interpret = registry.find(name);
    if (!interpret)
      jitError(where + "no interpreter mapping for '" + name.str() + "' at " +
               locationOf(&op));
    if (op.getNumResults() != 1)
      jitError(where + "'" + name.str() + "' has " +
               std::to_string(op.getNumResults()) + " results, expected 1");
    Tensor result;
    try {
      if (llvm::isa<mlir::tcc::ConstantOp>(op)) {
        std::lock_guard<std::mutex> lock(state.constantsMutex);
        Tensor &cached = state.constants[&op];
        if (!cached.defined())
          cached = (*interpret)(&op, table);
        result = cached;
        constants.push_back(result);
      } else {
        result = (*interpret)(&op, table);
      }
    } catch (const JitError &) {
      throw;
    } catch (const Error &e) {
      jitError(where + "'" + name.str() + "' at " + locationOf(&op) +
               " failed: " + e.what());
    }
    table.values[op.getResult(0)] =
        checkResult(&op, op.getResult(0), result, where);
  }
  jitError(where + "a block ends without a terminator");
}

} // namespace

Interpreter::Interpreter(std::shared_ptr<const ModuleState> state)
    : state_(std::move(state)) {}
Interpreter::~Interpreter() = default;

/// Bytecode with dense_resource blobs is read in place: its buffer must be
/// aligned to the largest blob alignment (the tracer writes 64).
constexpr uint64_t kBufferAlignment = 64;

Interpreter Interpreter::load(const std::string &path,
                              const LoadOptions &options) {
  if (std::string problem = mlir::tcc::checkInputPath(path); !problem.empty())
    jitError("tcc::jit::Interpreter: " + problem);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/true,
                                  /*IsVolatile=*/false,
                                  llvm::Align(kBufferAlignment));
  if (!buffer)
    jitError(path + ": cannot open: " + buffer.getError().message());
  mlir::tcc::InputLimits limits;
  limits.allowBytecode = options.allowBytecode;
  return Interpreter(loadModule(std::move(*buffer), path, limits));
}

Interpreter Interpreter::parse(const std::string &text,
                               const std::string &bufferName) {
  std::unique_ptr<llvm::WritableMemoryBuffer> buffer =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(
          text.size(), bufferName, llvm::Align(kBufferAlignment));
  std::memcpy(buffer->getBufferStart(), text.data(), text.size());
  return Interpreter(loadModule(std::move(buffer), bufferName));
}

std::vector<std::string> Interpreter::functions() const {
  std::vector<std::string> names;
  for (auto fn : state_->module.get().getOps<mlir::func::FuncOp>())
    names.push_back(fn.getSymName().str());
  return names;
}

std::string Interpreter::entry() const {
  std::string error;
  mlir::func::FuncOp fn =
      mlir::tcc::findEntryFunction(state_->module.get(), "", &error);
  if (!fn)
    jitError("tcc::jit::Interpreter: no entry function: " + error);
  return fn.getSymName().str();
}

Signature Interpreter::signature(const std::string &function) const {
  mlir::func::FuncOp fn = findFunction(*state_, function);
  Signature sig;
  for (unsigned i = 0; i < fn.getNumArguments(); ++i)
    sig.inputs.push_back(specOf(fn.getArgument(i).getType(),
                                fn.getArgAttrOfType<mlir::StringAttr>(
                                    i, mlir::tcc::TccDialect::kNameAttrName),
                                "input " + std::to_string(i)));
  for (unsigned i = 0; i < fn.getNumResults(); ++i)
    sig.outputs.push_back(specOf(fn.getResultTypes()[i],
                                 fn.getResultAttrOfType<mlir::StringAttr>(
                                     i, mlir::tcc::TccDialect::kNameAttrName),
                                 "output " + std::to_string(i)));
  return sig;
}

std::vector<Tensor> Interpreter::run(const std::string &function,
                                     const std::vector<Tensor> &inputs) const {
  mlir::func::FuncOp fn = findFunction(*state_, function);
  std::string where = "tcc::jit::Interpreter: " + function + ": ";
  Signature sig = signature(function);
  if (inputs.size() != sig.inputs.size())
    jitError(where + "expected " + std::to_string(sig.inputs.size()) +
             " inputs, got " + std::to_string(inputs.size()));
  ValueTable table;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSpec &spec = sig.inputs[i];
    const Tensor &t = inputs[i];
    std::string name = "input " + std::to_string(i) + " '" + spec.name + "'";
    if (!t.defined())
      jitError(where + name + " is an undefined tensor");
    if (!t.is_cpu())
      jitError(where + name + " is not a CPU tensor");
    mlir::Type expected = fn.getArgument(unsigned(i)).getType();
    if (t.dtype() != spec.dtype || !t.sizes().equals(spec.shape))
      jitError(where + name + " must be " + describe(expected) + ", got " +
               describe(t));
    table.values[fn.getArgument(unsigned(i))] = t;
  }

  mlir::Region &body = fn.getBody();
  if (!body.hasOneBlock())
    jitError(where + "functions with more than one block are not supported");
  std::vector<Tensor> constants;
  std::vector<Tensor> results =
      runBlock(*state_, body.front(), table, constants, where);
  // Callers may write into what they get back: never hand out a cached
  // constant's memory.
  for (Tensor &r : results)
    for (const Tensor &c : constants)
      if (sharesStorage(r, c)) {
        tcc::detail::RecordPauseGuard pause;
        r = r.clone();
        break;
      }
  return results;
}

} // namespace jit
} // namespace tcc
