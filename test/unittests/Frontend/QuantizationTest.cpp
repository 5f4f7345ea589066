//===- QuantizationTest.cpp - quantize, dequantize, integer ops -----------===//
//
// Every expected value below is worked out by hand from the rules of
// docs/quantization.md (ties to even, saturation at both ends, zero points
// of both signs, per-channel parameters).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cmath>
#include <limits>

using namespace tcc;

namespace {

const double kInf = std::numeric_limits<double>::infinity();
const double kNan = std::numeric_limits<double>::quiet_NaN();

TEST(Quantize, TiesRoundToEven) {
  // x / 0.5 = 0.5, 1.5, 2.5, -0.5, -1.5, 2 -> 0, 2, 2, 0, -2, 2; + 10.
  Tensor x = tensor({0.25, 0.75, 1.25, -0.25, -0.75, 1.0}, kFloat);
  Tensor q = quantize(x, tensor(0.5, kFloat), tensor(10, kByte));
  EXPECT_TENSOR(q, {6}, {10, 12, 12, 10, 8, 12});
  EXPECT_EQ(q.dtype(), kByte);
}

TEST(Quantize, SaturatesAtBothEndsAndNanIsTheZeroPoint) {
  // uint8, zero point 3: -5 + 3 -> 0; 252.5 -> 252 (even) + 3 = 255;
  // 300 + 3 -> 255; -inf -> 0; inf -> 255; NaN -> 3.
  Tensor x = tensor({-5.0, 252.5, 300.0, -kInf, kInf, kNan}, kFloat);
  EXPECT_TENSOR(quantize(x, tensor(1.0, kFloat), tensor(3, kByte)), {6},
                {0, 255, 255, 0, 255, 3});
}

TEST(Quantize, NegativeZeroPointInt8) {
  // x / 2 = -150, 2.5, -2.5, 1.5, 130 -> -150, 2, -2, 2, 130; - 3, then
  // saturated to [-128, 127].
  Tensor x = tensor({-300.0, 5.0, -5.0, 3.0, 260.0}, kFloat);
  Tensor q = quantize(x, tensor(2.0, kFloat), tensor(-3, kChar));
  EXPECT_TENSOR(q, {5}, {-128, -1, -5, -1, 127});
  EXPECT_EQ(q.dtype(), kChar);
}

TEST(Quantize, Int32ForBiases) {
  // 1e9 / 0.25 = 4e9 saturates to 2^31 - 1; -1.375 / 0.25 = -5.5 -> -6.
  Tensor x = tensor({1e9, -1.375}, kDouble);
  EXPECT_TENSOR(quantize(x, tensor(0.25, kDouble), tensor(0, kInt)), {2},
                {2147483647.0, -6});
}

TEST(Quantize, PerChannel) {
  // Rows (axis 0): scale 1, zp 0 -> 2, 2, -1 (2.5 ties to 2); scale 0.5,
  // zp -1 -> 3 - 1, 5 - 1, -2 - 1.
  Tensor x = tensor({{1.5, 2.5, -1.0}, {1.5, 2.5, -1.0}}, kFloat);
  Tensor rows = quantize(x, tensor({1.0, 0.5}, kFloat), tensor({0, -1}, kChar),
                         /*axis=*/0);
  EXPECT_TENSOR(rows, {2, 3}, {2, 2, -1, 2, 4, -3});
  // Columns (axis -1): scales 1, 2, 4 and zero points 0, 1, 5:
  // 1.5 -> 2; 1.25 -> 1, + 1; -0.25 -> -0, + 5.
  Tensor cols = quantize(x, tensor({1.0, 2.0, 4.0}, kFloat),
                         tensor({0, 1, 5}, kByte), /*axis=*/-1);
  EXPECT_TENSOR(cols, {2, 3}, {2, 2, 5, 2, 2, 5});
}

TEST(Dequantize, PerTensorAndPerChannel) {
  EXPECT_TENSOR(dequantize(tensor({0, 10, 255}, kByte), tensor(0.5, kFloat),
                           tensor(10, kByte)),
                {3}, {-5, 0, 122.5});
  // Columns: (q + 1) * 0.5 and (q - 2) * 2.
  Tensor q = tensor({{-128, 127}, {0, 1}}, kChar);
  EXPECT_TENSOR(dequantize(q, tensor({0.5, 2.0}, kFloat),
                           tensor({-1, 2}, kChar), /*axis=*/1),
                {2, 2}, {-63.5, 250, 0.5, -2});
}

TEST(Dequantize, Int32DifferenceIsExactThenRounded) {
  // 2147483647 - (-1) = 2^31 exactly; as float that is 2147483648.
  Tensor y = dequantize(tensor({2147483647}, kInt), tensor(1.0, kFloat),
                        tensor(-1, kInt));
  EXPECT_TENSOR(y, {1}, {2147483648.0}, 0);
  EXPECT_EQ(y.dtype(), kFloat);
}

TEST(Requantize, TiesSaturationAndTheF32Product) {
  // acc * 0.5 = 0.5, 1.5, 2.5, -0.5, -1.5, 300 -> 0, 2, 2, 0, -2; + 128,
  // and 300 + 128 saturates to 255.
  Tensor acc = tensor({1, 3, 5, -1, -3, 600}, kInt);
  EXPECT_TENSOR(requantize(acc, tensor(0.5, kFloat), tensor(128, kByte)), {6},
                {128, 130, 130, 128, 126, 255});
  // float(0.1) is slightly above 0.1: 5 * 0.1f = 0.50000000745 exactly,
  // which rounds to the f32 0.5 (half an ulp there is 3e-8), a tie that
  // goes to 0; -25 * 0.1f = -2.50000004 rounds to -2.5, then to -2. The
  // product is in f32, as the int8 kernels compute it; an f64 multiplier
  // keeps the exact product (1 and -3).
  Tensor acc2 = tensor({5, -25}, kInt);
  EXPECT_TENSOR(requantize(acc2, tensor(0.1f, kFloat), tensor(0, kChar)), {2},
                {0, -2});
  EXPECT_TENSOR(
      requantize(acc2, tensor(double(0.1f), kDouble), tensor(0, kChar)), {2},
      {1, -3});
}

TEST(Requantize, PerChannel) {
  // [2, 2] along axis 0: row 0 * 1 + 0, row 1 * 0.25 - 128 (saturates).
  Tensor acc = tensor({{7, -7}, {-4, 1000}}, kInt);
  EXPECT_TENSOR(requantize(acc, tensor({1.0, 0.25}, kFloat),
                           tensor({0, -128}, kChar), /*axis=*/0),
                {2, 2}, {7, -7, -128, 122});
}

TEST(MatmulInteger, ZeroPointsPerTensorRowAndColumn) {
  // a - 1 = [[0, 1, 2], [3, 4, 5]]; b - [1, -2] per column =
  // [[-2, 4], [2, -2], [4, 8]].
  Tensor a = tensor({{1, 2, 3}, {4, 5, 6}}, kByte);
  Tensor b = tensor({{-1, 2}, {3, -4}, {5, 6}}, kChar);
  Tensor bzp = tensor({1, -2}, kChar);
  Tensor c = matmul_integer(a, b, tensor(1, kByte), bzp);
  EXPECT_TENSOR(c, {2, 2}, {10, 14, 22, 44});
  EXPECT_EQ(c.dtype(), kInt);
  // Per row: a - [1, 4] makes both rows [0, 1, 2].
  EXPECT_TENSOR(matmul_integer(a, b, tensor({1, 4}, kByte), bzp), {2, 2},
                {10, 14, 10, 14});
}

TEST(MatmulInteger, BatchBroadcast) {
  Tensor a = tensor({{{1, 2}}, {{3, 4}}}, kChar); // [2, 1, 2]
  Tensor b = tensor({{1}, {1}}, kChar);           // [2, 1]
  EXPECT_TENSOR(matmul_integer(a, b, tensor(0, kChar), tensor(0, kChar)),
                {2, 1, 1}, {3, 7});
}

TEST(MatmulInteger, WorstCaseWrapsInInt32) {
  // 70000 products of 255 * 127 = 2266950000, beyond 2^31 - 1: the sum
  // wraps to 2266950000 - 2^32.
  Tensor a = full({1, 70000}, 255, kByte);
  Tensor b = full({70000, 1}, 127, kChar);
  EXPECT_TENSOR(matmul_integer(a, b, tensor(0, kByte), tensor(0, kChar)),
                {1, 1}, {2266950000.0 - 4294967296.0}, 0);
  // 255 x -128 over 1000: -32640000 fits.
  Tensor b2 = full({1000, 1}, -128, kChar);
  EXPECT_TENSOR(matmul_integer(full({1, 1000}, 255, kByte), b2,
                               tensor(0, kByte), tensor(0, kChar)),
                {1, 1}, {-32640000.0}, 0);
}

TEST(Conv2dInteger, PaddingReadsTheZeroPoint) {
  // x - 1 = [[0, 1, 2], [3, 4, 5], [6, 7, 8]] padded by 1 (with x's zero
  // point: difference 0), weight [[1, 0], [0, -1]]:
  // out[y][x] = d[y - 1][x - 1] - d[y][x].
  Tensor x = tensor({{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}}}, kByte);
  Tensor w = tensor({{{{1, 0}, {0, -1}}}}, kChar);
  Tensor y = conv2d_integer(x, w, tensor(1, kByte), tensor(0, kChar),
                            /*stride=*/1, /*padding=*/1);
  EXPECT_TENSOR(y, {1, 1, 4, 4},
                {0, -1, -2, 0, -3, -4, -4, 2, -6, -4, -4, 5, 0, 6, 7, 8});
  EXPECT_EQ(y.dtype(), kInt);
}

