//===- Checkpoint.h - Resumable training checkpoints ------------*- C++ -*-===//
//
// One safetensors file with the model's tensors under "model.", the
// optimizer's options and state under "optimizer.", the epoch, user
// metadata, and the state of the global random generator (dropout masks and
// shuffling continue exactly as if training had not stopped). Written to a
// temporary file and renamed, so a crash never leaves half a checkpoint.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_SERIALIZE_CHECKPOINT_H
#define TCC_FRONTEND_SERIALIZE_CHECKPOINT_H

#include "tcc/Frontend/nn/Module.h"
#include "tcc/Frontend/optim/Optimizer.h"

#include <cstdint>
#include <map>
#include <string>

namespace tcc {
namespace serialize {

struct Checkpoint {
  /// The number of epochs completed when it was written.
  int64_t epoch = 0;
  /// Anything the program wants back (run name, best accuracy, ...).
  std::map<std::string, std::string> metadata;
};

void save_checkpoint(const std::string &path, const nn::Module &model,
                     const optim::Optimizer &optimizer, const Checkpoint &info);
/// Loads model and optimizer state in place (shapes must match) and the
/// random generator state; returns the epoch and metadata.
Checkpoint load_checkpoint(const std::string &path, nn::Module &model,
                           optim::Optimizer &optimizer);

} // namespace serialize
} // namespace tcc

#endif // TCC_FRONTEND_SERIALIZE_CHECKPOINT_H
