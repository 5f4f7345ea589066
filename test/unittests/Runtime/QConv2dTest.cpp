//===- QConv2dTest.cpp - tcc_qconv2d against a direct int reference -------===//
//
// NHWC convolutions (im2col patches gathered by the GEMM driver, and 1x1
// stride-1 layers that read the input in place) bit for bit against a
// direct int64 loop over the OHWI weight and QuantReference.h's epilogue.
// The GEMM underneath runs the active int8 variant; ctest's runs per
// TCC_ISA cover the lower ones (QgemmTest covers every variant directly).
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

struct ConvCase {
  int64_t batch, cin, h, w, cout, kh, kw, stride, pad, dilation;
  int output = TCC_QOUTPUT_U8;
  bool input_signed = false, relu = false, residual = false;
  int32_t zx = 0, zo = 0, zr = 0;

  int64_t out_h() const { return (h + 2 * pad - dilation * (kh - 1) - 1) / stride + 1; }
  int64_t out_w() const { return (w + 2 * pad - dilation * (kw - 1) - 1) / stride + 1; }
  std::string name() const {
    return "N" + std::to_string(batch) + " " + std::to_string(cin) + "->" +
           std::to_string(cout) + " " + std::to_string(h) + "x" +
           std::to_string(w) + " k" + std::to_string(kh) + "x" +
           std::to_string(kw) + " s" + std::to_string(stride) + " p" +
           std::to_string(pad) + " d" + std::to_string(dilation) + " out " +
           std::to_string(output) + " (int8 variant " + tcc_int8_isa() + ")";
  }
};

size_t out_size(int output) {
  return output == TCC_QOUTPUT_INT32 || output == TCC_QOUTPUT_F32 ? 4 : 1;
}