TEST(Conv2dInteger, DepthwiseWithPerChannelWeightZeroPoints) {
  // Channel 0 times 2 - 0, channel 1 times 3 - 1.
  Tensor x = tensor({{{{1, 2}, {3, 4}}, {{5, 6}, {7, 8}}}}, kChar);
  Tensor w = tensor({{{{2}}}, {{{3}}}}, kChar);
  Tensor y = conv2d_integer(x, w, tensor(0, kChar), tensor({0, 1}, kChar), 1, 0,
                            1, /*groups=*/2);
  EXPECT_TENSOR(y, {1, 2, 2, 2}, {2, 4, 6, 8, 10, 12, 14, 16});
}

TEST(Conv2dInteger, StrideAndDilation) {
  // 1x1x4x4 of 0..15 (zero point 0), a 2x2 kernel of ones dilated by 2,
  // stride 2 at most once: out = x[0][0] + x[0][2] + x[2][0] + x[2][2].
  std::vector<int64_t> v(16);
  for (int i = 0; i < 16; ++i)
    v[size_t(i)] = i;
  Tensor x = tensor(v, kLong).to(kByte).reshape({1, 1, 4, 4});
  Tensor w = full({1, 1, 2, 2}, 1, kChar);
  EXPECT_TENSOR(
      conv2d_integer(x, w, tensor(0, kByte), tensor(0, kChar), 2, 0, 2),
      {1, 1, 1, 1}, {0 + 2 + 8 + 10});
}

