//===- ThreadPool.cpp - the C API over tcc::runtime::ThreadPool -----------===//

#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/Status.h"
#include "tcc/runtime/tcc_runtime.h"

#include <atomic>
#include <exception>
#include <new>
#include <string>

struct tcc_thread_pool_s {
  explicit tcc_thread_pool_s(int32_t numThreads)
      : pool(numThreads), parallel(pool.c_parallel()) {}
  std::atomic<int> refs{1};
  tcc::runtime::ThreadPool pool;
  tcc_parallel parallel;
};

extern "C" {

tcc_status_t tcc_thread_pool_create(int32_t num_threads,
                                    tcc_thread_pool_t **out_pool) {
  if (!out_pool)
    return tcc_status_make(TCC_STATUS_INVALID_ARGUMENT, "out_pool is NULL");
  if (num_threads < 1 || num_threads > TCC_MAX_THREADS)
    return tcc_status_make(
        TCC_STATUS_INVALID_ARGUMENT,
        ("num_threads is " + std::to_string(num_threads) + ", must be 1 to " +
         std::to_string(TCC_MAX_THREADS))
            .c_str());
  try {
    *out_pool = new tcc_thread_pool_s(num_threads);
    return nullptr;
  } catch (const std::bad_alloc &) {
    return tcc_status_make(TCC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
  } catch (const std::exception &e) {
    return tcc_status_make(
        TCC_STATUS_RESOURCE_EXHAUSTED,
        (std::string("cannot start threads: ") + e.what()).c_str());
  }
}

void tcc_thread_pool_retain(tcc_thread_pool_t *pool) {
  if (pool)
    pool->refs.fetch_add(1, std::memory_order_relaxed);
}

void tcc_thread_pool_release(tcc_thread_pool_t *pool) {
  if (pool && pool->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete pool;
}

const tcc_parallel *tcc_thread_pool_parallel(tcc_thread_pool_t *pool) {
  return pool ? &pool->parallel : nullptr;
}

} // extern "C"
