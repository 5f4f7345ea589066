//===- Serialize.h - tcc::save / tcc::load ----------------------*- C++ -*-===//
//
// libtorch's torch::save(value, file) and torch::load(value, file) for
// tensors, tensor vectors, modules (through their holders or shared_ptrs)
// and optimizers. Every file is a safetensors file (see Archive.h):
//
//   tcc::save(model, "model.safetensors");   // keys = named_parameters()
//   tcc::load(model, "model.safetensors");   // into the existing tensors
//
// A single tensor is stored under the key "tensor", a vector under "0",
// "1", ...
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_SERIALIZE_SERIALIZE_H
#define TCC_FRONTEND_SERIALIZE_SERIALIZE_H

#include "tcc/Frontend/nn/Module.h"
#include "tcc/Frontend/nn/Pimpl.h"
#include "tcc/Frontend/optim/Optimizer.h"
#include "tcc/Frontend/serialize/Archive.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace serialize {

OutputArchive &operator<<(OutputArchive &archive, const Tensor &tensor);
InputArchive &operator>>(InputArchive &archive, Tensor &tensor);
OutputArchive &operator<<(OutputArchive &archive,
                          const std::vector<Tensor> &tensors);
InputArchive &operator>>(InputArchive &archive, std::vector<Tensor> &tensors);
OutputArchive &operator<<(OutputArchive &archive,
                          const std::shared_ptr<nn::Module> &module);
InputArchive &operator>>(InputArchive &archive,
                         const std::shared_ptr<nn::Module> &module);
OutputArchive &operator<<(OutputArchive &archive,
                          const optim::Optimizer &optimizer);
InputArchive &operator>>(InputArchive &archive, optim::Optimizer &optimizer);

template <class M>
OutputArchive &operator<<(OutputArchive &archive,
                          const nn::ModuleHolder<M> &module) {
  return archive << std::static_pointer_cast<nn::Module>(module.ptr());
}
template <class M>
InputArchive &operator>>(InputArchive &archive, nn::ModuleHolder<M> &module) {
  return archive >> std::static_pointer_cast<nn::Module>(module.ptr());
}
template <class M,
          class = std::enable_if_t<std::is_base_of<nn::Module, M>::value>>
OutputArchive &operator<<(OutputArchive &archive, const std::shared_ptr<M> &m) {
  return archive << std::static_pointer_cast<nn::Module>(m);
}
template <class M,
          class = std::enable_if_t<std::is_base_of<nn::Module, M>::value>>
InputArchive &operator>>(InputArchive &archive, std::shared_ptr<M> &m) {
  return archive >> std::static_pointer_cast<nn::Module>(m);
}

} // namespace serialize

/// Saves `value` to a file name, a std::ostream or a writer function.
template <class Value, class... SaveToArgs>
void save(const Value &value, SaveToArgs &&...args) {
  serialize::OutputArchive archive;
  archive << value;
  archive.save_to(std::forward<SaveToArgs>(args)...);
}

/// Loads into `value` from a file name, a std::istream or (data, size).
template <class Value, class... LoadFromArgs>
void load(Value &value, LoadFromArgs &&...args) {
  serialize::InputArchive archive;
  archive.load_from(std::forward<LoadFromArgs>(args)...);
  archive >> value;
}

} // namespace tcc

#endif // TCC_FRONTEND_SERIALIZE_SERIALIZE_H
