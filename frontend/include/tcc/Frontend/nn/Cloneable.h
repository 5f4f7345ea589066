//===- Cloneable.h - Modules that can deep-copy themselves ------*- C++ -*-===//
//
// `struct NetImpl : nn::Cloneable<NetImpl> { void reset() override; }`:
// reset() (re)creates the parameters, buffers and submodules; clone() copies
// the module, calls reset() on the copy, then copies the data over, so the
// clone shares no tensor with the original (as libtorch's Cloneable).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_CLONEABLE_H
#define TCC_FRONTEND_NN_CLONEABLE_H

#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/nn/Module.h"

#include <memory>

namespace tcc {
namespace nn {
namespace detail {
/// Copies `source`'s parameters and buffers into `copy` (same names).
void cloneTensorsInto(const Module &source, Module &copy,
                      const std::optional<Device> &device);
[[noreturn]] void throwCloneTypeMismatch(const std::string &type);
} // namespace detail

template <class Derived> class Cloneable : public Module {
public:
  using Module::Module;

  /// Creates this module's parameters, buffers and submodules.
  virtual void reset() = 0;

  std::shared_ptr<Module>
  clone(const std::optional<Device> &device = std::nullopt) const override {
    NoGradGuard noGrad;
    const auto &self = static_cast<const Derived &>(*this);
    auto copy = std::make_shared<Derived>(self);
    copy->parameters_.clear();
    copy->buffers_.clear();
    copy->children_.clear();
    copy->reset();
    detail::cloneTensorsInto(*this, *copy, device);
    // Submodules that reset() recreated receive deep copies of ours.
    for (const auto &child : children_) {
      std::shared_ptr<Module> *slot = copy->children_.find(child.key());
      if (slot && *slot)
        (*slot)->clone_(*child.value(), device);
    }
    return copy;
  }

private:
  void clone_(Module &other, const std::optional<Device> &device) final {
    std::shared_ptr<Module> cloned = other.clone(device);
    auto typed = std::dynamic_pointer_cast<Derived>(cloned);
    if (!typed)
      detail::throwCloneTypeMismatch(name());
    static_cast<Derived &>(*this) = std::move(*typed);
  }
};

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_CLONEABLE_H
