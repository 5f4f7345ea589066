//===- ThreadPool.cpp - The intra-op thread pool --------------------------===//

#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/tcc_runtime.h"

#include <chrono>
#include <cstdlib>
#include <exception>
#include <stdexcept>
#include <string>

namespace tcc {
namespace runtime {

namespace {
// The pool whose task this thread is running, or null outside any task.
thread_local const ThreadPool *tls_running_pool = nullptr;

class RunningPoolScope {
public:
  explicit RunningPoolScope(const ThreadPool *pool) : saved_(tls_running_pool) {
    tls_running_pool = pool;
  }
  ~RunningPoolScope() { tls_running_pool = saved_; }

private:
  const ThreadPool *saved_;
};

// How long an idle worker spins before it sleeps: a model run makes many
// short parallel_for calls, and waking a sleeping worker (a futex, on a VM
// a halted vCPU) costs more than the wait (figures: docs/performance.md,
// "Measurements behind choices in the code"). TCC_POOL_SPIN_US overrides.
constexpr int64_t kDefaultSpinMicros = 100;

int64_t spin_micros() {
  if (const char *env = std::getenv("TCC_POOL_SPIN_US")) {
    char *end = nullptr;
    long long value = std::strtoll(env, &end, 10);
    if (end != env && *end == '\0' && value >= 0 && value <= 1000000)
      return value;
  }
  return kDefaultSpinMicros;
}

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

void check_thread_count(int num_threads) {
  if (num_threads < 1 || num_threads > TCC_MAX_THREADS)
    throw std::invalid_argument(
        "thread pool: num_threads must be 1 to " +
        std::to_string(TCC_MAX_THREADS) + ", got " +
        std::to_string(num_threads));
}
} // namespace

// One parallel_for call. It lives on the caller's stack; `holders` counts the
// workers that may still touch it, and the caller returns only at zero.
struct ThreadPool::Job {
  int64_t count;
  tcc_task_fn task;
  void *arg;
  std::atomic<int64_t> next{0};
  std::atomic<bool> failed{false};
  std::exception_ptr error;         // written by the first failing task
  std::atomic<int> holders{0};      // changed under the pool's mutex
  bool caller_sleeping = false;     // guarded by the pool's mutex
  std::condition_variable released; // signalled when holders drops to 0
};

ThreadPool::ThreadPool(int num_threads) : spin_us_(spin_micros()) {
  check_thread_count(num_threads);
  num_threads_ = num_threads;
  start_workers(num_threads - 1);
}

ThreadPool::~ThreadPool() { stop_workers(); }

int ThreadPool::num_threads() const { return num_threads_.load(); }

void ThreadPool::resize(int num_threads) {
  check_thread_count(num_threads);
  if (tls_running_pool == this)
    throw std::logic_error(
        "thread pool: cannot resize a pool from inside one of its tasks");
  std::lock_guard<std::mutex> guard(resize_mutex_);
  if (num_threads == num_threads_.load())
    return;
  stop_workers();
  num_threads_ = num_threads;
  start_workers(num_threads - 1);
}

void ThreadPool::start_workers(int count) {
  try {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = false;
    workers_.reserve(static_cast<size_t>(count));
    for (int i = 0; i < count; ++i)
      workers_.emplace_back([this] { worker_loop(); });
  } catch (...) {
    // The system ran out of threads: a joinable std::thread destroyed (by
    // the constructor's unwinding) would terminate the process, so join the
    // workers that did start before passing the error on.
    stop_workers();
    num_threads_ = 1;
    throw;
  }
}

void ThreadPool::stop_workers() {
  std::vector<std::thread> workers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
    workers.swap(workers_);
  }
  work_available_.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

void ThreadPool::run_indices(Job &job) {
  for (;;) {
    int64_t i = job.next.fetch_add(1, std::memory_order_relaxed);
    if (i >= job.count)
      return;
    try {
      job.task(job.arg, i);
    } catch (...) {
      if (!job.failed.exchange(true))
        job.error = std::current_exception();
      job.next.store(job.count, std::memory_order_relaxed); // start no more
    }
  }
}

void ThreadPool::spin_for_work(uint64_t seen) const {
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(spin_us_);
  for (int i = 1; jobs_posted_.load(std::memory_order_acquire) == seen; ++i) {
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= until)
      return;
  }
}

bool ThreadPool::spin_until_released(const Job &job) const {
  if (job.holders.load(std::memory_order_acquire) == 0)
    return true;
  const auto until = std::chrono::steady_clock::now() +
                     std::chrono::microseconds(spin_us_);
  for (int i = 1; job.holders.load(std::memory_order_acquire) != 0; ++i) {
    cpu_relax();
    if (i % 64 == 0 && std::chrono::steady_clock::now() >= until)
      return false;
  }
  return true;
}

void ThreadPool::worker_loop() {
  RunningPoolScope scope(this);
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    if (spin_us_ > 0 && queue_.empty() && !stopping_) {
      uint64_t seen = jobs_posted_.load(std::memory_order_relaxed);
      lock.unlock();
      spin_for_work(seen);
      lock.lock();
    }
    if (!stopping_ && queue_.empty()) {
      ++sleeping_;
      work_available_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
      --sleeping_;
    }
    if (stopping_)
      return;
    Job *job = queue_.front();
    job->holders.fetch_add(1, std::memory_order_relaxed);
    lock.unlock();
    run_indices(*job);
    lock.lock();
    // Every index is claimed now: take the job off the queue so that idle
    // workers move on to the next one.
    erase_job(job);
    // Past the decrement the job may be gone (its caller spins on holders
    // without the mutex), so whether to signal is read before it.
    bool signal = job->caller_sleeping;
    if (job->holders.fetch_sub(1, std::memory_order_release) == 1 && signal)
      job->released.notify_all();
  }
}