void check_conv(const ConvCase &cs, const tcc_parallel *parallel = nullptr,
                unsigned seed = 1) {
  const int64_t oh = cs.out_h(), ow = cs.out_w(),
                k = cs.kh * cs.kw * cs.cin;
  const int64_t outputs = cs.batch * oh * ow * cs.cout;
  std::vector<uint8_t> input =
      random_u8(size_t(cs.batch * cs.h * cs.w * cs.cin), seed);
  std::vector<int8_t> weight = random_s8(size_t(cs.cout * k), seed + 1);
  std::vector<uint8_t> residual = random_u8(size_t(outputs), seed + 2);
  std::vector<int32_t> bias(static_cast<size_t>(cs.cout));
  std::vector<float> scale(static_cast<size_t>(cs.cout));
  std::mt19937 gen(seed + 3);
  for (int64_t o = 0; o < cs.cout; ++o) {
    bias[size_t(o)] = int32_t(gen() % 200001) - 100000;
    scale[size_t(o)] =
        cs.output == TCC_QOUTPUT_F32
            ? 1e-3f
            : float(0.5 + double(gen() % 1000) / 1000.0) * 40.0f /
                  float(std::sqrt(double(k)) * 128.0 * 74.0);
  }
  AlignedBuffer packed(tcc_qgemm_packed_b_size(k, cs.cout));
  ASSERT_EQ(tcc_qgemm_pack_b(k, cs.cout, weight.data(), k, 1, packed.get()),
            TCC_KERNEL_OK)
      << tcc_kernels_last_error();
  tcc_qepilogue e{};
  e.output = cs.output;
  e.bias = bias.data();
  e.scale = scale.data();
  e.scale_per_column = 1;
  e.output_zero_point = cs.zo;
  e.relu = cs.relu;
  e.residual = cs.residual ? residual.data() : nullptr;
  e.residual_zero_point = cs.zr;
  e.residual_scale = 0.5f;

  std::vector<uint8_t> out(size_t(outputs) * out_size(cs.output), 0xA5);
  tcc_qconv2d_args args{};
  args.batch = cs.batch;
  args.in_channels = cs.cin;
  args.in_height = cs.h;
  args.in_width = cs.w;
  args.out_channels = cs.cout;
  args.kernel_height = cs.kh;
  args.kernel_width = cs.kw;
  args.stride_h = args.stride_w = cs.stride;
  args.pad_h = args.pad_w = cs.pad;
  args.dilation_h = args.dilation_w = cs.dilation;
  args.input = input.data();
  args.input_signed = cs.input_signed;
  args.input_zero_point = cs.zx;
  args.packed_weight = packed.get();
  args.output = out.data();
  args.epilogue = &e;
  ASSERT_EQ(tcc_qconv2d(&args, parallel), TCC_KERNEL_OK)
      << cs.name() << ": " << tcc_kernels_last_error();

  int64_t bad = 0;
  for (int64_t b = 0; b < cs.batch; ++b)
    for (int64_t oy = 0; oy < oh; ++oy)
      for (int64_t ox = 0; ox < ow; ++ox)
        for (int64_t o = 0; o < cs.cout; ++o) {
          int64_t sum = bias[size_t(o)];
          for (int64_t ky = 0; ky < cs.kh; ++ky)
            for (int64_t kx = 0; kx < cs.kw; ++kx) {
              int64_t iy = oy * cs.stride - cs.pad + ky * cs.dilation;
              int64_t ix = ox * cs.stride - cs.pad + kx * cs.dilation;
              if (iy < 0 || iy >= cs.h || ix < 0 || ix >= cs.w)
                continue;
              for (int64_t c = 0; c < cs.cin; ++c) {
                uint8_t byte =
                    input[size_t(((b * cs.h + iy) * cs.w + ix) * cs.cin + c)];
                int32_t x = cs.input_signed ? int32_t(int8_t(byte)) : byte;
                sum += int64_t(x - cs.zx) *
                       weight[size_t(((o * cs.kh + ky) * cs.kw + kx) * cs.cin +
                                     c)];
              }
            }
          const int64_t i = ((b * oh + oy) * ow + ox) * cs.cout + o;
          const int32_t r = cs.output == TCC_QOUTPUT_S8
                                ? int32_t(int8_t(residual[size_t(i)]))
                                : int32_t(residual[size_t(i)]);
          QValue want = reference_epilogue(&e, o, wrap32(sum), r);
          const uint8_t *got = &out[size_t(i) * out_size(cs.output)];
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
                          << ox << "," << o << ": want " << want.i << " / "
                          << want.f << " (acc " << sum << ")";
        }
  EXPECT_EQ(bad, 0) << cs.name();
}

// ResNet-like layers scaled down, and the general cases.
const ConvCase kShapes[] = {
    {1, 3, 15, 13, 8, 7, 7, 2, 3, 1},   // the stem: 7x7/2, 3 channels
    {1, 16, 9, 9, 16, 3, 3, 1, 1, 1},   // 3x3
    {2, 17, 8, 7, 33, 3, 3, 2, 1, 1},   // 3x3/2, odd channels, batch 2
    {1, 24, 6, 6, 40, 1, 1, 1, 0, 1},   // 1x1: the input is A
    {1, 12, 9, 9, 20, 1, 1, 2, 0, 1},   // 1x1/2 downsample: gathered
    {1, 5, 10, 10, 7, 3, 3, 1, 2, 2},   // dilation 2
    {1, 4, 2, 3, 6, 3, 3, 1, 2, 1},     // padding wider than the image
    {1, 300, 4, 4, 10, 3, 3, 1, 1, 1},  // K = 2700
};

TEST(QConv2d, EmulationSizedCases) {
  int i = 0;
  for (ConvCase cs : kShapes) {
    switch (i++ % 4) {
    case 0:
      cs.zx = 128;
      cs.zo = 5;
      cs.relu = true;
      break;
    case 1:
      cs.output = TCC_QOUTPUT_S8;
      cs.input_signed = true;
      cs.zx = -128;
      cs.zo = -20;
      cs.residual = true;
      cs.zr = 7;
      break;
    case 2:
      cs.output = TCC_QOUTPUT_INT32;
      cs.zx = 255;
      break;
    case 3:
      cs.output = TCC_QOUTPUT_U8;
      cs.zx = 0;
      cs.zo = 255;
      cs.residual = true;
      cs.zr = 128;
      break;
    }
    check_conv(cs);
  }
}

