//===- ModuleSerialize.cpp - Module::save / Module::load ------------------===//
//
// Parameters and buffers go into the archive under their names, children
// into nested archives, so the file's keys are named_parameters() and
// named_buffers() names ("fc1.weight", "bn.running_mean").
//
//===----------------------------------------------------------------------===//

#include "tcc/Frontend/nn/Module.h"

#include "tcc/Frontend/serialize/Archive.h"

namespace tcc {
namespace nn {

void Module::save(serialize::OutputArchive &archive) const {
  for (const auto &p : named_parameters(/*recurse=*/false))
    archive.write(p.key(), p.value());
  for (const auto &b : named_buffers(/*recurse=*/false))
    archive.write(b.key(), b.value(), /*is_buffer=*/true);
  for (const auto &child : children_) {
    if (!child.value()->is_serializable())
      continue;
    serialize::OutputArchive nested;
    child.value()->save(nested);
    archive.write(child.key(), nested);
  }
}

void Module::load(serialize::InputArchive &archive) {
  for (auto &p : parameters_)
    if (p.value().defined())
      archive.read(p.key(), p.value());
  for (auto &b : buffers_)
    if (b.value().defined())
      archive.read(b.key(), b.value(), /*is_buffer=*/true);
  for (const auto &child : children_) {
    Module &m = *child.value();
    if (!m.is_serializable() ||
        (m.named_parameters().is_empty() && m.named_buffers().is_empty()))
      continue; // nothing stored for it
    serialize::InputArchive nested;
    archive.read(child.key(), nested);
    m.load(nested);
  }
}

} // namespace nn
} // namespace tcc
