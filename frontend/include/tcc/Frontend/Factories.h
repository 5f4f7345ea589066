//===- Factories.h - Creating tensors ---------------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_FACTORIES_H
#define TCC_FRONTEND_FACTORIES_H

#include "tcc/Frontend/Tensor.h"

#include <functional>
#include <initializer_list>
#include <vector>

namespace tcc {

Tensor empty(IntArrayRef size, const TensorOptions &options = {});
Tensor empty_strided(IntArrayRef size, IntArrayRef stride,
                     const TensorOptions &options = {});
Tensor zeros(IntArrayRef size, const TensorOptions &options = {});
Tensor ones(IntArrayRef size, const TensorOptions &options = {});
/// The dtype follows the value when none is given (bool, int64 or the
/// default float type), as in PyTorch.
Tensor full(IntArrayRef size, const Scalar &fill_value,
            const TensorOptions &options = {});
/// [start, end) in steps; int64 unless a bound or the step is a float.
Tensor arange(const Scalar &end, const TensorOptions &options = {});
Tensor arange(const Scalar &start, const Scalar &end,
              const TensorOptions &options = {});
Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step,
              const TensorOptions &options = {});
Tensor linspace(const Scalar &start, const Scalar &end, int64_t steps,
                const TensorOptions &options = {});
Tensor eye(int64_t n, const TensorOptions &options = {});
Tensor eye(int64_t n, int64_t m, const TensorOptions &options = {});

/// Uniform on [0, 1).
Tensor rand(IntArrayRef size, const TensorOptions &options = {});
/// Standard normal.
Tensor randn(IntArrayRef size, const TensorOptions &options = {});
/// Integers uniform on [low, high); int64 unless options say otherwise.
Tensor randint(int64_t high, IntArrayRef size,
               const TensorOptions &options = kLong);
Tensor randint(int64_t low, int64_t high, IntArrayRef size,
               const TensorOptions &options = kLong);
Tensor randperm(int64_t n, const TensorOptions &options = kLong);
/// Seeds the global generator that every random op draws from.
void manual_seed(uint64_t seed);

Tensor empty_like(const Tensor &t, std::optional<TensorOptions> options = {});
Tensor zeros_like(const Tensor &t, std::optional<TensorOptions> options = {});
Tensor ones_like(const Tensor &t, std::optional<TensorOptions> options = {});
Tensor full_like(const Tensor &t, const Scalar &fill_value,
                 std::optional<TensorOptions> options = {});
Tensor rand_like(const Tensor &t, std::optional<TensorOptions> options = {});
Tensor randn_like(const Tensor &t, std::optional<TensorOptions> options = {});

/// Wraps memory the caller owns; the tensor does not free it unless a
/// deleter is given, which runs when the last view of it goes away.
Tensor from_blob(void *data, IntArrayRef sizes,
                 const TensorOptions &options = {});
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                 const TensorOptions &options = {});
Tensor from_blob(void *data, IntArrayRef sizes,
                 std::function<void(void *)> deleter,
                 const TensorOptions &options = {});
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                 std::function<void(void *)> deleter,
                 const TensorOptions &options = {});

/// Nested braced lists of numbers, as `tcc::tensor({{1, 2}, {3, 4}})`.
/// The dtype is inferred like PyTorch's: bool, int64, or the default float
/// type if any element is a float.
class TensorInit {
public:
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  /* implicit */ TensorInit(T v) : scalar_(v), isScalar_(true) {}
  /* implicit */ TensorInit(Half v) : scalar_(v), isScalar_(true), halfType_(kHalf) {}
  /* implicit */ TensorInit(BFloat16 v)
      : scalar_(v), isScalar_(true), halfType_(kBFloat16) {}
  /* implicit */ TensorInit(std::initializer_list<TensorInit> list)
      : children_(list) {}
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  /* implicit */ TensorInit(const std::vector<T> &v)
      : vectorType_(CppTypeToScalarType<T>::value) {
    for (const T &x : v)
      children_.emplace_back(x);
  }
  template <class T, std::enable_if_t<std::is_arithmetic<T>::value, int> = 0>
  /* implicit */ TensorInit(ArrayRef<T> v)
      : vectorType_(CppTypeToScalarType<T>::value) {
    for (const T &x : v)
      children_.emplace_back(x);
  }

  bool isScalar() const { return isScalar_; }
  const Scalar &scalar() const { return scalar_; }
  const std::vector<TensorInit> &children() const { return children_; }
  /// The dtype of a std::vector's elements (those keep their C++ type).
  std::optional<ScalarType> vectorType() const { return vectorType_; }
  std::optional<ScalarType> halfType() const { return halfType_; }

private:
  Scalar scalar_;
  bool isScalar_ = false;
  std::vector<TensorInit> children_;
  std::optional<ScalarType> vectorType_;
  std::optional<ScalarType> halfType_;
};

Tensor tensor(const TensorInit &data, const TensorOptions &options = {});

} // namespace tcc

#endif // TCC_FRONTEND_FACTORIES_H
