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
