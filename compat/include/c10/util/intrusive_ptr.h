//===- intrusive_ptr.h - c10::intrusive_ptr on std::shared_ptr --*- C++ -*-===//
//
// libtorch 1.13 hands out process groups and works as c10::intrusive_ptr;
// older code (pytorch/examples' dist-mnist) holds them as std::shared_ptr.
// Here intrusive_ptr<T> *is* a std::shared_ptr<T>, so the same handle
// converts to either spelling, both ways.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPAT_C10_UTIL_INTRUSIVE_PTR_H
#define TCC_COMPAT_C10_UTIL_INTRUSIVE_PTR_H

#include <memory>
#include <utility>

namespace c10 {

/// Base class libtorch requires of intrusively counted types; nothing here.
class intrusive_ptr_target {
public:
  virtual ~intrusive_ptr_target() = default;
};

template <class T> class intrusive_ptr : public std::shared_ptr<T> {
public:
  using std::shared_ptr<T>::shared_ptr;
  intrusive_ptr() = default;
  intrusive_ptr(std::shared_ptr<T> p) : std::shared_ptr<T>(std::move(p)) {}
  template <class U, class = std::enable_if_t<std::is_convertible_v<U *, T *>>>
  intrusive_ptr(std::shared_ptr<U> p) : std::shared_ptr<T>(std::move(p)) {}

  template <class... Args> static intrusive_ptr make(Args &&...args) {
    return intrusive_ptr(std::make_shared<T>(std::forward<Args>(args)...));
  }
  bool defined() const { return this->get() != nullptr; }
  size_t use_count() const { return size_t(std::shared_ptr<T>::use_count()); }
};

template <class T, class... Args> intrusive_ptr<T> make_intrusive(Args &&...args) {
  return intrusive_ptr<T>::make(std::forward<Args>(args)...);
}

} // namespace c10

#endif // TCC_COMPAT_C10_UTIL_INTRUSIVE_PTR_H
