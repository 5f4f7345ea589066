//===- Conv2dTest.cpp - tcc_conv2d against a float64 reference ------------===//

#include "KernelReference.h"
#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/kernels.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>

using namespace tcc_test;

namespace {

struct ConvCase {
  int64_t batch, channels, height, width, out_channels, kh, kw;
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1, groups = 1;
  // Epilogue.
  bool bias = false, residual = false;
  float alpha = 1.0f, beta = 0.0f;
  int activation = TCC_ACTIVATION_NONE;
  float clamp_min = 0.0f, clamp_max = 6.0f; // TCC_ACTIVATION_CLAMP: ReLU6

  int64_t out_h() const {
    return (height + 2 * ph - dh * (kh - 1) - 1) / sh + 1;
  }
  int64_t out_w() const {
    return (width + 2 * pw - dw * (kw - 1) - 1) / sw + 1;
  }
  // Whether tcc_conv2d takes the Winograd F(2x2, 3x3) path (Winograd.h):
  // it also needs 32 output tiles of 2x2 over the batch.
  int64_t tiles() const {
    return batch * ((out_h() + 1) / 2) * ((out_w() + 1) / 2);
  }
  bool winograd(int layout) const {
    return layout == TCC_LAYOUT_NHWC && kh == 3 && kw == 3 && sh == 1 &&
           sw == 1 && dh == 1 && dw == 1 && groups == 1 && channels >= 16 &&
           out_channels >= 16 && tiles() >= 32;
  }
  std::string name(int layout) const {
    return std::string(layout ? "NHWC " : "NCHW ") + std::to_string(batch) +
           "x" + std::to_string(channels) + "x" + std::to_string(height) + "x" +
           std::to_string(width) + " -> " + std::to_string(out_channels) +
           " k" + std::to_string(kh) + "x" + std::to_string(kw) + " s" +
           std::to_string(sh) + "," + std::to_string(sw) + " p" +
           std::to_string(ph) + "," + std::to_string(pw) + " d" +
           std::to_string(dh) + "," + std::to_string(dw) + " g" +
           std::to_string(groups) + " act " + std::to_string(activation);
  }
};

// Tensors held in canonical NCHW / OIHW order, converted for each layout.
struct ConvRun {
  ConvCase cs;
  int layout;
  int64_t oh, ow, icg, ocg;
  std::vector<float> input, weight, bias, residual; // canonical order
  std::vector<float> in_l, w_l, res_l, out_l;       // in the tested layout
  tcc_epilogue epilogue{};
  AlignedBuffer workspace{0};
  bool packed = false; // weights through tcc_conv2d_pack_weight
  AlignedBuffer packed_weight{0};

  ConvRun(const ConvCase &c, int layout_) : cs(c), layout(layout_) {
    oh = cs.out_h();
    ow = cs.out_w();
    icg = cs.channels / cs.groups;
    ocg = cs.out_channels / cs.groups;
    input = random_floats(size_t(cs.batch * cs.channels * cs.height * cs.width),
                          11);
    weight = random_floats(size_t(cs.out_channels * icg * cs.kh * cs.kw), 12);
    bias = random_floats(size_t(cs.out_channels), 13);
    residual = random_floats(size_t(cs.batch * cs.out_channels * oh * ow), 14);
    in_l = to_layout(input, cs.batch, cs.channels, cs.height, cs.width);
    w_l = to_layout(weight, cs.out_channels, icg, cs.kh, cs.kw);
    res_l = to_layout(residual, cs.batch, cs.out_channels, oh, ow);
    out_l.assign(residual.size(), -777.0f);
    epilogue.alpha = cs.alpha;
    epilogue.bias = cs.bias ? bias.data() : nullptr;
    epilogue.residual = cs.residual ? res_l.data() : nullptr;
    epilogue.beta = cs.beta;
    epilogue.activation = cs.activation;
    epilogue.clamp_min = cs.clamp_min;
    epilogue.clamp_max = cs.clamp_max;
  }

  std::vector<float> to_layout(const std::vector<float> &t, int64_t n,
                               int64_t c, int64_t h, int64_t w) const {
    if (layout == TCC_LAYOUT_NCHW)
      return t;
    std::vector<float> out(t.size());
    for (int64_t a = 0; a < n; ++a)
      for (int64_t b = 0; b < c; ++b)
        for (int64_t y = 0; y < h; ++y)
          for (int64_t x = 0; x < w; ++x)
            out[((a * h + y) * w + x) * c + b] =
                t[((a * c + b) * h + y) * w + x];
    return out;
  }

