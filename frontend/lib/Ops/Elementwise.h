//===- Elementwise.h - Building blocks of the elementwise ops -------------===//

#ifndef TCC_LIB_OPS_ELEMENTWISE_H
#define TCC_LIB_OPS_ELEMENTWISE_H

#include "Dispatch.h"
#include "Loops.h"
#include "TensorIterator.h"

namespace tcc {
namespace detail {

template <class T> struct TypeTag {
  using type = T;
};

/// Runs a binary elementwise kernel: `make(TypeTag<T>{})` returns the
/// functor for compute type T (out of type T, or bool when cfg.outputDtype
/// is bool). `types` picks the dispatch set.
struct AllTypesTag {};
struct NumericTypesTag {};
struct FloatingTypesTag {};
namespace Types {
constexpr AllTypesTag All{};
constexpr NumericTypesTag Numeric{};
constexpr FloatingTypesTag Floating{};
} // namespace Types

/// Runs `body(TypeTag<T>{})` for the dtype `t`, instantiating only the
/// types of the tag's set.
template <class Body>
void dispatchTypes(AllTypesTag, ScalarType t, const char *name, Body &&body) {
  TCC_DISPATCH_ALL_TYPES(t, name, [&] { body(TypeTag<scalar_t>{}); });
}
template <class Body>
void dispatchTypes(NumericTypesTag, ScalarType t, const char *name,
                   Body &&body) {
  TCC_DISPATCH_NUMERIC_TYPES(t, name, [&] { body(TypeTag<scalar_t>{}); });
}
template <class Body>
void dispatchTypes(FloatingTypesTag, ScalarType t, const char *name,
                   Body &&body) {
  TCC_DISPATCH_FLOATING_TYPES(t, name, [&] { body(TypeTag<scalar_t>{}); });
}

template <class TypesTag, class Make>
Tensor binaryElementwise(const Tensor &out, const Tensor &a, const Tensor &b,
                         const IterConfig &cfg, TypesTag types, Make &&make) {
  TensorIterator it(out, {a, b}, cfg);
  bool boolOut = cfg.outputDtype && *cfg.outputDtype == kBool &&
                 it.computeDtype() != kBool;
  auto body = [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (boolOut) {
      if constexpr (std::is_same<decltype(make(tag)(T(), T())), bool>::value)
        binaryKernel<bool, T, T>(it, make(tag));
    } else {
      using R = decltype(make(tag)(T(), T()));
      if constexpr (std::is_same<R, T>::value)
        binaryKernel<T, T, T>(it, make(tag));
    }
  };
  dispatchTypes(types, it.computeDtype(), cfg.name, body);
  return it.output();
}

template <class TypesTag, class Make>
Tensor unaryElementwise(const Tensor &out, const Tensor &a,
                        const IterConfig &cfg, TypesTag types, Make &&make) {
  TensorIterator it(out, {a}, cfg);
  bool boolOut = cfg.outputDtype && *cfg.outputDtype == kBool &&
                 it.computeDtype() != kBool;
  auto body = [&](auto tag) {
    using T = typename decltype(tag)::type;
    using R = decltype(make(tag)(T()));
    if (boolOut) {
      if constexpr (std::is_same<R, bool>::value)
        unaryKernel<bool, T>(it, make(tag));
    } else {
      if constexpr (std::is_same<R, T>::value)
        unaryKernel<T, T>(it, make(tag));
    }
  };
  dispatchTypes(types, it.computeDtype(), cfg.name, body);
  return it.output();
}

inline IterConfig config(const char *name, bool intToFloat = false) {
  IterConfig c;
  c.name = name;
  c.intToFloat = intToFloat;
  return c;
}

inline IterConfig boolConfig(const char *name) {
  IterConfig c;
  c.name = name;
  c.outputDtype = kBool;
  return c;
}

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_OPS_ELEMENTWISE_H
