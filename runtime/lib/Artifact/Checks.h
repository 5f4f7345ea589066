//===- Checks.h - overflow-checked arithmetic and messages ------*- C++ -*-===//
//
// Helpers for code that reads untrusted sizes: every product and sum of
// sizes taken from a file goes through these, so a crafted file cannot wrap
// an offset around and pass a bounds check.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_ARTIFACT_CHECKS_H
#define TCC_RUNTIME_LIB_ARTIFACT_CHECKS_H

#include "tcc/runtime/Status.h"

#include <cstdint>
#include <string>
#include <type_traits>

namespace tcc {
namespace runtime {
namespace detail {

// False on overflow; `*out` is then unspecified.
inline bool checkedMul(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_mul_overflow(a, b, out);
}
inline bool checkedAdd(uint64_t a, uint64_t b, uint64_t *out) {
  return !__builtin_add_overflow(a, b, out);
}

inline void appendTo(std::string &s, const std::string &v) { s += v; }
inline void appendTo(std::string &s, const char *v) { s += v; }
inline void appendTo(std::string &s, char v) { s += v; }
template <typename T>
inline std::enable_if_t<std::is_integral<T>::value> appendTo(std::string &s,
                                                             T v) {
  s += std::to_string(v);
}
inline void appendTo(std::string &s, double v) { s += std::to_string(v); }

// Concatenates strings and numbers into a message.
template <typename... Args> std::string cat(const Args &...args) {
  std::string s;
  (appendTo(s, args), ...);
  return s;
}

// "" when every byte of a bool tensor is 0 or 1, else which one is not.
// Other bytes would read as true in one place and as themselves in another
// (logical_not of 2 is 253 or 0), so every boundary refuses them.
inline std::string invalidBoolByte(const uint8_t *bytes, size_t size) {
  for (size_t i = 0; i < size; ++i)
    if (bytes[i] > 1)
      return cat("bool element ", i, " is ", int(bytes[i]),
                 " (bools are 0 or 1)");
  return "";
}

// The status of a malformed artifact.
template <typename... Args> Status corrupt(const Args &...args) {
  return Status(TCC_STATUS_DATA_LOSS, cat(args...));
}

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_ARTIFACT_CHECKS_H
