//===- JitTestSupport.cpp - Helpers for the bridge tests ------------------===//

#include "JitTestSupport.h"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace tcc {
namespace jittest {

namespace {
/// Element i as a double and as raw bits.
double valueAt(const Tensor &t, int64_t i) {
  return t.reshape({-1}).select(0, i).to(kDouble).item<double>();
}
} // namespace

::testing::AssertionResult sameTensor(const Tensor &actual,
                                      const Tensor &expected, double tol) {
  if (!actual.defined() || !expected.defined())
    return ::testing::AssertionFailure() << "undefined tensor";
  if (actual.dtype() != expected.dtype())
    return ::testing::AssertionFailure()
           << "dtype " << actual.dtype() << " != " << expected.dtype();
  if (!actual.sizes().equals(expected.sizes()))
    return ::testing::AssertionFailure()
           << "shape " << actual.sizes() << " != " << expected.sizes();
  Tensor a = actual.contiguous(), e = expected.contiguous();
  int64_t n = a.numel();
  size_t size = a.element_size();
  const char *pa = static_cast<const char *>(a.unsafeGetTensorImpl()->data());
  const char *pe = static_cast<const char *>(e.unsafeGetTensorImpl()->data());
  for (int64_t i = 0; i < n; ++i) {
    if (tol == 0 &&
        std::memcmp(pa + i * int64_t(size), pe + i * int64_t(size), size) == 0)
      continue;
    double x = valueAt(a, i), y = valueAt(e, i);
    if (std::isnan(x) && std::isnan(y))
      continue;
    bool ok = tol == 0 ? x == y : std::fabs(x - y) <= tol * (1 + std::fabs(y));
    if (!ok)
      return ::testing::AssertionFailure()
             << "element " << i << ": " << x << " != " << y << " (difference "
             << x - y << ")";
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult sameTensors(const std::vector<Tensor> &actual,
                                       const std::vector<Tensor> &expected,
                                       double tol) {
  if (actual.size() != expected.size())
    return ::testing::AssertionFailure()
           << actual.size() << " outputs, " << expected.size() << " expected";
  for (size_t i = 0; i < actual.size(); ++i) {
    ::testing::AssertionResult r = sameTensor(actual[i], expected[i], tol);
    if (!r)
      return ::testing::AssertionFailure()
             << "output " << i << ": " << r.message();
  }
  return ::testing::AssertionSuccess();
}

std::string expectTraceMatches(const Program &f,
                               const std::vector<Tensor> &inputs,
                               const std::vector<std::vector<Tensor>> &more,
                               double tol) {
  jit::TraceOptions options;
  options.print_warnings = false;
  jit::TracedGraph traced = jit::trace(f, inputs, options);
  std::string text = traced.str();
  EXPECT_TRUE(traced.warnings().empty()) << traced.warnings()[0];
  jit::Interpreter fromText = jit::Interpreter::parse(text);
  std::string bytecode = tempPath("roundtrip.mlirbc");
  traced.save_bytecode(bytecode);
  jit::Interpreter fromBytecode = jit::Interpreter::load(bytecode);
  std::remove(bytecode.c_str());

  std::vector<std::vector<Tensor>> cases{inputs};
  cases.insert(cases.end(), more.begin(), more.end());
  for (size_t k = 0; k < cases.size(); ++k) {
    std::vector<Tensor> expected = f(cases[k]);
    EXPECT_TRUE(sameTensors(traced.run(cases[k]), expected, tol))
        << "input set " << k << ", IR:\n"
        << text;
    EXPECT_TRUE(sameTensors(fromText.run(cases[k]), expected, tol))
        << "input set " << k << " (from text)";
    EXPECT_TRUE(sameTensors(fromBytecode.run(cases[k]), expected, tol))
        << "input set " << k << " (from bytecode)";
  }
  return text;
}

Tensor randomTensor(std::vector<int64_t> shape, ScalarType dtype) {
  if (isFloatingType(dtype))
    return randn(shape).to(dtype);
  if (dtype == kBool)
    return randint(0, 2, shape).to(kBool);
  if (dtype == kByte)
    return randint(0, 10, shape).to(kByte);
  return randint(-5, 5, shape).to(dtype);
}

std::string errorOf(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const std::exception &e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception was thrown";
  return "";
}

std::string tempPath(const std::string &name) {
  static int counter = 0;
  const ::testing::TestInfo *info =
      ::testing::UnitTest::GetInstance()->current_test_info();
  std::string base =
      ::testing::TempDir() + "tcc_jit_" + std::to_string(::getpid()) + "_";
  if (info)
    base += std::string(info->test_suite_name()) + "_" + info->name() + "_";
  for (char &ch : base)
    if (ch == '/' && &ch > base.data() + ::testing::TempDir().size())
      ch = '_';
  return base + std::to_string(counter++) + "_" + name;
}

} // namespace jittest
} // namespace tcc
