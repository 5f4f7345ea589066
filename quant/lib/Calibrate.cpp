//===- Calibrate.cpp - tcc::quant::calibrate and Calibration::quantize ----===//

#include "tcc/Quant/Calibrate.h"

#include "Layers.h"
#include "ModuleState.h"
#include "Rewrite.h"
#include "TracedGraphAccess.h"

#include "tcc/IR/TccOps.h"
#include "tcc/Passes/Passes.h"

#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstring>

namespace tcc {
namespace quant {

struct CalibrationState {
  std::string function;
  std::shared_ptr<const jit::ModuleState> folded;
  std::optional<jit::TracedGraph> foldedGraph;
  std::vector<LayerInfo> layers;
  std::vector<detail::LayerRanges> ranges;
  CalibrationOptions options;
  int64_t batches = 0, samples = 0;
};

namespace {

using detail::Layer;

/// A copy of `module` in a context of its own (weights copied).
std::shared_ptr<jit::ModuleState> copyModule(mlir::ModuleOp module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (mlir::failed(mlir::writeBytecodeToFile(module, os)))
    throw QuantError("cannot copy the module");
  os.flush();
  // The bytecode reader checks the blobs' alignment within the buffer.
  std::unique_ptr<llvm::WritableMemoryBuffer> buffer =
      llvm::WritableMemoryBuffer::getNewUninitMemBuffer(bytes.size(), "copy",
                                                        llvm::Align(64));
  std::memcpy(buffer->getBufferStart(), bytes.data(), bytes.size());
  auto state = std::make_shared<jit::ModuleState>();
  state->context = jit::makeContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  jit::DiagnosticCapture diagnostics(state->context.get());
  state->module = mlir::parseSourceFile<mlir::ModuleOp>(
      sourceMgr, mlir::ParserConfig(state->context.get()));
  if (!state->module)
    throw QuantError("cannot copy the module: " + diagnostics.text());
  return state;
}

mlir::func::FuncOp functionOf(const jit::ModuleState &state,
                              const std::string &name) {
  mlir::ModuleOp module = state.module.get();
  auto fn = module.lookupSymbol<mlir::func::FuncOp>(name);
  if (!fn || fn.isDeclaration())
    throw QuantError("the model has no function '" + name + "'");
  return fn;
}

IntegerRange integerRange(ActivationType t) {
  return t == ActivationType::U8 ? IntegerRange::u8() : IntegerRange::s8();
}

std::string describe(ScalarType dtype, const std::vector<int64_t> &shape) {
  std::string s = std::string(toString(dtype)) + "[";
  for (size_t i = 0; i < shape.size(); ++i)
    s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

void checkBatch(const Batch &batch, int64_t index, const jit::Signature &sig) {
  std::string where = "calibration batch " + std::to_string(index);
  if (batch.size() != sig.inputs.size())
    throw QuantError(where + " has " + std::to_string(batch.size()) +
                     " tensors; the model takes " +
                     std::to_string(sig.inputs.size()) + " inputs");
  for (size_t i = 0; i < batch.size(); ++i) {
    const jit::TensorSpec &spec = sig.inputs[i];
    std::vector<int64_t> shape = batch[i].sizes().vec();
    if (batch[i].scalar_type() != spec.dtype || shape != spec.shape)
      throw QuantError(where + ": input '" + spec.name + "' is " +
                       describe(batch[i].scalar_type(), shape) +
                       "; the model takes " + describe(spec.dtype, spec.shape));
  }
}

/// The folded model with every layer's inputs and output appended to its
/// results; `slot[layer][role]` is the result index of each (role: inputs,
/// then output).
struct Instrumented {
  std::shared_ptr<jit::ModuleState> state;
  size_t modelResults = 0;
  std::vector<std::vector<size_t>> slot;
  size_t observed = 0;
};

Instrumented instrument(const jit::ModuleState &folded,
                        const std::string &function) {
  Instrumented out;
  out.state = copyModule(folded.module.get());
  mlir::func::FuncOp fn = functionOf(*out.state, function);
  std::vector<Layer> layers = detail::findLayers(fn);
  llvm::DenseMap<mlir::Value, size_t> index;
  std::vector<mlir::Value> values;
  auto slotOf = [&](mlir::Value v) {
    auto [it, inserted] = index.try_emplace(v, values.size());
    if (inserted)
      values.push_back(v);
    return it->second;
  };
  for (const Layer &layer : layers) {
    std::vector<size_t> slots;
    for (mlir::Value v : layer.inputs)
      slots.push_back(slotOf(v));
    slots.push_back(slotOf(layer.output));
    out.slot.push_back(std::move(slots));
  }
  auto ret = llvm::cast<mlir::func::ReturnOp>(
      fn.getBody().front().getTerminator());
  out.modelResults = ret.getNumOperands();
  for (mlir::Value v : values) {
    fn.insertResult(fn.getNumResults(), v.getType(),
                    mlir::DictionaryAttr::get(fn.getContext()));
    ret->insertOperands(ret.getNumOperands(), v);
  }
  out.observed = values.size();
  return out;
}

} // namespace

BatchLoader loaderOf(std::vector<Batch> batches) {
  auto held = std::make_shared<std::vector<Batch>>(std::move(batches));
  return [held](const std::function<void(const Batch &)> &visit) {
    for (const Batch &b : *held)
      visit(b);
  };
}

Calibration::Calibration(std::unique_ptr<CalibrationState> state)
    : state_(std::move(state)) {}
Calibration::Calibration(Calibration &&) noexcept = default;
Calibration &Calibration::operator=(Calibration &&) noexcept = default;
Calibration::~Calibration() = default;

const std::vector<LayerInfo> &Calibration::layers() const {
  return state_->layers;
}
const jit::TracedGraph &Calibration::folded() const {
  return *state_->foldedGraph;
}
int64_t Calibration::batches() const { return state_->batches; }
int64_t Calibration::samples() const { return state_->samples; }
const CalibrationOptions &Calibration::options() const {
  return state_->options;
}

Calibration calibrate(const jit::TracedGraph &traced, const BatchLoader &loader,
                      const CalibrationOptions &options) {
  auto state = std::make_unique<CalibrationState>();
  state->function = traced.function_name();
  state->options = options;
  jit::Signature signature = traced.signature();

  // Batch norm folds into the conv/linear before it first, so that the
  // weights quantized are the ones that run.
  std::shared_ptr<jit::ModuleState> folded =
      copyModule(jit::TracedGraphAccess::state(traced).module.get());
  {
    jit::DiagnosticCapture diagnostics(folded->context.get());
    mlir::PassManager pm(folded->context.get());
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldBatchNorm());
    if (mlir::failed(pm.run(folded->module.get())))
      throw QuantError("folding batch norm failed: " + diagnostics.text());
  }
  for (const Layer &layer :
       detail::findLayers(functionOf(*folded, state->function)))
    state->layers.push_back({layer.name, layer.kind});
  state->folded = folded;
  state->foldedGraph = jit::TracedGraphAccess::make(folded, state->function);

