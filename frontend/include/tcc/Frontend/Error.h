//===- Error.h - The exception type of the eager API ------------*- C++ -*-===//
//
// The eager API reports bad input by throwing tcc::Error (libtorch throws
// c10::Error, which the compatibility layer maps to this type).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_ERROR_H
#define TCC_FRONTEND_ERROR_H

#include <stdexcept>
#include <string>

namespace tcc {

class Error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
  /// libtorch's spelling; there is no backtrace to leave out here.
  const char *what_without_backtrace() const noexcept { return what(); }
};

namespace detail {
[[noreturn]] void throwError(const std::string &message);
} // namespace detail

} // namespace tcc

#endif // TCC_FRONTEND_ERROR_H
