//===- CublasLt.h - cuBLASLt, opened at run time ----------------*- C++ -*-===//
//
// The plugin opens libcublasLt.so.13 when a model has sgemm steps and takes
// the functions it calls from it; cublasLt.h gives the types only. Like
// Driver, a table of function pointers that tests fill with fakes.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_CUBLASLT_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_CUBLASLT_H

#include <cublasLt.h>

#include <string>

namespace tcc {
namespace cuda {

#define TCC_CUBLASLT_FUNCTIONS(X)                                              \
  X(cublasLtCreate)                                                            \
  X(cublasLtDestroy)                                                           \
  X(cublasLtGetStatusName)                                                     \
  X(cublasLtMatmul)                                                            \
  X(cublasLtMatmulDescCreate)                                                  \
  X(cublasLtMatmulDescDestroy)                                                 \
  X(cublasLtMatmulDescSetAttribute)                                            \
  X(cublasLtMatrixLayoutCreate)                                                \
  X(cublasLtMatrixLayoutDestroy)                                               \
  X(cublasLtMatrixLayoutSetAttribute)                                          \
  X(cublasLtMatmulPreferenceCreate)                                            \
  X(cublasLtMatmulPreferenceDestroy)                                           \
  X(cublasLtMatmulPreferenceSetAttribute)                                      \
  X(cublasLtMatmulAlgoGetHeuristic)

struct CublasLt {
  void *library = nullptr;
#define TCC_CUBLASLT_DECLARE(name) decltype(&::name) name = nullptr;
  TCC_CUBLASLT_FUNCTIONS(TCC_CUBLASLT_DECLARE)
#undef TCC_CUBLASLT_DECLARE

  // Opens `library` and takes its functions; "" on success, else why not.
  std::string open(const char *library = "libcublasLt.so.13");
  void close();
  bool isOpen() const { return cublasLtMatmul != nullptr; }

  // "CUBLAS_STATUS_NOT_SUPPORTED" for a status.
  std::string statusName(cublasStatus_t status) const;
};

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_CUBLASLT_H