  tcc_conv2d_args args() {
    tcc_conv2d_args a{};
    a.batch = cs.batch;
    a.in_channels = cs.channels;
    a.in_height = cs.height;
    a.in_width = cs.width;
    a.out_channels = cs.out_channels;
    a.kernel_height = cs.kh;
    a.kernel_width = cs.kw;
    a.stride_h = cs.sh;
    a.stride_w = cs.sw;
    a.pad_h = cs.ph;
    a.pad_w = cs.pw;
    a.dilation_h = cs.dh;
    a.dilation_w = cs.dw;
    a.groups = cs.groups;
    a.layout = layout;
    a.input = in_l.data();
    a.weight = w_l.data();
    a.output = out_l.data();
    bool any = cs.bias || cs.residual || cs.alpha != 1.0f ||
               cs.activation != TCC_ACTIVATION_NONE;
    a.epilogue = any ? &epilogue : nullptr;
    return a;
  }

  tcc_kernel_status run(const tcc_parallel *parallel = nullptr) {
    tcc_conv2d_args a = args();
    if (packed) {
      packed_weight = AlignedBuffer(tcc_conv2d_packed_weight_size(&a));
      if (tcc_kernel_status st =
              tcc_conv2d_pack_weight(&a, packed_weight.get()))
        return st;
      a.packed_weight = packed_weight.get();
      a.weight = nullptr; // must not be read
    }
    workspace = AlignedBuffer(tcc_conv2d_workspace_size(&a, parallel));
    a.workspace = workspace.get();
    return tcc_conv2d(&a, parallel);
  }

  float out_at(int64_t n, int64_t c, int64_t y, int64_t x) const {
    return layout == TCC_LAYOUT_NCHW
               ? out_l[size_t(((n * cs.out_channels + c) * oh + y) * ow + x)]
               : out_l[size_t(((n * oh + y) * ow + x) * cs.out_channels + c)];
  }

