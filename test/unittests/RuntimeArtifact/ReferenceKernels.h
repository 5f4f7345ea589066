//===- ReferenceKernels.h - naive float64 GEMM and conv2d -------*- C++ -*-===//
//
// Independent references for the executor's Sgemm and Conv2d steps: plain
// loops accumulating in double, with the epilogue of kernels.h spelled out.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_RUNTIMEARTIFACT_REFERENCEKERNELS_H
#define TCC_TEST_RUNTIMEARTIFACT_REFERENCEKERNELS_H

#include "tcc/runtime/kernels.h"

namespace tcc {
namespace test {

// C = epilogue(op(A) * op(B)); args.b must be unpacked.
void referenceSgemm(const tcc_sgemm_args &args);

// output = epilogue(conv2d(input, weight)); the residual has the output's
// layout and the bias is per output channel.
void referenceConv2d(const tcc_conv2d_args &args);

} // namespace test
} // namespace tcc

#endif
