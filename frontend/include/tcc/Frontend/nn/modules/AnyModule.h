//===- AnyModule.h - Any module behind one type -----------------*- C++ -*-===//
//
// libtorch's AnyModule and AnyValue: Sequential stores its layers as
// AnyModules, whose `forward` takes and returns values of any type.
// Arguments are checked against the module's forward signature when called
// (count and types, by their decayed types), with an error naming both.
// The module's `forward` must not be overloaded or a template.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_MODULES_ANYMODULE_H
#define TCC_FRONTEND_NN_MODULES_ANYMODULE_H

#include "tcc/Frontend/nn/Module.h"
#include "tcc/Frontend/nn/Pimpl.h"

#include <any>
#include <memory>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace tcc {
namespace nn {
namespace detail {
std::string demangleType(const std::type_info &info);
[[noreturn]] void throwAnyArgumentCount(const std::string &module,
                                        size_t expected, size_t got);
[[noreturn]] void throwAnyArgumentType(const std::string &module, size_t index,
                                       const std::string &expected,
                                       const std::string &got);
[[noreturn]] void throwAnyValueType(const std::string &expected,
                                    const std::string &got);
[[noreturn]] void throwEmptyAnyModule(const char *what);
} // namespace detail

/// A value of any type (std::any) with libtorch's get<T>/try_get<T>.
class AnyValue {
public:
  template <class T, class = std::enable_if_t<
                         !std::is_same<std::decay_t<T>, AnyValue>::value>>
  explicit AnyValue(T &&value)
      : value_(std::decay_t<T>(std::forward<T>(value))) {}

  template <class T> T *try_get() { return std::any_cast<T>(&value_); }
  template <class T> T get() {
    if (T *p = std::any_cast<T>(&value_))
      return *p;
    detail::throwAnyValueType(detail::demangleType(typeid(T)),
                              detail::demangleType(value_.type()));
  }
  const std::type_info &type_info() const noexcept { return value_.type(); }

private:
  std::any value_;
};

namespace detail {
template <class T> struct ForwardTraits;
template <class C, class R, class... A> struct ForwardTraits<R (C::*)(A...)> {
  using Return = R;
  using Args = std::tuple<std::decay_t<A>...>;
};
template <class C, class R, class... A>
struct ForwardTraits<R (C::*)(A...) const> : ForwardTraits<R (C::*)(A...)> {};

struct AnyModulePlaceholder {
  virtual ~AnyModulePlaceholder() = default;
  virtual AnyValue forward(std::vector<AnyValue> &&arguments) = 0;
  virtual std::shared_ptr<Module> ptr() = 0;
  virtual std::unique_ptr<AnyModulePlaceholder>
  clone(const std::optional<Device> &device) const = 0;
  virtual const std::type_info &type() const = 0;
};

template <class M> struct AnyModuleHolder : AnyModulePlaceholder {
  using Traits = ForwardTraits<decltype(&M::forward)>;
  using Args = typename Traits::Args;
  static constexpr size_t kArity = std::tuple_size<Args>::value;

  explicit AnyModuleHolder(std::shared_ptr<M> m) : module(std::move(m)) {}

  AnyValue forward(std::vector<AnyValue> &&arguments) override {
    if (arguments.size() != kArity)
      throwAnyArgumentCount(module->name(), kArity, arguments.size());
    return call(arguments, std::make_index_sequence<kArity>());
  }
  template <size_t... I>
  AnyValue call(std::vector<AnyValue> &args, std::index_sequence<I...>) {
    (check<I>(args[I]), ...);
    using R = typename Traits::Return;
    static_assert(!std::is_void<R>::value,
                  "AnyModule cannot hold a module whose forward returns void");
    return AnyValue(module->forward(std::move(
        *args[I].template try_get<std::tuple_element_t<I, Args>>())...));
  }
  template <size_t I> void check(AnyValue &arg) {
    using T = std::tuple_element_t<I, Args>;
    if (!arg.template try_get<T>())
      throwAnyArgumentType(module->name(), I, demangleType(typeid(T)),
                           demangleType(arg.type_info()));
  }
  std::shared_ptr<Module> ptr() override { return module; }
  std::unique_ptr<AnyModulePlaceholder>
  clone(const std::optional<Device> &device) const override {
    return std::make_unique<AnyModuleHolder>(
        std::dynamic_pointer_cast<M>(module->clone(device)));
  }
  const std::type_info &type() const override { return typeid(M); }

  std::shared_ptr<M> module;
};
} // namespace detail

class AnyModule {
public:
  AnyModule() = default;
  template <class M,
            class = std::enable_if_t<std::is_base_of<Module, M>::value>>
  explicit AnyModule(std::shared_ptr<M> module)
      : content_(
            std::make_shared<detail::AnyModuleHolder<M>>(std::move(module))) {}
  template <class M, class = std::enable_if_t<
                         std::is_base_of<Module, std::decay_t<M>>::value>>
  explicit AnyModule(M &&module)
      : AnyModule(std::make_shared<std::decay_t<M>>(std::forward<M>(module))) {}
  template <class M>
  explicit AnyModule(const ModuleHolder<M> &holder) : AnyModule(holder.ptr()) {}

  /// Calls the module's forward; the arguments are type-checked.
  template <class... Args> AnyValue any_forward(Args &&...args) {
    std::vector<AnyValue> values;
    values.reserve(sizeof...(Args));
    (values.emplace_back(std::forward<Args>(args)), ...);
    return content().forward(std::move(values));
  }
  AnyValue any_forward(AnyValue &&value) {
    std::vector<AnyValue> values;
    values.push_back(std::move(value));
    return content().forward(std::move(values));
  }
  /// forward, its result converted to `ReturnType` (Tensor by default).
  template <class ReturnType = Tensor, class... Args>
  ReturnType forward(Args &&...args) {
    return any_forward(std::forward<Args>(args)...).template get<ReturnType>();
  }

  std::shared_ptr<Module> ptr() const {
    return const_cast<AnyModule *>(this)->content().ptr();
  }
  template <class T> std::shared_ptr<T> ptr() const {
    return std::dynamic_pointer_cast<T>(ptr());
  }
  template <class T> T &get() const {
    auto p = ptr<T>();
    if (!p)
      detail::throwAnyValueType(detail::demangleType(typeid(T)),
                                detail::demangleType(type_info()));
    return *p;
  }
  const std::type_info &type_info() const {
    return const_cast<AnyModule *>(this)->content().type();
  }
  bool is_empty() const noexcept { return content_ == nullptr; }
  AnyModule clone(std::optional<Device> device = std::nullopt) const {
    AnyModule copy;
    copy.content_ = const_cast<AnyModule *>(this)->content().clone(device);
    return copy;
  }

private:
  detail::AnyModulePlaceholder &content() {
    if (!content_)
      detail::throwEmptyAnyModule("AnyModule");
    return *content_;
  }
  std::shared_ptr<detail::AnyModulePlaceholder> content_;
};

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_ANYMODULE_H
