//===- Module.h - The base class of every layer -----------------*- C++ -*-===//
//
// libtorch's torch::nn::Module: a module owns named parameters, buffers and
// submodules, registered in its constructor, and is trained or evaluated as
// a tree. `forward` is not a virtual member here (nor in libtorch): each
// module declares its own, with its own signature, so the tracer and
// AnyModule see the real argument types.
//
// Names are dotted paths as in libtorch: a Sequential's first Linear's
// weight is "0.weight", a registered "fc1" submodule's bias "fc1.bias".
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_MODULE_H
#define TCC_FRONTEND_NN_MODULE_H

#include "tcc/Frontend/Tensor.h"
#include "tcc/Frontend/nn/OrderedDict.h"

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tcc {
namespace serialize {
class OutputArchive;
class InputArchive;
} // namespace serialize

namespace nn {

template <class Contained> class ModuleHolder;

class Module : public std::enable_shared_from_this<Module> {
public:
  using ModuleApplyFunction = std::function<void(Module &)>;
  using ConstModuleApplyFunction = std::function<void(const Module &)>;
  using NamedModuleApplyFunction =
      std::function<void(const std::string &, Module &)>;
  using ConstNamedModuleApplyFunction =
      std::function<void(const std::string &, const Module &)>;
  using ModulePointerApplyFunction =
      std::function<void(const std::shared_ptr<Module> &)>;
  using NamedModulePointerApplyFunction =
      std::function<void(const std::string &, const std::shared_ptr<Module> &)>;

  explicit Module(std::string name);
  Module();
  Module(const Module &) = default;
  Module &operator=(const Module &) = default;
  Module(Module &&) = default;
  Module &operator=(Module &&) = default;
  virtual ~Module() = default;

  /// The module's type name ("tcc::nn::LinearImpl") unless one was given.
  const std::string &name() const noexcept;

  /// A deep copy: Cloneable modules implement it; others throw.
  virtual std::shared_ptr<Module>
  clone(const std::optional<Device> &device = std::nullopt) const;

  /// Calls `function` on this module and every descendant, depth first.
  void apply(const ModuleApplyFunction &function);
  void apply(const ConstModuleApplyFunction &function) const;
  void apply(const NamedModuleApplyFunction &function,
             const std::string &name_prefix = std::string());
  void apply(const ConstNamedModuleApplyFunction &function,
             const std::string &name_prefix = std::string()) const;
  void apply(const ModulePointerApplyFunction &function) const;
  void apply(const NamedModulePointerApplyFunction &function,
             const std::string &name_prefix = std::string()) const;

  std::vector<Tensor> parameters(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_parameters(bool recurse = true) const;
  std::vector<Tensor> buffers(bool recurse = true) const;
  OrderedDict<std::string, Tensor> named_buffers(bool recurse = true) const;
  /// This module (if include_self; it must be held by a shared_ptr) and all
  /// descendants, depth first.
  std::vector<std::shared_ptr<Module>> modules(bool include_self = true) const;
  OrderedDict<std::string, std::shared_ptr<Module>>
  named_modules(const std::string &name_prefix = std::string(),
                bool include_self = true) const;
  std::vector<std::shared_ptr<Module>> children() const;
  OrderedDict<std::string, std::shared_ptr<Module>> named_children() const;

  /// Training mode for this module and its descendants.
  virtual void train(bool on = true);
  void eval() { train(false); }
  virtual bool is_training() const noexcept { return isTraining_; }

  /// Converts parameters and buffers in place (the same Tensor handles see
  /// the new data, so optimizers built before stay valid). Floating dtype
  /// conversions touch floating tensors only, as in libtorch.
  virtual void to(Device device, ScalarType dtype, bool non_blocking = false);
  virtual void to(ScalarType dtype, bool non_blocking = false);
  virtual void to(Device device, bool non_blocking = false);

  /// Zeroes (or, with set_to_none, undefines) every parameter's gradient.
  virtual void zero_grad(bool set_to_none = false);

  /// Writes parameters and buffers (by dotted name) into the archive.
  virtual void save(serialize::OutputArchive &archive) const;
  /// Reads them back; names, shapes and dtypes must match.
  virtual void load(serialize::InputArchive &archive);
  /// "tcc::nn::Linear(in_features=4, out_features=1, bias=true)".
  virtual void pretty_print(std::ostream &stream) const;
  virtual bool is_serializable() const { return true; }

  /// The module as `ModuleType` (an Impl or its holder), or null.
  template <class ModuleType> auto *as() noexcept;
  template <class ModuleType> const auto *as() const noexcept;

  /// Adds a parameter; `requires_grad` is set on it. Names are non-empty,
  /// have no dot and are unique within the module.
  Tensor &register_parameter(std::string name, Tensor tensor,
                             bool requires_grad = true);
  /// Adds a buffer (state that is saved but not trained, e.g. running_mean).
  Tensor &register_buffer(std::string name, Tensor tensor);
  template <class ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, std::shared_ptr<ModuleType> module);
  template <class ModuleType>
  std::shared_ptr<ModuleType>
  register_module(std::string name, ModuleHolder<ModuleType> module_holder);
  template <class ModuleType>
  std::shared_ptr<ModuleType>
  replace_module(const std::string &name, std::shared_ptr<ModuleType> module);
  template <class ModuleType>
  std::shared_ptr<ModuleType>
  replace_module(const std::string &name,
                 ModuleHolder<ModuleType> module_holder);
  void unregister_module(const std::string &name);

protected:
  /// Parameters of this module alone (Cloneable copies them).
  OrderedDict<std::string, Tensor> parameters_{"Parameter"};

private:
  template <class Derived> friend class Cloneable;
  friend std::ostream &operator<<(std::ostream &, const Module &);

  void applyNamed(const NamedModulePointerApplyFunction &function,
                  const std::string &prefix) const;
  void prettyPrintRecursive(std::ostream &stream,
                            const std::string &indentation) const;
  /// Makes this module a deep copy of `other` (Cloneable implements it).
  virtual void clone_(Module &other, const std::optional<Device> &device);
  void checkName(const std::string &name, const char *what) const;
  std::shared_ptr<Module> sharedSelf(const char *what) const;
  void convertTensors(const std::function<Tensor(const Tensor &)> &convert);
  void registerChild(std::string name, std::shared_ptr<Module> module);

  OrderedDict<std::string, Tensor> buffers_{"Buffer"};
  OrderedDict<std::string, std::shared_ptr<Module>> children_{"Submodule"};
  mutable std::optional<std::string> name_;
  bool isTraining_ = true;
};

/// Prints the module tree (pretty_print of each module).
std::ostream &operator<<(std::ostream &stream, const Module &module);

namespace detail {
/// Replaces `target`'s data with `data` (dtype, shape, storage) in place,
/// keeping its autograd identity, as libtorch's Tensor::set_data.
void set_data(const Tensor &target, const Tensor &data);
} // namespace detail

// --- Templates -------------------------------------------------------------

template <class ModuleType> auto *Module::as() noexcept {
  if constexpr (std::is_base_of<Module, ModuleType>::value)
    return dynamic_cast<ModuleType *>(this);
  else
    return dynamic_cast<typename ModuleType::ContainedType *>(this);
}
template <class ModuleType> const auto *Module::as() const noexcept {
  if constexpr (std::is_base_of<Module, ModuleType>::value)
    return dynamic_cast<const ModuleType *>(this);
  else
    return dynamic_cast<const typename ModuleType::ContainedType *>(this);
}

template <class ModuleType>
std::shared_ptr<ModuleType>
Module::register_module(std::string name, std::shared_ptr<ModuleType> module) {
  static_assert(std::is_base_of<Module, ModuleType>::value,
                "register_module takes a module (an nn::Module subclass)");
  registerChild(std::move(name), module);
  return module;
}

template <class ModuleType>
std::shared_ptr<ModuleType>
Module::register_module(std::string name,
                        ModuleHolder<ModuleType> module_holder) {
  return register_module(std::move(name), module_holder.ptr());
}

template <class ModuleType>
std::shared_ptr<ModuleType>
Module::replace_module(const std::string &name,
                       std::shared_ptr<ModuleType> module) {
  std::shared_ptr<Module> *slot = children_.find(name);
  if (!slot)
    ::tcc::detail::throwError("Submodule '" + name + "' is not defined");
  *slot = module;
  return module;
}

template <class ModuleType>
std::shared_ptr<ModuleType>
Module::replace_module(const std::string &name,
                       ModuleHolder<ModuleType> module_holder) {
  return replace_module(name, module_holder.ptr());
}

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULE_H
