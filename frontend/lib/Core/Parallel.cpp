//===- Parallel.cpp - set_num_threads and the parallel-for ----------------===//

#include "Parallel.h"
#include "TensorInternals.h"

#include "tcc/Frontend/Functions.h"

#include <atomic>

namespace tcc {
namespace {
std::atomic<int> numThreads{1};
thread_local bool inRegion = false;
} // namespace

void set_num_threads(int n) {
  TCC_CHECK(n > 0, "set_num_threads: expected a positive number of threads, "
                   "got ",
            n);
  numThreads.store(n);
}

int get_num_threads() { return numThreads.load(); }

namespace detail {

bool inParallelRegion() { return inRegion; }

void parallelForImpl(int64_t begin, int64_t end, int64_t grain,
                     const std::function<void(int64_t, int64_t)> &f) {
  // Serial until the runtime's thread pool is available; chunks keep the
  // same boundaries the pool will use so results do not depend on it.
  int64_t chunks = (end - begin + grain - 1) / grain;
  int64_t threads = inRegion ? 1 : get_num_threads();
  if (chunks > threads)
    chunks = threads;
  int64_t step = (end - begin + chunks - 1) / chunks;
  bool prev = inRegion;
  inRegion = true;
  try {
    for (int64_t b = begin; b < end; b += step)
      f(b, b + step < end ? b + step : end);
  } catch (...) {
    inRegion = prev;
    throw;
  }
  inRegion = prev;
}

} // namespace detail
} // namespace tcc
