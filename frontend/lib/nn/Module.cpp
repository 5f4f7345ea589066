//===- Module.cpp - nn::Module ------------------------------------------===//

#include "tcc/Frontend/nn/Module.h"
#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Pimpl.h"

#include "tcc/Frontend/Autograd/Function.h"
#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/TensorImpl.h"

#include <ostream>

namespace tcc {
namespace nn {

namespace detail {
void throwEmptyHolder(const char *type) {
  ::tcc::detail::throwError(
      "Accessing empty ModuleHolder of " +
      autograd::CustomFunctionSupport::demangle(type) +
      ": it was constructed from nullptr; assign a module to it first");
}

void throwCloneTypeMismatch(const std::string &type) {
  ::tcc::detail::throwError("Attempted to clone submodule, but it is of a "
                            "different type than the submodule it was to be "
                            "cloned into (" +
                            type + ")");
}

void set_data(const Tensor &target, const Tensor &data) {
  TCC_CHECK(target.defined() && data.defined(),
            "set_data: both tensors must be defined");
  TensorImpl *dst = target.unsafeGetTensorImpl();
  TensorImpl *src = data.unsafeGetTensorImpl();
  if (dst == src)
    return;
  dst->storage = src->storage;
  dst->dtype = src->dtype;
  dst->setSizesAndStrides(src->sizes, src->strides, src->storageOffset);
  // A gradient of another dtype or shape no longer fits the parameter.
  const Tensor &grad = target.grad();
  if (grad.defined() &&
      (grad.dtype() != data.dtype() || !(grad.sizes() == data.sizes())))
    target.mutable_grad() = Tensor();
}

void cloneTensorsInto(const Module &source, Module &copy,
                      const std::optional<Device> &device) {
  auto cloneData = [&](const Tensor &t) {
    return device && t.device() != *device ? t.to(*device) : t.detach().clone();
  };
  OrderedDict<std::string, Tensor> copyParams = copy.named_parameters(false);
  for (const auto &p : source.named_parameters(false)) {
    Tensor *slot = copyParams.find(p.key());
    TCC_CHECK(slot, "clone: reset() of ", source.name(),
              " did not create parameter '", p.key(), "'");
    if (p.value().defined() && slot->defined())
      set_data(*slot, cloneData(p.value()));
  }
  OrderedDict<std::string, Tensor> copyBuffers = copy.named_buffers(false);
  for (const auto &b : source.named_buffers(false)) {
    Tensor *slot = copyBuffers.find(b.key());
    TCC_CHECK(slot, "clone: reset() of ", source.name(),
              " did not create buffer '", b.key(), "'");
    if (b.value().defined() && slot->defined())
      set_data(*slot, cloneData(b.value()));
  }
}
} // namespace detail

Module::Module(std::string name) : name_(std::move(name)) {}
Module::Module() = default;

const std::string &Module::name() const noexcept {
  if (!name_)
    name_ = autograd::CustomFunctionSupport::demangle(typeid(*this).name());
  return *name_;
}

std::shared_ptr<Module> Module::clone(const std::optional<Device> &) const {
  ::tcc::detail::throwError(
      "clone() has not been implemented for " + name() +
      ". Subclass torch::nn::Cloneable<" + name() +
      "> instead of torch::nn::Module to inherit the ability to clone.");
}

void Module::clone_(Module &, const std::optional<Device> &) {
  ::tcc::detail::throwError("clone() of a submodule of type " + name() +
                            " is not supported: derive it from Cloneable");
}

void Module::apply(const ModuleApplyFunction &function) {
  function(*this);
  for (auto &child : children_)
    child.value()->apply(function);
}

void Module::apply(const ConstModuleApplyFunction &function) const {
  function(*this);
  for (const auto &child : children_)
    static_cast<const Module &>(*child.value()).apply(function);
}

void Module::apply(const NamedModuleApplyFunction &function,
                   const std::string &name_prefix) {
  function(name_prefix, *this);
  for (auto &child : children_)
    child.value()->apply(function, name_prefix.empty()
                                       ? child.key()
                                       : name_prefix + "." + child.key());
}

void Module::apply(const ConstNamedModuleApplyFunction &function,
                   const std::string &name_prefix) const {
  function(name_prefix, *this);
  for (const auto &child : children_)
    static_cast<const Module &>(*child.value())
        .apply(function, name_prefix.empty() ? child.key()
                                             : name_prefix + "." + child.key());
}

void Module::apply(const ModulePointerApplyFunction &function) const {
  function(sharedSelf("apply"));
  for (const auto &child : children_)
    child.value()->applyNamed(
        [&](const std::string &, const std::shared_ptr<Module> &m) {
          function(m);
        },
        "");
}

void Module::apply(const NamedModulePointerApplyFunction &function,
                   const std::string &name_prefix) const {
  function(name_prefix, sharedSelf("apply"));
  for (const auto &child : children_)
    child.value()->applyNamed(function, name_prefix.empty()
                                            ? child.key()
                                            : name_prefix + "." + child.key());
}

void Module::applyNamed(const NamedModulePointerApplyFunction &function,
                        const std::string &prefix) const {
  // Children are reached through their parent's shared_ptr, so only the
  // root needs to be owned by one.
  function(prefix, std::const_pointer_cast<Module>(shared_from_this()));
  for (const auto &child : children_)
    child.value()->applyNamed(
        function, prefix.empty() ? child.key() : prefix + "." + child.key());
}

std::shared_ptr<Module> Module::sharedSelf(const char *what) const {
  std::shared_ptr<const Module> self = weak_from_this().lock();
  TCC_CHECK(self, what,
            ": it looks like you attempted to retrieve your top-level module "
            "as a shared_ptr, but it is not stored in a shared_ptr. Use "
            "std::make_shared<",
            name(),
            ">() instead of creating your module on the stack, or "
            "alternatively do not try to access your top-level module.");
  return std::const_pointer_cast<Module>(self);
}

std::vector<Tensor> Module::parameters(bool recurse) const {
  return named_parameters(recurse).values();
}

OrderedDict<std::string, Tensor> Module::named_parameters(bool recurse) const {
  OrderedDict<std::string, Tensor> result("Parameter");
  if (!recurse) {
    for (const auto &p : parameters_)
      if (p.value().defined())
        result.insert(p.key(), p.value());
    return result;
  }
  apply([&](const std::string &prefix, const Module &m) {
    for (const auto &p : m.parameters_)
      if (p.value().defined())
        result.insert(prefix.empty() ? p.key() : prefix + "." + p.key(),
                      p.value());
  });
  return result;
}

std::vector<Tensor> Module::buffers(bool recurse) const {
  return named_buffers(recurse).values();
}

OrderedDict<std::string, Tensor> Module::named_buffers(bool recurse) const {
  OrderedDict<std::string, Tensor> result("Buffer");
  if (!recurse) {
    for (const auto &b : buffers_)
      if (b.value().defined())
        result.insert(b.key(), b.value());
    return result;
  }
  apply([&](const std::string &prefix, const Module &m) {
    for (const auto &b : m.buffers_)
      if (b.value().defined())
        result.insert(prefix.empty() ? b.key() : prefix + "." + b.key(),
                      b.value());
  });
  return result;
}

std::vector<std::shared_ptr<Module>> Module::modules(bool include_self) const {
  return named_modules("", include_self).values();
}

OrderedDict<std::string, std::shared_ptr<Module>>
Module::named_modules(const std::string &name_prefix, bool include_self) const {
  OrderedDict<std::string, std::shared_ptr<Module>> result("Module");
  if (include_self) {
    apply([&](const std::string &key,
              const std::shared_ptr<Module> &m) { result.insert(key, m); },
          name_prefix);
  } else {
    for (const auto &child : children_)
      child.value()->applyNamed(
          [&](const std::string &key, const std::shared_ptr<Module> &m) {
            result.insert(key, m);
          },
          name_prefix.empty() ? child.key() : name_prefix + "." + child.key());
  }
  return result;
}

std::vector<std::shared_ptr<Module>> Module::children() const {
  return children_.values();
}

OrderedDict<std::string, std::shared_ptr<Module>>
Module::named_children() const {
  return children_;
}

void Module::train(bool on) {
  for (auto &child : children_)
    child.value()->train(on);
  isTraining_ = on;
}

void Module::convertTensors(
    const std::function<Tensor(const Tensor &)> &convert) {
  NoGradGuard noGrad;
  for (auto &child : children_)
    child.value()->convertTensors(convert);
  for (auto &p : parameters_)
    if (p.value().defined())
      detail::set_data(p.value(), convert(p.value()));
  for (auto &b : buffers_)
    if (b.value().defined())
      detail::set_data(b.value(), convert(b.value()));
}

void Module::to(Device device, ScalarType dtype, bool non_blocking) {
  convertTensors([&](const Tensor &t) {
    return isFloatingType(t.dtype()) ? t.to(device, dtype, non_blocking)
                                     : t.to(device, non_blocking);
  });
}

void Module::to(ScalarType dtype, bool non_blocking) {
  TCC_CHECK(isFloatingType(dtype),
            "Module::to: expected a floating point dtype, got ", dtype);
  convertTensors([&](const Tensor &t) {
    return isFloatingType(t.dtype()) ? t.to(dtype, non_blocking) : t;
  });
}

void Module::to(Device device, bool non_blocking) {
  convertTensors([&](const Tensor &t) { return t.to(device, non_blocking); });
}

void Module::zero_grad(bool set_to_none) {
  for (const Tensor &p : parameters()) {
    Tensor &grad = p.mutable_grad();
    if (!grad.defined())
      continue;
    if (set_to_none) {
      grad = Tensor();
    } else {
      grad = grad.detach();
      grad.zero_();
    }
  }
}

void Module::pretty_print(std::ostream &stream) const { stream << name(); }

void Module::prettyPrintRecursive(std::ostream &stream,
                                  const std::string &indentation) const {
  pretty_print(stream);
  if (children_.is_empty())
    return;
  stream << "(\n";
  const std::string next = indentation + "  ";
  for (const auto &child : children_) {
    stream << next << "(" << child.key() << "): ";
    child.value()->prettyPrintRecursive(stream, next);
    stream << '\n';
  }
  stream << indentation << ")";
}

std::ostream &operator<<(std::ostream &stream, const Module &module) {
  module.prettyPrintRecursive(stream, "");
  return stream;
}

void Module::checkName(const std::string &name, const char *what) const {
  TCC_CHECK(!name.empty(), what, " name must not be empty");
  TCC_CHECK(name.find('.') == std::string::npos, what,
            " name must not contain a dot (got '", name, "')");
}

Tensor &Module::register_parameter(std::string name, Tensor tensor,
                                   bool requires_grad) {
  checkName(name, "Parameter");
  if (tensor.defined())
    tensor.set_requires_grad(requires_grad);
  return parameters_.insert(std::move(name), std::move(tensor));
}

Tensor &Module::register_buffer(std::string name, Tensor tensor) {
  checkName(name, "Buffer");
  return buffers_.insert(std::move(name), std::move(tensor));
}

void Module::registerChild(std::string name, std::shared_ptr<Module> module) {
  checkName(name, "Submodule");
  TCC_CHECK(module, "register_module: submodule '", name,
            "' is null (an empty holder?)");
  children_.insert(std::move(name), std::move(module));
}

void Module::unregister_module(const std::string &name) {
  TCC_CHECK(children_.contains(name), "No Module with name `", name,
            "` is registered");
  children_.erase(name);
}

} // namespace nn
} // namespace tcc
