//===- Tracer.cpp - Recording eager op calls as a tcc function ------------===//

#include "Tracer.h"
#include "TraceRegistry.h"
#include "TraceContext.h"
#include "Types.h"

#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"

#include "mlir/IR/Verifier.h"

#include <iostream>
#include <set>

namespace tcc {
namespace jit {

namespace {
std::shared_ptr<ModuleState> newModuleState() {
  auto state = std::make_shared<ModuleState>();
  state->context = makeContext();
  state->module =
      mlir::ModuleOp::create(mlir::UnknownLoc::get(state->context.get()));
  return state;
}
} // namespace

Tracer::Tracer(const std::vector<Tensor> &inputs, const TraceOptions &options)
    : options_(options), state_(newModuleState()),
      builder_(state_->context.get()), constBuilder_(state_->context.get()),
      location_(mlir::UnknownLoc::get(state_->context.get())) {
  mlir::MLIRContext *ctx = context();
  if (options_.function_name.empty())
    fail("the function name is empty");
  if (options_.input_names.size() > inputs.size())
    fail(std::to_string(options_.input_names.size()) +
         " input names given for " + std::to_string(inputs.size()) + " inputs");
  llvm::SmallVector<mlir::Type> argTypes;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &t = inputs[i];
    std::string what = "input " + std::to_string(i);
    if (!t.defined())
      fail(what + " is an undefined tensor");
    if (!t.is_cpu())
      fail(what + " is not a CPU tensor");
    argTypes.push_back(tensorTypeOf(ctx, t.sizes(), t.dtype(), what));
    inputNames_.push_back(i < options_.input_names.size()
                              ? options_.input_names[i]
                              : "input" + std::to_string(i));
  }
  function_ =
      mlir::func::FuncOp::create(location_, options_.function_name,
                                 mlir::FunctionType::get(ctx, argTypes, {}));
  state_->module->push_back(function_);
  mlir::Block *entry = function_.addEntryBlock();
  builder_.setInsertionPointToEnd(entry);
  constBuilder_.setInsertionPointToStart(entry);
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!values_.count(inputs[i].unsafeGetTensorImpl()))
      setValue(inputs[i], entry->getArgument(unsigned(i)), "input");
}

void Tracer::nameConstant(const std::string &name, const Tensor &tensor) {
  if (tensor.defined())
    names_.emplace(tensor.unsafeGetTensorImpl(), std::make_pair(name, tensor));
}

void Tracer::setValue(const Tensor &t, mlir::Value v,
                      const std::string &producer) {
  values_[t.unsafeGetTensorImpl()] = Entry{t, v, t._version(), producer};
}

void Tracer::fail(const std::string &why) const {
  if (currentOp_)
    jitError("tcc::jit::trace: cannot trace '" + std::string(currentOp_) +
             "' (op " + std::to_string(opCount_) + " of the program): " + why);
  jitError("tcc::jit::trace: " + why);
}

std::string Tracer::constantName(const Tensor &t) {
  auto it = names_.find(t.unsafeGetTensorImpl());
  if (it != names_.end())
    return it->second.first;
  return "const" + std::to_string(unnamedConstants_++);
}

mlir::Value Tracer::constantOp(mlir::ElementsAttr value) {
  auto op = constBuilder_.create<mlir::tcc::ConstantOp>(
      location_, value.getShapedType(), value);
  constBuilder_.setInsertionPointAfter(op);
  return op.getResult();
}

mlir::Value Tracer::valueOf(const Tensor &t, bool checkVersion) {
  auto it = values_.find(t.unsafeGetTensorImpl());
  if (it != values_.end()) {
    if (checkVersion && it->second.version != t._version())
      fail("it reads a tensor (" + describe(t) + ", from '" +
           it->second.producer +
           "') that was modified in place where the trace cannot see it (an "
           "in-place op on a view of it, or a write through data_ptr()); "
           "the traced graph would use its old value");
    return it->second.value;
  }
  // Neither an input nor recorded: the program's constant (a parameter, a
  // buffer, a tensor made by a factory).
  if (!t.is_cpu())
    fail("it reads a tensor that is not on the CPU");
  if (!elementTypeOf(context(), t.dtype()))
    fail(missingDtypeMessage("a constant it reads", t.dtype()));
  mlir::RankedTensorType type =
      tensorTypeOf(context(), t.sizes(), t.dtype(), "");
  bool named = names_.count(t.unsafeGetTensorImpl()) != 0;
  mlir::Value v;
  if (t.dim() == 0 && !named)
    v = constantOp(denseAttrOf(type, t));
  else
    v = constantOp(resourceAttrOf(type, constantName(t), t));
  setValue(t, v,
           named ? "parameter " + names_[t.unsafeGetTensorImpl()].first
                 : "a constant");
  return v;
}

