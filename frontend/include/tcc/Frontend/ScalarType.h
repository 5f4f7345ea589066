//===- ScalarType.h - Element types of tensors ------------------*- C++ -*-===//
//
// libtorch's ScalarType names (kFloat == kFloat32, ...), element sizes, the
// C++ type of each, and PyTorch's type promotion lattice.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_SCALARTYPE_H
#define TCC_FRONTEND_SCALARTYPE_H

#include "tcc/Frontend/Half.h"

#include <cstddef>
#include <cstdint>
#include <iosfwd>

namespace tcc {

enum class ScalarType : int8_t {
  Byte = 0, // uint8
  Char,     // int8
  Short,    // int16 (needed by promotion: uint8 + int8 -> int16)
  Int,      // int32
  Long,     // int64
  Half,     // float16
  Float,    // float32
  Double,   // float64
  Bool,
  BFloat16,
  Undefined,
};
constexpr int kNumScalarTypes = int(ScalarType::Undefined);

constexpr ScalarType kByte = ScalarType::Byte;
constexpr ScalarType kUInt8 = ScalarType::Byte;
constexpr ScalarType kChar = ScalarType::Char;
constexpr ScalarType kInt8 = ScalarType::Char;
constexpr ScalarType kShort = ScalarType::Short;
constexpr ScalarType kInt16 = ScalarType::Short;
constexpr ScalarType kInt = ScalarType::Int;
constexpr ScalarType kInt32 = ScalarType::Int;
constexpr ScalarType kLong = ScalarType::Long;
constexpr ScalarType kInt64 = ScalarType::Long;
constexpr ScalarType kHalf = ScalarType::Half;
constexpr ScalarType kFloat16 = ScalarType::Half;
constexpr ScalarType kFloat = ScalarType::Float;
constexpr ScalarType kFloat32 = ScalarType::Float;
constexpr ScalarType kDouble = ScalarType::Double;
constexpr ScalarType kFloat64 = ScalarType::Double;
constexpr ScalarType kBool = ScalarType::Bool;
constexpr ScalarType kBFloat16 = ScalarType::BFloat16;

/// Bytes per element.
size_t elementSize(ScalarType t);
/// "Float", "Double", "Long", ... (the names libtorch prints).
const char *toString(ScalarType t);
std::ostream &operator<<(std::ostream &os, ScalarType t);

constexpr bool isFloatingType(ScalarType t) {
  return t == kFloat || t == kDouble || t == kHalf || t == kBFloat16;
}
constexpr bool isIntegralType(ScalarType t, bool includeBool) {
  return t == kByte || t == kChar || t == kShort || t == kInt || t == kLong ||
         (includeBool && t == kBool);
}
constexpr bool isComplexType(ScalarType) { return false; }
constexpr bool isSignedType(ScalarType t) {
  return t != kByte && t != kBool;
}

/// PyTorch's promote_types: the smallest type both convert to without
/// changing category (bool < integral < floating).
ScalarType promoteTypes(ScalarType a, ScalarType b);
/// Whether a result of type `from` may be written into a tensor of type `to`
/// (PyTorch's canCast: no float -> integral, no non-bool -> bool).
bool canCast(ScalarType from, ScalarType to);

/// The C++ type of each element type.
template <ScalarType> struct ScalarTypeToCpp;
#define TCC_SCALAR_TYPE_CPP(ST, T)                                             \
  template <> struct ScalarTypeToCpp<ScalarType::ST> {                         \
    using type = T;                                                            \
  };
TCC_SCALAR_TYPE_CPP(Byte, uint8_t)
TCC_SCALAR_TYPE_CPP(Char, int8_t)
TCC_SCALAR_TYPE_CPP(Short, int16_t)
TCC_SCALAR_TYPE_CPP(Int, int32_t)
TCC_SCALAR_TYPE_CPP(Long, int64_t)
TCC_SCALAR_TYPE_CPP(Half, ::tcc::Half)
TCC_SCALAR_TYPE_CPP(Float, float)
TCC_SCALAR_TYPE_CPP(Double, double)
TCC_SCALAR_TYPE_CPP(Bool, bool)
TCC_SCALAR_TYPE_CPP(BFloat16, ::tcc::BFloat16)
#undef TCC_SCALAR_TYPE_CPP

/// The element type of a C++ type (data_ptr<T>() checks against it).
template <class T> struct CppTypeToScalarType;
#define TCC_CPP_SCALAR_TYPE(T, ST)                                             \
  template <> struct CppTypeToScalarType<T> {                                  \
    static constexpr ScalarType value = ScalarType::ST;                        \
  };
TCC_CPP_SCALAR_TYPE(uint8_t, Byte)
TCC_CPP_SCALAR_TYPE(int8_t, Char)
TCC_CPP_SCALAR_TYPE(int16_t, Short)
TCC_CPP_SCALAR_TYPE(int32_t, Int)
TCC_CPP_SCALAR_TYPE(int64_t, Long)
TCC_CPP_SCALAR_TYPE(::tcc::Half, Half)
TCC_CPP_SCALAR_TYPE(float, Float)
TCC_CPP_SCALAR_TYPE(double, Double)
TCC_CPP_SCALAR_TYPE(bool, Bool)
TCC_CPP_SCALAR_TYPE(::tcc::BFloat16, BFloat16)
#undef TCC_CPP_SCALAR_TYPE

} // namespace tcc

#endif // TCC_FRONTEND_SCALARTYPE_H
