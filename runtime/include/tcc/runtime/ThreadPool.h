//===- ThreadPool.h - The intra-op thread pool of eager and compiled code -===//
//
// One pool serves the eager frontend and compiled artifacts: both split work
// into independent indices and call `parallel_for`, which runs them on the
// pool's workers and on the calling thread, and returns when all are done.
//
// - A pool of N threads starts N - 1 workers; the caller is the N-th.
// - Many threads may call `parallel_for` on one pool at once; each call only
//   waits for its own indices (the caller keeps working on them, so a call
//   completes even when every worker is busy elsewhere).
// - A `parallel_for` issued from inside a task of any pool runs inline on the
//   calling thread: nested parallelism never deadlocks and never
//   oversubscribes the cores.
// - An exception thrown by a task stops the remaining indices from starting
//   and is rethrown by `parallel_for` once the running ones finish.
// - An idle worker spins for a short while (TCC_POOL_SPIN_US microseconds,
//   default 100, 0 to sleep at once) before it sleeps, so the next
//   `parallel_for` of a model run (a few microseconds later) finds it awake
//   instead of paying a futex wake-up on a possibly idle vCPU. Likewise a
//   caller whose indices are done spins (as long) for the workers still
//   running its last ones before it sleeps: a hand-off to a spinning
//   worker then makes no system call.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_THREADPOOL_H
#define TCC_RUNTIME_THREADPOOL_H

#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <thread>
#include <type_traits>
#include <vector>

namespace tcc {
namespace runtime {

class ThreadPool {
public:
  /// A pool that runs `parallel_for` on `num_threads` threads, the caller
  /// included. Throws std::invalid_argument unless num_threads >= 1.
  explicit ThreadPool(int num_threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool &) = delete;
  ThreadPool &operator=(const ThreadPool &) = delete;

  /// How many threads a `parallel_for` may use, the caller included.
  int num_threads() const;

  /// Changes the thread count. Calls in flight finish on the old workers.
  /// Throws std::invalid_argument unless num_threads >= 1, and
  /// std::logic_error when called from inside a task of this pool.
  void resize(int num_threads);

  /// Runs task(arg, i) for every i in [0, count), each exactly once, and
  /// returns when all have finished. This is the C ABI's callback shape.
  void parallel_for(int64_t count, tcc_task_fn task, void *arg);

  /// Runs fn(i) for every i in [0, count).
  template <typename Fn> void parallel_for(int64_t count, Fn &&fn) {
    using F = std::remove_reference_t<Fn>;
    parallel_for(
        count, [](void *f, int64_t i) { (*static_cast<F *>(f))(i); },
        const_cast<void *>(static_cast<const void *>(&fn)));
  }

  /// Splits [begin, end) into at most num_threads() chunks of at least
  /// `grain` indices and runs fn(chunk_begin, chunk_end) for each, like
  /// at::parallel_for. Runs inline when the range is a single chunk.
  template <typename Fn>
  void parallel_for(int64_t begin, int64_t end, int64_t grain, Fn &&fn) {
    if (end <= begin)
      return;
    int64_t chunks = num_chunks(end - begin, grain);
    if (chunks == 1) {
      fn(begin, end);
      return;
    }
    int64_t size = (end - begin + chunks - 1) / chunks;
    parallel_for(chunks, [&](int64_t c) {
      int64_t lo = begin + c * size;
      fn(lo, std::min(end, lo + size));
    });
  }

  /// The C ABI's view of this pool, for kernels. Inside a task its
  /// num_threads is 1, since nested calls run inline.
  tcc_parallel c_parallel();

  /// True on a thread that is running a task of any pool.
  static bool in_parallel_region();

private:
  struct Job;
  int64_t num_chunks(int64_t range, int64_t grain) const;
  void start_workers(int count);
  void stop_workers();
  void worker_loop();
  /// Spins until a job is posted after `seen`, at most spin_us_.
  void spin_for_work(uint64_t seen) const;
  /// Spins until no worker holds `job`, at most spin_us_; false on timeout.
  bool spin_until_released(const Job &job) const;
  /// Removes `job` from queue_ if it is there; needs mutex_.
  void erase_job(const Job *job);
  static void run_indices(Job &job);

  mutable std::mutex mutex_;
  std::condition_variable work_available_;
  std::deque<Job *> queue_; // jobs that may still have unclaimed indices
  std::vector<std::thread> workers_;
  bool stopping_ = false;
  int64_t sleeping_ = 0;                 // workers waiting on work_available_
  std::atomic<uint64_t> jobs_posted_{0}; // what spinning workers watch
  int64_t spin_us_;
  std::atomic<int> num_threads_{1};
  std::mutex resize_mutex_;
};

/// The process-wide pool that eager ops and compiled artifacts share. Its
/// size starts at TCC_NUM_THREADS if set, else the hardware thread count.
ThreadPool &default_thread_pool();

/// Resizes the default pool (what tcc::set_num_threads calls).
void set_num_threads(int num_threads);
int get_num_threads();

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_THREADPOOL_H