void Tracer::onOp(const tcc::detail::OpCall &call) {
  ++opCount_;
  currentOp_ = call.op.name;
  location_ =
      mlir::NameLoc::get(mlir::StringAttr::get(context(), call.op.name));
  const TraceRegistry::TraceEntry *entry =
      traceRegistry().findTrace(call.op.name);
  if (!entry)
    fail("the bridge has no trace mapping for this eager op (mappings live "
         "in bridge/lib/Jit/Ops/)");
  if (!entry->fn)
    fail(entry->untraceable);
  TraceContext ctx(*this, call);
  std::vector<mlir::Value> results;
  try {
    results = entry->fn(ctx);
  } catch (const JitError &) {
    throw;
  } catch (const Error &e) {
    fail(std::string("the eager library rejected a step of its mapping: ") +
         e.what());
  }
  if (results.size() != call.outputs.size())
    fail("its mapping gives " + std::to_string(results.size()) +
         " values for " + std::to_string(call.outputs.size()) + " outputs");
  for (size_t i = 0; i < results.size(); ++i) {
    const Tensor &out = call.outputs[i];
    if (!out.defined())
      continue;
    mlir::Value v = results[i];
    if (TraceContext::dtypeOf(v) != out.dtype())
      v = ctx.cast(v, out.dtype());
    if (!elementTypeOf(context(), out.dtype()))
      fail(missingDtypeMessage("its output " + std::to_string(i), out.dtype()));
    std::vector<int64_t> shape = TraceContext::shapeOf(v);
    if (!IntArrayRef(shape).equals(out.sizes()))
      fail("its mapping gives " + describe(v.getType()) + " for output " +
           std::to_string(i) + ", but the eager op returned " + describe(out));
    setValue(out, v, call.op.name);
  }
  currentOp_ = nullptr;
}

void Tracer::onDataRead(const Tensor &t, const char *what) {
  auto it = values_.find(t.unsafeGetTensorImpl());
  std::string source;
  if (it == values_.end())
    source = "a tensor the trace has not seen (" + describe(t) + ")";
  else if (it->second.producer == "input")
    source = "an input (" + describe(t) + ")";
  else if (it->second.producer.rfind("parameter", 0) == 0 ||
           it->second.producer == "a constant")
    source = it->second.producer + " (" + describe(t) + ")";
  else
    source = "the " + describe(t) + " result of '" + it->second.producer + "'";
  std::string message =
      std::string(what) + "() reads the value of " + source +
      " while tracing: the traced graph keeps the value seen now (as a "
      "constant or a fixed branch) and may not generalize to other inputs";
  if (options_.strict)
    jitError("tcc::jit::trace: error: " + message +
             " (strict tracing forbids data-dependent reads)");
  warnings_.push_back(message);
  if (options_.print_warnings)
    std::cerr << "tcc::jit::trace: warning: " << message << "\n";
}

std::shared_ptr<ModuleState>
Tracer::finish(const std::vector<Tensor> &outputs) {
  currentOp_ = nullptr;
  location_ = mlir::UnknownLoc::get(context());
  if (options_.output_names.size() > outputs.size())
    fail(std::to_string(options_.output_names.size()) +
         " output names given for " + std::to_string(outputs.size()) +
         " outputs");
  llvm::SmallVector<mlir::Value> results;
  std::vector<std::string> outputNames;
  for (size_t i = 0; i < outputs.size(); ++i) {
    if (!outputs[i].defined())
      fail("output " + std::to_string(i) + " is an undefined tensor");
    results.push_back(valueOf(outputs[i], /*checkVersion=*/true));
    outputNames.push_back(i < options_.output_names.size()
                              ? options_.output_names[i]
                              : "output" + std::to_string(i));
  }
  builder_.create<mlir::func::ReturnOp>(location_, results);
  // Scalars converted to another dtype leave their first literal unused.
  for (mlir::Operation &op :
       llvm::make_early_inc_range(function_.getBody().front()))
    if (llvm::isa<mlir::tcc::ConstantOp>(op) && op.use_empty())
      op.erase();
  function_.setType(
      mlir::FunctionType::get(context(), function_.getArgumentTypes(),
                              mlir::ValueRange(results).getTypes()));

  std::set<std::string> used;
  auto nameAttr = [&](const std::string &name, const std::string &what) {
    if (name.empty())
      fail(what + " has an empty name");
    if (!used.insert(name).second)
      fail(what + " is named '" + name +
           "', which another input or output already has");
    return mlir::StringAttr::get(context(), name);
  };
  for (size_t i = 0; i < inputNames_.size(); ++i)
    function_.setArgAttr(
        unsigned(i), mlir::tcc::TccDialect::kNameAttrName,
        nameAttr(inputNames_[i], "input " + std::to_string(i)));
  for (size_t i = 0; i < outputNames.size(); ++i)
    function_.setResultAttr(
        unsigned(i), mlir::tcc::TccDialect::kNameAttrName,
        nameAttr(outputNames[i], "output " + std::to_string(i)));

  DiagnosticCapture diagnostics(context());
  if (mlir::failed(mlir::verify(state_->module.get())))
    fail("internal error: the traced module does not verify:\n" +
         diagnostics.text());
  values_.clear();
  names_.clear();
  return state_;
}

} // namespace jit
} // namespace tcc
