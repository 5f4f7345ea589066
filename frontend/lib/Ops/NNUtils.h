//===- NNUtils.h - Helpers shared by the nn-style ops ---------------------===//

#ifndef TCC_LIB_OPS_NNUTILS_H
#define TCC_LIB_OPS_NNUTILS_H

#include "Gemm.h"
#include "TensorIterator.h"

#include "../Core/TensorInternals.h"

#include "tcc/runtime/kernels.h"

#include <optional>
#include <type_traits>

namespace tcc {
namespace detail {

/// The runtime kernels' view of the shared intra-op pool (the one
/// parallelFor and tcc::set_num_threads use).
tcc_parallel eagerKernelParallel();

/// Runs tcc_sgemm on the eager pool; throws with the kernel's message.
void runSgemm(const tcc_sgemm_args &args);

/// C = A @ B (C += A @ B when `accumulate`) on row-major matrices with unit
/// column stride: float goes to the runtime's sgemm, other dtypes to the
/// core's blocked loop.
template <class T>
void gemmRowMajor(int64_t m, int64_t n, int64_t k, const T *a, int64_t lda,
                  const T *b, int64_t ldb, T *c, int64_t ldc, bool accumulate) {
  if constexpr (std::is_same<T, float>::value) {
    tcc_epilogue ep{};
    ep.alpha = 1;
    ep.residual = c;
    ep.ld_residual = ldc;
    ep.beta = 1;
    tcc_sgemm_args g{};
    g.m = m;
    g.n = n;
    g.k = k;
    g.a = a;
    g.lda = lda;
    g.b = b;
    g.ldb = ldb;
    g.c = c;
    g.ldc = ldc;
    g.epilogue = accumulate ? &ep : nullptr;
    runSgemm(g);
  } else {
    gemm<T>(m, n, k, 1.0, a, lda, b, ldb, accumulate ? 1.0 : 0.0, c, ldc);
  }
}

/// The tensor an optional argument holds, or an undefined one.
inline Tensor valueOr(const std::optional<Tensor> &t) {
  return t ? *t : Tensor();
}

/// A size argument of `n` spatial dims: one value for all, or one per dim.
/// Throws "<op>: expected <name> to be a single integer value or a list of
/// <n> values ..." otherwise.
DimVector expandParam(IntArrayRef values, size_t n, const char *op,
                      const char *name);

/// Typed pointer to a tensor's first element (no observer notification:
/// kernels run below recording).
template <class T> T *dataOf(const Tensor &t) {
  return static_cast<T *>(t.unsafeGetTensorImpl()->data());
}

/// Throws "<op>: expected a floating point <what>, got <dtype>".
void checkFloating(const Tensor &t, const char *op, const char *what);

/// Throws unless `index` is an int64 (or, with allowInt, int32) tensor.
void checkIndexDtype(const Tensor &index, const char *op, bool allowInt);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_NNUTILS_H
