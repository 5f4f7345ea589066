//===- JitTestSupport.h - Helpers for the bridge tests --------------------===//

#ifndef TCC_TEST_JIT_JITTESTSUPPORT_H
#define TCC_TEST_JIT_JITTESTSUPPORT_H

#include "tcc/jit.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace jittest {

using Program = std::function<std::vector<Tensor>(const std::vector<Tensor> &)>;

/// Same dtype, same shape, and every element bit-identical (NaN equal to
/// NaN, -0 equal to +0) when tol == 0; else |a - b| <= tol * (1 + |b|).
::testing::AssertionResult sameTensor(const Tensor &actual,
                                      const Tensor &expected, double tol = 0);
::testing::AssertionResult sameTensors(const std::vector<Tensor> &actual,
                                       const std::vector<Tensor> &expected,
                                       double tol = 0);

/// Traces `f` on `inputs` and checks that the interpreter gives the eager
/// results on them and on `more` (other inputs of the same shapes), also
/// after the IR went through text and bytecode. Returns the IR text.
std::string
expectTraceMatches(const Program &f, const std::vector<Tensor> &inputs,
                   const std::vector<std::vector<Tensor>> &more = {},
                   double tol = 0);

/// Random inputs of `dtype`: normal floats, integers in [-5, 5) (or [0, 10)
/// for uint8), random bools.
Tensor randomTensor(std::vector<int64_t> shape, ScalarType dtype);

/// The message of the exception `fn` throws ("" and a failure if none).
std::string errorOf(const std::function<void()> &fn);

/// A fresh path under the test's temporary directory.
std::string tempPath(const std::string &name);

} // namespace jittest
} // namespace tcc

#define EXPECT_ERROR_HAS(stmt, text)                                           \
  do {                                                                         \
    std::string jitError_ = ::tcc::jittest::errorOf([&] { stmt; });            \
    EXPECT_NE(jitError_.find(text), std::string::npos)                         \
        << "error was: " << jitError_;                                         \
  } while (0)

#endif // TCC_TEST_JIT_JITTESTSUPPORT_H
