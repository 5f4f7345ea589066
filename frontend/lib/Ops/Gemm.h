//===- Gemm.h - Matrix multiply kernels of the eager ops ------------------===//
//
// gemm() computes C = alpha * A @ B + beta * C on row-major matrices with
// unit column stride. float32 goes to the runtime's tuned sgemm
// (runtime/include/tcc/runtime/kernels.h); the other dtypes use a
// cache-blocked loop nest whose inner loop the compiler vectorizes (ISA
// variants for double).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_GEMM_H
#define TCC_LIB_OPS_GEMM_H

#include "tcc/Frontend/ScalarType.h"

#include <cstdint>

namespace tcc {
namespace detail {

template <class T>
void gemm(int64_t m, int64_t n, int64_t k, double alpha, const T *a,
          int64_t lda, const T *b, int64_t ldb, double beta, T *c,
          int64_t ldc);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_GEMM_H
