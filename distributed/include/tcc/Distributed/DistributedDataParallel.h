//===- DistributedDataParallel.h - Data-parallel training -------*- C++ -*-===//
//
// PyTorch's DistributedDataParallel for tcc's nn modules: every rank holds a
// replica; construction broadcasts rank 0's parameters and buffers; each
// rank's backward averages gradients across ranks in buckets while it runs
// (Reducer.h), so after backward every replica holds the same gradient and
// the same optimizer step keeps them equal.
//
//   auto pg = tcc::distributed::init_process_group("mpi");
//   DigitsNet net;
//   tcc::nn::parallel::DistributedDataParallel<DigitsNet> ddp(net);
//   auto loss = nll_loss(ddp(x_of_this_rank), y_of_this_rank);
//   loss.backward();                      // gradients averaged over ranks
//   optimizer.step();
//   { auto guard = ddp.no_sync(); ... }   // accumulate locally
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_DISTRIBUTEDDATAPARALLEL_H
#define TCC_DISTRIBUTED_DISTRIBUTEDDATAPARALLEL_H

#include "tcc/Distributed/ProcessGroup.h"
#include "tcc/Distributed/Reducer.h"

#include "tcc/Frontend/nn/Arg.h"
#include "tcc/Frontend/nn/Module.h"

#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace tcc {
namespace nn {
namespace parallel {

struct DistributedDataParallelOptions {
  /// Gradient bucket size in MiB.
  TCC_ARG(double, bucket_cap_mb) = 25;
  /// Find, after each forward, the parameters backward will not reach and
  /// count them as ready with a zero gradient (ReducerOptions).
  TCC_ARG(bool, find_unused_parameters) = false;
  /// Broadcast rank 0's buffers (batch-norm statistics) before each
  /// forward, as PyTorch does.
  TCC_ARG(bool, broadcast_buffers) = true;
  /// Start each bucket's allreduce during backward (off: after it).
  TCC_ARG(bool, overlap) = true;
};

/// What DistributedDataParallel<M> does apart from calling M's forward.
class DistributedDataParallelBase {
public:
  DistributedDataParallelBase(std::shared_ptr<Module> module,
                              std::shared_ptr<distributed::ProcessGroup> group,
                              DistributedDataParallelOptions options);

  /// Gradients accumulate locally (no communication) while the guard
  /// lives; the first synchronized backward after it averages the sums.
  class NoSyncGuard {
  public:
    explicit NoSyncGuard(distributed::Reducer &reducer)
        : reducer_(&reducer), previous_(reducer.sync()) {
      reducer.set_sync(false);
    }
    NoSyncGuard(NoSyncGuard &&o) noexcept
        : reducer_(std::exchange(o.reducer_, nullptr)), previous_(o.previous_) {}
    NoSyncGuard(const NoSyncGuard &) = delete;
    NoSyncGuard &operator=(const NoSyncGuard &) = delete;
    NoSyncGuard &operator=(NoSyncGuard &&) = delete;
    ~NoSyncGuard() {
      if (reducer_)
        reducer_->set_sync(previous_);
    }

  private:
    distributed::Reducer *reducer_;
    bool previous_;
  };
  [[nodiscard]] NoSyncGuard no_sync() { return NoSyncGuard(*reducer_); }

  distributed::ProcessGroup &process_group() { return *group_; }
  distributed::Reducer &reducer() { return *reducer_; }
  const DistributedDataParallelOptions &options() const { return options_; }

protected:
  void beforeForward();
  void afterForward(const std::vector<Tensor> &outputs);

private:
  std::shared_ptr<Module> module_;
  std::shared_ptr<distributed::ProcessGroup> group_;
  DistributedDataParallelOptions options_;
  std::unique_ptr<distributed::Reducer> reducer_;
};

namespace detail {
inline void collectTensors(const Tensor &t, std::vector<Tensor> &out) {
  out.push_back(t);
}
inline void collectTensors(const std::vector<Tensor> &ts,
                           std::vector<Tensor> &out) {
  out.insert(out.end(), ts.begin(), ts.end());
}
template <class... T>
void collectTensors(const std::tuple<T...> &t, std::vector<Tensor> &out) {
  std::apply([&](const auto &...e) { (collectTensors(e, out), ...); }, t);
}
template <class A, class B>
void collectTensors(const std::pair<A, B> &p, std::vector<Tensor> &out) {
  collectTensors(p.first, out);
  collectTensors(p.second, out);
}
/// Outputs that hold no tensors contribute none.
template <class T> void collectTensors(const T &, std::vector<Tensor> &) {}

template <class M> std::shared_ptr<Module> modulePtr(const M &m) {
  if constexpr (std::is_convertible_v<M, std::shared_ptr<Module>>)
    return m;
  else
    return m.ptr(); // a module holder (TCC_MODULE)
}
} // namespace detail

/// `ModuleType`: a module holder (DigitsNet) or a std::shared_ptr to a
/// module. The module is shared, not copied: train `ddp.module()` or the
/// original handle alike.
template <class ModuleType>
class DistributedDataParallel : public DistributedDataParallelBase {
public:
  explicit DistributedDataParallel(
      ModuleType module, DistributedDataParallelOptions options = {},
      std::shared_ptr<distributed::ProcessGroup> group =
          distributed::default_group_ptr())
      : DistributedDataParallelBase(detail::modulePtr(module), std::move(group),
                                    options),
        module_(std::move(module)) {}

  template <class... Args> auto forward(Args &&...args) {
    beforeForward();
    auto out = module_->forward(std::forward<Args>(args)...);
    std::vector<Tensor> tensors;
    detail::collectTensors(out, tensors);
    afterForward(tensors);
    return out;
  }
  template <class... Args> auto operator()(Args &&...args) {
    return forward(std::forward<Args>(args)...);
  }

  ModuleType &module() { return module_; }

private:
  ModuleType module_;
};

} // namespace parallel
} // namespace nn
} // namespace tcc

#endif // TCC_DISTRIBUTED_DISTRIBUTEDDATAPARALLEL_H