void ThreadPool::erase_job(const Job *job) {
  for (auto it = queue_.begin(); it != queue_.end(); ++it)
    if (*it == job) {
      queue_.erase(it);
      return;
    }
}

void ThreadPool::parallel_for(int64_t count, tcc_task_fn task, void *arg) {
  if (count <= 0)
    return;
  // A single index needs no worker, and leaving the region flag unset lets
  // the task itself use the pool.
  if (count == 1) {
    task(arg, 0);
    return;
  }
  Job job;
  job.count = count;
  job.task = task;
  job.arg = arg;
  bool inline_only = tls_running_pool != nullptr || num_threads_.load() == 1;
  if (!inline_only) {
    int wake;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(&job);
      // Spinning workers see jobs_posted_; only sleeping ones need a
      // (costly) notify.
      wake = static_cast<int>(std::min<int64_t>(count - 1, sleeping_));
    }
    jobs_posted_.fetch_add(1, std::memory_order_release);
    for (int i = 0; i < wake; ++i)
      work_available_.notify_one();
  }
  {
    RunningPoolScope scope(this);
    run_indices(job);
  }
  if (!inline_only) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      erase_job(&job);
    }
    // No worker can take the job now; wait for those that have it.
    if (!spin_until_released(job)) {
      std::unique_lock<std::mutex> lock(mutex_);
      job.caller_sleeping = true;
      job.released.wait(lock, [&] {
        return job.holders.load(std::memory_order_acquire) == 0;
      });
    }
  }
  if (job.error)
    std::rethrow_exception(job.error);
}

int64_t ThreadPool::num_chunks(int64_t range, int64_t grain) const {
  if (tls_running_pool != nullptr)
    return 1;
  grain = std::max<int64_t>(grain, 1);
  int64_t by_grain = range / grain + (range % grain != 0);
  return std::max<int64_t>(1, std::min<int64_t>(by_grain, num_threads()));
}

bool ThreadPool::in_parallel_region() { return tls_running_pool != nullptr; }

namespace {
void c_parallel_for(void *pool, int64_t count, tcc_task_fn task, void *arg) {
  static_cast<ThreadPool *>(pool)->parallel_for(count, task, arg);
}
} // namespace

tcc_parallel ThreadPool::c_parallel() {
  tcc_parallel parallel;
  parallel.parallel_for = c_parallel_for;
  parallel.pool = this;
  parallel.num_threads = in_parallel_region() ? 1 : num_threads();
  return parallel;
}

namespace {
int initial_thread_count() {
  if (const char *env = std::getenv("TCC_NUM_THREADS")) {
    char *end = nullptr;
    long value = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && value >= 1 && value <= 4096)
      return static_cast<int>(value);
  }
  unsigned hardware = std::thread::hardware_concurrency();
  return hardware == 0 ? 1 : static_cast<int>(hardware);
}
} // namespace

ThreadPool &default_thread_pool() {
  // Never destroyed: static destructors of other objects may still run
  // parallel work at exit, and joining threads there can deadlock.
  static ThreadPool *pool = new ThreadPool(initial_thread_count());
  return *pool;
}

void set_num_threads(int num_threads) {
  default_thread_pool().resize(num_threads);
}

int get_num_threads() { return default_thread_pool().num_threads(); }

} // namespace runtime
} // namespace tcc
