//===- Work.hpp - c10d::Work over tcc's Work --------------------*- C++ -*-===//

#ifndef TCC_COMPAT_C10D_WORK_HPP
#define TCC_COMPAT_C10D_WORK_HPP

#include "c10/util/intrusive_ptr.h"
#include "c10d/Types.hpp"

#include <exception>
#include <memory>
#include <vector>

namespace c10d {

/// A collective of a c10d::ProcessGroup. tcc's c10d collectives finish
/// before they return (see ProcessGroup.hpp), so wait() only reports.
class Work : public c10::intrusive_ptr_target {
public:
  Work() = default;
  Work(std::vector<at::Tensor> result, std::exception_ptr error)
      : result_(std::move(result)), error_(error) {}

  bool isCompleted() const { return true; }
  bool isSuccess() const { return !error_; }
  std::exception_ptr exception() const { return error_; }
  /// Rethrows the collective's error; the timeout of tcc's group
  /// (TCC_DIST_TIMEOUT) applies, not this one.
  bool wait(std::chrono::milliseconds timeout = kNoTimeout) {
    (void)timeout;
    if (error_)
      std::rethrow_exception(error_);
    return true;
  }
  std::vector<at::Tensor> result() { return result_; }
  void synchronize() {}

private:
  std::vector<at::Tensor> result_;
  std::exception_ptr error_;
};

} // namespace c10d

#endif // TCC_COMPAT_C10D_WORK_HPP
