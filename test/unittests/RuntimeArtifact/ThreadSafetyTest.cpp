//===- ThreadSafetyTest.cpp - The C API's thread-safety promise -----------===//
//
// What docs/reliability.md promises may run concurrently: one model shared
// by any number of threads (sessions created, info read, retained and
// released, the last release on any thread), one thread pool shared by their
// sessions, one session per thread at a time, and any number of threads
// waiting on one event. The sanitizer stage runs these under TSan
// (scripts/test-sanitizers.sh), which reports any data race they hit.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/tcc_runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <thread>
#include <vector>

namespace {

using tcc::test::addMulModel;

constexpr int64_t kN = 1024;

/// (x + y) * (i + 1), as addMulModel computes it.
std::vector<float> expectedOutput(const std::vector<float> &x,
                                  const std::vector<float> &y) {
  std::vector<float> z(x.size());
  for (size_t i = 0; i < x.size(); ++i)
    z[i] = (x[i] + y[i]) * float(i + 1);
  return z;
}

/// One thread's work: a session of its own on the shared model and pool,
/// several runs, each checked. Returns the number of failures.
int runOwnSession(tcc_model_t *model, const tcc_parallel *parallel, int seed) {
  std::vector<float> x(kN), y(kN);
  for (int64_t i = 0; i < kN; ++i) {
    x[size_t(i)] = float((i * 7 + seed) % 13);
    y[size_t(i)] = float(seed);
  }
  std::vector<float> want = expectedOutput(x, y);
  int failures = 0;
  tcc_session_options_t options;
  tcc_session_options_initialize(&options);
  options.parallel = parallel;
  tcc_session_t *session = nullptr;
  tcc_status_t status = tcc_session_create(model, &options, &session);
  if (status) {
    tcc_status_free(status);
    return 1;
  }
  size_t index = 0;
  tcc_tensor_info_t info;
  failures += tcc_model_find_input(model, "y", &index) != nullptr;
  failures += tcc_model_output_info(model, 0, &info) != nullptr;
  failures += tcc_session_bind_input(session, 0, x.data(), kN * 4) != nullptr;
  failures += tcc_session_bind_input(session, 1, y.data(), kN * 4) != nullptr;
  for (int run = 0; run < 10; ++run) {
    const void *z = nullptr;
    size_t bytes = 0;
    if (tcc_session_run(session) ||
        tcc_session_output(session, 0, &z, &bytes) || bytes != kN * 4 ||
        std::memcmp(z, want.data(), bytes) != 0)
      ++failures;
  }
  tcc_session_release(session);
  return failures; // statuses of failed calls leak here; the test fails
}

} // namespace

TEST(ThreadSafety, SessionsOfOneModelOnManyThreadsShareAPool) {
  std::vector<uint8_t> bytes = addMulModel(kN).finish();
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(
      tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
  tcc_thread_pool_t *pool = nullptr;
  ASSERT_TCC_OK(tcc_thread_pool_create(3, &pool));
  const tcc_parallel *parallel = tcc_thread_pool_parallel(pool);

  const int kThreads = 6;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    tcc_model_retain(model); // each thread releases its own reference
    threads.emplace_back([&, t] {
      failures[size_t(t)] = runOwnSession(model, parallel, t);
      tcc_model_release(model);
    });
  }
  tcc_model_release(model); // the last release may be any thread's
  for (std::thread &thread : threads)
    thread.join();
  tcc_thread_pool_release(pool);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(failures[size_t(t)], 0) << "thread " << t;
}

TEST(ThreadSafety, ManyThreadsWaitOnOneEvent) {
  std::vector<uint8_t> bytes = addMulModel(kN).finish();
  tcc_model_t *model = nullptr;
  ASSERT_TCC_OK(
      tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
  tcc_session_t *session = nullptr;
  ASSERT_TCC_OK(tcc_session_create(model, nullptr, &session));
  std::vector<float> x(kN, 1.0f), y(kN, 2.0f);
  ASSERT_TCC_OK(tcc_session_bind_input(session, 0, x.data(), kN * 4));
  ASSERT_TCC_OK(tcc_session_bind_input(session, 1, y.data(), kN * 4));
  tcc_event_t *event = nullptr;
  ASSERT_TCC_OK(tcc_session_run_async(session, &event));

  const int kThreads = 4;
  std::vector<int> failures(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      tcc_status_t status = tcc_event_wait(event, TCC_TIMEOUT_INFINITE);
      failures[size_t(t)] = status != nullptr;
      tcc_status_free(status);
    });
  for (std::thread &thread : threads)
    thread.join();
  tcc_event_release(event);

  const void *z = nullptr;
  size_t size = 0;
  ASSERT_TCC_OK(tcc_session_output(session, 0, &z, &size));
  std::vector<float> want = expectedOutput(x, y);
  ASSERT_EQ(size, kN * 4u);
  EXPECT_EQ(std::memcmp(z, want.data(), size), 0);
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(failures[size_t(t)], 0) << "thread " << t;
  tcc_session_release(session);
  tcc_model_release(model);
}
