//===- Record.cpp - Grad mode, the observer hook, op registry, history ----===//

#include "Record.h"
#include "AccumulateGrad.h"

#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Functions.h"

#include <mutex>
#include <unordered_map>

namespace tcc {

namespace {
thread_local bool gradModeEnabled = true;
thread_local detail::OpObserver *observer = nullptr;
thread_local bool recordingPaused = false;
} // namespace

bool GradMode::is_enabled() { return gradModeEnabled; }
void GradMode::set_enabled(bool enabled) { gradModeEnabled = enabled; }

namespace detail {

OpObserver::~OpObserver() = default;
OpObserver *currentObserver() { return observer; }
OpObserver *setObserver(OpObserver *o) {
  OpObserver *prev = observer;
  observer = o;
  return prev;
}
bool isRecording() { return observer != nullptr && !recordingPaused; }

RecordPauseGuard::RecordPauseGuard() : wasPaused_(recordingPaused) {
  recordingPaused = true;
}
RecordPauseGuard::~RecordPauseGuard() { recordingPaused = wasPaused_; }

AttrValue scalarAttr(const Scalar &s) {
  if (s.isFloatingPoint())
    return s.toDouble();
  if (s.isBoolean())
    return s.toBool();
  return s.toLong();
}

void notifyDataRead(const Tensor &t, const char *what) {
  if (observer && !recordingPaused)
    observer->onDataRead(t, what);
}

void notifyObserver(const OpDef &op, TensorList inputs, const AttrList &attrs,
                    TensorList outputs, bool inplace) {
  OpCall call{op, inputs, attrs, outputs, inplace};
  // The observer's own tensor work must not be reported back to it.
  RecordPauseGuard pause;
  observer->onOp(call);
}

// --- Op registry ------------------------------------------------------------

// Each op family's registration function, listed once here.
void registerCopyOps();
void registerViewOps();
void registerBinaryOps();
void registerUnaryOps();
void registerReductionOps();
void registerLinalgOps();
void registerNNOps();
void registerQuantizationOps();

namespace {
struct Registry {
  std::vector<const OpDef *> ops;
  std::unordered_map<std::string_view, const OpDef *> byName;
};
Registry &registry() {
  static Registry r;
  return r;
}
void registerAll() {
  registerCopyOps();
  registerViewOps();
  registerBinaryOps();
  registerUnaryOps();
  registerReductionOps();
  registerLinalgOps();
  registerNNOps();
  registerQuantizationOps();
}
const Registry &loadedRegistry() {
  static std::once_flag once;
  std::call_once(once, registerAll);
  return registry();
}
} // namespace

void registerOp(const OpDef &op) {
  Registry &r = registry();
  TCC_CHECK(!r.byName.count(op.name), "op '", op.name,
            "' is registered twice");
  r.ops.push_back(&op);
  r.byName[op.name] = &op;
}

const std::vector<const OpDef *> &registeredOps() {
  return loadedRegistry().ops;
}

const OpDef *findOp(std::string_view name) {
  const Registry &r = loadedRegistry();
  auto it = r.byName.find(name);
  return it == r.byName.end() ? nullptr : it->second;
}

// --- History ------------------------------------------------------------------

variable_list FunctionNode::apply(variable_list &&grads) {
  if (!formula_)
    throwError(
        "Trying to backward through the graph a second time (or directly "
        "access saved tensors after they have already been freed). Saved "
        "intermediate values of the graph are freed when you call "
        ".backward() or autograd.grad(). Specify retain_graph=True if you "
        "need to backward through the graph a second time or if you need to "
        "access saved tensors after calling backward.");
  return formula_(*this, grads);
}

void collectNextEdges(autograd::Node &node, TensorList inputs) {
  for (const Tensor &t : inputs) {
    autograd::InputMetadata meta;
    if (t.defined()) {
      meta.sizes = t.sizes();
      meta.dtype = t.dtype();
    }
    if (t.defined() && t.requires_grad())
      node.add_next_edge(autograd::gradientEdge(t), std::move(meta));
    else
      node.add_next_edge(autograd::Edge(), std::move(meta));
  }
}

void setHistory(const Tensor &out, const std::shared_ptr<autograd::Node> &node,
                uint32_t outputNr) {
  autograd::AutogradMeta &meta = autograd::autogradMeta(out);
  meta.grad_fn = node;
  meta.output_nr = outputNr;
  meta.requires_grad = false; // derived from grad_fn
}

std::shared_ptr<FunctionNode> makeNode(const OpDef &op, TensorList inputs,
                                       FunctionNode::Formula formula) {
  auto node = std::make_shared<FunctionNode>(op.backward, std::move(formula));
  collectNextEdges(*node, inputs);
  return node;
}

void checkInplace(const Tensor &self, TensorList others) {
  checkDefined(self, "in-place operation");
  if (!GradMode::is_enabled())
    return;
  if (self.requires_grad() && self.is_leaf() && !self.is_view())
    throwError("a leaf Variable that requires grad is being used in an "
               "in-place operation.");
  if (self.is_view()) {
    Tensor base = self._base();
    if (base.requires_grad() && base.is_leaf())
      throwError("a view of a leaf Variable that requires grad is being used "
                 "in an in-place operation.");
  }
}

namespace {
/// Gradient of an in-place write into a view of `base`: the base's old
/// gradient outside the view's elements, the new value's inside.
class CopySlices : public autograd::Node {
public:
  CopySlices(DimVector sizes, DimVector strides, int64_t offset)
      : sizes_(std::move(sizes)), strides_(std::move(strides)),
        offset_(offset) {}
  std::string name() const override { return "CopySlices"; }
  variable_list apply(variable_list &&grads) override {
    const Tensor &g = grads[0];
    Tensor gc = g.contiguous();
    variable_list out(2);
    if (needs_input_grad(0)) {
      Tensor gb = gc.clone();
      gb.as_strided(sizes_, strides_, offset_).zero_();
      out[0] = gb;
    }
    if (needs_input_grad(1))
      out[1] = gc.as_strided(sizes_, strides_, offset_).clone();
    return out;
  }

private:
  DimVector sizes_, strides_;
  int64_t offset_;
};
} // namespace

void inplaceWithGrad(const Tensor &self, TensorList inputs,
                     const std::function<Tensor(const Tensor &)> &functional,
                     bool savesSelf) {
  Tensor value = savesSelf ? self.clone() : self;
  Tensor result = functional(value);
  if (result.dtype() != self.dtype())
    result = result.to(self.dtype());
  {
    BelowAutograd below;
    self.copy_(result);
  }
  TensorImpl *impl = self.unsafeGetTensorImpl();
  if (!impl->base) {
    setHistory(self, result.grad_fn(), result.output_nr());
    return;
  }
  // A view: the base takes a CopySlices node; the view then views the base.
  Tensor base = self._base();
  TensorImpl *b = base.unsafeGetTensorImpl();
  TCC_CHECK(base.is_contiguous() && b->storageOffset == 0,
            "in-place operation with autograd on a view of a base tensor "
            "that is not contiguous is not supported");
  auto node = std::make_shared<CopySlices>(impl->sizes, impl->strides,
                                           impl->storageOffset);
  collectNextEdges(*node, {base, result});
  setHistory(base, node, 0);
  Tensor regenerated =
      base.as_strided(impl->sizes, impl->strides, impl->storageOffset);
  setHistory(self, regenerated.grad_fn(), 0);
}

} // namespace detail
} // namespace tcc
