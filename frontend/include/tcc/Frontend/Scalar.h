//===- Scalar.h - A number of any element type ------------------*- C++ -*-===//
//
// Scalars hold a double, an int64 or a bool, like libtorch's c10::Scalar.
// A Scalar in an op is a "wrapped number" for type promotion: it does not
// raise a tensor's dtype within the same category (int tensor + 2 stays int,
// int tensor + 2.5 becomes the default float type).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_SCALAR_H
#define TCC_FRONTEND_SCALAR_H

#include "tcc/Frontend/ScalarType.h"

#include <cstdint>
#include <iosfwd>
#include <type_traits>

namespace tcc {

class Scalar {
public:
  enum class Tag : uint8_t { Double, Long, Bool };

  Scalar() : Scalar(int64_t(0)) {}
  template <class T,
            std::enable_if_t<std::is_integral<T>::value &&
                                 !std::is_same<T, bool>::value,
                             int> = 0>
  /* implicit */ Scalar(T v) : tag_(Tag::Long) {
    v_.i = int64_t(v);
  }
  template <class T,
            std::enable_if_t<std::is_floating_point<T>::value, int> = 0>
  /* implicit */ Scalar(T v) : tag_(Tag::Double) {
    v_.d = double(v);
  }
  /* implicit */ Scalar(bool v) : tag_(Tag::Bool) { v_.i = v; }
  /* implicit */ Scalar(Half v) : Scalar(float(v)) {}
  /* implicit */ Scalar(BFloat16 v) : Scalar(float(v)) {}

  bool isFloatingPoint() const { return tag_ == Tag::Double; }
  bool isIntegral(bool includeBool) const {
    return tag_ == Tag::Long || (includeBool && tag_ == Tag::Bool);
  }
  bool isBoolean() const { return tag_ == Tag::Bool; }
  bool isComplex() const { return false; }
  Tag tag() const { return tag_; }

  double toDouble() const { return tag_ == Tag::Double ? v_.d : double(v_.i); }
  float toFloat() const { return float(toDouble()); }
  int64_t toLong() const {
    return tag_ == Tag::Double ? int64_t(v_.d) : v_.i;
  }
  int32_t toInt() const { return int32_t(toLong()); }
  bool toBool() const { return tag_ == Tag::Double ? v_.d != 0 : v_.i != 0; }
  template <class T> T to() const;

  /// The dtype this scalar has on its own: Double, Long or Bool.
  ScalarType type() const {
    return tag_ == Tag::Double ? kDouble : tag_ == Tag::Long ? kLong : kBool;
  }
  Scalar operator-() const {
    if (tag_ == Tag::Double)
      return Scalar(-v_.d);
    return Scalar(-v_.i);
  }
  bool equal(double d) const { return toDouble() == d; }

private:
  Tag tag_;
  union {
    double d;
    int64_t i;
  } v_;
};

template <> inline double Scalar::to<double>() const { return toDouble(); }
template <> inline float Scalar::to<float>() const { return toFloat(); }
template <> inline Half Scalar::to<Half>() const { return Half(toFloat()); }
template <> inline BFloat16 Scalar::to<BFloat16>() const {
  return BFloat16(toFloat());
}
template <> inline int64_t Scalar::to<int64_t>() const { return toLong(); }
template <> inline int32_t Scalar::to<int32_t>() const { return toInt(); }
template <> inline int16_t Scalar::to<int16_t>() const {
  return int16_t(toLong());
}
template <> inline int8_t Scalar::to<int8_t>() const {
  return int8_t(toLong());
}
template <> inline uint8_t Scalar::to<uint8_t>() const {
  return uint8_t(toLong());
}
template <> inline bool Scalar::to<bool>() const { return toBool(); }

std::ostream &operator<<(std::ostream &os, const Scalar &s);

} // namespace tcc

#endif // TCC_FRONTEND_SCALAR_H
