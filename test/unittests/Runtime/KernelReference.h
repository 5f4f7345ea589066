//===- KernelReference.h - float64 references for the kernel tests --------===//
//
// Naive, obviously-correct float64 versions of the kernels and the error
// bound the tests allow: a float32 dot product of length k has error at most
// about k * 2^-24 * sum |a_i b_i| (the standard bound), to which the
// epilogue adds a few rounding steps and each activation its own few ulp.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_RUNTIME_KERNELREFERENCE_H
#define TCC_TEST_RUNTIME_KERNELREFERENCE_H

#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <vector>

namespace tcc_test {

constexpr double kUnitRoundoff = 1.0 / (1 << 24);

inline double activate_reference(double x, const tcc_epilogue &e) {
  switch (e.activation) {
  case TCC_ACTIVATION_RELU:
    return x > 0 ? x : 0.0;
  case TCC_ACTIVATION_CLAMP:
    return std::min<double>(std::max<double>(x, e.clamp_min), e.clamp_max);
  case TCC_ACTIVATION_GELU:
    return 0.5 * x * std::erfc(-x / std::sqrt(2.0));
  case TCC_ACTIVATION_GELU_TANH: {
    // 0.5 x (1 + tanh y), written without the cancellation at y << 0.
    double y = std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x);
    return x / (1.0 + std::exp(-2.0 * y));
  }
  case TCC_ACTIVATION_SILU:
    return x / (1.0 + std::exp(-x));
  case TCC_ACTIVATION_SIGMOID:
    return 1.0 / (1.0 + std::exp(-x));
  case TCC_ACTIVATION_TANH:
    return std::tanh(x);
  default:
    return x;
  }
}

/// Relative error each float32 activation may add, in units of its result.
inline double activation_relative_tolerance(int activation) {
  return activation == TCC_ACTIVATION_NONE ||
                 activation == TCC_ACTIVATION_RELU ||
                 activation == TCC_ACTIVATION_CLAMP
             ? 0.0
             : 16 * kUnitRoundoff;
}

/// Uniform values in [-1, 1) from a fixed seed.
inline std::vector<float> random_floats(size_t count, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(count);
  for (float &x : v)
    x = dist(gen);
  return v;
}

/// A 64-byte-aligned float buffer (packed weights and workspaces need it).
struct AlignedBuffer {
  struct Free {
    void operator()(void *p) const { std::free(p); }
  };
  std::unique_ptr<void, Free> memory;
  size_t bytes = 0;
  explicit AlignedBuffer(size_t n)
      : memory(std::aligned_alloc(64, (std::max<size_t>(n, 1) + 63) / 64 * 64)),
        bytes(n) {}
  void *get() const { return memory.get(); }
};

} // namespace tcc_test

#endif // TCC_TEST_RUNTIME_KERNELREFERENCE_H
