//===- ReduceOps16.h - MPI reductions of float16 and bfloat16 ---*- C++ -*-===//
//
// MPI has no 16-bit float types: their elements travel as MPI_UINT16_T and
// are reduced by user-defined MPI_Ops that widen to float, combine and
// round back (round to nearest even, as the eager kernels do).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_DISTRIBUTED_LIB_MPI_REDUCEOPS16_H
#define TCC_DISTRIBUTED_LIB_MPI_REDUCEOPS16_H

#include "tcc/Distributed/ProcessGroup.h"

#include <mpi.h>

namespace tcc {
namespace distributed {

/// On the MPI thread, after MPI_Init and before MPI_Finalize.
void createReduceOps16();
void freeReduceOps16();

/// The op reducing elements of `type` (kHalf or kBFloat16) with `op`
/// (Avg reduces with Sum; the caller divides).
MPI_Op reduceOp16(ScalarType type, ReduceOp op);

} // namespace distributed
} // namespace tcc

#endif // TCC_DISTRIBUTED_LIB_MPI_REDUCEOPS16_H
