//===- Check.h - TCC_CHECK: argument checks with readable messages -*- C++ -*-//
//
// Not part of the light umbrella header: it pulls in <sstream>. Library code
// and extensions use it to throw tcc::Error with a message built from pieces.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_CHECK_H
#define TCC_FRONTEND_CHECK_H

#include "tcc/Frontend/Error.h"

#include <sstream>
#include <string>
#include <utility>

namespace tcc {
namespace detail {
template <class... Args> std::string str(const Args &...args) {
  std::ostringstream os;
  (void)(os << ... << args);
  return os.str();
}
inline std::string str() { return std::string(); }
} // namespace detail

} // namespace tcc

/// Throws tcc::Error with the concatenated message when `cond` is false.
#define TCC_CHECK(cond, ...)                                                   \
  do {                                                                         \
    if (__builtin_expect(!(cond), 0))                                          \
      ::tcc::detail::throwError(::tcc::detail::str(__VA_ARGS__));              \
  } while (0)

#endif // TCC_FRONTEND_CHECK_H
