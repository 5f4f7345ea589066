//===- Sgemm.h - The GEMM driver's entry points inside the runtime --------===//

#ifndef TCC_RUNTIME_KERNELS_SGEMM_H
#define TCC_RUNTIME_KERNELS_SGEMM_H

#include "MicroKernel.h"

namespace tcc {
namespace runtime {
namespace kernels {

/// tcc_sgemm on a given ISA variant (tests run every variant the CPU has).
tcc_kernel_status sgemm_with(const IsaKernels &isa, const tcc_sgemm_args *args,
                             const tcc_parallel *parallel);

/// Argument checks shared with conv2d; they record the message on failure.
tcc_kernel_status check_epilogue(const tcc_epilogue *epilogue, int64_t n,
                                 bool check_residual_ld);
tcc_kernel_status check_packed_b(const void *packed, int64_t k, int64_t n);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_SGEMM_H