  // The bound is the worst case of a sum of depth products in float. It
  // covers the Winograd path as it stands: its transforms round a few more
  // times, but its worst measured error (all cases here, every ISA) is
  // 0.035 of the bound, at tiny outputs with padding 2 (the direct paths'
  // worst is 0.16 of it), so it needs no factor of its own.
  void expect_matches_reference() const {
    const double slope = cs.activation == TCC_ACTIVATION_NONE ? 1.0 : 1.2;
    const int64_t depth = icg * cs.kh * cs.kw;
    int failures = 0;
    for (int64_t n = 0; n < cs.batch; ++n)
      for (int64_t oc = 0; oc < cs.out_channels; ++oc)
        for (int64_t y = 0; y < oh; ++y)
          for (int64_t x = 0; x < ow; ++x) {
            int64_t grp = oc / ocg;
            double acc = 0, magnitude = 0;
            for (int64_t ic = 0; ic < icg; ++ic)
              for (int64_t ky = 0; ky < cs.kh; ++ky)
                for (int64_t kx = 0; kx < cs.kw; ++kx) {
                  int64_t iy = y * cs.sh - cs.ph + ky * cs.dh;
                  int64_t ix = x * cs.sw - cs.pw + kx * cs.dw;
                  if (iy < 0 || iy >= cs.height || ix < 0 || ix >= cs.width)
                    continue;
                  double p =
                      double(input[size_t(
                          ((n * cs.channels + grp * icg + ic) * cs.height +
                           iy) *
                              cs.width +
                          ix)]) *
                      weight[size_t(((oc * icg + ic) * cs.kh + ky) * cs.kw +
                                    kx)];
                  acc += p;
                  magnitude += std::abs(p);
                }
            double v = cs.alpha * acc, extra = std::abs(v);
            if (cs.bias) {
              v += bias[size_t(oc)];
              extra += std::abs(bias[size_t(oc)]);
            }
            if (cs.residual && cs.beta != 0.0f) {
              double r = double(cs.beta) *
                         residual[size_t(
                             ((n * cs.out_channels + oc) * oh + y) * ow + x)];
              v += r;
              extra += std::abs(r);
            }
            double want = activate_reference(v, epilogue);
            double tol =
                slope * ((depth + 16) * kUnitRoundoff *
                             std::abs(double(cs.alpha)) * magnitude +
                         4 * kUnitRoundoff * extra) +
                activation_relative_tolerance(cs.activation) * std::abs(want) +
                1e-30;
            float got = out_at(n, oc, y, x);
            if (!(std::abs(got - want) <= tol) && ++failures <= 5)
              ADD_FAILURE() << cs.name(layout) << ": out(" << n << "," << oc
                            << "," << y << "," << x << ") = " << got
                            << ", want " << want << " +- " << tol;
          }
  }
};

// Both layouts; NHWC GEMM shapes also with packed weights, which give the
// same bits.
void check_case(const ConvCase &cs) {
  for (int layout : {TCC_LAYOUT_NCHW, TCC_LAYOUT_NHWC}) {
    ConvRun run(cs, layout);
    ASSERT_EQ(run.run(), TCC_KERNEL_OK)
        << cs.name(layout) << ": " << tcc_kernels_last_error();
    run.expect_matches_reference();
    tcc_conv2d_args a = run.args();
    // The kernel takes Winograd exactly when the test thinks so: its packed
    // weights are 16 in_channels x out_channels matrices.
    const int64_t panels = (cs.out_channels + 31) / 32;
    EXPECT_EQ(tcc_conv2d_packed_weight_size(&a) ==
                  size_t(16 * (64 + 4 * cs.channels * panels * 32)),
              cs.winograd(layout))
        << cs.name(layout);
    if (tcc_conv2d_packed_weight_size(&a) == 0)
      continue;
    ConvRun packed(cs, layout);
    packed.packed = true;
    ASSERT_EQ(packed.run(), TCC_KERNEL_OK)
        << cs.name(layout) << " packed: " << tcc_kernels_last_error();
    packed.expect_matches_reference();
    // (Except a 1x1 convolution of at most 4 pixels in all: unpacked, its
    // GEMM takes dot products along K, which round differently.)
    bool pointwise = cs.kh == 1 && cs.kw == 1 && cs.sh == 1 && cs.sw == 1 &&
                     cs.ph == 0 && cs.pw == 0;
    if (!pointwise || cs.batch * cs.out_h() * cs.out_w() > 4) {
      EXPECT_EQ(0, std::memcmp(run.out_l.data(), packed.out_l.data(),
                               run.out_l.size() * sizeof(float)))
          << cs.name(layout) << " packed";
    }
  }
}

ConvCase with_epilogue(ConvCase cs, int activation) {
  cs.bias = true;
  cs.residual = true;
  cs.alpha = 0.5f;
  cs.beta = 2.0f;
  cs.activation = activation;
  return cs;
}

// Small enough for emulation, yet every path: pointwise, depthwise and
// im2col, with stride, padding, dilation and groups, in both layouts.
TEST(Conv2d, SmallCasesOnEveryPath) {
  ConvCase cases[] = {
      {1, 3, 7, 7, 5, 3, 3},                          // valid 3x3
      {2, 4, 9, 8, 6, 3, 3, 1, 1, 1, 1},              // same padding
      {1, 5, 9, 11, 4, 3, 3, 2, 2, 1, 1},             // stride 2
      {1, 4, 10, 9, 4, 3, 2, 1, 2, 2, 0, 2, 1},       // dilation, asym
      {2, 6, 7, 7, 4, 3, 3, 1, 1, 1, 1, 1, 1, 2},     // groups
      {2, 7, 5, 6, 9, 1, 1},                          // pointwise
      {1, 6, 7, 9, 4, 1, 1, 2, 2},                    // 1x1 stride 2
      {2, 8, 9, 7, 8, 3, 3, 1, 1, 1, 1, 1, 1, 8},     // depthwise
      {1, 5, 11, 8, 5, 3, 3, 2, 2, 1, 1, 1, 1, 5},    // dw stride 2
      {1, 4, 9, 9, 4, 5, 3, 1, 1, 2, 1, 2, 1, 4},     // dw dilated
      {1, 4, 6, 6, 8, 3, 3, 1, 1, 1, 1, 1, 1, 4},     // multiplier 2
      {1, 3, 12, 12, 3, 9, 9, 1, 1, 4, 4, 1, 1, 3},   // dw, 81 taps: im2col
      {1, 3, 9, 40, 3, 3, 3, 1, 3, 1, 1, 1, 1, 3},    // dw stride (1, 3)
      {1, 20, 9, 45, 20, 3, 3, 2, 2, 1, 1, 1, 1, 20}, // dw stride 2, wide
      {1, 2, 1, 40, 3, 1, 5, 1, 3, 0, 2},             // one row
      {3, 16, 5, 7, 17, 3, 3, 1, 1, 1, 1},            // NHWC: Winograd
  };
  int activation = TCC_ACTIVATION_RELU;
  for (const ConvCase &cs : cases) {
    check_case(cs);
    check_case(with_epilogue(cs, activation));
    activation = activation % TCC_ACTIVATION_TANH + 1;
  }
}

TEST(Conv2d, OddSizes) {
  for (int64_t size : {1, 7, 17, 33})
    for (int64_t channels : {1, 7, 17}) {
      check_case({1, channels, size, size, 7, 3, 3, 1, 1, 1, 1});
      check_case({2, channels, size, size, 17, 1, 1});
    }
}

// NHWC im2col takes as many images per GEMM as fit ~16 MiB of columns:
// 2 of these (k = 1600, 1024 pixels), then the last one alone.
TEST(Conv2d, BatchInChunks) {
  check_case(
      with_epilogue({3, 64, 32, 32, 2, 5, 5, 1, 1, 2, 2}, TCC_ACTIVATION_RELU));
}

// Many rows of shallow columns (stems over RGB) run NHWC im2col and the
// GEMM a block of rows at a time (Conv2d.cpp, im2col_block_rows): blocks
// that cross images, a partial last block and column panel, with every
// epilogue option, against float64, and the same bits on any thread count.
TEST(Conv2d, StemsInRowBlocks) {
  const ConvCase stems[] = {
      with_epilogue({2, 3, 120, 120, 20, 7, 7, 2, 2, 3, 3},
                    TCC_ACTIVATION_RELU),
      with_epilogue({1, 3, 92, 92, 8, 3, 3, 1, 1, 1, 1}, TCC_ACTIVATION_SILU)};
  for (const ConvCase &cs : stems) {
    check_case(cs);
    ConvRun serial(cs, TCC_LAYOUT_NHWC);
    ASSERT_EQ(serial.run(), TCC_KERNEL_OK);
    for (int threads : {2, 3}) {
      tcc::runtime::ThreadPool pool(threads);
      tcc_parallel parallel = pool.c_parallel();
      ConvRun run(cs, TCC_LAYOUT_NHWC);
      ASSERT_EQ(run.run(&parallel), TCC_KERNEL_OK);
      EXPECT_EQ(0, std::memcmp(serial.out_l.data(), run.out_l.data(),
                               serial.out_l.size() * sizeof(float)))
          << cs.name(TCC_LAYOUT_NHWC) << " on " << threads << " threads";
    }
  }
}

// NHWC im2col copies each kernel row as one run of kw * channels floats,
// whole vectors where they stay inside the image and the pixel's row of
// columns: runs shorter and longer than a vector, kernels reaching into the
// padding on both sides or wholly into it (padding wider than the kernel,
// images narrower than it), strides 2 and 3, and stretches of rows that
// start mid-row (tasks) and cross images, against float64 and with the same
// bits on 1 and 3 threads.
TEST(Conv2d, Im2colRunsAtImageEdges) {
  const ConvCase cases[] = {
      {2, 3, 11, 13, 5, 3, 3, 2, 2, 1, 1},   // RGB stem: runs of 9
      {1, 1, 6, 5, 3, 2, 2, 1, 1, 3, 3},     // padding wider than the kernel
      {2, 5, 9, 2, 4, 3, 4, 3, 1, 1, 2},     // image narrower than the kernel
      {1, 7, 10, 10, 6, 3, 3, 3, 3, 0, 0},   // stride 3, no padding
      {1, 17, 12, 9, 8, 3, 2, 2, 2, 1, 1},   // runs of 34: vectors, a tail
      {3, 2, 15, 17, 7, 5, 5, 2, 2, 2, 2, 2}, // dilated rows, batch 3
      {1, 3, 80, 80, 4, 3, 3, 2, 2, 1, 1}     // 12 tasks of 134 rows
  };
  for (const ConvCase &cs : cases) {
    ConvCase act = with_epilogue(cs, TCC_ACTIVATION_RELU);
    for (const ConvCase &c : {cs, act}) {
      ConvRun serial(c, TCC_LAYOUT_NHWC);
      ASSERT_EQ(serial.run(), TCC_KERNEL_OK) << c.name(TCC_LAYOUT_NHWC);
      serial.expect_matches_reference();
      tcc::runtime::ThreadPool pool(3);
      tcc_parallel parallel = pool.c_parallel();
      ConvRun run(c, TCC_LAYOUT_NHWC);
      ASSERT_EQ(run.run(&parallel), TCC_KERNEL_OK);
      EXPECT_EQ(0, std::memcmp(serial.out_l.data(), run.out_l.data(),
                               serial.out_l.size() * sizeof(float)))
          << c.name(TCC_LAYOUT_NHWC) << " on 3 threads";
    }
  }
}

TEST(Conv2d, ResNetShapedLayers) {
  // Several K blocks and column panels, like the layers the bench times.
  check_case(with_epilogue({1, 64, 14, 14, 64, 3, 3, 1, 1, 1, 1},
                           TCC_ACTIVATION_RELU));
  check_case(with_epilogue({1, 32, 15, 15, 48, 3, 3, 2, 2, 1, 1},
                           TCC_ACTIVATION_NONE));
  check_case(with_epilogue({2, 96, 8, 8, 40, 1, 1}, TCC_ACTIVATION_GELU));
  check_case(with_epilogue({1, 32, 12, 12, 32, 3, 3, 1, 1, 1, 1, 1, 1, 32},
                           TCC_ACTIVATION_CLAMP));
}

// The depthwise shapes of MobileNetV2 and EfficientNet-B0 (3x3 and 5x5,
// stride 1 and 2, same padding) with the activations they fuse (ReLU6 as
// clamp, SiLU), at channel counts that leave vector tails on every ISA; the
// NHWC outputs of fewer than 32 rows split their channels among tasks.
TEST(Conv2d, DepthwiseShapesOfMobileNets) {
  struct Shape {
    int64_t batch, channels, size, k, stride;
  };
  const Shape shapes[] = {{1, 19, 12, 3, 1},  {2, 37, 13, 3, 2},
                          {1, 150, 7, 5, 1},  {1, 83, 9, 5, 2},
                          {1, 96, 14, 3, 1},  {1, 1, 6, 3, 2},
                          {1, 200, 3, 5, 1},  {1, 130, 4, 3, 2},
                          {1, 17, 2, 5, 1}};
  for (const Shape &sh : shapes) {
    const int64_t c = sh.channels, pad = sh.k / 2;
    ConvCase cs{sh.batch, c,         sh.size, sh.size, c, sh.k, sh.k,
                sh.stride, sh.stride, pad,    pad,     1, 1,    c};
    cs.bias = true;
    for (int act : {TCC_ACTIVATION_CLAMP, TCC_ACTIVATION_SILU}) {
      cs.activation = act;
      check_case(cs);
    }
    check_case(with_epilogue(cs, TCC_ACTIVATION_SIGMOID));
  }
  // Dilated and asymmetric: 3x3 dilation 2, padding (2, 1); 5x3 stride
  // (2, 1) without padding.
  check_case(with_epilogue({1, 21, 11, 10, 21, 3, 3, 1, 1, 2, 1, 2, 2, 21},
                           TCC_ACTIVATION_CLAMP));
  check_case(with_epilogue({1, 35, 12, 9, 35, 5, 3, 2, 1, 0, 0, 1, 1, 35},
                           TCC_ACTIVATION_SILU));
}

// A NaN and an infinity in one channel each reach exactly the outputs whose
// window holds them, through the interior and the border columns.
TEST(Conv2d, DepthwiseNanAndInfinityStayInTheirWindows) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const ConvCase cs{1, 21, 8, 9, 21, 3, 3, 1, 1, 1, 1, 1, 1, 21};
  for (int layout : {TCC_LAYOUT_NCHW, TCC_LAYOUT_NHWC}) {
    ConvRun run(cs, layout);
    auto at = [&](int64_t c, int64_t y, int64_t x) {
      return size_t((c * cs.height + y) * cs.width + x);
    };
    run.input[at(5, 2, 4)] = nan;
    run.input[at(17, 7, 0)] = inf; // bottom-left corner
    run.in_l = run.to_layout(run.input, 1, cs.channels, cs.height, cs.width);
    ASSERT_EQ(run.run(), TCC_KERNEL_OK) << tcc_kernels_last_error();
    for (int64_t c = 0; c < cs.channels; ++c)
      for (int64_t y = 0; y < run.oh; ++y)
        for (int64_t x = 0; x < run.ow; ++x) {
          const float got = run.out_at(0, c, y, x);
          const bool sees_nan = c == 5 && std::abs(y - 2) <= 1 &&
                                std::abs(x - 4) <= 1;
          const bool sees_inf = c == 17 && y >= 6 && x <= 1;
          if (sees_nan)
            EXPECT_TRUE(std::isnan(got)) << c << "," << y << "," << x;
          else if (sees_inf)
            EXPECT_TRUE(std::isinf(got)) << c << "," << y << "," << x;
          else
            EXPECT_TRUE(std::isfinite(got)) << c << "," << y << "," << x;
        }
  }
}

