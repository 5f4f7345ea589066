//===- TensorOptions.h - dtype, device and requires_grad of a new tensor ---===//
//
// `tcc::TensorOptions().dtype(tcc::kFloat).requires_grad(true)`, or the free
// functions `tcc::dtype(...)`, `tcc::device(...)`, `tcc::requires_grad()`.
// A ScalarType or a Device converts to TensorOptions, so
// `tcc::zeros({2}, tcc::kLong)` works as in libtorch.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_TENSOROPTIONS_H
#define TCC_FRONTEND_TENSOROPTIONS_H

#include "tcc/Frontend/Device.h"
#include "tcc/Frontend/ScalarType.h"

#include <iosfwd>

namespace tcc {

enum class Layout : int8_t { Strided = 0 };
constexpr Layout kStrided = Layout::Strided;

/// The default dtype of floating-point factories (float32 unless changed).
ScalarType get_default_dtype();
void set_default_dtype(ScalarType t);

class TensorOptions {
public:
  TensorOptions() = default;
  /* implicit */ TensorOptions(ScalarType t) { set_dtype(t); }
  /* implicit */ TensorOptions(Device d) : device_(d) {}
  /* implicit */ TensorOptions(DeviceType t) : device_(t) {}
  /* implicit */ TensorOptions(Layout) {}

  TensorOptions dtype(ScalarType t) const {
    TensorOptions o = *this;
    o.set_dtype(t);
    return o;
  }
  template <class T> TensorOptions dtype() const {
    return dtype(CppTypeToScalarType<T>::value);
  }
  TensorOptions device(Device d) const {
    TensorOptions o = *this;
    o.device_ = d;
    return o;
  }
  TensorOptions device_index(int8_t index) const {
    return device(Device(kCUDA, index));
  }
  TensorOptions requires_grad(bool r) const {
    TensorOptions o = *this;
    o.requiresGrad_ = r;
    return o;
  }
  TensorOptions layout(Layout) const { return *this; }
  TensorOptions pinned_memory(bool = true) const { return *this; }

  /// The dtype given, or the default dtype.
  ScalarType dtype() const {
    return hasDtype_ ? dtype_ : get_default_dtype();
  }
  bool has_dtype() const { return hasDtype_; }
  Device device() const { return device_; }
  bool has_device() const { return true; }
  bool requires_grad() const { return requiresGrad_; }
  Layout layout() const { return kStrided; }

  /// The same options with the dtype taken from `t` when none was given.
  TensorOptions merge_dtype(ScalarType t) const {
    return hasDtype_ ? *this : dtype(t);
  }

private:
  void set_dtype(ScalarType t) {
    dtype_ = t;
    hasDtype_ = true;
  }
  ScalarType dtype_ = kFloat;
  bool hasDtype_ = false;
  bool requiresGrad_ = false;
  Device device_ = kCPU;
};

inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
template <class T> TensorOptions dtype() { return TensorOptions().dtype<T>(); }
inline TensorOptions device(Device d) { return TensorOptions().device(d); }
inline TensorOptions requires_grad(bool r = true) {
  return TensorOptions().requires_grad(r);
}
inline TensorOptions layout(Layout l) { return TensorOptions().layout(l); }

std::ostream &operator<<(std::ostream &os, const TensorOptions &o);

} // namespace tcc

#endif // TCC_FRONTEND_TENSOROPTIONS_H
