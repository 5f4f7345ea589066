//===- TensorImpl.cpp - Tensor metadata and shared helpers ----------------===//

#include "TensorInternals.h"

#include "tcc/Frontend/Autograd/Node.h"

#include "../Ops/Dispatch.h"

#include <iostream>

namespace tcc {

TensorImpl::TensorImpl(std::shared_ptr<StorageImpl> storage, ScalarType dtype,
                       IntArrayRef sizes, IntArrayRef strides,
                       int64_t storageOffset)
    : storage(std::move(storage)), sizes(sizes), strides(strides),
      storageOffset(storageOffset), dtype(dtype) {
  refreshMetadata();
}

TensorImpl::~TensorImpl() = default;

void TensorImpl::refreshMetadata() {
  int64_t n = 1;
  for (int64_t s : sizes)
    n *= s;
  numel = n;
  bool c = true;
  if (n != 0) {
    int64_t expected = 1;
    for (size_t i = sizes.size(); i-- > 0;) {
      if (sizes[i] == 1)
        continue;
      if (strides[i] != expected) {
        c = false;
        break;
      }
      expected *= sizes[i];
    }
  }
  contiguous = c;
}

void TensorImpl::setSizesAndStrides(IntArrayRef newSizes,
                                    IntArrayRef newStrides,
                                    int64_t newOffset) {
  sizes = newSizes;
  strides = newStrides;
  storageOffset = newOffset;
  refreshMetadata();
}

void detail::throwUnsupportedDtype(const char *op, ScalarType t) {
  throwError(str("\"", op, "\" not implemented for '", toString(t), "'"));
}

namespace detail {

DimVector contiguousStrides(IntArrayRef sizes) {
  DimVector strides(sizes.size());
  int64_t s = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = s;
    s *= sizes[i] > 1 ? sizes[i] : 1;
  }
  return strides;
}

void checkCpuDevice(Device d) {
  TCC_CHECK(d.is_cpu(), "CUDA is not available: tcc has no CUDA backend for "
                        "eager tensors yet (requested device ",
            d, "); use the CPU or compile the model for CUDA");
}

Tensor makeEmpty(IntArrayRef sizes, ScalarType dtype, Device device) {
  checkCpuDevice(device);
  int64_t n = 1;
  for (int64_t s : sizes) {
    TCC_CHECK(s >= 0, "Trying to create tensor with negative dimension ", s,
              ": ", sizes);
    n *= s;
  }
  auto storage = allocateStorage(size_t(n) * elementSize(dtype), device);
  return Tensor(std::make_shared<TensorImpl>(std::move(storage), dtype, sizes,
                                             contiguousStrides(sizes), 0));
}

Tensor makeView(const Tensor &base, IntArrayRef sizes, IntArrayRef strides,
                int64_t storageOffset) {
  TensorImpl *b = base.unsafeGetTensorImpl();
  auto impl = std::make_shared<TensorImpl>(b->storage, b->dtype, sizes,
                                           strides, storageOffset);
  impl->base = b->base ? b->base : base.getIntrusivePtr();
  return Tensor(std::move(impl));
}

Tensor scalarTensor(const Scalar &s, ScalarType dtype, bool wrapped) {
  Tensor t = makeEmpty({}, dtype);
  TCC_DISPATCH_ALL_TYPES(dtype, "scalar_tensor", [&] {
    *static_cast<scalar_t *>(t.unsafeGetTensorImpl()->data()) =
        s.to<scalar_t>();
  });
  t.unsafeGetTensorImpl()->wrappedNumber = wrapped;
  return t;
}

Tensor wrapScalar(const Scalar &s) { return scalarTensor(s, s.type(), true); }

int64_t wrapDim(int64_t dim, int64_t ndim) {
  int64_t n = ndim <= 0 ? 1 : ndim; // a scalar accepts dims -1 and 0
  TCC_CHECK(dim >= -n && dim < n,
            "Dimension out of range (expected to be in range of [", -n, ", ",
            n - 1, "], but got ", dim, ")");
  return dim < 0 ? dim + n : dim;
}

DimVector wrapDims(IntArrayRef dims, int64_t ndim) {
  DimVector out;
  if (dims.empty()) {
    for (int64_t i = 0; i < ndim; ++i)
      out.push_back(i);
    return out;
  }
  std::vector<bool> seen(size_t(ndim > 0 ? ndim : 1), false);
  for (int64_t d : dims) {
    int64_t w = wrapDim(d, ndim);
    TCC_CHECK(!seen[size_t(w)], "dim ", w,
              " appears multiple times in the list of dims");
    seen[size_t(w)] = true;
  }
  for (int64_t i = 0; i < int64_t(seen.size()); ++i)
    if (seen[size_t(i)] && i < (ndim > 0 ? ndim : 1))
      out.push_back(i);
  if (ndim == 0) // dim 0 / -1 of a scalar reduces nothing
    out = DimVector();
  return out;
}

void checkDefined(const Tensor &t, const char *op) {
  TCC_CHECK(t.defined(), op, ": expected a defined tensor but got an "
                             "undefined one");
}

void checkCpu(const Tensor &t, const char *op) {
  checkDefined(t, op);
  if (!t.device().is_cpu())
    checkCpuDevice(t.device());
}

std::string shapeString(IntArrayRef sizes) { return str(sizes); }

std::string describe(const Tensor &t) {
  return str("[", t.toString(), " ", t.sizes(), "]");
}

double readElement(const Tensor &t, int64_t linear) {
  TensorImpl *impl = t.unsafeGetTensorImpl();
  int64_t offset = 0;
  for (int64_t d = int64_t(impl->sizes.size()) - 1; d >= 0; --d) {
    int64_t s = impl->sizes[size_t(d)];
    offset += (linear % s) * impl->strides[size_t(d)];
    linear /= s;
  }
  return TCC_DISPATCH_ALL_TYPES(impl->dtype, "item", [&]() -> double {
    return double(static_cast<const scalar_t *>(impl->data())[offset]);
  });
}

} // namespace detail