  Instrumented inst = instrument(*folded, state->function);
  jit::Interpreter interpreter(
      jit::TracedGraphAccess::make(inst.state, state->function));
  ObserverOptions observerOptions;
  observerOptions.kind = options.observer;
  observerOptions.percentile = options.percentile;
  observerOptions.type = integerRange(options.activations);
  std::vector<std::unique_ptr<Observer>> observers;
  for (size_t i = 0; i < inst.observed; ++i)
    observers.push_back(makeObserver(observerOptions));

  auto pass = [&](bool histogram) {
    int64_t index = 0;
    loader([&](const Batch &batch) {
      checkBatch(batch, index++, signature);
      std::vector<Tensor> results =
          interpreter.run(state->function, batch);
      for (size_t i = 0; i < inst.observed; ++i) {
        Tensor t = results[inst.modelResults + i].contiguous();
        if (histogram)
          observers[i]->observeHistogram(t.data_ptr<float>(), t.numel());
        else
          observers[i]->observeExtremes(t.data_ptr<float>(), t.numel());
      }
      if (!histogram) {
        ++state->batches;
        state->samples += batch.empty() || batch[0].dim() == 0
                              ? 1
                              : batch[0].size(0);
      }
    });
  };
  pass(false);
  if (state->batches == 0)
    throw QuantError("no calibration data: the loader gave no batches");
  if (observerOptions.kind != ObserverKind::MinMax) {
    for (auto &o : observers)
      o->setHistogramRange();
    pass(true);
  }
  for (const std::vector<size_t> &slots : inst.slot) {
    detail::LayerRanges r;
    for (size_t i = 0; i + 1 < slots.size(); ++i)
      r.inputs.push_back(observers[slots[i]]->range());
    r.output = observers[slots.back()]->range();
    state->ranges.push_back(std::move(r));
  }
  return Calibration(std::move(state));
}

jit::TracedGraph
Calibration::quantize(const std::set<std::string> &fp32Layers) const {
  std::vector<bool> int8(state_->layers.size(), true);
  std::set<std::string> unknown = fp32Layers;
  for (size_t i = 0; i < state_->layers.size(); ++i)
    if (unknown.erase(state_->layers[i].name))
      int8[i] = false;
  if (!unknown.empty())
    throw QuantError("no layer named '" + *unknown.begin() + "'");
  std::shared_ptr<jit::ModuleState> copy =
      copyModule(state_->folded->module.get());
  mlir::func::FuncOp fn = functionOf(*copy, state_->function);
  detail::quantizeLayers(fn, detail::findLayers(fn), state_->ranges, int8,
                         integerRange(state_->options.activations));
  jit::DiagnosticCapture diagnostics(copy->context.get());
  if (mlir::failed(mlir::verify(copy->module.get())))
    throw QuantError("the quantized module does not verify: " +
                     diagnostics.text());
  return jit::TracedGraphAccess::make(copy, state_->function);
}

} // namespace quant
} // namespace tcc
