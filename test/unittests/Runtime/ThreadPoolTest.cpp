//===- ThreadPoolTest.cpp - The intra-op thread pool ----------------------===//

#include "tcc/runtime/ThreadPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using tcc::runtime::ThreadPool;

namespace {

// Every index of [0, count) runs exactly once.
void expect_each_index_once(ThreadPool &pool, int64_t count) {
  std::vector<std::atomic<int>> hits(count);
  pool.parallel_for(count, [&](int64_t i) { hits[i].fetch_add(1); });
  for (int64_t i = 0; i < count; ++i)
    ASSERT_EQ(hits[i].load(), 1) << "index " << i << " of " << count;
}

TEST(ThreadPool, RunsEveryIndexExactlyOnce) {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.num_threads(), threads);
    for (int64_t count : {0, 1, 2, 3, 17, 1000})
      expect_each_index_once(pool, count);
  }
}

// Idle workers spin TCC_POOL_SPIN_US microseconds before they sleep (read
// when a pool is made): with no spin, a long one, and a malformed value
// (which keeps the default), back-to-back calls (the spinning worker
// catches them) and calls after a pause (the sleeping worker is woken) all
// run every index, and the pool shuts down with workers in either state.
TEST(ThreadPool, SpinningOrSleepingWorkersRunEveryCall) {
  for (const char *spin : {"0", "5000", "12abc"}) {
    ASSERT_EQ(setenv("TCC_POOL_SPIN_US", spin, 1), 0);
    {
      ThreadPool pool(3);
      for (int call = 0; call < 50; ++call)
        expect_each_index_once(pool, 7);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
      expect_each_index_once(pool, 1000);
    }
    unsetenv("TCC_POOL_SPIN_US");
  }
}

// Sets TCC_POOL_SPIN_US for the pools made in its lifetime.
class SpinSetting {
public:
  explicit SpinSetting(const char *micros) {
    EXPECT_EQ(setenv("TCC_POOL_SPIN_US", micros, 1), 0);
  }
  ~SpinSetting() { unsetenv("TCC_POOL_SPIN_US"); }
};

// Runs fn(i) for i in [0, 2), each index held until both have started, so
// that they run on the caller and a worker, and the worker's sleeping
// `sleep_ms` after that: the caller then finishes first and waits
// (spinning, or asleep once the spin time is over) for the worker.
template <typename Fn>
void two_indices_worker_slow(ThreadPool &pool, int sleep_ms, Fn &&fn) {
  std::atomic<int> started{0};
  const std::thread::id caller = std::this_thread::get_id();
  pool.parallel_for(2, [&](int64_t i) {
    started.fetch_add(1);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    if (std::this_thread::get_id() != caller)
      std::this_thread::sleep_for(std::chrono::milliseconds(sleep_ms));
    fn(i, std::this_thread::get_id() != caller);
  });
}

// The caller returns only once the worker's index has finished, whether it
// catches the end while spinning (a short task) or sleeps first (a task
// longer than the spin; with a spin of 0 it sleeps at once). A caller that
// returned early would see the worker's write missing.
TEST(ThreadPool, CallerWaitsForTheWorkersLastIndex) {
  for (const char *spin : {"0", "100", "5000"}) {
    SpinSetting setting(spin);
    ThreadPool pool(2);
    for (int sleep_ms : {0, 1, 20}) {
      for (int call = 0; call < 5; ++call) {
        std::vector<int> done(2, 0); // plain ints: TSan sees the handover
        int on_worker = 0;           // written by the worker's index only
        two_indices_worker_slow(pool, sleep_ms, [&](int64_t i, bool worker) {
          done[i] = 1;
          if (worker)
            on_worker = 1;
        });
        EXPECT_EQ(done[0] + done[1], 2)
            << "spin " << spin << ", slow index " << sleep_ms << " ms";
        EXPECT_EQ(on_worker, 1) << "spin " << spin;
      }
    }
  }
}

// A task of a worker throws while the caller waits for it: the call
// rethrows that exception after the worker is done, and the pool goes on.
TEST(ThreadPool, RethrowsAWorkersExceptionAfterWaitingForIt) {
  for (const char *spin : {"0", "100"}) {
    SpinSetting setting(spin);
    ThreadPool pool(2);
    for (int sleep_ms : {0, 5}) {
      EXPECT_THROW(two_indices_worker_slow(pool, sleep_ms,
                                           [](int64_t, bool worker) {
                                             if (worker)
                                               throw std::runtime_error("late");
                                           }),
                   std::runtime_error);
      expect_each_index_once(pool, 40);
    }
  }
}