// --- Tensor methods that only read metadata ------------------------------

TensorImpl &Tensor::impl() const {
  if (!impl_)
    detail::throwError("Expected a proper Tensor but got an undefined Tensor");
  return *impl_;
}

int64_t Tensor::size(int64_t dim) const {
  return impl().sizes[size_t(detail::wrapDim(dim, this->dim()))];
}

int64_t Tensor::stride(int64_t dim) const {
  return impl().strides[size_t(detail::wrapDim(dim, this->dim()))];
}

TensorOptions Tensor::options() const {
  return TensorOptions().dtype(dtype()).device(device());
}

std::string Tensor::toString() const {
  return std::string(device().is_cpu() ? "CPU" : "CUDA") +
         tcc::toString(dtype()) + "Type";
}

Tensor Tensor::_base() const {
  return impl().base ? Tensor(impl().base) : Tensor();
}

Scalar Tensor::item() const {
  TCC_CHECK(numel() == 1, "a Tensor with ", numel(),
            " elements cannot be converted to Scalar");
  detail::notifyDataRead(*this, "item");
  double v = detail::readElement(*this, 0);
  if (isFloatingType(dtype()))
    return Scalar(v);
  if (dtype() == kBool)
    return Scalar(v != 0);
  // Integers above 2^53 need their exact value.
  return TCC_DISPATCH_ALL_TYPES(dtype(), "item", [&]() -> Scalar {
    return Scalar(int64_t(*static_cast<const scalar_t *>(impl().data())));
  });
}

void Tensor::print() const { std::cout << *this << std::endl; }

void detail::throwDataPtrTypeMismatch(ScalarType actual, ScalarType requested) {
  throwError(str("expected scalar type ", requested, " but found ", actual));
}

} // namespace tcc
