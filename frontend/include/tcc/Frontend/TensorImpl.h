//===- TensorImpl.h - What a Tensor handle points to ------------*- C++ -*-===//
//
// Sizes, strides and storage offset over a shared StorageImpl, plus the
// autograd state (allocated only for tensors that take part in autograd).
// User code works with tcc::Tensor; this type is for ops and extensions.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_TENSORIMPL_H
#define TCC_FRONTEND_TENSORIMPL_H

#include "tcc/Frontend/DimVector.h"
#include "tcc/Frontend/ScalarType.h"
#include "tcc/Frontend/Storage.h"

#include <memory>

namespace tcc {
namespace autograd {
struct AutogradMeta;
}

struct TensorImpl {
  TensorImpl(std::shared_ptr<StorageImpl> storage, ScalarType dtype,
             IntArrayRef sizes, IntArrayRef strides, int64_t storageOffset);
  TensorImpl(const TensorImpl &) = delete;
  TensorImpl &operator=(const TensorImpl &) = delete;
  ~TensorImpl();

  /// Recomputes numel and the contiguity flag after sizes/strides change.
  void refreshMetadata();
  void setSizesAndStrides(IntArrayRef sizes, IntArrayRef strides,
                          int64_t storageOffset);
  void *data() const {
    return static_cast<char *>(storage->data) +
           storageOffset * int64_t(elementSize(dtype));
  }
  Device device() const { return storage->device; }
  uint32_t version() const {
    return storage->version.load(std::memory_order_relaxed);
  }
  void bumpVersion() {
    storage->version.fetch_add(1, std::memory_order_relaxed);
  }

  std::shared_ptr<StorageImpl> storage;
  DimVector sizes;
  DimVector strides;
  int64_t storageOffset = 0;
  int64_t numel = 1;
  ScalarType dtype;
  bool contiguous = true;
  /// A Scalar converted to a 0-dim tensor for an op (type promotion treats
  /// it as a "wrapped number").
  bool wrappedNumber = false;
  /// For views: the tensor whose storage this one views (never itself a view).
  std::shared_ptr<TensorImpl> base;
  std::unique_ptr<autograd::AutogradMeta> autograd;
};

} // namespace tcc

#endif // TCC_FRONTEND_TENSORIMPL_H
