//===- ProcessGroup.h - Collectives across processes ------------*- C++ -*-===//
//
// A ProcessGroup is a set of processes (ranks 0..size-1) that run the same
// collectives in the same order, as torch.distributed's groups do. Every
// collective has an async form returning a Work and a blocking form (the
// async one followed by wait()). A backend (MPI today) implements the
// interface; backends are created by name (Backend.h), so another library
// such as NCCL joins without changing callers.
//
// Before each collective the ranks exchange a small signature (collective,
// op, root, dtype, shape, sequence number): a rank that passes a tensor of
// another shape or dtype, or calls another collective, gets an error naming
// what differs on every rank, instead of a hang or a silently wrong sum.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_PROCESSGROUP_H
#define TCC_DISTRIBUTED_PROCESSGROUP_H

#include "tcc/Frontend/Tensor.h"

#include <chrono>
#include <memory>
#include <string>

namespace tcc {
namespace distributed {

enum class ReduceOp { Sum, Avg, Max, Min };
/// "sum", "avg", "max", "min".
const char *toString(ReduceOp op);

/// One collective in flight. wait() blocks until it has finished on this
/// rank and rethrows its error (a mismatch across ranks, an MPI error).
class Work {
public:
  virtual ~Work();
  virtual void wait() = 0;
  virtual bool is_completed() = 0;
  /// The collective's output once wait() has returned: the tensor reduced or
  /// broadcast in place, the gathered tensor, this rank's scattered chunk;
  /// undefined for barrier.
  virtual Tensor result() = 0;
};

class ProcessGroup {
public:
  virtual ~ProcessGroup();
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// The name it was created with ("mpi").
  virtual std::string backend_name() const = 0;

  // Async collectives. Tensors may have any layout; the Work keeps them
  // alive. `label` names the tensor in error and timeout messages.

  /// `tensor` becomes the elementwise reduction of every rank's tensor.
  /// Avg divides the sum by size() (floating-point dtypes only).
  virtual std::shared_ptr<Work> allreduce_async(const Tensor &tensor,
                                                ReduceOp op = ReduceOp::Sum,
                                                const std::string &label = "") = 0;
  /// `tensor` becomes root's tensor on every rank.
  virtual std::shared_ptr<Work> broadcast_async(const Tensor &tensor, int root = 0,
                                                const std::string &label = "") = 0;
  /// Every rank's `input` concatenated along dim 0, in rank order. Ranks may
  /// pass different sizes in dim 0; the other dims and the dtype must match.
  /// A 0-dim input counts as shape [1].
  virtual std::shared_ptr<Work> allgather_async(const Tensor &input,
                                                const std::string &label = "") = 0;
  /// The reduction of every rank's `input` (same shape everywhere, at least
  /// one dim), split along dim 0 as tensor_split does: rank r gets rows
  /// [r*n/size + min(r, n%size), ...), the first n%size ranks one row more.
  virtual std::shared_ptr<Work> reduce_scatter_async(const Tensor &input,
                                                     ReduceOp op = ReduceOp::Sum,
                                                     const std::string &label = "") = 0;
  virtual std::shared_ptr<Work> barrier_async() = 0;

  // Blocking forms.
  void allreduce(const Tensor &tensor, ReduceOp op = ReduceOp::Sum);
  void broadcast(const Tensor &tensor, int root = 0);
  Tensor allgather(const Tensor &input);
  Tensor reduce_scatter(const Tensor &input, ReduceOp op = ReduceOp::Sum);
  void barrier();

  /// Ends every process of the job now (MPI_Abort), for a rank that cannot
  /// go on; the others would otherwise wait for it until their timeout.
  [[noreturn]] virtual void abort(int exit_code = 1) = 0;
};

/// Options of init_process_group.
struct InitOptions {
  /// How long a collective may wait for the other ranks before the job is
  /// aborted with a message naming it. Zero: TCC_DIST_TIMEOUT (seconds) when
  /// set, else 300 s.
  std::chrono::milliseconds timeout{0};
  /// Exchange and compare each collective's signature first (see above).
  bool check_signatures = true;
};

/// Creates the default group with the backend registered under `backend`
/// ("mpi"). Throws when a default group exists or the name is unknown (the
/// message lists the registered names).
std::shared_ptr<ProcessGroup> init_process_group(const std::string &backend,
                                                 const InitOptions &options = {});
bool is_initialized();
/// The default group; throws when init_process_group has not been called.
ProcessGroup &default_group();
std::shared_ptr<ProcessGroup> default_group_ptr();
int get_rank();
int get_world_size();
/// Forgets the default group (the backend's library stays initialized until
/// the process exits: MPI cannot be initialized twice).
void destroy_process_group();

/// The timeout InitOptions{} gives: TCC_DIST_TIMEOUT or 300 s. Throws on a
/// value that is not a positive number of seconds.
std::chrono::milliseconds default_timeout();

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_PROCESSGROUP_H
