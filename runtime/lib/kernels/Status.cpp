//===- Status.cpp - The per-thread message of the last failed kernel call -===//

#include "Status.h"
#include "Isa.h"

#include <cstdarg>
#include <cstdio>

namespace tcc {
namespace runtime {
namespace kernels {

namespace {
thread_local char tls_last_error[256] = "";
} // namespace

tcc_kernel_status fail(tcc_kernel_status status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::vsnprintf(tls_last_error, sizeof tls_last_error, format, args);
  va_end(args);
  return status;
}

tcc_kernel_status check_sizes(const char *kernel,
                              std::initializer_list<SizeArg> sizes) {
  for (const SizeArg &s : sizes)
    if (s.value < s.min || s.value > INT32_MAX)
      return fail(TCC_KERNEL_INVALID_ARGUMENT,
                  "%s: %s (%lld) must be in [%lld, 2^31)", kernel, s.name,
                  (long long)s.value, (long long)s.min);
  return TCC_KERNEL_OK;
}

} // namespace kernels
} // namespace runtime
} // namespace tcc

extern "C" const char *tcc_kernels_last_error(void) {
  return tcc::runtime::kernels::tls_last_error;
}

extern "C" const char *tcc_kernels_isa(void) {
  using namespace tcc::runtime::kernels;
  return isaName(activeIsa());
}
