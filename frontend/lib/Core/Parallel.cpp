//===- Parallel.cpp - set_num_threads and the parallel-for ----------------===//
//
// Eager kernels run on the runtime's process-wide pool
// (runtime/include/tcc/runtime/ThreadPool.h), the same one compiled
// artifacts use, so eager and compiled code never oversubscribe the cores.
//
//===----------------------------------------------------------------------===//

#include "Parallel.h"
#include "TensorInternals.h"

#include "tcc/Frontend/Functions.h"
#include "tcc/runtime/ThreadPool.h"

namespace tcc {

void set_num_threads(int n) {
  TCC_CHECK(n > 0, "set_num_threads: expected a positive number of threads, "
                   "got ",
            n);
  runtime::set_num_threads(n);
}

int get_num_threads() { return runtime::get_num_threads(); }

namespace detail {

bool inParallelRegion() { return runtime::ThreadPool::in_parallel_region(); }

void parallelForImpl(int64_t begin, int64_t end, int64_t grain,
                     const std::function<void(int64_t, int64_t)> &f) {
  runtime::default_thread_pool().parallel_for(begin, end, grain, f);
}

} // namespace detail
} // namespace tcc
