//===- QQuantizeTest.cpp - int8 quantize, dequantize, epilogue values -----===//
//
// Hand-computed ties and saturation, then random values against the
// definitions written plainly (QuantReference.h for the epilogue).
//
//===----------------------------------------------------------------------===//

#include "QuantReference.h"
#include "tcc/runtime/ScalarOps.h"
#include "tcc/runtime/kernels_int8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace tcc_test;

namespace {

TEST(QQuantize, RoundsHalfToEvenAndSaturates) {
  const float inf = std::numeric_limits<float>::infinity();
  const std::vector<float> x = {0.25f, 0.75f, 1.25f, -0.25f, -0.75f, 200.0f,
                                -200.0f, NAN, inf, -inf, 1.0f};
  std::vector<uint8_t> u8(x.size());
  ASSERT_EQ(tcc_int8_quantize(x.data(), int64_t(x.size()), 0.5f, 10,
                              TCC_QOUTPUT_U8, u8.data()),
            TCC_KERNEL_OK);
  // x / 0.5 = 0.5, 1.5, 2.5, -0.5, -1.5, 400, -400, NaN, inf, -inf, 2.
  EXPECT_EQ(u8, (std::vector<uint8_t>{10, 12, 12, 10, 8, 255, 0, 10, 255, 0,
                                      12}));
  std::vector<int8_t> s8(4);
  const std::vector<float> xs = {-0.5f, 126.5f, 300.0f, -2.5f};
  ASSERT_EQ(tcc_int8_quantize(xs.data(), 4, 1.0f, -128, TCC_QOUTPUT_S8,
                              s8.data()),
            TCC_KERNEL_OK);
  EXPECT_EQ(s8, (std::vector<int8_t>{-128, -2, 127, -128}));
}

TEST(QQuantize, MatchesTheDefinitionOnRandomValues) {
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> dist(-300.0f, 300.0f);
  std::vector<float> x(4096);
  for (size_t i = 0; i < x.size(); ++i) // half of them exact ties
    x[i] = i % 2 ? dist(gen) : float(int(dist(gen))) + 0.5f;
  for (float scale : {1.0f, 0.37f, 2.0f}) {
    for (int output : {int(TCC_QOUTPUT_U8), int(TCC_QOUTPUT_S8)}) {
      const int32_t zp = output == TCC_QOUTPUT_U8 ? 77 : -9;
      std::vector<uint8_t> y(x.size());
      ASSERT_EQ(tcc_int8_quantize(x.data(), int64_t(x.size()), scale, zp,
                                  output, y.data()),
                TCC_KERNEL_OK);
      for (size_t i = 0; i < x.size(); ++i) {
        const double q = std::nearbyint(double(x[i] / scale)) + zp;
        const int32_t want = int32_t(
            std::min<double>(std::max<double>(q, qmin_of(output)),
                             qmax_of(output)));
        const int32_t got =
            output == TCC_QOUTPUT_U8 ? int32_t(y[i]) : int32_t(int8_t(y[i]));
        ASSERT_EQ(got, want) << x[i] << " / " << scale;
      }
    }
  }
}

TEST(QQuantize, Dequantizes) {
  const std::vector<uint8_t> u8 = {0, 10, 255};
  std::vector<float> y(3);
  ASSERT_EQ(tcc_int8_dequantize(u8.data(), 3, TCC_QOUTPUT_U8, 0.5f, 10,
                                y.data()),
            TCC_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{-5.0f, 0.0f, 122.5f}));
  const std::vector<int8_t> s8 = {-128, 0, 127};
  ASSERT_EQ(tcc_int8_dequantize(s8.data(), 3, TCC_QOUTPUT_S8, 0.25f, -1,
                                y.data()),
            TCC_KERNEL_OK);
  EXPECT_EQ(y, (std::vector<float>{-31.75f, 0.25f, 32.0f}));
}

TEST(QQuantize, EpilogueValueIsTheKernels) {
  std::mt19937 gen(5);
  std::uniform_int_distribution<int32_t> acc_dist(-3000000, 3000000);
  std::uniform_int_distribution<int> byte(0, 255);
  std::vector<float> scales = {1e-4f, 3.3e-5f, 0.5f};
  for (int output : {int(TCC_QOUTPUT_U8), int(TCC_QOUTPUT_S8)}) {
    for (bool residual : {false, true}) {
      tcc_qepilogue e{};
      e.output = output;
      e.scale = scales.data();
      e.scale_per_column = 1;
      e.output_zero_point = output == TCC_QOUTPUT_U8 ? 100 : -3;
      e.relu = residual;
      uint8_t dummy = 0;
      e.residual = residual ? &dummy : nullptr;
      e.residual_zero_point = output == TCC_QOUTPUT_U8 ? 128 : 0;
      e.residual_scale = 0.3f;
      for (int i = 0; i < 3000; ++i) {
        const int64_t column = i % 3;
        // Exact ties too: acc * 0.5 for odd acc.
        const int32_t acc = column == 2 ? acc_dist(gen) % 600 : acc_dist(gen);
        const int32_t r = output == TCC_QOUTPUT_U8 ? byte(gen) : byte(gen) - 128;
        EXPECT_EQ(tcc_int8_epilogue_value(&e, column, acc, r),
                  reference_epilogue(&e, column, acc, r).i)
            << acc << " column " << column;
      }
    }
  }
  EXPECT_EQ(tcc_int8_epilogue_value(nullptr, 0, 1234, 0), 1234);
}

