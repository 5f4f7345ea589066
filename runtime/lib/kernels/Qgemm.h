//===- Qgemm.h - The int8 GEMM driver's entry point inside the runtime ----===//

#ifndef TCC_RUNTIME_KERNELS_QGEMM_H
#define TCC_RUNTIME_KERNELS_QGEMM_H

#include "QMicroKernel.h"

#include <cstdint>

namespace tcc {
namespace runtime {
namespace kernels {

/// Rows of A that are never stored whole (implicit GEMM: convolution
/// patches): writes A(row0 + r, k0 + t) to dst[r * ld + t] for r < rows,
/// t < count, as bytes of A's type.
struct QRowSource {
  void (*rows)(const void *context, int64_t row0, int64_t rows, int64_t k0,
               int64_t count, uint8_t *dst, int64_t ld);
  const void *context;
};

/// tcc_qgemm on a given variant; with `source`, args->a and lda are unused
/// and A's rows come from it.
tcc_kernel_status qgemm_with(const QIsaKernels &isa, const tcc_qgemm_args *args,
                             const tcc_parallel *parallel,
                             const QRowSource *source = nullptr);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_QGEMM_H