TEST(Conv2d, ThreadCountDoesNotChangeTheBits) {
  const ConvCase cases[] = {
      with_epilogue({2, 16, 20, 20, 24, 3, 3, 1, 1, 1, 1}, TCC_ACTIVATION_SILU),
      with_epilogue({2, 24, 13, 13, 24, 3, 3, 1, 1, 1, 1, 1, 1, 24},
                    TCC_ACTIVATION_RELU),
      // NHWC: 7 rows x 3 chunks of channels as work items
      with_epilogue({1, 150, 7, 7, 150, 5, 5, 1, 1, 2, 2, 1, 1, 150},
                    TCC_ACTIVATION_SILU),
      {1, 64, 16, 16, 32, 1, 1}};
  for (const ConvCase &cs : cases)
    for (int layout : {TCC_LAYOUT_NCHW, TCC_LAYOUT_NHWC}) {
      ConvRun serial(cs, layout);
      ASSERT_EQ(serial.run(), TCC_KERNEL_OK);
      serial.expect_matches_reference();
      for (int threads : {1, 2, 3}) {
        tcc::runtime::ThreadPool pool(threads);
        tcc_parallel parallel = pool.c_parallel();
        ConvRun run(cs, layout);
        ASSERT_EQ(run.run(&parallel), TCC_KERNEL_OK);
        EXPECT_EQ(0, std::memcmp(serial.out_l.data(), run.out_l.data(),
                                 serial.out_l.size() * sizeof(float)))
            << cs.name(layout) << " on " << threads << " threads";
      }
    }
}

