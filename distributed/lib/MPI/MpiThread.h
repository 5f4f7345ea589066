//===- MpiThread.h - The one thread that calls MPI --------------*- C++ -*-===//
//
// MPI is initialized, driven and finalized by one thread of tcc's own
// (MPI_THREAD_FUNNELED): collectives run on it in the order they were
// submitted, so the caller's thread computes (backward, say) while
// collectives progress, and nothing needs MPI_THREAD_MULTIPLE. Jobs poll
// their non-blocking requests (MPI_Test) against the group's timeout.
// The thread finalizes MPI when the process exits.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_LIB_MPI_MPITHREAD_H
#define TCC_DISTRIBUTED_LIB_MPI_MPITHREAD_H

#include <mpi.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace tcc {
namespace distributed {

class MpiThread {
public:
  /// The process's MPI thread, started (and MPI initialized) on first use.
  /// Throws when MPI cannot be initialized.
  static MpiThread &get();

  int worldRank() const { return rank_; }
  int worldSize() const { return size_; }

  /// Runs `job` on the MPI thread after every job submitted before it.
  void submit(std::function<void()> job);

  /// On the MPI thread: waits for `request`, calling MPI_Test, until
  /// `timeout` has passed since `start`; then prints `what` and this rank
  /// and aborts the job (MPI_Abort): some rank never joined.
  void waitOrAbort(MPI_Request &request,
                   std::chrono::steady_clock::time_point start,
                   std::chrono::milliseconds timeout,
                   const std::function<std::string()> &what);

  ~MpiThread();

private:
  MpiThread();
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> jobs_;
  bool stopping_ = false;
  std::thread thread_;
  int rank_ = 0;
  int size_ = 1;
  bool initializedByUs_ = false;
  std::string initError_; // set by the MPI thread before its first job
};

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_LIB_MPI_MPITHREAD_H
