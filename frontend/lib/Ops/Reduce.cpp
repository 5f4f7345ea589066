//===- Reduce.cpp - Laying out a reduction as [outer, R, inner] -----------===//

#include "Reduce.h"
#include "TensorIterator.h"

#include "../Core/TensorInternals.h"

namespace tcc {
namespace detail {

ReducePlan planReduction(const Tensor &self, IntArrayRef dimsIn, bool keepdim) {
  checkCpu(self, "reduction");
  ReducePlan p;
  int64_t nd = self.dim();
  p.dims = wrapDims(dimsIn, nd);
  std::vector<bool> isReduced(size_t(nd), false);
  for (int64_t d : p.dims)
    isReduced[size_t(d)] = true;
  for (int64_t d = 0; d < nd; ++d) {
    int64_t s = self.sizes()[size_t(d)];
    p.keptSizes.push_back(isReduced[size_t(d)] ? 1 : s);
    if (!isReduced[size_t(d)] || keepdim)
      p.outSizes.push_back(isReduced[size_t(d)] ? 1 : s);
  }
  if (p.dims.empty()) { // a 0-dim input, or nothing to reduce
    p.input = self.is_contiguous() ? self : contiguousCopy(self);
    p.outer = self.numel();
    return p;
  }
  bool adjacent = true;
  for (size_t i = 1; i < p.dims.size(); ++i)
    adjacent = adjacent && p.dims[i] == p.dims[i - 1] + 1;
  if (adjacent) {
    p.input = self.is_contiguous() ? self : contiguousCopy(self);
    int64_t first = p.dims[0], last = p.dims.back();
    for (int64_t d = 0; d < nd; ++d) {
      int64_t s = self.sizes()[size_t(d)];
      if (d < first)
        p.outer *= s;
      else if (d > last)
        p.inner *= s;
      else
        p.reduced *= s;
    }
    return p;
  }
  // Move the reduced dims last and copy.
  DimVector perm;
  for (int64_t d = 0; d < nd; ++d)
    if (!isReduced[size_t(d)]) {
      perm.push_back(d);
      p.outer *= self.sizes()[size_t(d)];
    }
  for (int64_t d : p.dims) {
    perm.push_back(d);
    p.reduced *= self.sizes()[size_t(d)];
  }
  DimVector sz, st;
  for (int64_t d : perm) {
    sz.push_back(self.sizes()[size_t(d)]);
    st.push_back(self.strides()[size_t(d)]);
  }
  Tensor permuted = makeView(self, sz, st, self.storage_offset());
  p.input = contiguousCopy(permuted);
  return p;
}

} // namespace detail
} // namespace tcc