// Pools made, used from several threads at once and destroyed, at 1 to 4
// threads, spinning or not: every call of every pool runs each index once,
// and destruction (with workers spinning, sleeping or just woken) finishes.
TEST(ThreadPool, ManyPoolsMadeUsedAndDestroyed) {
  for (const char *spin : {"0", "100"}) {
    SpinSetting setting(spin);
    std::vector<std::thread> users;
    std::atomic<int> wrong{0};
    for (int threads = 1; threads <= 4; ++threads)
      users.emplace_back([&, threads] {
        for (int round = 0; round < 20; ++round) {
          ThreadPool pool(threads);
          for (int64_t count : {2, 3, 16, 257}) {
            std::vector<std::atomic<int>> hits(count);
            pool.parallel_for(count, [&](int64_t i) { hits[i].fetch_add(1); });
            for (auto &h : hits)
              wrong.fetch_add(h.load() != 1);
          }
        }
      });
    for (std::thread &t : users)
      t.join();
    EXPECT_EQ(wrong.load(), 0) << "spin " << spin;
  }
}

// Back-to-back calls from several callers, of counts around the thread
// count: each call's indices run once and only its own (no index of one
// call is lost to, or run by, another's job).
TEST(ThreadPool, BackToBackCallsLoseNoIndex) {
  ThreadPool pool(3);
  constexpr int kCallers = 3, kCalls = 2000;
  std::atomic<int> wrong{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int call = 0; call < kCalls; ++call) {
        int64_t count = 2 + (call + c) % 5;
        std::vector<std::atomic<int>> hits(count);
        pool.parallel_for(count, [&](int64_t i) { hits[i].fetch_add(1); });
        for (auto &h : hits)
          wrong.fetch_add(h.load() != 1);
      }
    });
  for (std::thread &t : callers)
    t.join();
  EXPECT_EQ(wrong.load(), 0);
}

TEST(ThreadPool, RejectsNonPositiveSizes) {
  EXPECT_THROW(ThreadPool(0), std::invalid_argument);
  ThreadPool pool(2);
  EXPECT_THROW(pool.resize(-1), std::invalid_argument);
  EXPECT_EQ(pool.num_threads(), 2);
}

