//===- TensorAutograd.cpp - Tensor's autograd methods ---------------------===//

#include "AccumulateGrad.h"
#include "Record.h"

#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Functions.h"

#include <atomic>

namespace tcc {

using autograd::AutogradMeta;
using autograd::autogradMeta;

namespace {
std::atomic<unsigned> nextHookId{1};
const Tensor &undefinedTensor() {
  static const Tensor t;
  return t;
}
const std::shared_ptr<autograd::Node> &nullNode() {
  static const std::shared_ptr<autograd::Node> n;
  return n;
}
} // namespace

bool Tensor::requires_grad() const {
  const auto &meta = impl().autograd;
  return meta && (meta->requires_grad || meta->grad_fn);
}

const Tensor &Tensor::requires_grad_(bool r) const {
  if (r == requires_grad())
    return *this;
  TCC_CHECK(is_leaf(), "you can only change requires_grad flags of leaf "
                       "variables. If you want to use a computed variable in "
                       "a subgraph that doesn't require differentiation use "
                       "var_no_grad = var.detach().");
  TCC_CHECK(!r || is_floating_point(),
            "only Tensors of floating point and complex dtype can require "
            "gradients (got ",
            dtype(), ")");
  autogradMeta(*this).requires_grad = r;
  return *this;
}

const Tensor &Tensor::grad() const {
  const auto &meta = impl().autograd;
  return meta ? meta->grad : undefinedTensor();
}

Tensor &Tensor::mutable_grad() const { return autogradMeta(*this).grad; }

const std::shared_ptr<autograd::Node> &Tensor::grad_fn() const {
  const auto &meta = impl().autograd;
  return meta ? meta->grad_fn : nullNode();
}

bool Tensor::is_leaf() const { return grad_fn() == nullptr; }

uint32_t Tensor::output_nr() const {
  const auto &meta = impl().autograd;
  return meta ? meta->output_nr : 0;
}

bool Tensor::retains_grad() const {
  const auto &meta = impl().autograd;
  return meta && meta->retains_grad;
}

void Tensor::retain_grad() const {
  TCC_CHECK(requires_grad(), "can't retain_grad on Tensor that has "
                             "requires_grad=False");
  if (is_leaf() || retains_grad())
    return;
  AutogradMeta &meta = autogradMeta(*this);
  meta.retains_grad = true;
  std::weak_ptr<TensorImpl> weak = impl_;
  meta.grad_fn->retain_grad_hooks().push_back(
      {nextHookId++, meta.output_nr, [weak](const Tensor &g) -> Tensor {
         auto self = weak.lock();
         if (!self)
           return Tensor();
         Tensor &grad = self->autograd->grad;
         if (!grad.defined())
           grad = g.detach().clone();
         else
           grad = grad + g.detach();
         return Tensor();
       }});
}

unsigned Tensor::registerHook(std::function<Tensor(const Tensor &)> hook) const {
  TCC_CHECK(requires_grad(), "cannot register a hook on a tensor that "
                             "doesn't require gradient");
  unsigned id = nextHookId++;
  AutogradMeta &meta = autogradMeta(*this);
  if (meta.grad_fn)
    meta.grad_fn->pre_hooks().push_back({id, meta.output_nr, std::move(hook)});
  else
    meta.hooks.push_back({id, std::move(hook)});
  return id;
}

unsigned Tensor::register_post_accumulate_grad_hook(
    std::function<void(const Tensor &)> hook) const {
  TCC_CHECK(requires_grad() && is_leaf(),
            "post accumulate grad hooks cannot be registered on non-leaf "
            "tensors or tensors that do not require grad");
  unsigned id = nextHookId++;
  autogradMeta(*this).post_accumulate_hooks.push_back({id, std::move(hook)});
  return id;
}

void Tensor::remove_hook(unsigned id) const {
  AutogradMeta &meta = autogradMeta(*this);
  for (auto it = meta.post_accumulate_hooks.begin();
       it != meta.post_accumulate_hooks.end(); ++it)
    if (it->id == id) {
      meta.post_accumulate_hooks.erase(it);
      return;
    }
  if (meta.grad_fn) {
    auto &hooks = meta.grad_fn->pre_hooks();
    for (auto it = hooks.begin(); it != hooks.end(); ++it)
      if (it->id == id) {
        hooks.erase(it);
        return;
      }
  }
  for (auto it = meta.hooks.begin(); it != meta.hooks.end(); ++it)
    if (it->id == id) {
      meta.hooks.erase(it);
      return;
    }
  detail::throwError(detail::str("remove_hook: no hook with id ", id));
}

void Tensor::backward(const Tensor &gradient, std::optional<bool> retain_graph,
                      bool create_graph,
                      std::optional<TensorList> inputs) const {
  autograd::variable_list in;
  if (inputs)
    in = inputs->vec();
  autograd::backward({*this}, {gradient}, retain_graph, create_graph, in);
}

const Tensor &Tensor::detach_() const {
  TensorImpl &i = impl();
  if (i.autograd) {
    i.autograd->grad_fn.reset();
    i.autograd->requires_grad = false;
    i.autograd->output_nr = 0;
  }
  return *this;
}

} // namespace tcc