TEST(Conv2d, WorkspaceOnlyWhereNeeded) {
  ConvRun pointwise({1, 8, 5, 5, 4, 1, 1}, TCC_LAYOUT_NCHW);
  tcc_conv2d_args a = pointwise.args();
  EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr), 0u);
  a.workspace = nullptr;
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_OK);
  ConvRun nchw({1, 8, 5, 5, 4, 3, 3}, TCC_LAYOUT_NCHW);
  a = nchw.args(); // builds its columns inside the GEMM
  EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr), 0u);
  ConvRun nhwc({1, 8, 5, 5, 4, 3, 3}, TCC_LAYOUT_NHWC);
  a = nhwc.args();
  // Packed weights (64-byte header + k x 32 floats), then the 9 x k columns
  // of every image (here one) rounded up to 64 bytes; k = 8 * 3 * 3.
  EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr),
            64u + 4 * 72 * 32 + (4 * 9 * 72 + 63) / 64 * 64);
}

TEST(Conv2d, PackedWeightsOnlyForNhwcGemms) {
  // NHWC 3x3: one 64-byte header and k x 32 floats per group (k = 4 * 9);
  // the workspace then holds only the columns.
  ConvRun nhwc({1, 8, 5, 5, 4, 3, 3, 1, 1, 0, 0, 1, 1, 2}, TCC_LAYOUT_NHWC);
  tcc_conv2d_args a = nhwc.args();
  EXPECT_EQ(tcc_conv2d_packed_weight_size(&a), 2u * (64 + 4 * 36 * 32));
  size_t unpacked = tcc_conv2d_workspace_size(&a, nullptr);
  AlignedBuffer packed(tcc_conv2d_packed_weight_size(&a));
  ASSERT_EQ(tcc_conv2d_pack_weight(&a, packed.get()), TCC_KERNEL_OK);
  a.packed_weight = packed.get();
  EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr),
            unpacked - tcc_conv2d_packed_weight_size(&a));
  // NCHW and depthwise read the weights as they are.
  ConvRun nchw({1, 8, 5, 5, 4, 3, 3}, TCC_LAYOUT_NCHW);
  a = nchw.args();
  EXPECT_EQ(tcc_conv2d_packed_weight_size(&a), 0u);
  EXPECT_EQ(tcc_conv2d_pack_weight(&a, packed.get()),
            TCC_KERNEL_INVALID_ARGUMENT);
  a.packed_weight = packed.get();
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("takes no packed"),
            std::string::npos)
      << tcc_kernels_last_error();
  ConvRun depthwise({1, 8, 5, 5, 8, 3, 3, 1, 1, 1, 1, 1, 1, 8},
                    TCC_LAYOUT_NHWC);
  a = depthwise.args();
  EXPECT_EQ(tcc_conv2d_packed_weight_size(&a), 0u);
}

