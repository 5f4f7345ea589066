//===- VectorizeInnerDim.h - 4 elements per thread, vector accesses -*- C++ -*-===//

#ifndef TCC_CODEGEN_TARGETS_CUDA_VECTORIZEINNERDIM_H
#define TCC_CODEGEN_TARGETS_CUDA_VECTORIZEINNERDIM_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::tcc::cuda {

/// Elements of the innermost dim each iteration handles once vectorized.
constexpr int64_t kVectorWidth = 4;

/// When every access of `loop` (a parallel loop from 0, step 1, of constant
/// bounds, whose body is loads, stores and pure ops without regions) of
/// 32-bit or 16-bit elements either walks the innermost dim (its last index
/// the innermost induction variable, its buffer's rows a multiple of
/// kVectorWidth elements, no other index depending on it) or does not
/// depend on it, and the innermost dim is a multiple of kVectorWidth: makes
/// each iteration of the innermost dim cover kVectorWidth elements, reads
/// and writes the walking accesses as vector<4xT> (aligned to their 16 or 8
/// bytes: buffers are aligned to at least 16 bytes, rows hold a multiple of
/// 4 elements) and computes the 4 elements of the scalar body one after the
/// other. Returns whether it did.
bool vectorizeInnerDim(scf::ParallelOp loop);

} // namespace mlir::tcc::cuda

#endif // TCC_CODEGEN_TARGETS_CUDA_VECTORIZEINNERDIM_H
