//===- Status.h - C++ owner of a tcc_status_t -------------------*- C++ -*-===//
//
// The runtime reports errors as values, never by throwing: `Status` owns a
// tcc_status_t (NULL when OK) and frees it when it goes away. It is what the
// runtime's C++ code returns internally and what the C++ wrapper
// (Runtime.h) and the npy functions return to users.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_STATUS_H
#define TCC_RUNTIME_STATUS_H

#include "tcc/runtime/tcc_runtime.h"

#include <string>
#include <utility>

namespace tcc {
namespace runtime {

class [[nodiscard]] Status {
public:
  Status() = default; // OK
  Status(tcc_status_code_t code, const std::string &message)
      : status_(code == TCC_STATUS_OK
                    ? nullptr
                    : tcc_status_make(code, message.c_str())) {}
  // Takes ownership of a status from the C API.
  explicit Status(tcc_status_t status) : status_(status) {}
  Status(Status &&other) noexcept : status_(other.release()) {}
  Status &operator=(Status &&other) noexcept {
    std::swap(status_, other.status_);
    return *this;
  }
  Status(const Status &) = delete;
  Status &operator=(const Status &) = delete;
  ~Status() { tcc_status_free(status_); }

  bool ok() const { return status_ == nullptr; }
  explicit operator bool() const { return ok(); }
  tcc_status_code_t code() const { return tcc_status_code(status_); }
  std::string message() const { return tcc_status_message(status_); }
  // "INVALID_ARGUMENT: message", or "OK".
  std::string toString() const {
    return ok() ? std::string("OK")
                : std::string(tcc_status_code_name(code())) + ": " + message();
  }

  // Hands the C status to the caller (for returning through the C API).
  tcc_status_t release() { return std::exchange(status_, nullptr); }

  // The same error with `context: ` in front of its message.
  Status withContext(const std::string &context) && {
    if (ok())
      return std::move(*this);
    return Status(code(), context + ": " + message());
  }

private:
  tcc_status_t status_ = nullptr;
};

} // namespace runtime
} // namespace tcc

// Returns from the enclosing function when `expr` yields an error Status.
#define TCC_RETURN_IF_ERROR(expr)                                              \
  do {                                                                         \
    ::tcc::runtime::Status tccStatus_ = (expr);                                \
    if (!tccStatus_.ok())                                                      \
      return tccStatus_;                                                       \
  } while (false)

#endif // TCC_RUNTIME_STATUS_H
