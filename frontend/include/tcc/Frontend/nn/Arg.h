//===- Arg.h - TCC_ARG: chainable option fields -----------------*- C++ -*-===//
//
// `TCC_ARG(double, momentum) = 0;` declares a field with a setter that
// returns the options (`SGDOptions(0.1).momentum(0.9).nesterov(true)`) and
// a getter, as libtorch's TORCH_ARG.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_ARG_H
#define TCC_FRONTEND_NN_ARG_H

#include <utility>

#define TCC_ARG(T, name)                                                       \
public:                                                                        \
  inline auto name(const T &new_##name)->decltype(*this) {                     \
    this->name##_ = new_##name;                                                \
    return *this;                                                              \
  }                                                                            \
  inline auto name(T &&new_##name)->decltype(*this) {                          \
    this->name##_ = std::move(new_##name);                                     \
    return *this;                                                              \
  }                                                                            \
  inline const T &name() const noexcept { return this->name##_; }              \
  inline T &name() noexcept { return this->name##_; }                          \
                                                                               \
private:                                                                       \
  T name##_

#endif // TCC_FRONTEND_NN_ARG_H
