//===- ConvAsGemm.h - Convolutions as im2col and cuBLASLt -------*- C++ -*-===//
//
// An NHWC convolution of one group, f32, bf16 or f16 throughout (the
// half types tcc-autocast's, under --precision), is one GEMM over its
// output pixels:
// out[N*OH*OW, OC] = col[N*OH*OW, KH*KW*C] * W[OC, KH*KW*C]^T, where col is
// im2col of the input (row p holds the KH x KW x C patch pixel p reads,
// zeros where it lies in the padding) and W the OHWI weight as stored. It
// is a linear layer: the output rows are NHWC as computed (no transpose),
// the bias is per column (cuBLASLt's per-row bias of its column-major D),
// and the batch folds into the rows. A generated kernel writes col into an
// arena buffer, the workspace, and an Sgemm step (its epilogue fused) reads
// it, both in the convolution's element type (a half-precision GEMM
// accumulates in fp32, as the half matmuls do). A 1x1 convolution of
// stride 1 without padding reads the input itself (col is the input).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_TARGETS_CUDA_CONVASGEMM_H
#define TCC_CODEGEN_TARGETS_CUDA_CONVASGEMM_H

#include "tcc/Codegen/PlanBuilder.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/Epilogue.h"

namespace mlir::tcc::cuda {

/// Whether `op` is a convolution lowerConvAsGemm takes: NHWC, one group,
/// its operands and result all f32, all bf16 or all f16.
bool isGemmConvolution(Operation *op);

/// col[n, oh, ow, kh, kw, c] = x[n, oh*s - p + kh*d, ow*s - p + kw*d, c], 0
/// in the padding: the body of the im2col kernel of `conv` (NHWC) on
/// `input`, a tensor [N, OH, OW, KH, KW, C] of the input's element type
/// (TccLoweringTests runs it on the CPU).
Value buildIm2col(OpBuilder &b, Location loc, Value input, Conv2dOp conv);

/// The im2col kernel (when one is needed) and the Sgemm step of `group`,
/// whose anchor isGemmConvolution accepts.
void lowerConvAsGemm(PlanBuilder &plan, const Epilogue &group,
                     function_ref<Value(Value)> outside, Value result);

} // namespace mlir::tcc::cuda

#endif // TCC_CODEGEN_TARGETS_CUDA_CONVASGEMM_H
