//===- ReductionTest.cpp - Reductions, softmax ----------------------------===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;

namespace {

Tensor m23() { return tensor({{1.0, 5.0, 3.0}, {4.0, 2.0, 6.0}}); }

TEST(ReductionTest, SumMeanProd) {
  Tensor x = m23();
  EXPECT_TENSOR(x.sum(), {}, {21});
  EXPECT_TENSOR(x.sum({0}), {3}, {5, 7, 9});
  EXPECT_TENSOR(x.sum({1}, true), {2, 1}, {9, 12});
  EXPECT_TENSOR(x.sum({0, 1}), {}, {21});
  EXPECT_TENSOR(x.sum({-1}), {2}, {9, 12});
  EXPECT_TENSOR(x.t().sum({0}), {2}, {9, 12}); // non-contiguous input
  EXPECT_TENSOR(x.mean(), {}, {3.5});
  EXPECT_TENSOR(x.mean({0}), {3}, {2.5, 3.5, 4.5});
  EXPECT_TENSOR(x.prod(), {}, {720});
  EXPECT_TENSOR(x.prod(1), {2}, {15, 48});
  EXPECT_TENSOR(x.prod(0, true), {1, 3}, {4, 10, 18});
  Tensor i = tensor({{1, 2}, {3, 4}}, kInt);
  EXPECT_EQ(i.sum().dtype(), kLong);
  EXPECT_EQ(i.prod().dtype(), kLong);
  EXPECT_TENSOR(i.sum({1}), {2}, {3, 7});
  EXPECT_EQ(x.sum(kDouble).dtype(), kDouble);
  EXPECT_EQ(tensor({true, true, false}).sum().item<int64_t>(), 2);
  EXPECT_TENSOR(zeros({0}).sum(), {}, {0});
  EXPECT_TENSOR(zeros({0}).prod(), {}, {1});
  EXPECT_TRUE(std::isnan(zeros({0}).mean().item<float>()));
  Tensor d3 = arange(24, kFloat).view({2, 3, 4});
  EXPECT_TENSOR(d3.sum({0, 2}), {3}, {60, 92, 124});     // non-adjacent dims
  EXPECT_TENSOR(d3.sum({1}), {2, 4}, {12, 15, 18, 21, 48, 51, 54, 57});
  EXPECT_ERROR_CONTAINS(i.mean(), "mean(): could not infer output dtype");
  EXPECT_ERROR_CONTAINS(x.sum({2}), "Dimension out of range");
  EXPECT_ERROR_CONTAINS(x.sum({0, 0}), "dim 0 appears multiple times");
}

TEST(ReductionTest, LargeSumIsAccurate) {
  Tensor x = full({1 << 22}, 0.1f);
  EXPECT_NEAR(x.sum().item<double>(), double(0.1f) * (1 << 22), 0.1);
  Tensor y = full({3, 100000}, 0.5f);
  EXPECT_TENSOR(y.sum({0}).narrow(0, 0, 2), {2}, {1.5, 1.5});
  EXPECT_TENSOR(y.sum({1}), {3}, {50000, 50000, 50000});
}

TEST(ReductionTest, MaxMinArg) {
  Tensor x = m23();
  EXPECT_TENSOR(x.max(), {}, {6});
  EXPECT_TENSOR(x.min(), {}, {1});
  auto [v, i] = x.max(1);
  EXPECT_TENSOR(v, {2}, {5, 6});
  EXPECT_TENSOR(i, {2}, {1, 2});
  EXPECT_EQ(i.dtype(), kLong);
  auto [mv, mi] = x.min(0, true);
  EXPECT_TENSOR(mv, {1, 3}, {1, 2, 3});
  EXPECT_TENSOR(mi, {1, 3}, {0, 1, 0});
  EXPECT_TENSOR(x.argmax(), {}, {5});
  EXPECT_TENSOR(x.argmin(1), {2}, {0, 1});
  EXPECT_TENSOR(x.argmax(0, true), {1, 3}, {1, 0, 1});
  EXPECT_TENSOR(tensor({3, 1, 3}).argmax(), {}, {0}); // first of ties
  EXPECT_TENSOR(x.amax({0}), {3}, {4, 5, 6});
  EXPECT_TENSOR(x.amin({0, 1}), {}, {1});
  EXPECT_TENSOR(tensor({1.0, NAN, 3.0}).max(), {}, {NAN});
  EXPECT_TENSOR(tensor({2, 7, 1}, kInt).max(), {}, {7});
  EXPECT_ERROR_CONTAINS(zeros({0}).max(), "Expected reduction dim to be specified for input.numel() == 0");
}

TEST(ReductionTest, VarStdNorm) {
  Tensor x = tensor({1.0, 2.0, 3.0, 4.0});
  EXPECT_TENSOR(x.var(), {}, {5.0 / 3});
  EXPECT_TENSOR(x.var(false), {}, {1.25});
  EXPECT_TENSOR(x.std(), {}, {std::sqrt(5.0 / 3)});
  EXPECT_TENSOR(var(x, std::optional<IntArrayRef>(), 0), {}, {1.25});
  EXPECT_TENSOR(var(x, IntArrayRef{0}, std::optional<int64_t>(2)), {}, {2.5});
  Tensor m = m23();
  // A lone braced dim list binds to var(bool), as in libtorch: pass unbiased.
  EXPECT_TENSOR(m.var({1}, true), {2}, {4, 4});
  EXPECT_TENSOR(m.std({0}, false, true), {1, 3}, {1.5, 1.5, 1.5});
  // A plain integer is a dim, as in libtorch (not the unbiased flag).
  EXPECT_TENSOR(m.var(1), {2}, {4, 4});
  EXPECT_TENSOR(var(m, 1), {2}, {4, 4});
  EXPECT_TENSOR(m.std(int64_t(0), false, true), {1, 3}, {1.5, 1.5, 1.5});
  EXPECT_TENSOR(tcc::std(m, 0, false), {3}, {1.5, 1.5, 1.5});
  EXPECT_TENSOR(x.norm(), {}, {std::sqrt(30.0)});
  EXPECT_TENSOR(x.norm(1), {}, {10});
  EXPECT_TENSOR(x.norm(INFINITY), {}, {4});
  EXPECT_TENSOR(tensor({0.0, 2.0, 0.0}).norm(0), {}, {1});
  EXPECT_TENSOR(x.norm(3), {}, {std::cbrt(100.0)});
  EXPECT_TENSOR(m.norm(2, {1}), {2}, {std::sqrt(35.0), std::sqrt(56.0)});
  EXPECT_ERROR_CONTAINS(tensor({1, 2}).var(), "input dtype should be floating point");
}

TEST(ReductionTest, AllAnyLogsumexp) {
  Tensor b = tensor({{true, false}, {true, true}});
  EXPECT_TENSOR(b.all(), {}, {0});
  EXPECT_TENSOR(b.any(), {}, {1});
  EXPECT_TENSOR(b.all(1), {2}, {0, 1});
  EXPECT_TENSOR(b.any(0, true), {1, 2}, {1, 1});
  EXPECT_EQ(tensor({1.0, 2.0}).all().dtype(), kBool);
  EXPECT_TENSOR(tensor({0.5, 0.0}).any(), {}, {1});
  Tensor x = tensor({{1.0, 2.0}, {1000.0, 1000.0}}, kDouble);
  EXPECT_TENSOR(x.logsumexp({1}), {2},
                {std::log(std::exp(1.0) + std::exp(2.0)), 1000 + std::log(2.0)}, 1e-12);
  EXPECT_TENSOR(x.logsumexp({0, 1}, true), {1, 1}, {1000 + std::log(2.0)}, 1e-9);
}

TEST(SoftmaxTest, RowsSumToOne) {
  Tensor x = tensor({{1.0, 2.0, 3.0}, {1000.0, 1000.0, 1000.0}}, kDouble);
  double e1 = std::exp(1.0), e2 = std::exp(2.0), e3 = std::exp(3.0), s = e1 + e2 + e3;
  EXPECT_TENSOR(x.softmax(1), {2, 3}, {e1 / s, e2 / s, e3 / s, 1.0 / 3, 1.0 / 3, 1.0 / 3}, 1e-12);
  EXPECT_TENSOR(x.log_softmax(-1), {2, 3},
                {1 - std::log(s), 2 - std::log(s), 3 - std::log(s), -std::log(3.0), -std::log(3.0), -std::log(3.0)}, 1e-12);
  Tensor f = x.to(kFloat);
  EXPECT_TENSOR(f.softmax(0).sum({0}), {3}, {1, 1, 1}, 1e-6);
  EXPECT_TENSOR(f.t().softmax(0), {3, 2}, {e1 / s, 1.0 / 3, e2 / s, 1.0 / 3, e3 / s, 1.0 / 3}, 1e-6);
  EXPECT_EQ(tensor({1.0, 2.0}).softmax(0, kDouble).dtype(), kDouble);
  EXPECT_ERROR_CONTAINS(tensor({1, 2}).softmax(0), "expected a floating point tensor");
}

TEST(CompareTest, EqualAllclose) {
  EXPECT_TRUE(tensor({1.0, 2.0}).equal(tensor({1.0, 2.0})));
  EXPECT_FALSE(tensor({1.0, 2.0}).equal(tensor({1.0})));
  EXPECT_TRUE(tensor({1.0, 2.0}).allclose(tensor({1.0, 2.000001})));
  EXPECT_FALSE(tensor({1.0, 2.0}).allclose(tensor({1.0, 2.1})));
  EXPECT_TENSOR(isnan(tensor({1.0, NAN})), {2}, {0, 1});
}

} // namespace