TEST(Conv2d, RejectsBadPackedWeights) {
  ConvRun run({1, 8, 5, 5, 4, 3, 3}, TCC_LAYOUT_NHWC);
  tcc_conv2d_args a = run.args();
  AlignedBuffer packed(tcc_conv2d_packed_weight_size(&a) + 64);
  ASSERT_EQ(tcc_conv2d_pack_weight(&a, packed.get()), TCC_KERNEL_OK);
  run.workspace = AlignedBuffer(tcc_conv2d_workspace_size(&a, nullptr));
  a.workspace = run.workspace.get();
  a.packed_weight = static_cast<char *>(packed.get()) + 4;
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("64-byte aligned"),
            std::string::npos);
  // Weights packed for another shape (5 output channels, not 4).
  ConvRun other({1, 8, 5, 5, 5, 3, 3}, TCC_LAYOUT_NHWC);
  tcc_conv2d_args b = other.args();
  AlignedBuffer wrong(tcc_conv2d_packed_weight_size(&b));
  ASSERT_EQ(tcc_conv2d_pack_weight(&b, wrong.get()), TCC_KERNEL_OK);
  a.packed_weight = wrong.get();
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
  std::memset(wrong.get(), 0, 8); // no header
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
}

TEST(Conv2d, EmptyBatchDoesNothing) {
  ConvRun run({0, 3, 5, 5, 2, 3, 3}, TCC_LAYOUT_NCHW);
  tcc_conv2d_args a = run.args();
  a.input = a.weight = nullptr;
  a.output = nullptr;
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_OK);
}

