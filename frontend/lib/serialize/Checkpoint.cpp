//===- Checkpoint.cpp - Model, optimizer, epoch, metadata, RNG ------------===//

#include "tcc/Frontend/serialize/Checkpoint.h"

#include "../Core/Random.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/serialize/Archive.h"

namespace tcc {
namespace serialize {

void save_checkpoint(const std::string &path, const nn::Module &model,
                     const optim::Optimizer &optimizer,
                     const Checkpoint &info) {
  OutputArchive archive, modelArchive, optimizerArchive;
  model.save(modelArchive);
  optimizer.save(optimizerArchive);
  archive.write("model", modelArchive);
  archive.write("optimizer", optimizerArchive);
  archive.write("epoch", IValue(info.epoch));
  {
    detail::Generator &g = detail::globalGenerator();
    auto lock = g.lock();
    archive.write("rng_state", IValue(g.state()));
  }
  for (const auto &item : info.metadata)
    archive.write("user." + item.first, IValue(item.second));
  archive.save_to(path);
}

Checkpoint load_checkpoint(const std::string &path, nn::Module &model,
                           optim::Optimizer &optimizer) {
  InputArchive archive;
  archive.load_from(path);
  IValue epoch, rng;
  archive.read("epoch", epoch);
  archive.read("rng_state", rng);
  InputArchive modelArchive, optimizerArchive;
  archive.read("model", modelArchive);
  archive.read("optimizer", optimizerArchive);
  model.load(modelArchive);
  optimizer.load(optimizerArchive);
  {
    detail::Generator &g = detail::globalGenerator();
    auto lock = g.lock();
    TCC_CHECK(g.setState(rng.toStringRef()), "checkpoint '", path,
              "': unreadable random generator state");
  }
  Checkpoint info;
  info.epoch = epoch.toInt();
  const std::string prefix = "user.";
  for (const std::string &key : archive.keys())
    if (key.compare(0, prefix.size(), prefix) == 0) {
      IValue v;
      archive.read(key, v);
      info.metadata[key.substr(prefix.size())] = v.toStringRef();
    }
  return info;
}

} // namespace serialize
} // namespace tcc
