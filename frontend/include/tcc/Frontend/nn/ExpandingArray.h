//===- ExpandingArray.h - One value or one per dimension --------*- C++ -*-===//
//
// `Conv2dOptions(1, 8, 3)` and `Conv2dOptions(1, 8, {3, 5})`: an
// ExpandingArray<D> takes a single value (repeated D times) or exactly D
// values, as libtorch's does.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_EXPANDINGARRAY_H
#define TCC_FRONTEND_NN_EXPANDINGARRAY_H

#include "tcc/Frontend/ArrayRef.h"
#include "tcc/Frontend/Error.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace tcc {

template <size_t D, class T = int64_t> class ExpandingArray {
public:
  /* implicit */ ExpandingArray(std::initializer_list<T> list)
      : ExpandingArray(ArrayRef<T>(list)) {}
  /* implicit */ ExpandingArray(std::vector<T> vec)
      : ExpandingArray(ArrayRef<T>(vec)) {}
  /* implicit */ ExpandingArray(ArrayRef<T> values) {
    if (values.size() != D)
      detail::throwError("Expected " + std::to_string(D) +
                         " values, but instead got " +
                         std::to_string(values.size()));
    std::copy(values.begin(), values.end(), values_.begin());
  }
  /* implicit */ ExpandingArray(T single_size) { values_.fill(single_size); }
  /* implicit */ ExpandingArray(const std::array<T, D> &values)
      : values_(values) {}

  std::array<T, D> &operator*() { return values_; }
  const std::array<T, D> &operator*() const { return values_; }
  std::array<T, D> *operator->() { return &values_; }
  const std::array<T, D> *operator->() const { return &values_; }
  operator ArrayRef<T>() const { return ArrayRef<T>(values_.data(), D); }
  T &operator[](size_t i) { return values_[i]; }
  const T &operator[](size_t i) const { return values_[i]; }
  size_t size() const noexcept { return D; }
  std::vector<T> vec() const {
    return std::vector<T>(values_.begin(), values_.end());
  }
  bool operator==(const ExpandingArray &o) const {
    return values_ == o.values_;
  }

protected:
  std::array<T, D> values_;
};

template <size_t D> using ExpandingArrayDouble = ExpandingArray<D, double>;

template <size_t D, class T>
std::ostream &operator<<(std::ostream &os, const ExpandingArray<D, T> &a) {
  if (D == 1)
    return os << a[0];
  os << '[';
  for (size_t i = 0; i < D; ++i)
    os << (i ? ", " : "") << a[i];
  return os << ']';
}

/// As ExpandingArray, where an element may be empty (`{std::nullopt, 7}`:
/// keep that dim's size), as AdaptiveAvgPool2d's output size.
template <size_t D, class T = int64_t>
class ExpandingArrayWithOptionalElem
    : public ExpandingArray<D, std::optional<T>> {
public:
  using ExpandingArray<D, std::optional<T>>::ExpandingArray;
  /* implicit */ ExpandingArrayWithOptionalElem(std::initializer_list<T> list)
      : ExpandingArray<D, std::optional<T>>(std::optional<T>()) {
    if (list.size() != D)
      detail::throwError("Expected " + std::to_string(D) +
                         " values, but instead got " +
                         std::to_string(list.size()));
    std::copy(list.begin(), list.end(), this->values_.begin());
  }
  /* implicit */ ExpandingArrayWithOptionalElem(T single_size)
      : ExpandingArray<D, std::optional<T>>(std::optional<T>(single_size)) {}
  /* implicit */ ExpandingArrayWithOptionalElem(const ExpandingArray<D, T> &a)
      : ExpandingArray<D, std::optional<T>>(std::optional<T>()) {
    for (size_t i = 0; i < D; ++i)
      this->values_[i] = a[i];
  }
};

template <size_t D, class T>
std::ostream &operator<<(std::ostream &os,
                         const ExpandingArrayWithOptionalElem<D, T> &a) {
  os << '[';
  for (size_t i = 0; i < D; ++i) {
    os << (i ? ", " : "");
    if (a[i])
      os << *a[i];
    else
      os << "None";
  }
  return os << ']';
}

} // namespace tcc

#endif // TCC_FRONTEND_NN_EXPANDINGARRAY_H
