//===- QDepthwiseTest.cpp - tcc_qdepthwise_conv2d against an int reference ===//
//
// NHWC depthwise convolutions of several filter sizes, strides, paddings
// and dilations, bit for bit against a direct int64 loop and
// QuantReference.h's epilogue. The kernel uses the active int8 variant's
// epilogue, so ctest's runs per TCC_ISA cover the lower variants.
//
//===----------------------------------------------------------------------===//

#include "KernelReference.h"
#include "QuantReference.h"
#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/kernels_int8.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace tcc_test;

namespace {

struct DwCase {
  int64_t batch, channels, h, w, kh, kw, stride, pad, dilation;
  int output = TCC_QOUTPUT_U8;
  bool input_signed = false, relu = false, residual = false, bias = true;
  bool per_channel = true;
  int32_t zx = 0, zo = 0, zr = 0;

  int64_t out_h() const { return (h + 2 * pad - dilation * (kh - 1) - 1) / stride + 1; }
  int64_t out_w() const { return (w + 2 * pad - dilation * (kw - 1) - 1) / stride + 1; }
  std::string name() const {
    return "N" + std::to_string(batch) + " C" + std::to_string(channels) +
           " " + std::to_string(h) + "x" + std::to_string(w) + " k" +
           std::to_string(kh) + "x" + std::to_string(kw) + " s" +
           std::to_string(stride) + " p" + std::to_string(pad) + " d" +
           std::to_string(dilation) + " out " + std::to_string(output);
  }
};

size_t out_size(int output) {
  return output == TCC_QOUTPUT_INT32 || output == TCC_QOUTPUT_F32 ? 4 : 1;
}

void check_depthwise(const DwCase &cs, const tcc_parallel *parallel = nullptr,
                     unsigned seed = 1) {
  const int64_t C = cs.channels, oh = cs.out_h(), ow = cs.out_w();
  const int64_t outputs = cs.batch * oh * ow * C;
  std::vector<uint8_t> input =
      random_u8(size_t(cs.batch * cs.h * cs.w * C), seed);
  std::vector<int8_t> weight = random_s8(size_t(cs.kh * cs.kw * C), seed + 1);
  std::vector<uint8_t> residual = random_u8(size_t(outputs), seed + 2);
  std::vector<int32_t> bias(static_cast<size_t>(C));
  std::vector<float> scale(static_cast<size_t>(C));
  std::mt19937 gen(seed + 3);
  for (int64_t c = 0; c < C; ++c) {
    bias[size_t(c)] = int32_t(gen() % 20001) - 10000;
    scale[size_t(c)] =
        cs.output == TCC_QOUTPUT_F32
            ? 1e-3f
            : float(0.5 + double(gen() % 1000) / 1000.0) * 30.0f /
                  float(cs.kh * cs.kw * 80 * 70);
  }
  tcc_qepilogue e{};
  e.output = cs.output;
  e.bias = cs.bias ? bias.data() : nullptr;
  e.scale = scale.data();
  e.scale_per_column = cs.per_channel;
  e.output_zero_point = cs.zo;
  e.relu = cs.relu;
  e.residual = cs.residual ? residual.data() : nullptr;
  e.residual_zero_point = cs.zr;
  e.residual_scale = 0.5f;

  std::vector<uint8_t> out(size_t(outputs) * out_size(cs.output), 0xA5);
  tcc_qdepthwise_args args{};
  args.batch = cs.batch;
  args.channels = C;
  args.in_height = cs.h;
  args.in_width = cs.w;
  args.kernel_height = cs.kh;
  args.kernel_width = cs.kw;
  args.stride_h = args.stride_w = cs.stride;
  args.pad_h = args.pad_w = cs.pad;
  args.dilation_h = args.dilation_w = cs.dilation;
  args.input = input.data();
  args.input_signed = cs.input_signed;
  args.input_zero_point = cs.zx;
  args.weight = weight.data();
  args.output = out.data();
  args.epilogue = &e;
  ASSERT_EQ(tcc_qdepthwise_conv2d(&args, parallel), TCC_KERNEL_OK)
      << cs.name() << ": " << tcc_kernels_last_error();

  int64_t bad = 0;
  for (int64_t b = 0; b < cs.batch; ++b)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox)
        for (int64_t c = 0; c < C; ++c) {
          int64_t sum = cs.bias ? bias[size_t(c)] : 0;
          for (int64_t ky = 0; ky < cs.kh; ++ky)
            for (int64_t kx = 0; kx < cs.kw; ++kx) {
              int64_t iy = oy * cs.stride - cs.pad + ky * cs.dilation;
              int64_t ix = ox * cs.stride - cs.pad + kx * cs.dilation;
              if (iy < 0 || iy >= cs.h || ix < 0 || ix >= cs.w)
                continue;
              uint8_t byte = input[size_t(((b * cs.h + iy) * cs.w + ix) * C + c)];
              int32_t x = cs.input_signed ? int32_t(int8_t(byte)) : byte;
              sum += int64_t(x - cs.zx) * weight[size_t((ky * cs.kw + kx) * C + c)];
            }
          const int64_t o = ((b * oh + oy) * ow + ox) * C + c;
          const int32_t r = cs.output == TCC_QOUTPUT_S8
                                ? int32_t(int8_t(residual[size_t(o)]))
                                : int32_t(residual[size_t(o)]);
          QValue want = reference_epilogue(&e, c, wrap32(sum), r);
          const uint8_t *got = &out[size_t(o) * out_size(cs.output)];
          bool same;
          if (cs.output == TCC_QOUTPUT_F32) {
            same = std::memcmp(got, &want.f, 4) == 0;
          } else if (cs.output == TCC_QOUTPUT_INT32) {
            int32_t v;
            std::memcpy(&v, got, 4);
            same = v == want.i;
          } else {
            int32_t v = cs.output == TCC_QOUTPUT_S8 ? int32_t(int8_t(*got))
                                                    : int32_t(*got);
            same = v == want.i;
          }
          if (!same && ++bad <= 3)
            ADD_FAILURE() << cs.name() << " at " << b << "," << oy << ","
                          << ox << "," << c << ": want " << want.i << " / "
                          << want.f << " (acc " << sum << ")";
        }
  EXPECT_EQ(bad, 0) << cs.name() << " (int8 variant " << tcc_int8_isa()
                    << ")";
}

