//===- CustomFunction.cpp - autograd::Function<T> support -----------------===//

#include "AccumulateGrad.h"
#include "Record.h"

#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Autograd/Function.h"
#include "tcc/Frontend/Factories.h"

#include <cxxabi.h>
#include <cstdlib>

namespace tcc {
namespace autograd {

void AutogradContext::save_for_backward(variable_list toSave) {
  toSave_ = std::move(toSave);
}

variable_list AutogradContext::get_saved_variables() const {
  TCC_CHECK(!hasFreed_, "Trying to backward through the graph a second time "
                        "(or directly access saved tensors after they have "
                        "already been freed). Specify retain_graph=True if "
                        "you need to backward through the graph a second "
                        "time.");
  variable_list out;
  auto node = node_.lock();
  for (const SavedVariable &v : saved_)
    out.push_back(v.unpack(node));
  return out;
}

void AutogradContext::mark_dirty(const variable_list &inputs) {
  for (const Tensor &t : inputs)
    dirty_.insert(t.unsafeGetTensorImpl());
}

void AutogradContext::mark_non_differentiable(const variable_list &outputs) {
  for (const Tensor &t : outputs)
    nonDifferentiable_.insert(t.unsafeGetTensorImpl());
}

bool AutogradContext::needs_input_grad(size_t index) const {
  auto node = node_.lock();
  return node && node->needs_input_grad(index);
}

variable_list CustomNode::apply(variable_list &&grads) {
  TCC_CHECK(!ctx.hasFreed_ || ctx.saved_.empty(),
            "Trying to backward through the graph a second time (or "
            "directly access saved tensors after they have already been "
            "freed). Specify retain_graph=True if you need to backward "
            "through the graph a second time.");
  if (ctx.materializeGrads_)
    for (size_t i = 0; i < grads.size() && i < outputMeta.size(); ++i)
      if (!grads[i].defined())
        grads[i] = zeros(outputMeta[i].sizes, outputMeta[i].dtype);
  variable_list all = backward_(&ctx, std::move(grads));
  size_t numArgs = isTensorArg.size();
  size_t numTensors = 0;
  for (bool b : isTensorArg)
    numTensors += b;
  // Like libtorch, drop trailing undefined gradients beyond the arguments
  // (forward's defaulted parameters that apply() was not given).
  while (all.size() > numArgs && !all.back().defined())
    all.pop_back();
  // Like libtorch, accept one gradient per argument, or per tensor argument.
  TCC_CHECK(all.size() == numArgs || all.size() == numTensors,
            "function ", name(),
            " returned an incorrect number of gradients (expected ", numArgs,
            ", got ", all.size(), ")");
  if (all.size() == numTensors)
    return all;
  variable_list out;
  for (size_t i = 0; i < numArgs; ++i) {
    if (isTensorArg[i])
      out.push_back(all[i]);
    else
      TCC_CHECK(!all[i].defined(), "function ", name(),
                " returned a gradient different than an undefined tensor for "
                "argument ",
                i, ", which is not a tensor");
  }
  return out;
}

void CustomNode::release_variables() {
  if (!ctx.saved_.empty()) {
    for (SavedVariable &v : ctx.saved_)
      v.reset_data();
  }
  ctx.hasFreed_ = true;
}

std::string CustomFunctionSupport::demangle(const char *name) {
  int status = 0;
  char *d = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && d ? d : name;
  std::free(d);
  return out;
}

void CustomFunctionSupport::finish(const std::shared_ptr<CustomNode> &node,
                                   const variable_list &inputs,
                                   variable_list &outputs) {
  AutogradContext &ctx = node->ctx;
  bool needGrad = detail::needsGrad(inputs);
  for (Tensor &out : outputs) {
    if (!out.defined())
      continue;
    TensorImpl *impl = out.unsafeGetTensorImpl();
    bool isInput = false;
    for (const Tensor &in : inputs)
      isInput = isInput || in.unsafeGetTensorImpl() == impl;
    if (isInput && !ctx.dirty_.count(impl)) {
      // Returned an input unchanged: give the output its own identity.
      auto alias = std::make_shared<TensorImpl>(impl->storage, impl->dtype,
                                                impl->sizes, impl->strides,
                                                impl->storageOffset);
      alias->base = impl->base;
      out = Tensor(std::move(alias));
    }
    if (isInput && ctx.dirty_.count(impl) && needGrad)
      detail::checkInplace(out, {});
  }
  if (needGrad) {
    detail::collectNextEdges(*node, inputs);
    node->set_num_inputs(uint32_t(outputs.size()));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const Tensor &out = outputs[i];
      InputMetadata meta;
      if (out.defined()) {
        meta.sizes = out.sizes();
        meta.dtype = out.dtype();
      }
      node->outputMeta.push_back(meta);
      if (out.defined() && out.is_floating_point() &&
          !ctx.nonDifferentiable_.count(out.unsafeGetTensorImpl()))
        detail::setHistory(out, node, uint32_t(i));
    }
  }
  for (const Tensor &t : ctx.toSave_) {
    bool isOutput = false;
    for (const Tensor &out : outputs)
      isOutput = isOutput || (t.defined() && out.is_same(t));
    ctx.saved_.emplace_back(t, isOutput && needGrad);
  }
  ctx.toSave_.clear();
  // The tracer sees the ops forward ran (they are reported as usual).
}

} // namespace autograd

const char *IValue::tagKind() const {
  switch (tag_) {
  case Tag::None:
    return "None";
  case Tag::Tensor:
    return "Tensor";
  case Tag::Double:
    return "Double";
  case Tag::Int:
    return "Int";
  case Tag::Bool:
    return "Bool";
  case Tag::String:
    return "String";
  case Tag::IntList:
    return "IntList";
  case Tag::DoubleList:
    return "DoubleList";
  case Tag::TensorList:
    return "TensorList";
  }
  return "?";
}

void IValue::expect(Tag t, const char *what) const {
  if (tag_ != t)
    detail::throwError(detail::str("Expected ", what, " but got ", tagKind()));
}

} // namespace tcc