// Two tasks that each wait for the other can only finish when they run at
// the same time, i.e. on a worker and the caller. The wait is bounded so a
// broken pool fails instead of hanging.
TEST(ThreadPool, RunsTasksConcurrentlyOnWorkersAndCaller) {
  ThreadPool pool(2);
  std::atomic<int> arrived{0};
  std::atomic<int> met{0};
  std::mutex ids_mutex;
  std::set<std::thread::id> ids;
  pool.parallel_for(2, [&](int64_t) {
    {
      std::lock_guard<std::mutex> lock(ids_mutex);
      ids.insert(std::this_thread::get_id());
    }
    arrived.fetch_add(1);
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (arrived.load() < 2 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield();
    if (arrived.load() == 2)
      met.fetch_add(1);
  });
  EXPECT_EQ(met.load(), 2);
  EXPECT_EQ(ids.size(), 2u);
  EXPECT_TRUE(ids.count(std::this_thread::get_id()));
}

TEST(ThreadPool, NestedCallsRunInlineOnTheTaskThread) {
  ThreadPool pool(3);
  std::atomic<int64_t> sum{0};
  std::atomic<int> foreign{0};
  pool.parallel_for(8, [&](int64_t i) {
    EXPECT_TRUE(ThreadPool::in_parallel_region());
    std::thread::id outer = std::this_thread::get_id();
    pool.parallel_for(100, [&](int64_t j) {
      if (std::this_thread::get_id() != outer)
        foreign.fetch_add(1);
      sum.fetch_add(i * 100 + j);
    });
    EXPECT_EQ(pool.c_parallel().num_threads, 1);
  });
  EXPECT_EQ(sum.load(), 800 * 799 / 2);
  EXPECT_EQ(foreign.load(), 0);
  EXPECT_FALSE(ThreadPool::in_parallel_region());
}

TEST(ThreadPool, ManyCallersShareOnePool) {
  ThreadPool pool(3);
  constexpr int kCallers = 4, kRounds = 100, kCount = 64;
  std::vector<int64_t> sums(kCallers, 0);
  std::vector<std::thread> callers;
  for (int c = 0; c < kCallers; ++c)
    callers.emplace_back([&, c] {
      for (int r = 0; r < kRounds; ++r) {
        std::atomic<int64_t> sum{0};
        pool.parallel_for(kCount, [&](int64_t i) { sum.fetch_add(i + c); });
        sums[c] += sum.load();
      }
    });
  for (std::thread &t : callers)
    t.join();
  for (int c = 0; c < kCallers; ++c)
    EXPECT_EQ(sums[c], kRounds * (kCount * (kCount - 1) / 2 + kCount * c));
}

TEST(ThreadPool, RethrowsTheTaskExceptionAndStaysUsable) {
  for (int threads : {1, 3}) {
    ThreadPool pool(threads);
    std::atomic<int> ran{0};
    EXPECT_THROW(pool.parallel_for(1000,
                                   [&](int64_t i) {
                                     ran.fetch_add(1);
                                     if (i == 3)
                                       throw std::runtime_error("task 3");
                                   }),
                 std::runtime_error);
    // On one thread indices run in order, so none after the throw starts.
    if (threads == 1) {
      EXPECT_EQ(ran.load(), 4);
    }
    expect_each_index_once(pool, 50);
  }
}

TEST(ThreadPool, ResizeChangesTheThreadCount) {
  ThreadPool pool(1);
  pool.resize(3);
  EXPECT_EQ(pool.num_threads(), 3);
  expect_each_index_once(pool, 300);
  pool.resize(1);
  EXPECT_EQ(pool.num_threads(), 1);
  expect_each_index_once(pool, 300);
}

TEST(ThreadPool, ResizeFromInsideATaskIsAnError) {
  ThreadPool pool(2);
  EXPECT_THROW(pool.parallel_for(2, [&](int64_t) { pool.resize(3); }),
               std::logic_error);
  EXPECT_EQ(pool.num_threads(), 2);
}

TEST(ThreadPool, RangeFormCoversTheRangeInAtMostNumThreadsChunks) {
  ThreadPool pool(3);
  for (int64_t grain : {1, 7, 1000}) {
    std::mutex mutex;
    std::vector<std::pair<int64_t, int64_t>> chunks;
    pool.parallel_for(5, 105, grain, [&](int64_t lo, int64_t hi) {
      std::lock_guard<std::mutex> lock(mutex);
      chunks.emplace_back(lo, hi);
    });
    std::sort(chunks.begin(), chunks.end());
    ASSERT_FALSE(chunks.empty());
    EXPECT_LE(chunks.size(), 3u);
    EXPECT_EQ(chunks.front().first, 5);
    EXPECT_EQ(chunks.back().second, 105);
    for (size_t i = 0; i + 1 < chunks.size(); ++i)
      EXPECT_EQ(chunks[i].second, chunks[i + 1].first);
    if (grain == 1000) {
      EXPECT_EQ(chunks.size(), 1u);
    }
  }
}

TEST(ThreadPool, CAdapterRunsEveryIndex) {
  ThreadPool pool(2);
  tcc_parallel parallel = pool.c_parallel();
  EXPECT_EQ(parallel.num_threads, 2);
  std::vector<std::atomic<int>> hits(33);
  parallel.parallel_for(
      parallel.pool, 33,
      [](void *arg, int64_t i) {
        (*static_cast<std::vector<std::atomic<int>> *>(arg))[i].fetch_add(1);
      },
      &hits);
  for (auto &h : hits)
    EXPECT_EQ(h.load(), 1);
}

TEST(ThreadPool, DefaultPoolFollowsSetNumThreads) {
  int before = tcc::runtime::get_num_threads();
  EXPECT_GE(before, 1);
  tcc::runtime::set_num_threads(2);
  EXPECT_EQ(tcc::runtime::get_num_threads(), 2);
  EXPECT_EQ(&tcc::runtime::default_thread_pool(),
            &tcc::runtime::default_thread_pool());
  expect_each_index_once(tcc::runtime::default_thread_pool(), 99);
  tcc::runtime::set_num_threads(before);
}

} // namespace
