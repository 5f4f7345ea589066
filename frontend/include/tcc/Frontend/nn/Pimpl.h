//===- Pimpl.h - Module holders: `nn::Linear fc(4, 1); fc->forward(x)` -*- C++
//-*-//
//
// A holder is a shared_ptr to its module ("Impl") with value syntax, as
// libtorch's ModuleHolder: copies share the module; a default-constructed
// holder constructs a default Impl (a compile error when the Impl has no
// default constructor); `Linear fc{nullptr}` is empty until assigned.
// `fc(x)` calls `fc->forward(x)`.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_PIMPL_H
#define TCC_FRONTEND_NN_PIMPL_H

#include "tcc/Frontend/Error.h"

#include <cstddef>
#include <memory>
#include <ostream>
#include <type_traits>
#include <utility>

namespace tcc {
namespace nn {
namespace detail {
struct ModuleHolderIndicator {};

template <class T>
using is_module_holder =
    std::is_base_of<ModuleHolderIndicator, std::decay_t<T>>;

template <class T, class C, class = void>
struct is_module_holder_of : std::false_type {};
template <class T, class C>
struct is_module_holder_of<T, C, std::enable_if_t<is_module_holder<T>::value>>
    : std::is_same<typename std::decay_t<T>::ContainedType, C> {};

[[noreturn]] void throwEmptyHolder(const char *type);
} // namespace detail

template <class Contained> class ModuleHolder : detail::ModuleHolderIndicator {
protected:
  std::shared_ptr<Contained> impl_;

public:
  using ContainedType = Contained;

  /// Constructs a default Impl.
  ModuleHolder() : impl_(defaultConstruct()) {
    static_assert(std::is_default_constructible<Contained>::value,
                  "You are trying to default construct a module which has no "
                  "default constructor. Use = nullptr to give it the empty "
                  "state (e.g. `Linear linear = nullptr;` instead of "
                  "`Linear linear;`).");
  }
  /// The empty holder.
  /* implicit */ ModuleHolder(std::nullptr_t) : impl_(nullptr) {}
  /// Constructs the Impl from these arguments.
  template <class Head, class... Tail,
            class = std::enable_if_t<
                !(detail::is_module_holder_of<Head, ContainedType>::value &&
                  sizeof...(Tail) == 0)>>
  explicit ModuleHolder(Head &&head, Tail &&...tail)
      : impl_(new Contained(std::forward<Head>(head),
                            std::forward<Tail>(tail)...)) {}
  /// Holds an existing module.
  /* implicit */ ModuleHolder(std::shared_ptr<Contained> module)
      : impl_(std::move(module)) {}

  explicit operator bool() const noexcept { return !is_empty(); }
  bool is_empty() const noexcept { return impl_ == nullptr; }
  const char *name() const noexcept { return get()->name().c_str(); }

  Contained *operator->() { return get(); }
  const Contained *operator->() const { return get(); }
  Contained &operator*() { return *get(); }
  const Contained &operator*() const { return *get(); }
  const std::shared_ptr<Contained> &ptr() const {
    check();
    return impl_;
  }
  Contained *get() {
    check();
    return impl_.get();
  }
  const Contained *get() const {
    check();
    return impl_.get();
  }

  /// `module(args...)` is `module->forward(args...)`.
  template <class... Args, class C = Contained>
  auto operator()(Args &&...args)
      -> decltype(std::declval<C &>().forward(std::forward<Args>(args)...)) {
    return get()->forward(std::forward<Args>(args)...);
  }
  /// Indexing for containers (`sequential[0]`, `dict["fc"]`).
  template <class Arg> decltype(auto) operator[](Arg &&arg) {
    return (*get())[std::forward<Arg>(arg)];
  }

private:
  void check() const {
    if (!impl_)
      detail::throwEmptyHolder(typeid(Contained).name());
  }
  template <class T = Contained>
  static std::shared_ptr<Contained> defaultConstruct() {
    if constexpr (std::is_default_constructible<T>::value)
      return std::make_shared<T>();
    else
      return nullptr;
  }
};

template <class C>
std::ostream &operator<<(std::ostream &stream, const ModuleHolder<C> &holder) {
  return stream << *holder;
}

} // namespace nn
} // namespace tcc

/// Declares `Name`, the holder of `NameImpl`.
#define TCC_MODULE_IMPL(Name, ImplType)                                        \
  class Name : public ::tcc::nn::ModuleHolder<ImplType> {                      \
  public:                                                                      \
    using ::tcc::nn::ModuleHolder<ImplType>::ModuleHolder;                     \
    using Impl = ImplType;                                                     \
  }

#define TCC_MODULE(Name) TCC_MODULE_IMPL(Name, Name##Impl)

#endif // TCC_FRONTEND_NN_PIMPL_H
