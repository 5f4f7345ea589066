//===- VecMathTest.cpp - Accuracy of the vectorized float32 math ----------===//
//
// Measures the float32 kernels (vectorized approximations, Ops/VecMath.h)
// against float64 libm over dense ranges and checks the error bounds that
// VecMath.h states. Also run with TCC_ISA=avx2 and TCC_ISA=portable (see
// CMakeLists.txt) so each loop variant is checked.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;

namespace {

struct Err {
  double rel = 0, abs = 0;
};

Err measure(const Tensor &x, const Tensor &y, double (*ref)(double),
            double relFloor) {
  std::vector<double> xs = test::values(x), ys = test::values(y);
  Err e;
  for (size_t i = 0; i < xs.size(); ++i) {
    double want = ref(double(float(xs[i])));
    double got = ys[i];
    if (std::isinf(want) || std::isinf(got)) {
      EXPECT_EQ(want, got) << "at x = " << xs[i];
      continue;
    }
    double a = std::fabs(got - want);
    e.abs = std::max(e.abs, a);
    if (std::fabs(want) > relFloor)
      e.rel = std::max(e.rel, a / std::fabs(want));
  }
  return e;
}

double sigmoidRef(double x) { return 1 / (1 + std::exp(-x)); }

TEST(VecMathTest, StatedErrorBounds) {
  Tensor wide = linspace(-87.3, 88.7, 200001);
  Err e = measure(wide, wide.exp(), [](double v) { return std::exp(v); }, 0);
  EXPECT_LT(e.rel, 2.5e-7) << "exp";
  Tensor pos = exp(linspace(-100, 88, 200001, kDouble)).to(kFloat);
  e = measure(pos, pos.log(), [](double v) { return std::log(v); }, 1e-3);
  EXPECT_LT(e.rel, 2.5e-7) << "log";
  Tensor sub = tensor({1e-40f, 1e-45f, 1e-39f});
  e = measure(sub, sub.log(), [](double v) { return std::log(v); }, 0);
  EXPECT_LT(e.rel, 2.5e-7) << "log subnormal";
  Tensor lp = linspace(-0.99, 10, 200001);
  e = measure(lp, lp.log1p(), [](double v) { return std::log1p(v); }, 0);
  EXPECT_LT(e.rel, 5e-7) << "log1p";
  Tensor t = linspace(-10, 10, 200001);
  e = measure(t, t.tanh(), [](double v) { return std::tanh(v); }, 1e-3);
  EXPECT_LT(e.rel, 3e-7) << "tanh";
  EXPECT_LT(e.abs, 2e-7) << "tanh";
  Tensor s = linspace(-60, 30, 200001);
  e = measure(s, s.sigmoid(), sigmoidRef, 1e-30);
  EXPECT_LT(e.rel, 5e-7) << "sigmoid";
  Tensor r = linspace(-5, 5, 200001);
  e = measure(r, r.erf(), [](double v) { return std::erf(v); }, 0);
  EXPECT_LT(e.abs, 3e-7) << "erf";
}

TEST(VecMathTest, SpecialValues) {
  Tensor x = tensor({-INFINITY, -200.0f, 0.0f, 100.0f, INFINITY, NAN});
  EXPECT_TENSOR(x.exp(), {6}, {0, 0, 1, INFINITY, INFINITY, NAN});
  Tensor l = tensor({-1.0f, 0.0f, 1.0f, INFINITY, NAN});
  EXPECT_TENSOR(l.log(), {5}, {NAN, -INFINITY, 0, INFINITY, NAN});
  EXPECT_TENSOR(x.tanh(), {6}, {-1, -1, 0, 1, 1, NAN});
  EXPECT_TENSOR(x.sigmoid(), {6}, {0, 0, 0.5, 1, 1, NAN});
  EXPECT_TENSOR(x.erf(), {6}, {-1, -1, 0, 1, 1, NAN});
}

TEST(VecMathTest, ContiguousAndStridedPathsAgree) {
  manual_seed(11);
  Tensor x = randn({64, 129}) * 3;
  Tensor strided = x.t().contiguous().t(); // same values, transposed layout
  for (auto fn : {+[](const Tensor &t) { return t.exp(); },
                  +[](const Tensor &t) { return t.tanh(); },
                  +[](const Tensor &t) { return t.sigmoid(); },
                  +[](const Tensor &t) { return gelu(t); },
                  +[](const Tensor &t) { return t * t + t; }})
    EXPECT_TRUE(fn(x).equal(fn(strided)));
}

} // namespace
