//===- DistributedDataParallel.cpp - Replicas kept equal across ranks -----===//

#include "tcc/Distributed/DistributedDataParallel.h"

#include "tcc/Frontend/Check.h"

namespace tcc {
namespace nn {
namespace parallel {

namespace {

/// Rank 0's values into every rank's tensors, all in flight at once. The
/// signature exchange names a rank whose model has another shape.
void broadcastFromRankZero(distributed::ProcessGroup &group,
                           const OrderedDict<std::string, Tensor> &tensors) {
  std::vector<std::shared_ptr<distributed::Work>> works;
  for (const auto &item : tensors)
    works.push_back(group.broadcast_async(item.value(), 0, item.key()));
  for (auto &w : works)
    w->wait();
}

} // namespace

DistributedDataParallelBase::DistributedDataParallelBase(
    std::shared_ptr<Module> module,
    std::shared_ptr<distributed::ProcessGroup> group,
    DistributedDataParallelOptions options)
    : module_(std::move(module)), group_(std::move(group)), options_(options) {
  TCC_CHECK(module_, "DistributedDataParallel: no module");
  TCC_CHECK(group_, "DistributedDataParallel: no process group");
  broadcastFromRankZero(*group_, module_->named_parameters());
  broadcastFromRankZero(*group_, module_->named_buffers());
  std::vector<std::pair<std::string, Tensor>> named;
  for (const auto &item : module_->named_parameters())
    named.push_back({item.key(), item.value()});
  distributed::ReducerOptions reducerOptions;
  reducerOptions.bucket_cap_mb = options_.bucket_cap_mb();
  reducerOptions.find_unused_parameters = options_.find_unused_parameters();
  reducerOptions.overlap = options_.overlap();
  reducer_ = std::make_unique<distributed::Reducer>(std::move(named), group_,
                                                    reducerOptions);
}

void DistributedDataParallelBase::beforeForward() {
  reducer_->prepare_for_forward();
  if (options_.broadcast_buffers() && module_->is_training())
    broadcastFromRankZero(*group_, module_->named_buffers());
}

void DistributedDataParallelBase::afterForward(
    const std::vector<Tensor> &outputs) {
  reducer_->prepare_for_backward(outputs);
}

} // namespace parallel
} // namespace nn
} // namespace tcc
