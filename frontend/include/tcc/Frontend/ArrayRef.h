//===- ArrayRef.h - Non-owning view of a contiguous array -------*- C++ -*-===//
//
// Arguments such as sizes take IntArrayRef, which binds to braced lists
// (`{2, 3}`), std::vector, and a single value, as libtorch's does. It never
// owns its elements: do not keep one past the full expression it came from.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_ARRAYREF_H
#define TCC_FRONTEND_ARRAYREF_H

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <vector>

namespace tcc {

template <class T> class ArrayRef {
public:
  using value_type = T;
  using iterator = const T *;
  using const_iterator = const T *;

  constexpr ArrayRef() = default;
  /* implicit */ constexpr ArrayRef(const T &one) : data_(&one), size_(1) {}
  constexpr ArrayRef(const T *data, size_t size) : data_(data), size_(size) {}
  constexpr ArrayRef(const T *begin, const T *end)
      : data_(begin), size_(size_t(end - begin)) {}
  template <class A>
  /* implicit */ ArrayRef(const std::vector<T, A> &v)
      : data_(v.data()), size_(v.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
#endif
  // Borrows the list's array, which lives until the end of the full
  // expression: fine for arguments, wrong for a stored ArrayRef.
  /* implicit */ constexpr ArrayRef(const std::initializer_list<T> &list)
      : data_(list.begin() == list.end() ? nullptr : list.begin()),
        size_(list.size()) {}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  template <size_t N>
  /* implicit */ constexpr ArrayRef(const T (&arr)[N]) : data_(arr), size_(N) {}

  constexpr const T *data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T *begin() const { return data_; }
  constexpr const T *end() const { return data_ + size_; }
  constexpr const T &operator[](size_t i) const { return data_[i]; }
  const T &front() const { return data_[0]; }
  const T &back() const { return data_[size_ - 1]; }
  ArrayRef slice(size_t start, size_t n) const {
    return ArrayRef(data_ + start, n);
  }
  ArrayRef slice(size_t start) const {
    return ArrayRef(data_ + start, size_ - start);
  }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  bool equals(ArrayRef o) const {
    if (size_ != o.size_)
      return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == o.data_[i]))
        return false;
    return true;
  }

private:
  const T *data_ = nullptr;
  size_t size_ = 0;
};

template <class T> bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  return a.equals(b);
}
template <class T> bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !a.equals(b);
}
template <class T> bool operator==(ArrayRef<T> a, const std::vector<T> &b) {
  return a.equals(b);
}
template <class T> bool operator==(const std::vector<T> &a, ArrayRef<T> b) {
  return b.equals(a);
}

using IntArrayRef = ArrayRef<int64_t>;

/// Prints "[2, 3]", as libtorch prints sizes.
std::ostream &operator<<(std::ostream &os, IntArrayRef a);

} // namespace tcc

#endif // TCC_FRONTEND_ARRAYREF_H
