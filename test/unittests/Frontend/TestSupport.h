//===- TestSupport.h - Helpers for the frontend tests ---------------------===//

#ifndef TCC_TEST_FRONTEND_TESTSUPPORT_H
#define TCC_TEST_FRONTEND_TESTSUPPORT_H

#include "tcc/tcc.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace test {

/// The tensor's elements (row-major) as doubles.
std::vector<double> values(const Tensor &t);

/// Checks sizes, dtype and values (within tol, NaN equal to NaN).
::testing::AssertionResult tensorEquals(const Tensor &t,
                                        std::vector<int64_t> sizes,
                                        std::vector<double> expected,
                                        double tol = 1e-6);

/// The message of the tcc::Error `fn` throws (fails if it throws nothing).
std::string errorOf(const std::function<void()> &fn);

using TensorFn = std::function<Tensor(const std::vector<Tensor> &)>;

/// Compares autograd gradients of sum(fn(inputs) * w) (w fixed random
/// weights) with central finite differences in float64. Inputs must be
/// float64 leaves that require grad.
::testing::AssertionResult gradcheck(const TensorFn &fn,
                                     const std::vector<Tensor> &inputs,
                                     double eps = 1e-6, double atol = 1e-5,
                                     double rtol = 1e-3);

/// gradcheck of the first-order gradient function (create_graph) against
/// finite differences of it: second-order gradients.
::testing::AssertionResult gradgradcheck(const TensorFn &fn,
                                         const std::vector<Tensor> &inputs,
                                         double eps = 1e-6, double atol = 1e-4,
                                         double rtol = 1e-3);

/// A float64 leaf that requires grad, values uniform in [lo, hi).
Tensor leaf(std::vector<int64_t> sizes, double lo = -1, double hi = 1);

} // namespace test
} // namespace tcc

#define EXPECT_TENSOR(t, sizes, ...)                                           \
  EXPECT_TRUE(::tcc::test::tensorEquals((t), sizes, __VA_ARGS__))

#define EXPECT_ERROR_CONTAINS(stmt, text)                                      \
  EXPECT_NE(::tcc::test::errorOf([&] { stmt; }).find(text), std::string::npos) \
      << "error was: " << ::tcc::test::errorOf([&] { stmt; })

#endif // TCC_TEST_FRONTEND_TESTSUPPORT_H