TEST(Quantization, BadInputIsRefused) {
  Tensor x = tensor({1.0, 2.0}, kFloat);
  EXPECT_NE(test::errorOf([&] {
              quantize(x, tensor(1.0, kDouble), tensor(0, kByte));
            }).find("scale must have the input's dtype"),
            std::string::npos);
  EXPECT_NE(test::errorOf([&] {
              quantize(x, tensor({1.0, 1.0, 1.0}, kFloat),
                       tensor({0, 0, 0}, kByte), 0);
            }).find("has 3 values but dim 0"),
            std::string::npos);
  EXPECT_NE(test::errorOf([&] {
              quantize(x, tensor(1.0, kFloat), tensor(0.0, kFloat));
            }).find("zero_point must be uint8, int8 or int32"),
            std::string::npos);
  EXPECT_NE(test::errorOf([&] {
              dequantize(tensor({1}, kByte), tensor(1.0, kFloat),
                         tensor(0, kChar));
            }).find("zero_point must have the input's dtype"),
            std::string::npos);
  EXPECT_NE(test::errorOf([&] {
              matmul_integer(tensor({{1.0}}, kFloat), tensor({{1}}, kChar),
                             tensor(0, kChar), tensor(0, kChar));
            }).find("a must be uint8 or int8"),
            std::string::npos);
  EXPECT_NE(test::errorOf([&] {
              matmul_integer(tensor({{1, 2}}, kChar), tensor({{1}, {2}}, kChar),
                             tensor({0, 0}, kChar), tensor(0, kChar));
            }).find("a_zero_point must be [] or [1]"),
            std::string::npos);
  EXPECT_NE(test::errorOf([&] {
              requantize(tensor({1}, kLong), tensor(1.0, kFloat),
                         tensor(0, kByte));
            }).find("input must be int32"),
            std::string::npos);
}

} // namespace
