//===- GradMode.h - Turning graph recording on and off ----------*- C++ -*-===//

#ifndef TCC_FRONTEND_GRADMODE_H
#define TCC_FRONTEND_GRADMODE_H

namespace tcc {

/// Whether ops record the autograd graph on this thread (default: on).
struct GradMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

/// Sets grad mode for a scope and restores it after.
class AutoGradMode {
public:
  explicit AutoGradMode(bool enabled) : prev_(GradMode::is_enabled()) {
    GradMode::set_enabled(enabled);
  }
  ~AutoGradMode() { GradMode::set_enabled(prev_); }
  AutoGradMode(const AutoGradMode &) = delete;
  AutoGradMode &operator=(const AutoGradMode &) = delete;

private:
  bool prev_;
};

/// `tcc::NoGradGuard no_grad;` turns graph recording off for its scope.
class NoGradGuard : public AutoGradMode {
public:
  NoGradGuard() : AutoGradMode(false) {}
};

} // namespace tcc

#endif // TCC_FRONTEND_GRADMODE_H
