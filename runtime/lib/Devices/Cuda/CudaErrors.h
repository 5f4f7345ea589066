//===- CudaErrors.h - CUDA and cuBLAS errors as statuses --------*- C++ -*-===//
//
// A failed driver or cuBLASLt call becomes a status whose message names the
// error (cuGetErrorName's CUDA_ERROR_..., cublasLtGetStatusName's
// CUBLAS_STATUS_...), the call and where it happened ("plan step 3
// (kernel 'k3_add', launch 0 'k3_add_kernel')"). The code says what the
// caller can do about it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_CUDAERRORS_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_CUDAERRORS_H

#include "tcc/runtime/Status.h"

#include <cublasLt.h>
#include <cuda.h>

#include <string>

namespace tcc {
namespace cuda {

// RESOURCE_EXHAUSTED for out of memory; FAILED_PRECONDITION for code the
// GPU or driver cannot load (no binary for the GPU, a PTX newer than the
// driver) or no usable device; INTERNAL otherwise.
tcc_status_code_t statusCodeOf(CUresult result);
tcc_status_code_t statusCodeOf(cublasStatus_t status);

// "cuda: <where>: <call>: <errorName>", with `detail` after it when given.
runtime::Status driverError(CUresult result, const std::string &errorName,
                            const std::string &where, const std::string &call,
                            const std::string &detail = "");
runtime::Status cublasError(cublasStatus_t status,
                            const std::string &statusName,
                            const std::string &where, const std::string &call);

// Where a plan step's error happened: "plan step 3 (kernel 'k3_add')".
std::string stepWhere(uint32_t step, const std::string &name);

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_CUDAERRORS_H
