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