TEST(Conv2d, RejectsInvalidArguments) {
  struct Bad {
    const char *what;
    void (*mutate)(tcc_conv2d_args &);
    const char *message;
  };
  const Bad cases[] = {
      {"groups", [](tcc_conv2d_args &a) { a.groups = 2; },
       "divisible by groups"},
      {"stride 0", [](tcc_conv2d_args &a) { a.stride_h = 0; }, "stride_h (0)"},
      {"negative pad", [](tcc_conv2d_args &a) { a.pad_w = -1; }, "pad_w (-1)"},
      {"kernel too big", [](tcc_conv2d_args &a) { a.kernel_height = 9; },
       "smaller than the dilated kernel"},
      {"huge size", [](tcc_conv2d_args &a) { a.in_width = int64_t(1) << 40; },
       "in_width"},
      {"layout", [](tcc_conv2d_args &a) { a.layout = 7; }, "unknown layout 7"},
      {"null input", [](tcc_conv2d_args &a) { a.input = nullptr; }, "NULL"},
      {"null workspace", [](tcc_conv2d_args &a) { a.workspace = nullptr; },
       "workspace is NULL"},
      {"misaligned workspace",
       [](tcc_conv2d_args &a) {
         a.workspace = static_cast<char *>(a.workspace) + 4;
       },
       "64-byte aligned"},
      {"activation",
       [](tcc_conv2d_args &a) {
         const_cast<tcc_epilogue *>(a.epilogue)->activation = -1;
       },
       "unknown activation"},
  };
  for (const Bad &bad : cases) {
    ConvRun run(with_epilogue({1, 3, 5, 5, 3, 3, 3}, TCC_ACTIVATION_RELU),
                TCC_LAYOUT_NHWC); // NHWC im2col needs a workspace
    tcc_conv2d_args a = run.args();
    run.workspace = AlignedBuffer(tcc_conv2d_workspace_size(&a, nullptr) + 64);
    a.workspace = run.workspace.get();
    bad.mutate(a);
    EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_INVALID_ARGUMENT) << bad.what;
    EXPECT_NE(std::string(tcc_kernels_last_error()).find(bad.message),
              std::string::npos)
        << bad.what << ": message was '" << tcc_kernels_last_error() << "'";
    EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr) == 0,
              std::string(bad.what) != "null input" &&
                  std::string(bad.what) != "null workspace" &&
                  std::string(bad.what) != "misaligned workspace" &&
                  std::string(bad.what) != "activation")
        << bad.what;
  }
  EXPECT_EQ(tcc_conv2d(nullptr, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_conv2d_workspace_size(nullptr, nullptr), 0u);
}

// --- Winograd F(2x2, 3x3): NHWC, 3x3, stride 1, >= 16 channels --------------

// Every output size 1..9 in each direction (odd ones end in partial 2x2
// tiles), padding 0, 1 and 2, 16, 17 and 48 input channels, batches of at
// least 2 (and the 32 tiles that Winograd needs), and every epilogue; both
// layouts, NHWC also with packed weights (same bits).
TEST(Conv2dWinograd, OddSizesPaddingsAndEpilogues) {
  const int64_t channels[] = {16, 17, 48}, out_channels[] = {16, 33, 17};
  int i = 0, activation = TCC_ACTIVATION_RELU;
  for (int64_t pad : {0, 1, 2})
    for (int64_t out_h = 1; out_h <= 9; ++out_h) {
      const int64_t out_w = 10 - out_h;
      const int64_t in_h = out_h + 2 - 2 * pad, in_w = out_w + 2 - 2 * pad;
      if (in_h < 1 || in_w < 1)
        continue;
      const int64_t tiles = ((out_h + 1) / 2) * ((out_w + 1) / 2);
      const int64_t batch = std::max<int64_t>(2, (32 + tiles - 1) / tiles);
      ConvCase cs{batch,
                  channels[i % 3],
                  in_h,
                  in_w,
                  out_channels[i % 3],
                  3,
                  3,
                  1,
                  1,
                  pad,
                  pad};
      ASSERT_TRUE(cs.winograd(TCC_LAYOUT_NHWC)) << cs.name(TCC_LAYOUT_NHWC);
      ASSERT_EQ(cs.out_h(), out_h);
      if (i++ % 2) {
        check_case(cs);
      } else {
        check_case(with_epilogue(cs, activation));
        activation = activation % TCC_ACTIVATION_TANH + 1;
      }
    }
  // Padding that differs between height and width.
  check_case({4, 16, 6, 5, 16, 3, 3, 1, 1, 0, 2});
  check_case(
      with_epilogue({3, 20, 4, 7, 24, 3, 3, 1, 1, 2, 1}, TCC_ACTIVATION_CLAMP));
}

// 578 tiles of 64 channels run in chunks of 256 (V and M within ~2 MiB),
// the last one partial and chunks straddling the two images. Each thread
// count gives the bits of the serial run, with packed weights too.
TEST(Conv2dWinograd, ThreadCountAndChunksDoNotChangeTheBits) {
  const ConvCase cs =
      with_epilogue({2, 64, 34, 33, 64, 3, 3, 1, 1, 1, 1}, TCC_ACTIVATION_SILU);
  ConvRun serial(cs, TCC_LAYOUT_NHWC);
  ASSERT_EQ(serial.run(), TCC_KERNEL_OK) << tcc_kernels_last_error();
  serial.expect_matches_reference();
  for (bool packed : {false, true})
    for (int threads : {1, 2, 3}) {
      tcc::runtime::ThreadPool pool(threads);
      tcc_parallel parallel = pool.c_parallel();
      ConvRun run(cs, TCC_LAYOUT_NHWC);
      run.packed = packed;
      ASSERT_EQ(run.run(&parallel), TCC_KERNEL_OK) << tcc_kernels_last_error();
      EXPECT_EQ(0, std::memcmp(serial.out_l.data(), run.out_l.data(),
                               serial.out_l.size() * sizeof(float)))
          << threads << " threads, packed " << packed;
    }
}

