//===- Reduce.h - Reductions over any set of dims -------------------------===//
//
// A reduction sees its input as a contiguous [outer, R, inner] block: R
// elements reduced per output, outputs ordered (outer, inner). When the
// reduced dims are adjacent in a contiguous input that view is free;
// otherwise the input is permuted (kept dims first) and copied once.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_REDUCE_H
#define TCC_LIB_OPS_REDUCE_H

#include "tcc/Frontend/Tensor.h"

namespace tcc {
namespace detail {

struct ReducePlan {
  Tensor input; // contiguous, laid out as [outer, R, inner]
  int64_t outer = 1, reduced = 1, inner = 1;
  DimVector dims;      // wrapped, sorted reduced dims
  DimVector outSizes;  // result sizes (keepdim honoured)
  DimVector keptSizes; // result sizes with keepdim = true
};

ReducePlan planReduction(const Tensor &self, IntArrayRef dims, bool keepdim);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_REDUCE_H