// Shapes of MobileNet-like layers, scaled down, and the general cases.
const DwCase kShapes[] = {
    {1, 3, 5, 5, 3, 3, 1, 1, 1},    // 3x3, stride 1, pad 1
    {2, 37, 9, 7, 3, 3, 2, 1, 1},   // stride 2, odd channels
    {1, 300, 6, 5, 3, 3, 1, 1, 1},  // more channels than a block
    {1, 16, 11, 11, 5, 5, 2, 2, 1}, // 5x5
    {1, 8, 10, 9, 1, 7, 1, 0, 1},   // 1x7, no padding
    {1, 5, 8, 8, 3, 3, 1, 2, 2},    // dilation 2
    {1, 4, 3, 3, 3, 3, 3, 0, 1},    // one output pixel
    {1, 6, 2, 2, 3, 3, 1, 2, 1},    // padding wider than the image
};

TEST(QDepthwise, EmulationSizedCases) {
  int i = 0;
  for (DwCase cs : kShapes) {
    // Rotate through the epilogues and zero points.
    switch (i++ % 4) {
    case 0:
      cs.output = TCC_QOUTPUT_U8;
      cs.zx = 128;
      cs.zo = 3;
      cs.relu = true;
      break;
    case 1:
      cs.output = TCC_QOUTPUT_S8;
      cs.input_signed = true;
      cs.zx = -128;
      cs.zo = 127;
      cs.residual = true;
      cs.zr = -4;
      cs.per_channel = false;
      break;
    case 2:
      cs.output = TCC_QOUTPUT_INT32;
      cs.zx = 255;
      break;
    case 3:
      cs.output = TCC_QOUTPUT_F32;
      cs.zx = 0;
      cs.relu = true;
      cs.bias = false;
      break;
    }
    check_depthwise(cs);
  }
}

TEST(QDepthwise, ThreadsGiveTheSameBits) {
  tcc::runtime::ThreadPool pool(3);
  tcc_parallel parallel = pool.c_parallel();
  DwCase cs{2, 96, 28, 28, 3, 3, 1, 1, 1};
  cs.zx = 100;
  cs.zo = 50;
  cs.residual = true;
  cs.zr = 9;
  check_depthwise(cs, &parallel);
  cs.stride = 2;
  cs.output = TCC_QOUTPUT_S8;
  cs.residual = false;
  cs.zo = 0;
  check_depthwise(cs, &parallel);
}

TEST(QDepthwise, RejectsBadArguments) {
  std::vector<uint8_t> input(64, 1), out(64 * 4);
  std::vector<int8_t> weight(9, 1);
  tcc_qdepthwise_args good{};
  good.batch = 1;
  good.channels = 1;
  good.in_height = good.in_width = 8;
  good.kernel_height = good.kernel_width = 3;
  good.stride_h = good.stride_w = 1;
  good.dilation_h = good.dilation_w = 1;
  good.input = input.data();
  good.weight = weight.data();
  good.output = out.data();
  ASSERT_EQ(tcc_qdepthwise_conv2d(&good, nullptr), TCC_KERNEL_OK)
      << tcc_kernels_last_error();
  auto expect_error = [](tcc_qdepthwise_args args, const char *message) {
    EXPECT_EQ(tcc_qdepthwise_conv2d(&args, nullptr),
              TCC_KERNEL_INVALID_ARGUMENT)
        << message;
    EXPECT_NE(std::string(tcc_kernels_last_error()).find(message),
              std::string::npos)
        << tcc_kernels_last_error();
  };
  EXPECT_EQ(tcc_qdepthwise_conv2d(nullptr, nullptr),
            TCC_KERNEL_INVALID_ARGUMENT);
  tcc_qdepthwise_args bad = good;
  bad.stride_h = 0;
  expect_error(bad, "stride_h (0)");
  bad = good;
  bad.pad_w = -1;
  expect_error(bad, "pad_w (-1)");
  bad = good;
  bad.kernel_height = 9;
  expect_error(bad, "larger than the padded input");
  bad = good;
  bad.input_zero_point = 256;
  expect_error(bad, "input_zero_point (256)");
  bad = good;
  bad.weight = nullptr;
  expect_error(bad, "weight is NULL");
  tcc_qepilogue e{};
  e.output = TCC_QOUTPUT_S8;
  float scale = NAN;
  e.scale = &scale;
  bad = good;
  bad.epilogue = &e;
  expect_error(bad, "finite and positive");
}

} // namespace
