//===- GemmTypes.h - The element types cuBLASLt multiplies ------*- C++ -*-===//
//
// The cuda target's GEMM steps (matmuls, linears, convolutions as im2col
// and a GEMM) read and write one element type: f32, or bf16/f16 with fp32
// accumulation (CUBLAS_COMPUTE_32F), which is what tcc-autocast makes of
// an fp32 op under --precision.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_TARGETS_CUDA_GEMMTYPES_H
#define TCC_CODEGEN_TARGETS_CUDA_GEMMTYPES_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"

namespace mlir::tcc::cuda {

/// Whether `op` has one result and its operands and result are all f32,
/// all bf16 or all f16.
inline bool hasGemmElementTypes(Operation *op) {
  if (op->getNumResults() != 1)
    return false;
  Type element = getElementTypeOrSelf(op->getResult(0).getType());
  if (!element.isF32() && !element.isBF16() && !element.isF16())
    return false;
  return llvm::all_of(op->getOperandTypes(), [&](Type type) {
    return getElementTypeOrSelf(type) == element;
  });
}

/// Whether `op` is bf16 or f16 throughout: a half-precision GEMM when it is
/// one at all.
inline bool hasHalfPrecisionGemmTypes(Operation *op) {
  return hasGemmElementTypes(op) &&
         !getElementTypeOrSelf(op->getResult(0).getType()).isF32();
}

} // namespace mlir::tcc::cuda

#endif // TCC_CODEGEN_TARGETS_CUDA_GEMMTYPES_H
