//===- Serialize.cpp - save/load of tensors, modules, optimizers ----------===//

#include "tcc/Frontend/serialize/Serialize.h"

#include "tcc/Frontend/Check.h"

namespace tcc {
namespace serialize {

OutputArchive &operator<<(OutputArchive &archive, const Tensor &tensor) {
  archive.write("tensor", tensor);
  return archive;
}

InputArchive &operator>>(InputArchive &archive, Tensor &tensor) {
  Tensor loaded;
  archive.read("tensor", loaded);
  tensor = loaded;
  return archive;
}

OutputArchive &operator<<(OutputArchive &archive,
                          const std::vector<Tensor> &tensors) {
  archive.write("size", IValue(int64_t(tensors.size())));
  for (size_t i = 0; i < tensors.size(); ++i)
    archive.write(std::to_string(i), tensors[i]);
  return archive;
}

InputArchive &operator>>(InputArchive &archive, std::vector<Tensor> &tensors) {
  IValue size;
  archive.read("size", size);
  TCC_CHECK(size.toInt() >= 0, "a saved tensor list has a negative size");
  std::vector<Tensor> out;
  for (int64_t i = 0; i < size.toInt(); ++i) {
    Tensor t;
    archive.read(std::to_string(i), t);
    out.push_back(t);
  }
  tensors = std::move(out);
  return archive;
}

OutputArchive &operator<<(OutputArchive &archive,
                          const std::shared_ptr<nn::Module> &module) {
  TCC_CHECK(module, "tcc::save: the module is null");
  module->save(archive);
  return archive;
}

InputArchive &operator>>(InputArchive &archive,
                         const std::shared_ptr<nn::Module> &module) {
  TCC_CHECK(module, "tcc::load: the module is null");
  module->load(archive);
  return archive;
}

OutputArchive &operator<<(OutputArchive &archive,
                          const optim::Optimizer &optimizer) {
  optimizer.save(archive);
  return archive;
}

InputArchive &operator>>(InputArchive &archive, optim::Optimizer &optimizer) {
  optimizer.load(archive);
  return archive;
}

} // namespace serialize
} // namespace tcc
