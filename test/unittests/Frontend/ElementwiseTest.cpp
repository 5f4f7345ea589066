//===- ElementwiseTest.cpp - Arithmetic, comparisons, unary math ----------===//

#include "TestSupport.h"

#include <cmath>
#include <cstdint>

using namespace tcc;

namespace {

TEST(ArithmeticTest, HandComputedValues) {
  Tensor a = tensor({{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}});
  Tensor b = tensor({10.0, 20.0, 30.0});
  EXPECT_TENSOR(a + b, {2, 3}, {11, 22, 33, 14, 25, 36});
  EXPECT_TENSOR(a - b, {2, 3}, {-9, -18, -27, -6, -15, -24});
  EXPECT_TENSOR(a * b, {2, 3}, {10, 40, 90, 40, 100, 180});
  EXPECT_TENSOR(b / a, {2, 3}, {10, 10, 10, 2.5, 4, 5});
  EXPECT_TENSOR(add(a, b, 2), {2, 3}, {21, 42, 63, 24, 45, 66});
  EXPECT_TENSOR(sub(a, b, 0.5), {2, 3}, {-4, -8, -12, -1, -5, -9});
  EXPECT_TENSOR(a + 1, {2, 3}, {2, 3, 4, 5, 6, 7});
  EXPECT_TENSOR(1 - a, {2, 3}, {0, -1, -2, -3, -4, -5});
  EXPECT_TENSOR(2 * a, {2, 3}, {2, 4, 6, 8, 10, 12});
  EXPECT_TENSOR(6 / a, {2, 3}, {6, 3, 2, 1.5, 1.2, 1});
  EXPECT_TENSOR(-a[0], {3}, {-1, -2, -3});
}

TEST(ArithmeticTest, ComparisonsInPlaceKeepDtypeAndShape) {
  // libtorch's guess.eq_(target): 1/0 written into guess, still int64.
  Tensor guess = tensor({3, 1, 4, 1}, kLong);
  const Tensor &same = guess.eq_(tensor({3, 2, 4, 0}, kLong));
  EXPECT_TRUE(same.is_same(guess));
  EXPECT_EQ(guess.dtype(), kLong);
  EXPECT_TENSOR(guess, {4}, {1, 0, 1, 0});
  Tensor x = tensor({1.5, -2.0, 0.0});
  EXPECT_TENSOR(x.clone().ge_(0.0), {3}, {1, 0, 1});
  EXPECT_TENSOR(x.clone().lt_(tensor({2.0})), {3}, {1, 1, 1});
  EXPECT_TENSOR(x.clone().ne_(0.0), {3}, {1, 1, 0});
}

TEST(ArithmeticTest, Dtypes) {
  Tensor i = tensor({7, -7}, kInt);
  EXPECT_EQ((i + i).dtype(), kInt);
  EXPECT_TENSOR(i + i, {2}, {14, -14});
  EXPECT_EQ((i / 2).dtype(), kFloat); // true division
  EXPECT_TENSOR(i / 2, {2}, {3.5, -3.5});
  EXPECT_TENSOR(tensor({1, 2}, kByte) * tensor({200, 3}, kByte), {2}, {200, 6});
  Tensor h = tensor({1.5, 2.25}, kHalf);
  EXPECT_EQ((h * h).dtype(), kHalf);
  EXPECT_TENSOR(h * h, {2}, {2.25, 5.0625});
  Tensor bf = tensor({1.5, 2.0}, kBFloat16);
  EXPECT_TENSOR(bf + bf, {2}, {3, 4});
  EXPECT_TENSOR(tensor({true, false}) + tensor({true, true}), {2}, {1, 1});
  EXPECT_EQ((tensor({true}) * tensor({true})).dtype(), kBool);
  EXPECT_TENSOR(tensor({1.0, 2.0}, kDouble) * 3, {2}, {3, 6});
}

// Integer +, - and * wrap around, as libtorch's do (and tcc's compiled
// code and ScalarOps.h): signed overflow in C++ is undefined, which UBSan
// reports in scripts/test-sanitizers.sh.
TEST(ArithmeticTest, IntegerOverflowWraps) {
  Tensor a = tensor({2147483647, -2147483648.0, 1073741824}, kInt);
  Tensor b = tensor({1, 1, 2}, kInt);
  EXPECT_TENSOR(a + b, {3}, {-2147483648.0, -2147483647, 1073741826});
  EXPECT_TENSOR(a - b, {3}, {2147483646, 2147483647, 1073741822});
  EXPECT_TENSOR(a * b, {3}, {2147483647, -2147483648.0, -2147483648.0});
  // 1 + 2 * (2^31 - 1), 1 + 2 * -2^31 and 2 + 2 * 2^30, modulo 2^32.
  EXPECT_TENSOR(add(b, a, 2), {3}, {-1, 1, -2147483646});
  EXPECT_TENSOR(sub(b, a, 2), {3}, {3, 1, -2147483646});
  Tensor big = full({1}, INT64_MAX, kLong);
  EXPECT_EQ((big + 1).item<int64_t>(), INT64_MIN);
  EXPECT_EQ((big * 2).item<int64_t>(), -2);
  EXPECT_TENSOR(tensor({300}, kShort) * tensor({300}, kShort), {1}, {24464});
  EXPECT_TENSOR(tensor({100}, kChar) * tensor({2}, kChar), {1}, {-56});
  EXPECT_TENSOR(tensor({200}, kByte) + tensor({100}, kByte), {1}, {44});
}

TEST(ArithmeticTest, TypePromotion) {
  Tensor i32 = ones({2}, kInt), i64 = ones({2}, kLong), f = ones({2}, kFloat);
  Tensor d = ones({2}, kDouble), u8 = ones({2}, kByte), i8 = ones({2}, kChar);
  Tensor h = ones({2}, kHalf), bf = ones({2}, kBFloat16), b = ones({2}, kBool);
  EXPECT_EQ((i32 + i64).dtype(), kLong);
  EXPECT_EQ((i32 + f).dtype(), kFloat);
  EXPECT_EQ((f + d).dtype(), kDouble);
  EXPECT_EQ((u8 + i8).dtype(), kShort);
  EXPECT_EQ((h + bf).dtype(), kFloat);
  EXPECT_EQ((h + i64).dtype(), kHalf);
  EXPECT_EQ((b + u8).dtype(), kByte);
  // Wrapped numbers and 0-dim tensors do not widen within a category.
  EXPECT_EQ((i32 + 5).dtype(), kInt);
  EXPECT_EQ((i32 + 2.5).dtype(), kFloat);
  EXPECT_EQ((h + 2.5).dtype(), kHalf);
  EXPECT_EQ((f + tensor(2.5, kDouble)).dtype(), kFloat);
  EXPECT_EQ((i32 + tensor(5, kLong)).dtype(), kInt);
  EXPECT_EQ((i32 + tensor(2.5, kDouble)).dtype(), kDouble);
  EXPECT_EQ((b + 1).dtype(), kLong);
  EXPECT_EQ((u8 + 300).dtype(), kByte);
  EXPECT_EQ((tensor(1, kInt) + tensor(1.0, kDouble)).dtype(), kDouble);
}

TEST(ArithmeticTest, BroadcastingAndStrides) {
  Tensor col = arange(3, kFloat).view({3, 1});
  Tensor row = arange(4, kFloat).view({1, 4});
  EXPECT_TENSOR(col * 10 + row, {3, 4}, {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23});
  Tensor m = arange(6, kFloat).view({2, 3});
  Tensor t = m.t(); // non-contiguous
  EXPECT_TENSOR(t + t, {3, 2}, {0, 6, 2, 8, 4, 10});
  Tensor s = arange(10, kFloat).slice(0, 0, 10, 3); // stride 3
  EXPECT_TENSOR(s * s, {4}, {0, 9, 36, 81});
  Tensor e = tensor({1.0f}).expand({5});
  EXPECT_TENSOR(e + s.narrow(0, 0, 1), {5}, {1, 1, 1, 1, 1});
  EXPECT_TENSOR(zeros({0, 3}) + ones({3}), {0, 3}, {});
  EXPECT_ERROR_CONTAINS(ones({2, 3}) + ones({4}),
                        "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 1");
}

TEST(ArithmeticTest, LargeTensorsMatchScalarLoop) {
  // Large enough for the vectorized and chunked paths.
  manual_seed(7);
  Tensor a = randn({100003}), b = randn({100003});
  Tensor c = a * b + a;
  const float *pa = a.data_ptr<float>(), *pb = b.data_ptr<float>();
  const float *pc = c.data_ptr<float>();
  for (int i = 0; i < 100003; i += 997)
    EXPECT_FLOAT_EQ(pc[i], pa[i] * pb[i] + pa[i]);
}

TEST(InplaceTest, ModifyAndErrors) {
  Tensor x = tensor({1.0, 2.0, 3.0});
  x.add_(1).mul_(2);
  EXPECT_TENSOR(x, {3}, {4, 6, 8});
  x.sub_(tensor({1.0, 1.0, 1.0}), 2).div_(2);
  EXPECT_TENSOR(x, {3}, {1, 2, 3});
  x += 1;
  x -= 0.5;
  x *= 2;
  x /= 3;
  EXPECT_TENSOR(x, {3}, {1, 5.0 / 3, 7.0 / 3});
  x.zero_();
  EXPECT_TENSOR(x, {3}, {0, 0, 0});
  x.fill_(2.5);
  EXPECT_TENSOR(x, {3}, {2.5, 2.5, 2.5});
  x.copy_(tensor({1, 2, 3}, kInt));
  EXPECT_TENSOR(x, {3}, {1, 2, 3});
  x.copy_(tensor(9.0));
  EXPECT_TENSOR(x, {3}, {9, 9, 9});
  Tensor m = zeros({2, 2});
  m.copy_(tensor({1.0, 2.0}));
  EXPECT_TENSOR(m, {2, 2}, {1, 2, 1, 2});
  Tensor y = tensor({-1.0, 0.5, 2.0});
  y.clamp_(0, 1);
  EXPECT_TENSOR(y, {3}, {0, 0.5, 1});
  Tensor r = tensor({-1.0, 2.0});
  r.relu_();
  EXPECT_TENSOR(r, {2}, {0, 2});
  Tensor i = tensor({1, 2});
  EXPECT_EQ(tcc::test::errorOf([&] { i.add_(1.5); }),
            "result type Float can't be cast to the desired output type Long");
  EXPECT_ERROR_CONTAINS(zeros({3}).add_(ones({2, 3})),
                        "output with shape [3] doesn't match the broadcast shape [2, 3]");
  EXPECT_ERROR_CONTAINS(zeros({3}).copy_(ones({2})),
                        "The size of tensor a (3) must match the size of tensor b (2)");
  EXPECT_ERROR_CONTAINS(zeros({3}).copy_(ones({2, 3})), "can't be broadcast to the destination");
  Tensor v = arange(6, kFloat).view({2, 3});
  v[1].mul_(10);
  EXPECT_TENSOR(v, {2, 3}, {0, 1, 2, 30, 40, 50});
  uint32_t before = v._version();
  v.add_(1);
  EXPECT_EQ(v._version(), before + 1);
}

TEST(InplaceTest, OverlappingOperands) {
  Tensor m = arange(4, kFloat).view({2, 2});
  m.add_(m.t()); // output overlaps a differently-strided input
  EXPECT_TENSOR(m, {2, 2}, {0, 3, 3, 6});
  Tensor o = empty({0});
  add_out(o, ones({2}), ones({2}), 3);
  EXPECT_TENSOR(o, {2}, {4, 4});
  Tensor p = zeros({2}, kDouble);
  mul_out(p, tensor({1.5, 2.0}), tensor({2.0, 2.0}));
  EXPECT_TENSOR(p, {2}, {3, 4});
}

TEST(ArithmeticTest, AlphaAndBoolErrors) {
  EXPECT_ERROR_CONTAINS(add(ones({2}, kInt), ones({2}, kInt), 1.5),
                        "For integral input tensors, argument alpha must not be a floating point number.");
  EXPECT_ERROR_CONTAINS(tensor({true}) - tensor({true}),
                        "Subtraction, the `-` operator, with two bool tensors is not supported");
  EXPECT_ERROR_CONTAINS(-tensor({true}), "Negation, the `-` operator, on a bool tensor is not supported");
}

TEST(ComparisonTest, ResultsAreBool) {
  Tensor a = tensor({1.0, 2.0, 3.0}), b = tensor({3.0, 2.0, 1.0});
  EXPECT_EQ((a < b).dtype(), kBool);
  EXPECT_TENSOR(a == b, {3}, {0, 1, 0});
  EXPECT_TENSOR(a != b, {3}, {1, 0, 1});
  EXPECT_TENSOR(a < b, {3}, {1, 0, 0});
  EXPECT_TENSOR(a <= b, {3}, {1, 1, 0});
  EXPECT_TENSOR(a > b, {3}, {0, 0, 1});
  EXPECT_TENSOR(a >= 2, {3}, {0, 1, 1});
  EXPECT_TENSOR(tensor({1, 2}, kInt) == tensor({1.0, 2.5}), {2}, {1, 0});
  EXPECT_TENSOR(tensor({NAN}) == tensor({NAN}), {1}, {0});
  Tensor p = tensor({true, true, false}), q = tensor({true, false, false});
  EXPECT_TENSOR(logical_and(p, q), {3}, {1, 0, 0});
  EXPECT_TENSOR(logical_or(p, q), {3}, {1, 1, 0});
  EXPECT_TENSOR(logical_xor(p, q), {3}, {0, 1, 0});
  EXPECT_TENSOR(logical_not(p), {3}, {0, 0, 1});
  EXPECT_TENSOR(logical_and(tensor({2.0, 0.0}), tensor({1, 1})), {2}, {1, 0});
}

TEST(WhereTest, SelectsAndPromotes) {
  Tensor c = tensor({true, false, true});
  EXPECT_TENSOR(where(c, tensor({1.0, 2.0, 3.0}), tensor({-1.0, -2.0, -3.0})),
                {3}, {1, -2, 3});
  EXPECT_TENSOR(where(c, 1.5, tensor({0, 0, 0})), {3}, {1.5, 0, 1.5});
  EXPECT_EQ(where(c, tensor({1, 2, 3}, kInt), 0).dtype(), kInt);
  EXPECT_TENSOR(where(tensor({{true}, {false}}), ones({3}), zeros({3})), {2, 3},
                {1, 1, 1, 0, 0, 0});
  EXPECT_ERROR_CONTAINS(where(ones({2}), ones({2}), ones({2})),
                        "where expected condition to be a boolean tensor");
}

TEST(UnaryTest, HandComputedValues) {
  Tensor x = tensor({-2.0, -0.5, 0.0, 0.5, 2.0}, kDouble);
  EXPECT_TENSOR(x.abs(), {5}, {2, 0.5, 0, 0.5, 2});
  EXPECT_TENSOR(x.neg(), {5}, {2, 0.5, 0, -0.5, -2});
  EXPECT_TENSOR(x.exp(), {5}, {std::exp(-2.0), std::exp(-0.5), 1, std::exp(0.5), std::exp(2.0)}, 1e-12);
  EXPECT_TENSOR(x.sign(), {5}, {-1, -1, 0, 1, 1});
  EXPECT_TENSOR(x.relu(), {5}, {0, 0, 0, 0.5, 2});
  EXPECT_TENSOR(x.floor(), {5}, {-2, -1, 0, 0, 2});
  EXPECT_TENSOR(x.ceil(), {5}, {-2, -0.0, 0, 1, 2});
  EXPECT_TENSOR(tensor({0.5, 1.5, 2.5, -0.5}).round(), {4}, {0, 2, 2, -0});
  EXPECT_TENSOR(x.tanh(), {5}, {std::tanh(-2.0), std::tanh(-0.5), 0, std::tanh(0.5), std::tanh(2.0)}, 1e-12);
  EXPECT_TENSOR(x.sigmoid(), {5}, {1 / (1 + std::exp(2.0)), 1 / (1 + std::exp(0.5)), 0.5, 1 / (1 + std::exp(-0.5)), 1 / (1 + std::exp(-2.0))}, 1e-12);
  EXPECT_TENSOR(x.erf(), {5}, {std::erf(-2.0), std::erf(-0.5), 0, std::erf(0.5), std::erf(2.0)}, 1e-12);
  EXPECT_TENSOR(x.sin(), {5}, {std::sin(-2.0), std::sin(-0.5), 0, std::sin(0.5), std::sin(2.0)}, 1e-12);
  EXPECT_TENSOR(x.cos(), {5}, {std::cos(-2.0), std::cos(-0.5), 1, std::cos(0.5), std::cos(2.0)}, 1e-12);
  EXPECT_TENSOR(silu(x), {5}, {-2 / (1 + std::exp(2.0)), -0.5 / (1 + std::exp(0.5)), 0, 0.5 / (1 + std::exp(-0.5)), 2 / (1 + std::exp(-2.0))}, 1e-12);
  EXPECT_TENSOR(gelu(tensor({1.0}, kDouble)), {1}, {0.8413447460685429}, 1e-12);
  EXPECT_TENSOR(gelu(tensor({1.0}, kDouble), "tanh"), {1}, {0.8411919906082768}, 1e-12);
  Tensor p = tensor({0.25, 1.0, 4.0}, kDouble);
  EXPECT_TENSOR(p.sqrt(), {3}, {0.5, 1, 2});
  EXPECT_TENSOR(p.rsqrt(), {3}, {2, 1, 0.5});
  EXPECT_TENSOR(p.log(), {3}, {std::log(0.25), 0, std::log(4.0)}, 1e-12);
  EXPECT_TENSOR(p.log1p(), {3}, {std::log1p(0.25), std::log(2.0), std::log(5.0)}, 1e-12);
  EXPECT_TENSOR(p.reciprocal(), {3}, {4, 1, 0.25});
  EXPECT_TENSOR(p.pow(2), {3}, {0.0625, 1, 16});
  EXPECT_TENSOR(p.pow(-0.5), {3}, {2, 1, 0.5});
  EXPECT_TENSOR(pow(p, tensor({2.0, 3.0, 0.5}, kDouble)), {3}, {0.0625, 1, 2});
  EXPECT_TENSOR(pow(2, tensor({1.0, 3.0})), {2}, {2, 8});
  EXPECT_TENSOR(tensor({2, 3}).pow(3), {2}, {8, 27});
  EXPECT_ERROR_CONTAINS(tensor({2, 3}).pow(-1), "Integers to negative integer powers are not allowed.");
  EXPECT_ERROR_CONTAINS(gelu(x, "fast"), "approximate argument must be either none or tanh");
}

TEST(UnaryTest, IntegerInputsPromoteToFloat) {
  Tensor i = tensor({0, 1, 4});
  EXPECT_EQ(i.exp().dtype(), kFloat);
  EXPECT_TENSOR(i.sqrt(), {3}, {0, 1, 2});
  EXPECT_EQ(i.abs().dtype(), kLong);
  EXPECT_EQ(i.relu().dtype(), kLong);
  EXPECT_TENSOR(tensor({-3, 4}, kInt).abs(), {2}, {3, 4});
}

TEST(UnaryTest, ClampMaximumMinimum) {
  Tensor x = tensor({-2.0, 0.5, 3.0, NAN});
  EXPECT_TENSOR(x.clamp(-1, 1), {4}, {-1, 0.5, 1, NAN});
  EXPECT_TENSOR(x.clamp(0), {4}, {0, 0.5, 3, NAN});
  EXPECT_TENSOR(x.clamp(std::nullopt, 0), {4}, {-2, 0, 0, NAN});
  EXPECT_TENSOR(x.clamp_min(1), {4}, {1, 1, 3, NAN});
  EXPECT_EQ(tensor({1, 5}).clamp(0.5, 2.5).dtype(), kFloat);
  EXPECT_ERROR_CONTAINS(x.clamp(), "At least one of 'min' or 'max' must not be None");
  Tensor y = tensor({0.0, 1.0, 1.0, 1.0});
  EXPECT_TENSOR(maximum(x, y), {4}, {0, 1, 3, NAN});
  EXPECT_TENSOR(minimum(x, y), {4}, {-2, 0.5, 1, NAN});
  EXPECT_TENSOR(maximum(tensor({1, 5}), tensor({3, 2})), {2}, {3, 5});
}

TEST(UnaryTest, HalfPrecisionPaths) {
  Tensor h = tensor({-1.0, 0.0, 1.0}, kHalf);
  EXPECT_EQ(h.exp().dtype(), kHalf);
  EXPECT_TENSOR(h.exp(), {3}, {std::exp(-1.0), 1, std::exp(1.0)}, 1e-3);
  EXPECT_TENSOR(h.to(kBFloat16).sigmoid(), {3}, {0.26894, 0.5, 0.73106}, 1e-2);
}

} // namespace
