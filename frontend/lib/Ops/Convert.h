//===- Convert.h - Converting one element type to another -----------------===//

#ifndef TCC_LIB_OPS_CONVERT_H
#define TCC_LIB_OPS_CONVERT_H

#include "tcc/Frontend/ScalarType.h"

#include <type_traits>

namespace tcc {
namespace detail {

template <class T>
constexpr bool isReducedFloat =
    std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value;

/// `from` as a `To`, with PyTorch's rules: nonzero -> true for bool, 16-bit
/// floats through float.
template <class To, class From> inline To convert(From from) {
  if constexpr (isReducedFloat<From>) {
    return convert<To>(float(from));
  } else if constexpr (std::is_same<To, bool>::value) {
    return from != From(0);
  } else if constexpr (isReducedFloat<To>) {
    return To(float(from));
  } else {
    return static_cast<To>(from);
  }
}

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_CONVERT_H
