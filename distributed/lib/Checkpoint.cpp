//===- Checkpoint.cpp - Rank 0 writes, every rank resumes -----------------===//

#include "tcc/Distributed/Checkpoint.h"

#include "tcc/Frontend/Factories.h"

#include <string>

namespace tcc {
namespace distributed {

void save_checkpoint(ProcessGroup &group, const std::string &path,
                     const nn::Module &model, const optim::Optimizer &optimizer,
                     const serialize::Checkpoint &info) {
  // Rank 0's failure reaches every rank, so none waits for a file that
  // will not come.
  Tensor failed = zeros({1}, kInt);
  std::string error;
  if (group.rank() == 0) {
    try {
      serialize::save_checkpoint(path, model, optimizer, info);
    } catch (const std::exception &e) {
      error = e.what();
      failed.fill_(1);
    }
  }
  group.broadcast(failed, 0);
  if (failed.item<int>())
    detail::throwError("save_checkpoint: rank 0 could not write '" + path +
                       "'" + (error.empty() ? "" : ": " + error));
}

serialize::Checkpoint load_checkpoint(ProcessGroup &group,
                                      const std::string &path,
                                      nn::Module &model,
                                      optim::Optimizer &optimizer) {
  group.barrier();
  serialize::Checkpoint info;
  std::string error;
  try {
    info = serialize::load_checkpoint(path, model, optimizer);
  } catch (const std::exception &e) {
    error = e.what();
  }
  // Each rank's outcome: -1 for a failure, else the epoch it read.
  Tensor outcome = full({1}, error.empty() ? info.epoch : int64_t(-1), kLong);
  Tensor all = group.allgather(outcome);
  std::string failedRanks;
  bool sameEpoch = true;
  for (int r = 0; r < group.size(); ++r) {
    int64_t v = all[r].item<int64_t>();
    if (v < 0)
      failedRanks += (failedRanks.empty() ? "" : ", ") + std::to_string(r);
    sameEpoch = sameEpoch && v == all[0].item<int64_t>();
  }
  if (!failedRanks.empty())
    detail::throwError("load_checkpoint: rank(s) " + failedRanks +
                       " could not read '" + path + "'" +
                       (error.empty() ? "" : " (this rank: " + error + ")"));
  if (!sameEpoch)
    detail::throwError("load_checkpoint: the ranks read different epochs "
                       "from '" + path + "' (different files at that path?)");
  return info;
}

} // namespace distributed
} // namespace tcc
