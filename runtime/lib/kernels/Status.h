//===- Status.h - Status codes with a message naming what was wrong -------===//

#ifndef TCC_RUNTIME_KERNELS_STATUS_H
#define TCC_RUNTIME_KERNELS_STATUS_H

#include "tcc/runtime/kernels.h"

#include <cstdint>
#include <initializer_list>

namespace tcc {
namespace runtime {
namespace kernels {

/// Returns `status` and records the printf-style message that
/// tcc_kernels_last_error() reports on this thread.
tcc_kernel_status fail(tcc_kernel_status status, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

/// A size argument of a kernel call and the least value it may take.
struct SizeArg {
  const char *name;
  int64_t value, min;
};

/// Checks every size against [min, 2^31), the bound the kernels' index
/// arithmetic relies on; fails naming `kernel` and the first size outside.
tcc_kernel_status check_sizes(const char *kernel,
                              std::initializer_list<SizeArg> sizes);

} // namespace kernels
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_KERNELS_STATUS_H