// The patch gatherer copies each filter row's run of kw * cin bytes in
// fixed-size pieces by length class (under 8, 8-15, 16-31, 32 and more,
// whole multiples of 32 or not), clipped at the borders: every length
// from 1 to 48, with the first and last taps in the padding.
TEST(QConv2d, GatheredRunsOfEveryLength) {
  for (int64_t cin = 1; cin <= 16; ++cin)
    for (int64_t kw : {1, 3}) {
      ConvCase cs{1, cin, 7, 9, 5, 3, kw, 2, 1, 1};
      cs.zx = int32_t(cin * 13 % 256);
      cs.zo = 3;
      check_conv(cs, nullptr, unsigned(cin));
    }
}

TEST(QConv2d, ThreadsGiveTheSameBits) {
  tcc::runtime::ThreadPool pool(3);
  tcc_parallel parallel = pool.c_parallel();
  ConvCase cs{2, 32, 14, 14, 64, 3, 3, 1, 1, 1};
  cs.zx = 90;
  cs.zo = 10;
  cs.relu = true;
  check_conv(cs, &parallel);
  ConvCase stem{1, 3, 32, 32, 64, 7, 7, 2, 3, 1};
  stem.zx = 114;
  stem.output = TCC_QOUTPUT_F32;
  check_conv(stem, &parallel);
  // More output channels than pixels: the threads split the columns, each
  // gathering the same rows (read in place where the variant can).
  ConvCase wide{1, 64, 7, 7, 128, 3, 3, 1, 1, 1};
  wide.zx = 3;
  wide.output = TCC_QOUTPUT_S8;
  wide.zo = -7;
  check_conv(wide, &parallel);
}

TEST(QConv2d, RejectsBadArguments) {
  std::vector<uint8_t> input(64, 1), out(64 * 4);
  std::vector<int8_t> weight(9, 1);
  AlignedBuffer packed(tcc_qgemm_packed_b_size(9, 1));
  ASSERT_EQ(tcc_qgemm_pack_b(9, 1, weight.data(), 9, 1, packed.get()),
            TCC_KERNEL_OK);
  tcc_qconv2d_args good{};
  good.batch = 1;
  good.in_channels = 1;
  good.in_height = good.in_width = 8;
  good.out_channels = 1;
  good.kernel_height = good.kernel_width = 3;
  good.stride_h = good.stride_w = 1;
  good.dilation_h = good.dilation_w = 1;
  good.input = input.data();
  good.packed_weight = packed.get();
  good.output = out.data();
  ASSERT_EQ(tcc_qconv2d(&good, nullptr), TCC_KERNEL_OK)
      << tcc_kernels_last_error();
  auto expect_error = [](tcc_qconv2d_args args, tcc_kernel_status status,
                         const char *message) {
    EXPECT_EQ(tcc_qconv2d(&args, nullptr), status) << message;
    EXPECT_NE(std::string(tcc_kernels_last_error()).find(message),
              std::string::npos)
        << tcc_kernels_last_error();
  };
  EXPECT_EQ(tcc_qconv2d(nullptr, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
  tcc_qconv2d_args bad = good;
  bad.dilation_w = 0;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "dilation_w (0)");
  bad = good;
  bad.kernel_width = 11;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "larger than the padded");
  bad = good;
  bad.input = nullptr;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "input is NULL");
  bad = good;
  bad.input_signed = 1;
  bad.input_zero_point = 200;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "input_zero_point (200)");
  bad = good;
  bad.in_channels = 2; // the weights were packed for 1 input channel
  expect_error(bad, TCC_KERNEL_BAD_PACKED_DATA, "9 x 1");
}

} // namespace
