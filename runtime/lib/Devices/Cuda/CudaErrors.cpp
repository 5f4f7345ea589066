//===- CudaErrors.cpp - CUDA and cuBLAS errors as statuses ----------------===//

#include "CudaErrors.h"

namespace tcc {
namespace cuda {

tcc_status_code_t statusCodeOf(CUresult result) {
  switch (result) {
  case CUDA_SUCCESS:
    return TCC_STATUS_OK;
  case CUDA_ERROR_OUT_OF_MEMORY:
    return TCC_STATUS_RESOURCE_EXHAUSTED;
  case CUDA_ERROR_NO_BINARY_FOR_GPU:
  case CUDA_ERROR_INVALID_PTX:
  case CUDA_ERROR_UNSUPPORTED_PTX_VERSION:
  case CUDA_ERROR_JIT_COMPILER_NOT_FOUND:
  case CUDA_ERROR_NO_DEVICE:
  case CUDA_ERROR_STUB_LIBRARY:
    return TCC_STATUS_FAILED_PRECONDITION;
  default:
    return TCC_STATUS_INTERNAL;
  }
}

tcc_status_code_t statusCodeOf(cublasStatus_t status) {
  switch (status) {
  case CUBLAS_STATUS_SUCCESS:
    return TCC_STATUS_OK;
  case CUBLAS_STATUS_ALLOC_FAILED:
    return TCC_STATUS_RESOURCE_EXHAUSTED;
  case CUBLAS_STATUS_NOT_SUPPORTED:
  case CUBLAS_STATUS_ARCH_MISMATCH:
    return TCC_STATUS_UNIMPLEMENTED;
  default:
    return TCC_STATUS_INTERNAL;
  }
}

runtime::Status driverError(CUresult result, const std::string &errorName,
                            const std::string &where, const std::string &call,
                            const std::string &detail) {
  std::string message = "cuda: " + where + ": " + call + ": " + errorName;
  if (!detail.empty())
    message += " (" + detail + ")";
  tcc_status_code_t code = statusCodeOf(result);
  return runtime::Status(code == TCC_STATUS_OK ? TCC_STATUS_INTERNAL : code,
                         message);
}

runtime::Status cublasError(cublasStatus_t status,
                            const std::string &statusName,
                            const std::string &where, const std::string &call) {
  tcc_status_code_t code = statusCodeOf(status);
  return runtime::Status(code == TCC_STATUS_OK ? TCC_STATUS_INTERNAL : code,
                         "cuda: " + where + ": " + call + ": " + statusName);
}

std::string stepWhere(uint32_t step, const std::string &name) {
  return "plan step " + std::to_string(step) + " (" + name + ")";
}

} // namespace cuda
} // namespace tcc