TEST(Conv2dWinograd, WorkspaceAndPackedWeightSizes) {
  ConvRun run({4, 16, 5, 5, 17, 3, 3, 1, 1, 1, 1}, TCC_LAYOUT_NHWC);
  tcc_conv2d_args a = run.args();
  // 16 transformed 16 x 17 matrices, each a 64-byte header and one panel
  // of 16 x 32 floats.
  const size_t matrix = 64 + 4 * 16 * 32;
  EXPECT_EQ(tcc_conv2d_packed_weight_size(&a), 16 * matrix);
  // Unpacked: the matrices, a zero row of 16 channels (64 bytes), then V
  // and M of all 4 x 9 tiles: 16 planes of 36 x 16 and of 36 x 17 floats,
  // each rounded up to 16 floats and 16 more apart (no 4 KiB aliasing).
  const size_t tiles = 4 * 16 * (576 + 16) + 4 * 16 * (624 + 16);
  EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr), 16 * matrix + 64 + tiles);
  AlignedBuffer packed(tcc_conv2d_packed_weight_size(&a));
  ASSERT_EQ(tcc_conv2d_pack_weight(&a, packed.get()), TCC_KERNEL_OK);
  a.packed_weight = packed.get();
  EXPECT_EQ(tcc_conv2d_workspace_size(&a, nullptr), 64 + tiles);
}

// Shapes just outside the Winograd path keep im2col's packed form (one
// matrix per group, k = kernel taps * in_channels / groups) and its results.
TEST(Conv2dWinograd, OtherShapesTakeIm2col) {
  const ConvCase cases[] = {
      {1, 15, 6, 6, 16, 3, 3, 1, 1, 1, 1},          // 15 input channels
      {1, 16, 6, 6, 15, 3, 3, 1, 1, 1, 1},          // 15 output channels
      {1, 16, 7, 7, 16, 3, 3, 2, 2, 1, 1},          // stride 2
      {1, 16, 7, 7, 16, 3, 3, 1, 1, 2, 2, 2, 2},    // dilation 2
      {1, 32, 6, 6, 32, 3, 3, 1, 1, 1, 1, 1, 1, 2}, // 2 groups
      {1, 16, 6, 6, 16, 3, 1, 1, 1, 1, 0},          // 3x1 kernel
      {1, 16, 6, 6, 16, 5, 5, 1, 1, 2, 2},          // 5x5 kernel
      {3, 16, 6, 6, 16, 3, 3, 1, 1, 1, 1},          // 27 tiles
      {1, 64, 7, 7, 64, 3, 3, 1, 1, 1, 1},          // 16 tiles
  };
  for (const ConvCase &cs : cases) {
    ASSERT_FALSE(cs.winograd(TCC_LAYOUT_NHWC)) << cs.name(TCC_LAYOUT_NHWC);
    ConvRun run(cs, TCC_LAYOUT_NHWC);
    tcc_conv2d_args a = run.args();
    const int64_t k = cs.kh * cs.kw * cs.channels / cs.groups;
    const int64_t panels = (cs.out_channels / cs.groups + 31) / 32;
    EXPECT_EQ(tcc_conv2d_packed_weight_size(&a),
              size_t(cs.groups * (64 + 4 * k * panels * 32)))
        << cs.name(TCC_LAYOUT_NHWC);
    check_case(cs);
  }
}

TEST(Conv2dWinograd, RejectsPackedWeightsOfAnotherShape) {
  ConvRun run({4, 16, 6, 6, 16, 3, 3, 1, 1, 1, 1}, TCC_LAYOUT_NHWC);
  tcc_conv2d_args a = run.args();
  // im2col's form of the same weights (one 144 x 16 matrix).
  ConvRun strided({1, 16, 6, 6, 16, 3, 3, 2, 2, 1, 1}, TCC_LAYOUT_NHWC);
  tcc_conv2d_args b = strided.args();
  AlignedBuffer other(tcc_conv2d_packed_weight_size(&b));
  ASSERT_EQ(tcc_conv2d_pack_weight(&b, other.get()), TCC_KERNEL_OK);
  a.packed_weight = other.get();
  run.workspace = AlignedBuffer(tcc_conv2d_workspace_size(&a, nullptr));
  a.workspace = run.workspace.get();
  EXPECT_EQ(tcc_conv2d(&a, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("144 x 16"),
            std::string::npos)
      << tcc_kernels_last_error();
}

} // namespace
