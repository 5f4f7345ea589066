//===- Dispatch.h - One switch from a dtype to a C++ type ------------------===//
//
// TCC_DISPATCH_ALL_TYPES(dtype, "op", [&] { ... scalar_t ... }) runs the
// lambda with `scalar_t` bound to the C++ type of `dtype` (as AT_DISPATCH_*
// does). `opmath_t<T>` is the type to compute in: float for Half/BFloat16.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_OPS_DISPATCH_H
#define TCC_LIB_OPS_DISPATCH_H

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/ScalarType.h"

namespace tcc {
namespace detail {

template <class T> struct OpMathType {
  using type = T;
};
template <> struct OpMathType<Half> {
  using type = float;
};
template <> struct OpMathType<BFloat16> {
  using type = float;
};
template <class T> using opmath_t = typename OpMathType<T>::type;

[[noreturn]] void throwUnsupportedDtype(const char *op, ScalarType t);

} // namespace detail
} // namespace tcc

#define TCC_DISPATCH_CASE(ST, ...)                                             \
  case ::tcc::ScalarType::ST: {                                                \
    using scalar_t = ::tcc::ScalarTypeToCpp<::tcc::ScalarType::ST>::type;      \
    return __VA_ARGS__();                                                      \
  }

#define TCC_DISPATCH_SWITCH(TYPE, NAME, ...)                                   \
  [&] {                                                                        \
    ::tcc::ScalarType _st = (TYPE);                                            \
    switch (_st) {                                                             \
      __VA_ARGS__                                                              \
    default:                                                                   \
      ::tcc::detail::throwUnsupportedDtype(NAME, _st);                         \
    }                                                                          \
  }()

#define TCC_FLOATING_CASES(...)                                                \
  TCC_DISPATCH_CASE(Float, __VA_ARGS__)                                        \
  TCC_DISPATCH_CASE(Double, __VA_ARGS__)                                       \
  TCC_DISPATCH_CASE(Half, __VA_ARGS__)                                         \
  TCC_DISPATCH_CASE(BFloat16, __VA_ARGS__)

#define TCC_INTEGRAL_CASES(...)                                                \
  TCC_DISPATCH_CASE(Byte, __VA_ARGS__)                                         \
  TCC_DISPATCH_CASE(Char, __VA_ARGS__)                                         \
  TCC_DISPATCH_CASE(Short, __VA_ARGS__)                                        \
  TCC_DISPATCH_CASE(Int, __VA_ARGS__)                                          \
  TCC_DISPATCH_CASE(Long, __VA_ARGS__)

/// Every dtype, bool included.
#define TCC_DISPATCH_ALL_TYPES(TYPE, NAME, ...)                                \
  TCC_DISPATCH_SWITCH(TYPE, NAME, TCC_FLOATING_CASES(__VA_ARGS__)              \
                                      TCC_INTEGRAL_CASES(__VA_ARGS__)          \
                                          TCC_DISPATCH_CASE(Bool, __VA_ARGS__))

/// Every numeric dtype (no bool).
#define TCC_DISPATCH_NUMERIC_TYPES(TYPE, NAME, ...)                            \
  TCC_DISPATCH_SWITCH(TYPE, NAME, TCC_FLOATING_CASES(__VA_ARGS__)              \
                                      TCC_INTEGRAL_CASES(__VA_ARGS__))

#define TCC_DISPATCH_FLOATING_TYPES(TYPE, NAME, ...)                           \
  TCC_DISPATCH_SWITCH(TYPE, NAME, TCC_FLOATING_CASES(__VA_ARGS__))

#endif // TCC_LIB_OPS_DISPATCH_H
