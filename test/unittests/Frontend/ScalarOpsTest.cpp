//===- ScalarOpsTest.cpp - Eager elementwise ops vs tcc/runtime/ScalarOps.h ===//
//
// The eager kernels compute each op through ScalarOps.h (with VecMath.h's
// float approximations for the elementary functions); this test holds them
// to the definition at the edges of the domain, where copies drift: NaN,
// +-inf, +-0, subnormals, the largest finite value. Exact ops must match bit
// for bit up to NaN payloads, the sign of zero included; approximate ones
// within VecMath.h's stated bounds. The compiled code's side of the same
// check is test/unittests/Codegen/ScalarOpsConformanceTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "../EdgeValues.h"
#include "TestSupport.h"

#include "tcc/runtime/ScalarOps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

namespace tcc {
namespace {

namespace ops = ::tcc::scalar;
using test::values;

/// A 1-D tensor of `dtype` holding `xs` (each exact in that dtype).
Tensor fromValues(const std::vector<double> &xs, ScalarType dtype) {
  Tensor t = empty({int64_t(xs.size())}, TensorOptions().dtype(kDouble));
  std::copy(xs.begin(), xs.end(), t.data_ptr<double>());
  return t.to(dtype);
}

template <class T> std::vector<double> edgeValues() {
  return tcc::test::edgeValues<T, double>();
}

struct Bound {
  double abs = 0, rel = 0; // exact (with the sign of zero) when both are 0
};

/// Whether `got` is `want` rounded to the dtype, within `bound`.
::testing::AssertionResult agrees(double got, double want, Bound bound) {
  bool ok;
  if (std::isnan(want))
    ok = std::isnan(got);
  else if (std::isinf(want) || std::isinf(got))
    ok = got == want;
  else if (bound.abs == 0 && bound.rel == 0)
    ok = got == want && std::signbit(got) == std::signbit(want);
  else
    ok = std::fabs(got - want) <= bound.abs + bound.rel * std::fabs(want);
  if (ok)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got " << got << ", want " << want;
}

template <class T> double roundTo(double x) { return double(T(x)); }

struct UnaryCase {
  const char *name;
  std::function<Tensor(const Tensor &)> eager;
  double (*ref)(double);
  Bound f32 = {}, f64 = {};
};

/// VecMath.h's f32 approximations: a few ulp, results below the smallest
/// normal flushed to zero; f64 uses libm, as the reference does.
const Bound kF32Approx = {0x1p-126, 5e-7}, kF64Libm = {0, 1e-15};

std::vector<UnaryCase> unaryCases() {
  return {
      {"neg", [](const Tensor &x) { return x.neg(); },
       [](double x) { return ops::neg(x); }},
      {"abs", [](const Tensor &x) { return x.abs(); },
       [](double x) { return ops::abs(x); }},
      {"relu", [](const Tensor &x) { return x.relu(); },
       [](double x) { return ops::relu(x); }},
      {"sign", [](const Tensor &x) { return x.sign(); },
       [](double x) { return ops::sign(x); }},
      {"floor", [](const Tensor &x) { return x.floor(); },
       [](double x) { return ops::floor(x); }},
      {"ceil", [](const Tensor &x) { return x.ceil(); },
       [](double x) { return ops::ceil(x); }},
      {"round", [](const Tensor &x) { return x.round(); },
       [](double x) { return ops::round(x); }},
      {"sqrt", [](const Tensor &x) { return x.sqrt(); },
       [](double x) { return ops::sqrt(x); }},
      {"clamp", [](const Tensor &x) { return x.clamp(-1.5, 2.5); },
       [](double x) { return ops::clamp<double>(x, -1.5, 2.5); }},
      // 1 / sqrt(x) rounds twice in f32 as in f64 arithmetic.
      {"rsqrt", [](const Tensor &x) { return x.rsqrt(); },
       [](double x) { return ops::rsqrt(x); }, {0, 1.2e-7}, {0, 2.3e-16}},
      {"exp", [](const Tensor &x) { return x.exp(); },
       [](double x) { return ops::exp(x); }, kF32Approx, kF64Libm},
      {"log", [](const Tensor &x) { return x.log(); },
       [](double x) { return ops::log(x); }, kF32Approx, kF64Libm},
      {"log1p", [](const Tensor &x) { return x.log1p(); },
       [](double x) { return ops::log1p(x); }, kF32Approx, kF64Libm},
      {"tanh", [](const Tensor &x) { return x.tanh(); },
       [](double x) { return ops::tanh(x); }, kF32Approx, kF64Libm},
      {"sigmoid", [](const Tensor &x) { return x.sigmoid(); },
       [](double x) { return ops::sigmoid(x); }, kF32Approx, kF64Libm},
      {"silu", [](const Tensor &x) { return silu(x); },
       [](double x) { return ops::silu(x); }, kF32Approx, kF64Libm},
      // A&S 7.1.26 beyond |x| = 1: absolute 3e-7.
      {"erf", [](const Tensor &x) { return x.erf(); },
       [](double x) { return ops::erf(x); }, {3e-7, 5e-7}, kF64Libm},
      {"gelu", [](const Tensor &x) { return gelu(x); },
       [](double x) { return ops::gelu(x); }, {5e-7, 5e-7}, kF64Libm},
      {"gelu_tanh", [](const Tensor &x) { return gelu(x, "tanh"); },
       [](double x) { return ops::geluTanh(x); }, {5e-7, 5e-7}, kF64Libm},
  };
}

template <class T> void checkUnary(ScalarType dtype) {
  std::vector<double> xs = edgeValues<T>();
  Tensor x = fromValues(xs, dtype);
  for (const UnaryCase &u : unaryCases()) {
    std::vector<double> got = values(u.eager(x));
    ASSERT_EQ(got.size(), xs.size()) << u.name;
    Bound bound = std::is_same<T, float>::value ? u.f32 : u.f64;
    for (size_t i = 0; i < xs.size(); ++i)
      EXPECT_TRUE(agrees(got[i], roundTo<T>(u.ref(xs[i])), bound))
          << u.name << "(" << xs[i] << ") in " << toString(dtype);
  }
}

TEST(ScalarOps, EagerUnaryOpsFollowTheDefinitionAtTheEdges) {
  checkUnary<float>(kFloat);
  checkUnary<double>(kDouble);
}

struct BinaryCase {
  const char *name;
  std::function<Tensor(const Tensor &, const Tensor &)> eager;
  double (*ref)(double, double);
};

std::vector<BinaryCase> binaryCases() {
  return {
      {"add", [](const Tensor &a, const Tensor &b) { return a + b; },
       [](double a, double b) { return ops::add(a, b); }},
      {"sub", [](const Tensor &a, const Tensor &b) { return a - b; },
       [](double a, double b) { return ops::sub(a, b); }},
      {"mul", [](const Tensor &a, const Tensor &b) { return a * b; },
       [](double a, double b) { return ops::mul(a, b); }},
      {"div", [](const Tensor &a, const Tensor &b) { return a / b; },
       [](double a, double b) { return ops::div(a, b); }},
      {"maximum", [](const Tensor &a, const Tensor &b) { return maximum(a, b); },
       [](double a, double b) { return ops::maximum(a, b); }},
      {"minimum", [](const Tensor &a, const Tensor &b) { return minimum(a, b); },
       [](double a, double b) { return ops::minimum(a, b); }},
      {"eq", [](const Tensor &a, const Tensor &b) { return eq(a, b); },
       [](double a, double b) { return double(ops::eq(a, b)); }},
      {"ne", [](const Tensor &a, const Tensor &b) { return ne(a, b); },
       [](double a, double b) { return double(ops::ne(a, b)); }},
      {"lt", [](const Tensor &a, const Tensor &b) { return lt(a, b); },
       [](double a, double b) { return double(ops::lt(a, b)); }},
      {"ge", [](const Tensor &a, const Tensor &b) { return ge(a, b); },
       [](double a, double b) { return double(ops::ge(a, b)); }},
  };
}

template <class T> void checkBinary(ScalarType dtype) {
  std::vector<double> xs = edgeValues<T>();
  int64_t n = int64_t(xs.size());
  // [n, 1] against [n]: every pair.
  Tensor a = fromValues(xs, dtype).reshape({n, 1});
  Tensor b = fromValues(xs, dtype);
  for (const BinaryCase &op : binaryCases()) {
    std::vector<double> got = values(op.eager(a, b));
    ASSERT_EQ(got.size(), size_t(n * n)) << op.name;
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j)
        EXPECT_TRUE(agrees(got[i * n + j],
                           roundTo<T>(op.ref(xs[i], xs[j])), {}))
            << op.name << "(" << xs[i] << ", " << xs[j] << ") in "
            << toString(dtype);
  }
}

TEST(ScalarOps, EagerBinaryOpsFollowTheDefinitionOnEveryPairOfEdges) {
  checkBinary<float>(kFloat);
  checkBinary<double>(kDouble);
}

} // namespace
} // namespace tcc
