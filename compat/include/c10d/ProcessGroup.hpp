//===- ProcessGroup.hpp - c10d::ProcessGroup over tcc's groups --*- C++ -*-===//
//
// libtorch's c10d API (the vector-of-tensors collectives, getRank,
// getSize) on a tcc::distributed::ProcessGroup. Each collective finishes
// before it returns: programs such as pytorch/examples' dist-mnist touch
// the tensor between allreduce() and wait(), which would race with a
// collective still in flight. tcc's own API (tcc::distributed, and
// DistributedDataParallel) overlaps communication instead.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPAT_C10D_PROCESSGROUP_HPP
#define TCC_COMPAT_C10D_PROCESSGROUP_HPP

#include "c10/util/intrusive_ptr.h"
#include "c10d/Types.hpp"
#include "c10d/Work.hpp"

#include "tcc/distributed.h"
#include "tcc/tcc.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace c10d {

class ProcessGroup : public c10::intrusive_ptr_target {
public:
  using Work = ::c10d::Work;

  explicit ProcessGroup(std::shared_ptr<tcc::distributed::ProcessGroup> group)
      : group_(std::move(group)) {}

  int getRank() const { return group_->rank(); }
  int getSize() const { return group_->size(); }
  virtual const std::string getBackendName() const {
    return group_->backend_name();
  }

  c10::intrusive_ptr<Work> allreduce(std::vector<at::Tensor> &tensors,
                                     const AllreduceOptions &opts = AllreduceOptions()) {
    return run("allreduce", tensors, [&] {
      group_->allreduce(tensors[0], opts.reduceOp.toTcc());
      return tensors;
    });
  }
  c10::intrusive_ptr<Work> broadcast(std::vector<at::Tensor> &tensors,
                                     const BroadcastOptions &opts = BroadcastOptions()) {
    return run("broadcast", tensors, [&] {
      group_->broadcast(tensors[0], int(opts.rootRank));
      return tensors;
    });
  }
  /// outputTensors[0][r] receives rank r's inputTensors[0].
  c10::intrusive_ptr<Work>
  allgather(std::vector<std::vector<at::Tensor>> &outputTensors,
            std::vector<at::Tensor> &inputTensors,
            const AllgatherOptions & = AllgatherOptions()) {
    return run("allgather", inputTensors, [&] {
      TCC_CHECK(outputTensors.size() == 1 &&
                    outputTensors[0].size() == size_t(getSize()),
                "c10d allgather: expected one list of ", getSize(),
                " output tensors");
      at::Tensor all = group_->allgather(inputTensors[0].unsqueeze(0));
      tcc::NoGradGuard noGrad;
      for (int r = 0; r < getSize(); ++r)
        outputTensors[0][size_t(r)].copy_(all[r]);
      return outputTensors[0];
    });
  }
  /// outputTensors[0] receives the reduction of every rank's
  /// inputTensors[0][this rank].
  c10::intrusive_ptr<Work>
  reduce_scatter(std::vector<at::Tensor> &outputTensors,
                 std::vector<std::vector<at::Tensor>> &inputTensors,
                 const ReduceScatterOptions &opts = ReduceScatterOptions()) {
    return run("reduce_scatter", outputTensors, [&] {
      TCC_CHECK(inputTensors.size() == 1 &&
                    inputTensors[0].size() == size_t(getSize()),
                "c10d reduce_scatter: expected one list of ", getSize(),
                " input tensors");
      std::vector<at::Tensor> rows;
      for (const at::Tensor &t : inputTensors[0])
        rows.push_back(t.unsqueeze(0));
      at::Tensor mine =
          group_->reduce_scatter(tcc::cat(rows, 0), opts.reduceOp.toTcc());
      tcc::NoGradGuard noGrad;
      outputTensors[0].copy_(mine[0]);
      return outputTensors;
    });
  }
  c10::intrusive_ptr<Work> barrier(const BarrierOptions & = BarrierOptions()) {
    std::vector<at::Tensor> none{at::Tensor()};
    return run("barrier", none, [&] {
      group_->barrier();
      return std::vector<at::Tensor>();
    });
  }

  /// tcc's group behind this one.
  const std::shared_ptr<tcc::distributed::ProcessGroup> &tccGroup() const {
    return group_;
  }

protected:
  std::shared_ptr<tcc::distributed::ProcessGroup> group_;

private:
  /// libtorch's MPI group takes one tensor per call; the error of the
  /// collective goes into the Work, as libtorch reports it from wait().
  c10::intrusive_ptr<Work>
  run(const char *name, const std::vector<at::Tensor> &tensors,
      const std::function<std::vector<at::Tensor>()> &collective) {
    TCC_CHECK(tensors.size() == 1, "c10d ", name,
              ": tcc's process groups take a single tensor per call, got ",
              tensors.size());
    try {
      return c10::make_intrusive<Work>(collective(), nullptr);
    } catch (...) {
      return c10::make_intrusive<Work>(std::vector<at::Tensor>(),
                                       std::current_exception());
    }
  }
};

} // namespace c10d

#endif // TCC_COMPAT_C10D_PROCESSGROUP_HPP
