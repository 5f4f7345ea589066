//===- Node.cpp - Backward nodes, saved variables, gradient accumulation --===//

#include "AccumulateGrad.h"
#include "Record.h"

#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Autograd/Autograd.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"

namespace tcc {
namespace autograd {

namespace {
thread_local uint64_t nextSequenceNr = 0;
}

Node::Node() : sequenceNr_(nextSequenceNr++) {}

namespace {
thread_local std::vector<std::shared_ptr<Node>> *dying = nullptr;
} // namespace

void releaseNode(std::shared_ptr<Node> &&node) {
  if (!node)
    return;
  if (node.use_count() > 1) {
    node.reset();
    return;
  }
  if (dying) { // inside a drain loop: queue instead of recursing
    dying->push_back(std::move(node));
    return;
  }
  std::vector<std::shared_ptr<Node>> queue;
  dying = &queue;
  queue.push_back(std::move(node));
  while (!queue.empty()) {
    std::shared_ptr<Node> n = std::move(queue.back());
    queue.pop_back();
    n.reset(); // its destructor queues what it held last
  }
  dying = nullptr;
}

Node::~Node() {
  for (Edge &e : nextEdges_)
    releaseNode(std::move(e.function));
  for (auto *hooks : {&preHooks_, &retainHooks_})
    hooks->clear();
}

AutogradMeta::~AutogradMeta() { releaseNode(std::move(grad_fn)); }

AutogradMeta &autogradMeta(const Tensor &t) {
  TensorImpl *impl = t.unsafeGetTensorImpl();
  if (!impl->autograd)
    impl->autograd = std::make_unique<AutogradMeta>();
  return *impl->autograd;
}

std::shared_ptr<Node> gradAccumulator(const Tensor &leaf) {
  AutogradMeta &meta = autogradMeta(leaf);
  if (auto acc = meta.grad_accumulator.lock())
    return acc;
  auto acc = std::make_shared<AccumulateGrad>(leaf);
  meta.grad_accumulator = acc;
  return acc;
}

std::shared_ptr<Node> impl::grad_accumulator(const Tensor &leaf) {
  if (!leaf.defined() || !leaf.requires_grad() || !leaf.is_leaf())
    return nullptr;
  return gradAccumulator(leaf);
}

Edge gradientEdge(const Tensor &t) {
  if (const auto &fn = t.grad_fn())
    return Edge(fn, t.output_nr());
  return Edge(gradAccumulator(t), 0);
}

variable_list AccumulateGrad::apply(variable_list &&grads) {
  if (!grads.empty() && grads[0].defined())
    accumulate(variable, std::move(grads[0]));
  return {};
}

namespace {

void addToGrad(AutogradMeta &meta, Tensor grad) {
  if (!meta.grad.defined()) {
    if (GradMode::is_enabled()) {
      meta.grad = grad.clone(); // keeps the graph for create_graph
      return;
    }
    TensorImpl *g = grad.unsafeGetTensorImpl();
    bool stealable = grad.use_count() == 1 && g->storage.use_count() == 1 &&
                     grad.is_contiguous() && !g->base && !grad.grad_fn();
    meta.grad = stealable ? grad.detach() : grad.detach().clone();
    return;
  }
  if (GradMode::is_enabled())
    meta.grad = meta.grad + grad;
  else
    meta.grad.add_(grad);
}

} // namespace

void AccumulateGrad::accumulate(const Tensor &leaf, Tensor grad) {
  AutogradMeta &meta = autogradMeta(leaf);
  for (auto &hook : meta.hooks) {
    Tensor r = hook.fn(grad);
    if (r.defined())
      grad = r;
  }
  addToGrad(meta, std::move(grad));
  for (auto &hook : meta.post_accumulate_hooks)
    hook.fn(leaf);
}

// --- SavedVariable ------------------------------------------------------------

SavedVariable::SavedVariable(const Tensor &t, bool isOutput)
    : isOutput_(isOutput), wasDefined_(t.defined()) {
  if (!t.defined())
    return;
  savedVersion_ = t._version();
  if (!isOutput) {
    data_ = t;
    if (const auto &fn = t.grad_fn())
      producer_ = fn->name();
    outputNr_ = t.output_nr();
    return;
  }
  // An output: keep the data, not the grad_fn (that would be a cycle).
  TensorImpl *impl = t.unsafeGetTensorImpl();
  auto alias = std::make_shared<TensorImpl>(impl->storage, impl->dtype,
                                            impl->sizes, impl->strides,
                                            impl->storageOffset);
  alias->base = impl->base;
  data_ = Tensor(std::move(alias));
  requiresGrad_ = true;
}

void SavedVariable::reset_data() {
  data_.reset();
  released_ = true;
}

Tensor SavedVariable::unpack(const std::shared_ptr<Node> &savedFor) const {
  if (!wasDefined_)
    return Tensor();
  if (released_ || !data_.defined())
    detail::throwError(
        "Trying to backward through the graph a second time (or directly "
        "access saved tensors after they have already been freed). Saved "
        "intermediate values of the graph are freed when you call "
        ".backward() or autograd.grad(). Specify retain_graph=True if you "
        "need to backward through the graph a second time or if you need to "
        "access saved tensors after calling backward.");
  uint32_t current = data_._version();
  if (current != savedVersion_) {
    std::string producer =
        isOutput_ ? (savedFor ? savedFor->name() : std::string()) : producer_;
    std::string msg = detail::str(
        "one of the variables needed for gradient computation has been "
        "modified by an inplace operation: ",
        detail::describe(data_));
    if (!producer.empty())
      msg += detail::str(", which is output ", outputNr_, " of ", producer,
                         ",");
    msg += detail::str(" is at version ", current, "; expected version ",
                       savedVersion_, " instead.");
    if (savedFor)
      msg += " It was saved for " + savedFor->name() + ".";
    msg += " Hint: enable anomaly detection (tcc::autograd::"
           "DetectAnomalyGuard) to find the operation that failed to compute "
           "its gradient.";
    detail::throwError(msg);
  }
  if (!isOutput_)
    return data_;
  // Rebuild the output with its grad_fn: the node unpacking it.
  TensorImpl *impl = data_.unsafeGetTensorImpl();
  auto alias = std::make_shared<TensorImpl>(impl->storage, impl->dtype,
                                            impl->sizes, impl->strides,
                                            impl->storageOffset);
  alias->base = impl->base;
  Tensor out(std::move(alias));
  if (requiresGrad_ && savedFor) {
    AutogradMeta &meta = autogradMeta(out);
    meta.grad_fn = savedFor;
    meta.output_nr = outputNr_;
  }
  return out;
}

} // namespace autograd
} // namespace tcc
