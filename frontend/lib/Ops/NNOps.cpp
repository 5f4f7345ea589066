//===- NNOps.cpp - Registration and helpers of the nn-style op families ---===//

#include "NNUtils.h"

#include "tcc/Frontend/OpRegistry.h"
#include "tcc/runtime/ThreadPool.h"

namespace tcc {
namespace detail {

void registerLinearOps();
void registerConvOps();
void registerPoolingOps();
void registerNormalizationOps();
void registerDropoutOps();
void registerEmbeddingOps();
void registerJoinOps();
void registerIndexingOps();
void registerPadOps();
void registerLossOps();

/// The nn-style families, called once from the registry (Record.cpp).
void registerNNOps() {
  registerLinearOps();
  registerConvOps();
  registerPoolingOps();
  registerNormalizationOps();
  registerDropoutOps();
  registerEmbeddingOps();
  registerJoinOps();
  registerIndexingOps();
  registerPadOps();
  registerLossOps();
}

tcc_parallel eagerKernelParallel() {
  return runtime::default_thread_pool().c_parallel();
}

void runSgemm(const tcc_sgemm_args &args) {
  tcc_parallel par = eagerKernelParallel();
  tcc_kernel_status st = tcc_sgemm(&args, &par);
  TCC_CHECK(st == TCC_KERNEL_OK,
            "sgemm kernel failed: ", tcc_kernels_last_error());
}

DimVector expandParam(IntArrayRef values, size_t n, const char *op,
                      const char *name) {
  if (values.size() == 1)
    return DimVector(n, values[0]);
  TCC_CHECK(values.size() == n, op, ": expected ", name,
            " to be a single integer value or a list of ", n,
            " values to match the spatial dimensions, but got ", name, "=",
            values);
  return DimVector(values);
}

void checkFloating(const Tensor &t, const char *op, const char *what) {
  TCC_CHECK(isFloatingType(t.dtype()), op, ": expected a floating point ", what,
            ", got ", t.dtype());
}

void checkIndexDtype(const Tensor &index, const char *op, bool allowInt) {
  bool ok = index.dtype() == kLong || (allowInt && index.dtype() == kInt);
  TCC_CHECK(ok, op, "(): Expected dtype ", allowInt ? "int32 or " : "",
            "int64 for index, got ", index.dtype());
}

} // namespace detail
} // namespace tcc