// tcc.requantize's rule (ScalarOps.h, what the interpreter computes) is the
// kernels' epilogue without a residual: compiled int8 models rely on it.
TEST(QQuantize, EpilogueValueIsTheRequantizeRule) {
  std::mt19937 gen(9);
  std::uniform_int_distribution<int32_t> acc_dist(
      std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  std::uniform_real_distribution<float> scale_dist(1e-6f, 2e-2f);
  for (int output : {int(TCC_QOUTPUT_U8), int(TCC_QOUTPUT_S8)}) {
    const bool u8 = output == TCC_QOUTPUT_U8;
    const tcc::scalar::QuantRange range = tcc::scalar::quantRange(8, u8);
    for (bool relu : {false, true}) {
      for (int i = 0; i < 20000; ++i) {
        // 0.1f, 0.5f and 0.25f give products at or within an f32 ulp of a
        // tie (5 * 0.1f); the others random ones.
        float scale = i % 4 == 0   ? 0.1f
                      : i % 4 == 1 ? 0.5f * (1 + (i % 8 == 1))
                                   : scale_dist(gen);
        tcc_qepilogue e{};
        e.output = output;
        e.scale = &scale;
        e.output_zero_point = u8 ? int32_t(i % 256) : int32_t(i % 256) - 128;
        e.relu = relu;
        const int32_t acc = i % 3 == 0 ? acc_dist(gen) : small(gen);
        int64_t want =
            tcc::scalar::requantize(acc, scale, e.output_zero_point, range);
        if (relu)
          want = std::max<int64_t>(want, e.output_zero_point);
        ASSERT_EQ(tcc_int8_epilogue_value(&e, 0, acc, 0), want)
            << acc << " * " << scale << " + " << e.output_zero_point;
      }
    }
  }
}

// The QDQ residual add (residual_qdq) is tcc.requantize, tcc.dequantize of
// both operands, tcc.add and tcc.quantize by ScalarOps.h's rules, as the
// interpreter runs that chain: compiled ResNet blocks rely on it.
TEST(QQuantize, EpilogueValueIsTheQdqAddRule) {
  std::mt19937 gen(11);
  std::uniform_int_distribution<int32_t> small(-70000, 70000);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_real_distribution<float> scale_dist(1e-3f, 2e-1f);
  for (int output : {int(TCC_QOUTPUT_U8), int(TCC_QOUTPUT_S8)}) {
    const bool u8 = output == TCC_QOUTPUT_U8;
    const tcc::scalar::QuantRange range = tcc::scalar::quantRange(8, u8);
    for (bool relu : {false, true}) {
      for (int i = 0; i < 20000; ++i) {
        float multiplier = i % 3 == 0 ? 0.5f : scale_dist(gen) * 1e-2f;
        tcc_qepilogue e{};
        e.output = output;
        e.scale = &multiplier;
        e.output_zero_point = u8 ? byte(gen) : byte(gen) - 128;
        e.relu = relu;
        uint8_t dummy = 0;
        e.residual = &dummy;
        e.residual_zero_point = u8 ? byte(gen) : byte(gen) - 128;
        e.residual_scale = i % 5 == 0 ? 0.25f : scale_dist(gen);
        e.residual_qdq = 1;
        e.product_zero_point = u8 ? byte(gen) : byte(gen) - 128;
        e.product_scale = i % 7 == 0 ? 0.5f : scale_dist(gen);
        e.output_scale = i % 5 == 0 ? 0.5f : scale_dist(gen);
        const int32_t acc = small(gen);
        const int32_t r = u8 ? byte(gen) : byte(gen) - 128;
        namespace scalar = tcc::scalar;
        const int64_t p = scalar::requantize(acc, multiplier,
                                             e.product_zero_point, range);
        // volatile: two ops, as the interpreter runs them, never one fma.
        const volatile float pd = scalar::dequantize<float>(
            p, e.product_zero_point, e.product_scale);
        const volatile float rd = scalar::dequantize<float>(
            r, e.residual_zero_point, e.residual_scale);
        const float sum = pd + rd;
        int64_t want = scalar::quantize<float>(sum, e.output_scale,
                                               e.output_zero_point, range);
        if (relu)
          want = std::max<int64_t>(want, e.output_zero_point);
        ASSERT_EQ(tcc_int8_epilogue_value(&e, 0, acc, r), want)
            << acc << " * " << multiplier << ", residual " << r;
      }
    }
  }
}

TEST(QQuantize, RejectsBadArguments) {
  float x = 1.0f;
  uint8_t y = 0;
  EXPECT_EQ(tcc_int8_quantize(&x, 1, 0.0f, 0, TCC_QOUTPUT_U8, &y),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("scale (0)"),
            std::string::npos);
  EXPECT_EQ(tcc_int8_quantize(&x, 1, 1.0f, 128, TCC_QOUTPUT_S8, &y),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("zero_point (128)"),
            std::string::npos);
  EXPECT_EQ(tcc_int8_quantize(&x, 1, 1.0f, 0, TCC_QOUTPUT_INT32, &y),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_int8_quantize(&x, -1, 1.0f, 0, TCC_QOUTPUT_U8, &y),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_int8_dequantize(nullptr, 1, TCC_QOUTPUT_U8, 1.0f, 0, &x),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("x is NULL"),
            std::string::npos);
}

} // namespace
