//===- Checkpoint.h - Checkpoints of data-parallel training -----*- C++ -*-===//
//
// Rank 0 writes the checkpoint (serialize::save_checkpoint: model,
// optimizer, epoch, metadata, random generator; written to a temporary file
// and renamed); every rank resumes from it. The file must be readable by
// every rank at `path`: one machine, a shared folder, or a copy on each.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_CHECKPOINT_H
#define TCC_DISTRIBUTED_CHECKPOINT_H

#include "tcc/Distributed/ProcessGroup.h"

#include "tcc/Frontend/serialize/Checkpoint.h"

namespace tcc {
namespace distributed {

/// Rank 0 writes; every rank returns once the file is complete.
void save_checkpoint(ProcessGroup &group, const std::string &path,
                     const nn::Module &model, const optim::Optimizer &optimizer,
                     const serialize::Checkpoint &info);

/// Every rank loads `path` into its model and optimizer, after any
/// save_checkpoint before it has finished; throws on every rank when any
/// rank cannot read it (naming the ranks) or the ranks read different
/// epochs.
serialize::Checkpoint load_checkpoint(ProcessGroup &group,
                                      const std::string &path,
                                      nn::Module &model,
                                      optim::Optimizer &optimizer);

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_CHECKPOINT_H
