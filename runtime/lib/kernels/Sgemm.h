//===- Sgemm.h - The GEMM driver's entry points inside the runtime --------===//

#ifndef TCC_RUNTIME_KERNELS_SGEMM_H
#define TCC_RUNTIME_KERNELS_SGEMM_H

#include "MicroKernel.h"

#include <algorithm>
#include <cstdint>
#include <initializer_list>

namespace tcc {
namespace runtime {
namespace kernels {

/// Below this many multiply-adds a GEMM runs on one thread: waking workers
/// costs more than it saves.
constexpr int64_t kMinParallelWork = int64_t(1) << 21;

/// task(arg, i) for i < count: through the pool when it has threads to
/// spare, else in order on the calling thread.
inline void parallel_run(const tcc_parallel *parallel, int64_t count,
                         tcc_task_fn task, void *arg) {
  if (parallel && parallel->num_threads > 1 && count > 1)
    parallel->parallel_for(parallel->pool, count, task, arg);
  else
    for (int64_t i = 0; i < count; ++i)
      task(arg, i);
}

/// a * b * ... without overflow (and with no negative factor), or -1.
inline int64_t checked_product(std::initializer_list<int64_t> factors) {
  int64_t product = 1;
  for (int64_t f : factors)
    if (f < 0 || __builtin_mul_overflow(product, f, &product))
      return -1;
  return product;
}

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t round_up(int64_t x, int64_t to) { return ceil_div(x, to) * to; }

/// How a GEMM's C splits into tasks: rectangles of whole register panels
/// (`mr` rows, `panel_width` columns), about one per thread, cutting the
/// dimension whose cut repacks less (cutting n repacks A once per task,
/// cutting m repacks B once per task); one task below kMinParallelWork.
struct GemmTasks {
  int64_t rows, cols;       // a task's rows and columns of C
  int64_t m_tasks, n_tasks; // tasks down and across C
};
inline GemmTasks plan_gemm_tasks(int64_t m, int64_t n, int64_t k, int64_t mr,
                                 int64_t panel_width, int threads) {
  const int64_t m_panels = ceil_div(m, mr);
  const int64_t n_panels = ceil_div(n, panel_width);
  int64_t m_tasks = 1, n_tasks = 1;
  if (threads > 1 && m * n * std::max<int64_t>(k, 1) >= kMinParallelWork) {
    if ((n >= m && n_panels >= threads) || m_panels < threads) {
      n_tasks = std::min<int64_t>(threads, n_panels);
      m_tasks = std::min(m_panels, ceil_div(threads, n_tasks));
    } else {
      m_tasks = threads;
    }
  }
  GemmTasks t;
  t.rows = ceil_div(m_panels, m_tasks) * mr;
  t.cols = ceil_div(n_panels, n_tasks) * panel_width;
  t.m_tasks = ceil_div(m, t.rows);
  t.n_tasks = ceil_div(n, t.cols);
  return t;
}

/// Below this many elements touched, memory-bound work (im2col, depthwise
/// rows, transforms) runs on one thread, like at::internal::GRAIN_SIZE:
/// waking a worker costs more than such work saves (figures:
/// docs/performance.md).
constexpr int64_t kMinParallelElements = 32768;

/// Tasks for `items` independent pieces of work touching `elements` in all:
/// a few per thread, so that uneven pieces balance, or 1 for small work.
inline int64_t task_count(const tcc_parallel *parallel, int64_t items,
                          int64_t elements) {
  if (elements < kMinParallelElements)
    return 1;
  int64_t threads = parallel ? parallel->num_threads : 1;
  return std::max<int64_t>(1, std::min(items, 4 * threads));
}

/// Produces B's panels for a GEMM whose B is never stored (implicit GEMM,
/// e.g. convolution columns): writes rows [k0, k0 + kc) of the kPanelWidth
/// columns starting at column j (j is a multiple of kPanelWidth; columns
/// past `cols` zero) to dst, row-major with row stride kPanelWidth.
struct BPanelSource {
  void (*pack)(const void *context, int64_t k0, int64_t kc, int64_t j, int cols,
               float *dst);
  const void *context;
};

/// tcc_sgemm on a given ISA variant; with custom_b, args->b, ldb and
/// trans_b are unused and B's panels come from custom_b.
tcc_kernel_status sgemm_with(const IsaKernels &isa, const tcc_sgemm_args *args,
                             const tcc_parallel *parallel,
                             const BPanelSource *custom_b = nullptr);

/// Argument checks shared with conv2d; they record the message on failure.
tcc_kernel_status check_epilogue(const tcc_epilogue *epilogue, int64_t n,
                                 bool check_residual_ld);
tcc_kernel_status check_packed_b(const void *packed, int64_t k, int64_t n);
tcc_kernel_status check_parallel(const tcc_parallel *parallel);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_SGEMM_H
