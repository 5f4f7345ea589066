//===- Reducer.h - Gradient buckets averaged during backward ----*- C++ -*-===//
//
// The engine of DistributedDataParallel, as in PyTorch: parameters are
// grouped into buckets (about bucket_cap_mb each, in reverse registration
// order, since backward produces the last layers' gradients first). A
// post-accumulate-grad hook on each parameter marks it ready; when a
// bucket's parameters are all ready, its gradients are copied into one flat
// tensor and its allreduce (avg) starts on the process group while backward
// goes on. When the last bucket is ready the hook waits for every bucket and
// writes the averages back into the parameters' .grad().
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_REDUCER_H
#define TCC_DISTRIBUTED_REDUCER_H

#include "tcc/Distributed/ProcessGroup.h"

#include <chrono>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace distributed {

struct ReducerOptions {
  /// Bucket size in MiB: a bucket closes once it holds at least this much.
  double bucket_cap_mb = 25;
  /// Walk the graph of forward's outputs to find parameters that backward
  /// will not reach, and count them as ready (zero gradient) right away.
  /// Without it such a parameter leaves its bucket unreduced, which the next
  /// forward reports.
  bool find_unused_parameters = false;
  /// Start each bucket's allreduce as soon as it is ready (overlapping
  /// backward); false starts them all once backward has produced every
  /// gradient (for comparison).
  bool overlap = true;
};

/// Where the time of the last synchronized backward went.
struct ReducerStats {
  /// From the first bucket's allreduce starting to every bucket done.
  std::chrono::nanoseconds communication{0};
  /// Of that, the part after backward produced its last gradient (the
  /// last hook launching what is left and waiting): not hidden behind
  /// backward.
  std::chrono::nanoseconds exposed_wait{0};
};

class Reducer {
public:
  struct Bucket {
    ScalarType dtype = kFloat;
    std::vector<size_t> params; // indices into the parameter list
    std::vector<int64_t> offsets;
    int64_t numel = 0;
  };

  Reducer(std::vector<std::pair<std::string, Tensor>> named_parameters,
          std::shared_ptr<ProcessGroup> group, ReducerOptions options = {});
  ~Reducer();
  Reducer(const Reducer &) = delete;
  Reducer &operator=(const Reducer &) = delete;

  /// Before forward: throws, naming the parameters, when the previous
  /// synchronized backward left buckets unreduced.
  void prepare_for_forward();
  /// After forward: arms the hooks for the coming backward; with
  /// find_unused_parameters, marks the parameters `outputs` do not reach.
  void prepare_for_backward(const std::vector<Tensor> &outputs);

  /// Off: backward accumulates gradients locally (no_sync()).
  void set_sync(bool sync) { sync_ = sync; }
  bool sync() const { return sync_; }

  const std::vector<Bucket> &buckets() const { return buckets_; }
  const std::vector<std::pair<std::string, Tensor>> &parameters() const {
    return params_;
  }
  const ReducerStats &last_stats() const { return stats_; }
  /// Names of the parameters the last find_unused_parameters walk found
  /// unreached.
  std::vector<std::string> last_unused() const;

private:
  void markReady(size_t param);
  void launch(size_t bucket);
  void finish();

  std::vector<std::pair<std::string, Tensor>> params_;
  std::shared_ptr<ProcessGroup> group_;
  ReducerOptions options_;
  std::vector<Bucket> buckets_;
  std::vector<size_t> bucketOf_;
  std::vector<unsigned> hookIds_;

  // One synchronized backward's state.
  bool armed_ = false;
  bool sync_ = true;
  std::vector<char> ready_;
  std::vector<char> unused_;
  std::vector<size_t> pendingInBucket_;
  size_t pendingBuckets_ = 0;
  std::vector<Tensor> flat_;
  std::vector<std::shared_ptr<Work>> works_;
  std::chrono::steady_clock::time_point firstLaunch_, lastGradient_;
  ReducerStats stats_;
};

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_REDUCER_H
