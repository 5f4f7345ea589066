//===- Status.h - Status codes with a message naming what was wrong -------===//

#ifndef TCC_RUNTIME_KERNELS_STATUS_H
#define TCC_RUNTIME_KERNELS_STATUS_H

#include "tcc/runtime/kernels.h"

namespace tcc {
namespace runtime {
namespace kernels {

/// Returns `status` and records the printf-style message that
/// tcc_kernels_last_error() reports on this thread.
tcc_kernel_status fail(tcc_kernel_status status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_STATUS_H
