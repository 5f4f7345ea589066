//===- Container.cpp - Sequential, ModuleList, ModuleDict, Functional -----===//

#include "tcc/Frontend/nn/modules/Container.h"

#include "tcc/Frontend/Autograd/Function.h"
#include "tcc/Frontend/Check.h"

#include <ostream>

namespace tcc {
namespace nn {
namespace detail {

std::string demangleType(const std::type_info &info) {
  return autograd::CustomFunctionSupport::demangle(info.name());
}

void throwAnyArgumentCount(const std::string &module, size_t expected,
                           size_t got) {
  ::tcc::detail::throwError(
      ::tcc::detail::str(module, "'s forward() method expects ", expected,
                         " argument(s), but "
                         "received ",
                         got, "."));
}

void throwAnyArgumentType(const std::string &module, size_t index,
                          const std::string &expected, const std::string &got) {
  ::tcc::detail::throwError(::tcc::detail::str(
      "Expected argument #", index, " to be of type ", expected,
      ", but received value of type ", got, " (in ", module, "'s forward())"));
}

void throwAnyValueType(const std::string &expected, const std::string &got) {
  ::tcc::detail::throwError("Attempted to cast AnyValue to " + expected +
                            ", but its actual type is " + got);
}

void throwEmptyAnyModule(const char *what) {
  ::tcc::detail::throwError(std::string("Cannot call forward() on an empty ") +
                            what);
}

void throwIndexOutOfRange(const char *container, size_t index, size_t size) {
  ::tcc::detail::throwError(::tcc::detail::str(
      "Index ", index, " is out of range for ", container, " of size ", size));
}

void throwBadModuleCast(const char *container, size_t index) {
  ::tcc::detail::throwError(
      ::tcc::detail::str("Unable to cast module at index ", index, " of ",
                         container, " to the requested type"));
}

} // namespace detail

// --- Sequential --------------------------------------------------------------

void SequentialImpl::push_back(std::string name, AnyModule any_module) {
  register_module(std::move(name), any_module.ptr());
  modules_.push_back(std::move(any_module));
}

std::shared_ptr<Module>
SequentialImpl::clone(const std::optional<Device> &device) const {
  auto copy = std::make_shared<SequentialImpl>();
  auto names = named_children();
  for (size_t i = 0; i < modules_.size(); ++i)
    copy->push_back(names[i].key(), modules_[i].clone(device));
  return copy;
}

void SequentialImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Sequential";
}

// --- ModuleList --------------------------------------------------------------

void ModuleListImpl::push_back(std::shared_ptr<Module> module) {
  register_module(std::to_string(modules_.size()), module);
  modules_.push_back(std::move(module));
}

void ModuleListImpl::insert(size_t index, std::shared_ptr<Module> module) {
  TCC_CHECK(index <= modules_.size(), "ModuleList::insert: index ", index,
            " is out of range for ModuleList of size ", modules_.size());
  modules_.insert(modules_.begin() + index, std::move(module));
  // Children are numbered by position: re-register them all.
  for (size_t i = 0; i + 1 < modules_.size(); ++i)
    unregister_module(std::to_string(i));
  for (size_t i = 0; i < modules_.size(); ++i)
    register_module(std::to_string(i), modules_[i]);
}

std::shared_ptr<Module>
ModuleListImpl::clone(const std::optional<Device> &device) const {
  auto copy = std::make_shared<ModuleListImpl>();
  for (const auto &module : modules_)
    copy->push_back(module->clone(device));
  return copy;
}

void ModuleListImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::ModuleList";
}

// --- ModuleDict --------------------------------------------------------------

ModuleDictImpl::ModuleDictImpl(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>
        &modules) {
  update(modules);
}

ModuleDictImpl::ModuleDictImpl(
    const OrderedDict<std::string, std::shared_ptr<Module>> &modules) {
  for (const auto &item : modules)
    insert(item.key(), item.value());
}

void ModuleDictImpl::insert(const std::string &key,
                            std::shared_ptr<Module> module) {
  if (std::shared_ptr<Module> *slot = modules_.find(key)) {
    *slot = module;
    replace_module(key, module);
  } else {
    modules_.insert(key, module);
    register_module(key, module);
  }
}

std::shared_ptr<Module> ModuleDictImpl::pop(const std::string &key) {
  std::shared_ptr<Module> module = modules_[key];
  modules_.erase(key);
  unregister_module(key);
  return module;
}

void ModuleDictImpl::update(
    const std::vector<std::pair<std::string, std::shared_ptr<Module>>>
        &modules) {
  for (const auto &item : modules)
    insert(item.first, item.second);
}

void ModuleDictImpl::clear() {
  for (const std::string &key : modules_.keys())
    unregister_module(key);
  modules_.clear();
}

std::shared_ptr<Module>
ModuleDictImpl::clone(const std::optional<Device> &device) const {
  auto copy = std::make_shared<ModuleDictImpl>();
  for (const auto &item : modules_)
    copy->insert(item.key(), item.value()->clone(device));
  return copy;
}

void ModuleDictImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::ModuleDict";
}

// --- Functional --------------------------------------------------------------

FunctionalImpl::FunctionalImpl(Function function)
    : function_(std::move(function)) {}

void FunctionalImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Functional()";
}

Tensor FunctionalImpl::forward(Tensor input) {
  return function_(std::move(input));
}

} // namespace nn
} // namespace tcc
