//===- TensorInternals.h - Helpers shared by the op implementations -------===//

#ifndef TCC_LIB_CORE_TENSORINTERNALS_H
#define TCC_LIB_CORE_TENSORINTERNALS_H

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Tensor.h"

namespace tcc {
namespace detail {

/// A new contiguous tensor (CPU only; other devices throw).
Tensor makeEmpty(IntArrayRef sizes, ScalarType dtype, Device device = kCPU);
/// Contiguous strides for `sizes`.
DimVector contiguousStrides(IntArrayRef sizes);
/// A tensor viewing `base`'s storage with new geometry; records the base.
Tensor makeView(const Tensor &base, IntArrayRef sizes, IntArrayRef strides,
                int64_t storageOffset);
/// A 0-dim tensor holding `s` converted to `dtype`; `wrapped` marks it as a
/// wrapped number for type promotion.
Tensor scalarTensor(const Scalar &s, ScalarType dtype, bool wrapped = false);
/// A 0-dim wrapped-number tensor of the Scalar's own type.
Tensor wrapScalar(const Scalar &s);

/// Wraps a possibly negative dim into [0, ndim), or throws PyTorch's
/// "Dimension out of range" error.
int64_t wrapDim(int64_t dim, int64_t ndim);
/// A sorted, duplicate-free list of wrapped dims (empty `dims`: all).
DimVector wrapDims(IntArrayRef dims, int64_t ndim);

void checkDefined(const Tensor &t, const char *op);
/// Throws the "CUDA is not available" error for non-CPU tensors.
void checkCpu(const Tensor &t, const char *op);
void checkCpuDevice(Device d);
std::string shapeString(IntArrayRef sizes);
/// "[CPUFloatType [2, 3]]", as PyTorch names a tensor in errors.
std::string describe(const Tensor &t);

/// Reads element `i` (flat, row-major over sizes) as double.
double readElement(const Tensor &t, int64_t linearIndex);

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_CORE_TENSORINTERNALS_H
