//===- Container.h - Sequential, ModuleList, ModuleDict, Functional -*- C++
//-*-//

#ifndef TCC_FRONTEND_NN_MODULES_CONTAINER_H
#define TCC_FRONTEND_NN_MODULES_CONTAINER_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/modules/AnyModule.h"

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace nn {
namespace detail {
[[noreturn]] void throwIndexOutOfRange(const char *container, size_t index,
                                       size_t size);
[[noreturn]] void throwBadModuleCast(const char *container, size_t index);
} // namespace detail

/// A module with a name, for `Sequential({{"fc", Linear(2, 3)}, ...})`.
class NamedAnyModule {
public:
  template <class M>
  NamedAnyModule(std::string name, std::shared_ptr<M> module)
      : name_(std::move(name)), module_(std::move(module)) {}
  template <class M, class = std::enable_if_t<
                         std::is_base_of<Module, std::decay_t<M>>::value>>
  NamedAnyModule(std::string name, M &&module)
      : name_(std::move(name)), module_(std::forward<M>(module)) {}
  template <class M>
  NamedAnyModule(std::string name, const ModuleHolder<M> &holder)
      : name_(std::move(name)), module_(holder) {}
  NamedAnyModule(std::string name, AnyModule module)
      : name_(std::move(name)), module_(std::move(module)) {}

  const std::string &name() const noexcept { return name_; }
  AnyModule &module() noexcept { return module_; }
  const AnyModule &module() const noexcept { return module_; }

private:
  std::string name_;
  AnyModule module_;
};

/// Calls its modules in order, each on the previous one's output. Layers
/// are named "0", "1", ... unless named explicitly.
class SequentialImpl : public Cloneable<SequentialImpl> {
public:
  using Iterator = std::vector<AnyModule>::iterator;
  using ConstIterator = std::vector<AnyModule>::const_iterator;

  SequentialImpl() = default;
  template <class... Modules> explicit SequentialImpl(Modules &&...modules) {
    (push_back(std::forward<Modules>(modules)), ...);
  }
  explicit SequentialImpl(std::initializer_list<NamedAnyModule> named_modules) {
    for (const NamedAnyModule &m : named_modules)
      push_back(m.name(), m.module());
  }

  std::shared_ptr<Module>
  clone(const std::optional<Device> &device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;

  /// Runs every module in order. The first receives `inputs`; the result of
  /// the last is returned as `ReturnType`.
  template <class ReturnType = Tensor, class... InputTypes>
  ReturnType forward(InputTypes &&...inputs) {
    if (modules_.empty())
      detail::throwEmptyAnyModule("Sequential (cannot call forward() on an "
                                  "empty Sequential)");
    auto it = modules_.begin();
    AnyValue value = it->any_forward(std::forward<InputTypes>(inputs)...);
    for (++it; it != modules_.end(); ++it)
      value = it->any_forward(std::move(value));
    if constexpr (std::is_same<ReturnType, AnyValue>::value)
      return value;
    else
      return value.template get<ReturnType>();
  }

  template <class M> void push_back(std::shared_ptr<M> module) {
    push_back(std::to_string(modules_.size()), std::move(module));
  }
  template <class M>
  void push_back(std::string name, std::shared_ptr<M> module) {
    push_back(std::move(name), AnyModule(std::move(module)));
  }
  template <class M, class = std::enable_if_t<
                         std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(M &&module) {
    push_back(std::to_string(modules_.size()), std::forward<M>(module));
  }
  template <class M, class = std::enable_if_t<
                         std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(std::string name, M &&module) {
    push_back(std::move(name),
              std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  template <class M> void push_back(const ModuleHolder<M> &holder) {
    push_back(std::to_string(modules_.size()), holder);
  }
  template <class M>
  void push_back(std::string name, const ModuleHolder<M> &holder) {
    push_back(std::move(name), holder.ptr());
  }
  void push_back(AnyModule any_module) {
    push_back(std::to_string(modules_.size()), std::move(any_module));
  }
  void push_back(std::string name, AnyModule any_module);
  /// Appends every module of another container.
  template <class Container> void extend(const Container &container) {
    for (const auto &module : container)
      push_back(module);
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  template <class T> T &at(size_t index) { return *checkedCast<T>(index); }
  template <class T> std::shared_ptr<T> ptr(size_t index) const {
    return checkedCast<T>(index);
  }
  std::shared_ptr<Module> ptr(size_t index) const {
    return checkedAt(index).ptr();
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

private:
  const AnyModule &checkedAt(size_t index) const {
    if (index >= modules_.size())
      detail::throwIndexOutOfRange("Sequential", index, modules_.size());
    return modules_[index];
  }
  template <class T> std::shared_ptr<T> checkedCast(size_t index) const {
    auto p = std::dynamic_pointer_cast<T>(checkedAt(index).ptr());
    if (!p)
      detail::throwBadModuleCast("Sequential", index);
    return p;
  }
  std::vector<AnyModule> modules_;
};

class Sequential : public ModuleHolder<SequentialImpl> {
public:
  using ModuleHolder<SequentialImpl>::ModuleHolder;
  using Impl = SequentialImpl;
  Sequential() : ModuleHolder() {}
  Sequential(std::initializer_list<NamedAnyModule> named_modules)
      : ModuleHolder(std::make_shared<SequentialImpl>(named_modules)) {}
};

/// A list of modules, registered as "0", "1", ... (no forward).
class ModuleListImpl : public Cloneable<ModuleListImpl> {
public:
  using Iterator = std::vector<std::shared_ptr<Module>>::iterator;
  using ConstIterator = std::vector<std::shared_ptr<Module>>::const_iterator;

  ModuleListImpl() = default;
  template <class... Modules> explicit ModuleListImpl(Modules &&...modules) {
    (push_back(std::forward<Modules>(modules)), ...);
  }

  std::shared_ptr<Module>
  clone(const std::optional<Device> &device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;

  void push_back(std::shared_ptr<Module> module);
  template <class M, class = std::enable_if_t<
                         std::is_base_of<Module, std::decay_t<M>>::value>>
  void push_back(M &&module) {
    push_back(std::make_shared<std::decay_t<M>>(std::forward<M>(module)));
  }
  template <class M> void push_back(const ModuleHolder<M> &holder) {
    push_back(std::shared_ptr<Module>(holder.ptr()));
  }
  template <class Container> void extend(const Container &container) {
    for (const auto &module : container)
      push_back(module);
  }
  /// Inserts at `index` (renumbering the later ones).
  void insert(size_t index, std::shared_ptr<Module> module);
  template <class M> void insert(size_t index, const ModuleHolder<M> &holder) {
    insert(index, std::shared_ptr<Module>(holder.ptr()));
  }

  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }

  template <class T> T &at(size_t index) { return *ptr<T>(index); }
  template <class T> std::shared_ptr<T> ptr(size_t index) const {
    auto p = std::dynamic_pointer_cast<T>(ptr(index));
    if (!p)
      detail::throwBadModuleCast("ModuleList", index);
    return p;
  }
  std::shared_ptr<Module> ptr(size_t index) const {
    if (index >= modules_.size())
      detail::throwIndexOutOfRange("ModuleList", index, modules_.size());
    return modules_[index];
  }
  std::shared_ptr<Module> operator[](size_t index) const { return ptr(index); }
  size_t size() const noexcept { return modules_.size(); }
  bool is_empty() const noexcept { return modules_.empty(); }

private:
  std::vector<std::shared_ptr<Module>> modules_;
};
TCC_MODULE(ModuleList);

/// Modules by name, in insertion order (no forward).
class ModuleDictImpl : public Cloneable<ModuleDictImpl> {
public:
  using Iterator = OrderedDict<std::string, std::shared_ptr<Module>>::Iterator;
  using ConstIterator =
      OrderedDict<std::string, std::shared_ptr<Module>>::ConstIterator;

  ModuleDictImpl() = default;
  explicit ModuleDictImpl(
      const std::vector<std::pair<std::string, std::shared_ptr<Module>>>
          &modules);
  explicit ModuleDictImpl(
      const OrderedDict<std::string, std::shared_ptr<Module>> &modules);

  std::shared_ptr<Module>
  clone(const std::optional<Device> &device = std::nullopt) const override;
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;

  /// Adds or replaces the module under `key`.
  void insert(const std::string &key, std::shared_ptr<Module> module);
  template <class M>
  void insert(const std::string &key, const ModuleHolder<M> &holder) {
    insert(key, std::shared_ptr<Module>(holder.ptr()));
  }
  std::shared_ptr<Module> pop(const std::string &key);
  void update(const std::vector<std::pair<std::string, std::shared_ptr<Module>>>
                  &modules);
  void clear();

  std::vector<std::string> keys() const { return modules_.keys(); }
  std::vector<std::shared_ptr<Module>> values() const {
    return modules_.values();
  }
  std::vector<std::pair<std::string, std::shared_ptr<Module>>> items() const {
    return modules_.pairs();
  }
  Iterator begin() { return modules_.begin(); }
  ConstIterator begin() const { return modules_.begin(); }
  Iterator end() { return modules_.end(); }
  ConstIterator end() const { return modules_.end(); }
  size_t size() const noexcept { return modules_.size(); }
  bool empty() const noexcept { return modules_.is_empty(); }
  bool contains(const std::string &key) const { return modules_.contains(key); }

  std::shared_ptr<Module> operator[](const std::string &key) const {
    return modules_[key];
  }
  template <class T> T &at(const std::string &key) {
    auto p = std::dynamic_pointer_cast<T>(modules_[key]);
    if (!p)
      ::tcc::detail::throwError("ModuleDict: module '" + key +
                                "' is not of the requested type");
    return *p;
  }

private:
  OrderedDict<std::string, std::shared_ptr<Module>> modules_{"Module"};
};
TCC_MODULE(ModuleDict);

/// Wraps a function of a tensor as a module: `Functional(tcc::relu)`, or a
/// function and the trailing arguments to bind (`Functional(tcc::max_pool2d,
/// 3, stride, 0, 1, false)`).
class FunctionalImpl : public Cloneable<FunctionalImpl> {
public:
  using Function = std::function<Tensor(Tensor)>;

  explicit FunctionalImpl(Function function);
  template <class SomeFunction, class... Args,
            class = std::enable_if_t<(sizeof...(Args) > 0)>>
  explicit FunctionalImpl(SomeFunction original_function, Args &&...args)
      : function_(std::bind(original_function, std::placeholders::_1,
                            std::forward<Args>(args)...)) {}

  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(Tensor input);
  Tensor operator()(Tensor input) { return forward(std::move(input)); }
  bool is_serializable() const override { return false; }

private:
  Function function_;
};
TCC_MODULE(Functional);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_CONTAINER_H
