//===- ConvTest.cpp - linear, conv2d, conv1d, conv_transpose2d ------------===//

#include "TestSupport.h"

using namespace tcc;

namespace {

struct Conv {
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1, groups = 1;
  int64_t oph = 0, opw = 0; // transposed only
};

/// Naive conv2d in double: out[n][o][y][x] = b[o] + sum w * x.
std::vector<double> naiveConv2d(const Tensor &x, const Tensor &w,
                                const Tensor &b, const Conv &c, int64_t &oh,
                                int64_t &ow) {
  std::vector<double> xv = test::values(x), wv = test::values(w);
  std::vector<double> bv =
      b.defined() ? test::values(b) : std::vector<double>();
  int64_t n = x.size(0), ch = x.size(1), h = x.size(2), wd = x.size(3);
  int64_t o = w.size(0), cg = w.size(1), kh = w.size(2), kw = w.size(3);
  int64_t og = o / c.groups;
  oh = (h + 2 * c.ph - c.dh * (kh - 1) - 1) / c.sh + 1;
  ow = (wd + 2 * c.pw - c.dw * (kw - 1) - 1) / c.sw + 1;
  std::vector<double> out(size_t(n * o * oh * ow), 0.0);
  for (int64_t s = 0; s < n; ++s)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo) {
          double acc = bv.empty() ? 0.0 : bv[size_t(oc)];
          int64_t g = oc / og;
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t iy = y * c.sh - c.ph + i * c.dh;
                int64_t ix = xo * c.sw - c.pw + j * c.dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                  continue;
                acc += xv[size_t(((s * ch + g * cg + ic) * h + iy) * wd + ix)] *
                       wv[size_t(((oc * cg + ic) * kh + i) * kw + j)];
              }
          out[size_t(((s * o + oc) * oh + y) * ow + xo)] = acc;
        }
  return out;
}

/// Naive conv_transpose2d: every input element scatters w * x.
std::vector<double> naiveConvTranspose2d(const Tensor &x, const Tensor &w,
                                         const Tensor &b, const Conv &c,
                                         int64_t &oh, int64_t &ow) {
  std::vector<double> xv = test::values(x), wv = test::values(w);
  std::vector<double> bv =
      b.defined() ? test::values(b) : std::vector<double>();
  int64_t n = x.size(0), ci = x.size(1), h = x.size(2), wd = x.size(3);
  int64_t og = w.size(1), kh = w.size(2), kw = w.size(3);
  int64_t cig = ci / c.groups, o = og * c.groups;
  oh = (h - 1) * c.sh - 2 * c.ph + c.dh * (kh - 1) + c.oph + 1;
  ow = (wd - 1) * c.sw - 2 * c.pw + c.dw * (kw - 1) + c.opw + 1;
  std::vector<double> out(size_t(n * o * oh * ow), 0.0);
  for (int64_t s = 0; s < n; ++s)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t p = 0; p < oh * ow; ++p)
        out[size_t((s * o + oc) * oh * ow + p)] =
            bv.empty() ? 0 : bv[size_t(oc)];
  for (int64_t s = 0; s < n; ++s)
    for (int64_t ic = 0; ic < ci; ++ic) {
      int64_t g = ic / cig;
      for (int64_t y = 0; y < h; ++y)
        for (int64_t xi = 0; xi < wd; ++xi)
          for (int64_t oc = 0; oc < og; ++oc)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t oy = y * c.sh - c.ph + i * c.dh;
                int64_t ox = xi * c.sw - c.pw + j * c.dw;
                if (oy < 0 || oy >= oh || ox < 0 || ox >= ow)
                  continue;
                out[size_t(((s * o + g * og + oc) * oh + oy) * ow + ox)] +=
                    xv[size_t(((s * ci + ic) * h + y) * wd + xi)] *
                    wv[size_t(((ic * og + oc) * kh + i) * kw + j)];
              }
    }
  return out;
}

/// Calls tap(g, in, w) for every (output gradient, input element, weight)
/// triple a conv2d window pairs: flat indices into go [N, O, OH, OW], the
/// input [N, C, H, W] and the weight [O, C / groups, kh, kw].
template <class Tap>
void forEachTap(IntArrayRef inputSizes, IntArrayRef outputSizes, int64_t kh,
                int64_t kw, const Conv &c, Tap tap) {
  int64_t n = inputSizes[0], ch = inputSizes[1], h = inputSizes[2],
          wd = inputSizes[3];
  int64_t o = outputSizes[1], oh = outputSizes[2], ow = outputSizes[3];
  int64_t cg = ch / c.groups, og = o / c.groups;
  for (int64_t s = 0; s < n; ++s)
    for (int64_t oc = 0; oc < o; ++oc)
      for (int64_t y = 0; y < oh; ++y)
        for (int64_t xo = 0; xo < ow; ++xo)
          for (int64_t ic = 0; ic < cg; ++ic)
            for (int64_t i = 0; i < kh; ++i)
              for (int64_t j = 0; j < kw; ++j) {
                int64_t iy = y * c.sh - c.ph + i * c.dh;
                int64_t ix = xo * c.sw - c.pw + j * c.dw;
                if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                  continue;
                tap(size_t(((s * o + oc) * oh + y) * ow + xo),
                    size_t(((s * ch + oc / og * cg + ic) * h + iy) * wd + ix),
                    size_t(((oc * cg + ic) * kh + i) * kw + j));
              }
}

/// Naive weight gradient of conv2d in double: dW[o][ci][i][j] = sum over
/// images and output pixels of go[s][o][y][x] times the input element tap
/// (i, j) reads there.
std::vector<double> naiveWeightGrad(const Tensor &x, const Tensor &go,
                                    int64_t kh, int64_t kw, const Conv &c) {
  std::vector<double> xv = test::values(x), gv = test::values(go);
  std::vector<double> out(
      size_t(go.size(1) * (x.size(1) / c.groups) * kh * kw), 0.0);
  forEachTap(x.sizes(), go.sizes(), kh, kw, c,
             [&](size_t g, size_t in, size_t w) { out[w] += gv[g] * xv[in]; });
  return out;
}

/// Naive input gradient of conv2d in double: each output gradient scattered
/// through the weights onto the input elements its window reads.
std::vector<double> naiveInputGrad(const Tensor &go, const Tensor &w,
                                   IntArrayRef inputSizes, const Conv &c) {
  std::vector<double> gv = test::values(go), wv = test::values(w);
  std::vector<double> out(size_t(inputSizes[0] * inputSizes[1] *
                                 inputSizes[2] * inputSizes[3]),
                          0.0);
  forEachTap(inputSizes, go.sizes(), w.size(2), w.size(3), c,
             [&](size_t g, size_t in, size_t wi) { out[in] += gv[g] * wv[wi]; });
  return out;
}

/// Runs conv2d forward and backward with every operand requiring grad and
/// checks output and all three gradients against the naive references.
void expectTrainingStepMatchesNaive(const Tensor &x, const Tensor &w,
                                    const Tensor &b, const Conv &c,
                                    double tol) {
  Tensor xs = x.clone().requires_grad_(), ws = w.clone().requires_grad_(),
         bs = b.clone().requires_grad_();
  Tensor y =
      conv2d(xs, ws, bs, {c.sh, c.sw}, {c.ph, c.pw}, {c.dh, c.dw}, c.groups);
  int64_t oh, ow;
  std::vector<double> ref = naiveConv2d(x, w, b, c, oh, ow);
  EXPECT_TENSOR(y, {x.size(0), w.size(0), oh, ow}, ref, tol);
  Tensor go = randn(y.sizes(), x.dtype());
  y.backward(go);
  EXPECT_TENSOR(ws.grad(), w.sizes().vec(),
                naiveWeightGrad(x, go, w.size(2), w.size(3), c), tol);
  EXPECT_TENSOR(xs.grad(), x.sizes().vec(), naiveInputGrad(go, w, x.sizes(), c),
                tol);
  EXPECT_TENSOR(bs.grad(), {w.size(0)}, test::values(go.sum({0, 2, 3})), tol);
}

Tensor conv2dWith(const Tensor &x, const Tensor &w, const Tensor &b,
                  const Conv &c) {
  return conv2d(x, w, b, {c.sh, c.sw}, {c.ph, c.pw}, {c.dh, c.dw}, c.groups);
}

Tensor convTransposeWith(const Tensor &x, const Tensor &w, const Tensor &b,
                         const Conv &c) {
  return conv_transpose2d(x, w, b, {c.sh, c.sw}, {c.ph, c.pw}, {c.oph, c.opw},
                          c.groups, {c.dh, c.dw});
}

std::vector<Conv> convCases() {
  std::vector<Conv> cases(6);
  cases[1].sh = 2;
  cases[1].ph = 1;
  cases[1].pw = 1;
  cases[2].sh = 2;
  cases[2].sw = 3;
  cases[2].ph = 2;
  cases[2].dh = 2;
  cases[2].dw = 1;
  cases[3].groups = 2;
  cases[3].pw = 1;
  cases[4].groups = 4; // depthwise
  cases[4].ph = 1;
  cases[4].pw = 1;
  cases[5].sw = 2;
  cases[5].dh = 3;
  cases[5].ph = 1;
  cases[5].groups = 2;
  return cases;
}

} // namespace

TEST(ConvTest, LinearHandComputed) {
  Tensor x = tensor({{1.0, 2.0}, {3.0, 4.0}});
  Tensor w = tensor({{1.0, 0.0}, {0.0, 1.0}, {1.0, 1.0}});
  Tensor b = tensor({1.0, 2.0, 3.0});
  EXPECT_TENSOR(linear(x, w, b), {2, 3}, {2, 4, 6, 4, 6, 10});
  EXPECT_TENSOR(linear(x, w), {2, 3}, {1, 2, 3, 3, 4, 7});
  EXPECT_TENSOR(linear(x.to(kDouble), w.to(kDouble), b.to(kDouble)), {2, 3},
                {2, 4, 6, 4, 6, 10});
  EXPECT_TENSOR(linear(tensor({1.0, 2.0}), w, b), {3}, {2, 4, 6});
  // Leading dims are kept; a transposed (non-contiguous) weight works.
  Tensor x3 = arange(12, kFloat).view({2, 3, 2});
  EXPECT_TENSOR(linear(x3, w.t().contiguous().t(), b), {2, 3, 3},
                {1, 3, 4, 3, 5, 8, 5, 7, 12, 7, 9, 16, 9, 11, 20, 11, 13, 24});
  // No input features: the bias alone.
  EXPECT_TENSOR(linear(zeros({2, 0}), zeros({3, 0}), b), {2, 3},
                {1, 2, 3, 1, 2, 3});
}

TEST(ConvTest, LinearMatchesMatmulOnLargerShapes) {
  manual_seed(4);
  for (ScalarType dt : {kFloat, kDouble}) {
    Tensor x = randn({37, 65}, dt), w = randn({29, 65}, dt),
           b = randn({29}, dt);
    Tensor ref = x.to(kDouble).matmul(w.to(kDouble).t()) + b.to(kDouble);
    EXPECT_TENSOR(linear(x, w, b), {37, 29}, test::values(ref),
                  dt == kFloat ? 1e-4 : 1e-12);
  }
}

TEST(ConvTest, LinearErrors) {
  EXPECT_EQ(test::errorOf([] {
              linear(ones({2, 3}), ones({5, 4}));
            }),
            "mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)");
  EXPECT_ERROR_CONTAINS(linear(ones({2, 3}), ones({3})), "weight must be 2-D");
  EXPECT_ERROR_CONTAINS(linear(ones({2, 3}), ones({4, 3}), ones({3})),
                        "expected bias of size [4] to match weight of size "
                        "[4, 3], but got bias of size [3]");
  EXPECT_ERROR_CONTAINS(linear(ones({2, 3}), ones({4, 3}, kDouble)),
                        "same dtype, but got Float and Double");
}

TEST(ConvTest, Conv2dHandComputed) {
  Tensor x = arange(9, kFloat).view({1, 1, 3, 3});
  Tensor w = ones({1, 1, 2, 2});
  EXPECT_TENSOR(conv2d(x, w), {1, 1, 2, 2}, {8, 12, 20, 24});
  EXPECT_TENSOR(conv2d(x, w, tensor({1.0f})), {1, 1, 2, 2}, {9, 13, 21, 25});
  // Padding 1, stride 2: windows at (-1,-1), (-1,1), (1,-1), (1,1).
  EXPECT_TENSOR(conv2d(x, w, {}, 2, 1), {1, 1, 2, 2}, {0, 3, 9, 24});
  // Dilation 2 picks the corners.
  EXPECT_TENSOR(conv2d(x, w, {}, 1, 0, 2), {1, 1, 1, 1}, {0 + 2 + 6 + 8});
  // Unbatched input [C, H, W].
  EXPECT_TENSOR(conv2d(x[0], w), {1, 2, 2}, {8, 12, 20, 24});
  EXPECT_TENSOR(conv2d(x.to(kDouble), w.to(kDouble)), {1, 1, 2, 2},
                {8, 12, 20, 24});
}

TEST(ConvTest, Conv2dMatchesNaiveReference) {
  manual_seed(7);
  for (const Conv &c : convCases())
    for (ScalarType dt : {kFloat, kDouble}) {
      Tensor x = randn({2, 4, 7, 8}, dt);
      Tensor w = randn({6 - (c.groups == 4 ? 2 : 0), 4 / c.groups, 3, 2}, dt);
      Tensor b = randn({w.size(0)}, dt);
      int64_t oh, ow;
      std::vector<double> ref = naiveConv2d(x, w, b, c, oh, ow);
      double tol = dt == kFloat ? 1e-4 : 1e-12;
      EXPECT_TENSOR(conv2dWith(x, w, b, c), {2, w.size(0), oh, ow}, ref, tol)
          << "groups " << c.groups << " stride " << c.sh << "," << c.sw;
      // Non-contiguous input and no bias.
      Tensor xt = x.transpose(2, 3).contiguous().transpose(2, 3);
      ref = naiveConv2d(xt, w, Tensor(), c, oh, ow);
      EXPECT_TENSOR(conv2dWith(xt, w, Tensor(), c), {2, w.size(0), oh, ow}, ref,
                    tol);
    }
  // A pointwise (1x1) convolution and half precision.
  Tensor x = randn({1, 3, 4, 4}), w = randn({5, 3, 1, 1});
  int64_t oh, ow;
  std::vector<double> ref = naiveConv2d(x, w, Tensor(), Conv(), oh, ow);
  EXPECT_TENSOR(conv2d(x, w), {1, 5, 4, 4}, ref, 1e-5);
  EXPECT_TENSOR(conv2d(x.to(kDouble), w.to(kDouble)), {1, 5, 4, 4}, ref, 1e-12);
  EXPECT_TENSOR(conv2d(x.to(kHalf), w.to(kHalf)), {1, 5, 4, 4}, ref, 2e-2);
}

TEST(ConvTest, Conv2dPaddingStrings) {
  manual_seed(8);
  Tensor x = randn({1, 2, 5, 6}, kDouble), w = randn({3, 2, 3, 4}, kDouble);
  Tensor same = conv2d(x, w, {}, 1, "same");
  EXPECT_EQ(same.sizes().vec(), std::vector<int64_t>({1, 3, 5, 6}));
  // Width: total padding 3, one left and two right (PyTorch's split).
  Tensor ref = conv2d(constant_pad_nd(x, {1, 2, 1, 1}), w);
  EXPECT_TRUE(same.allclose(ref));
  EXPECT_TRUE(conv2d(x, w, {}, 1, "valid").allclose(conv2d(x, w)));
  Tensor dil = conv2d(x, w, {}, 1, "same", 2);
  EXPECT_EQ(dil.sizes().vec(), std::vector<int64_t>({1, 3, 5, 6}));
  EXPECT_ERROR_CONTAINS(conv2d(x, w, {}, 2, "same"),
                        "padding='same' is not supported for strided "
                        "convolutions");
  EXPECT_ERROR_CONTAINS(conv2d(x, w, {}, 1, "full"), "Invalid padding string");
}

TEST(ConvTest, Conv1dMatchesConv2dOnUnitHeight) {
  manual_seed(9);
  Tensor x = randn({2, 4, 9}, kDouble), w = randn({6, 2, 3}, kDouble);
  Tensor b = randn({6}, kDouble);
  Tensor y = conv1d(x, w, b, 2, 1, 2, 2);
  Conv c;
  c.sw = 2;
  c.pw = 1;
  c.dw = 2;
  c.groups = 2;
  int64_t oh, ow;
  std::vector<double> ref =
      naiveConv2d(x.unsqueeze(2), w.unsqueeze(2), b, c, oh, ow);
  EXPECT_TENSOR(y, {2, 6, ow}, ref, 1e-12);
  EXPECT_TENSOR(conv1d(x[0], w, b, 2, 1, 2, 2), {6, ow},
                std::vector<double>(ref.begin(), ref.begin() + 6 * ow), 1e-12);
  EXPECT_EQ(conv1d(x, w, b, 1, "same", 1, 2).sizes().vec(),
            std::vector<int64_t>({2, 6, 9}));
  EXPECT_ERROR_CONTAINS(conv1d(x, ones({6, 2, 3, 1}, kDouble)),
                        "conv1d: expected a 3-D weight");
}

TEST(ConvTest, ConvTranspose2dMatchesNaiveReference) {
  manual_seed(10);
  std::vector<Conv> cases = convCases();
  cases[1].oph = 1;
  cases[2].opw = 2;
  cases[2].oph = 1;
  for (const Conv &c : cases)
    for (ScalarType dt : {kFloat, kDouble}) {
      Tensor x = randn({2, 4, 5, 4}, dt);
      Tensor w = randn({4, 3, 3, 2}, dt);
      Tensor b = randn({3 * c.groups}, dt);
      int64_t oh, ow;
      std::vector<double> ref = naiveConvTranspose2d(x, w, b, c, oh, ow);
      EXPECT_TENSOR(convTransposeWith(x, w, b, c), {2, 3 * c.groups, oh, ow},
                    ref, dt == kFloat ? 1e-4 : 1e-12)
          << "groups " << c.groups;
    }
}

TEST(ConvTest, TrainingStepMatchesNaiveReferences) {
  // A weight that requires grad makes conv2d keep the batch's columns for
  // the weight gradient (the columns path, float32 included); odd sizes,
  // strides, padding, dilation and groups against naive references.
  manual_seed(14);
  for (const Conv &c : convCases())
    for (ScalarType dt : {kFloat, kDouble}) {
      Tensor x = randn({3, 4, 7, 9}, dt);
      Tensor w = randn({c.groups == 4 ? 4 : 6, 4 / c.groups, 3, 2}, dt);
      Tensor b = randn({w.size(0)}, dt);
      SCOPED_TRACE(::testing::Message()
                   << "groups " << c.groups << " stride " << c.sh << "," << c.sw
                   << " dtype " << dt);
      expectTrainingStepMatchesNaive(x, w, b, c, dt == kFloat ? 1e-4 : 1e-12);
    }
  // 1x1, and a kernel as large as the padded input.
  Conv pointwise, whole;
  whole.ph = 1;
  expectTrainingStepMatchesNaive(randn({2, 3, 5, 4}), randn({5, 3, 1, 1}),
                                 randn({5}), pointwise, 1e-4);
  expectTrainingStepMatchesNaive(randn({2, 3, 3, 4}), randn({2, 3, 5, 4}),
                                 randn({2}), whole, 1e-4);
}

TEST(ConvTest, ChunkedColumnsMatchNaiveReferences) {
  // Columns beyond the 16 MiB budget: five images of 64 x 48 x 48 with a
  // 3x3 kernel make 1.3M column elements each, so forward (float64),
  // weight and input gradients run three images, then two; float32 does not
  // keep such columns and recomputes them for the weight gradient.
  manual_seed(15);
  Conv c;
  c.ph = 1;
  c.pw = 1;
  for (ScalarType dt : {kDouble, kFloat}) {
    SCOPED_TRACE(::testing::Message() << "dtype " << dt);
    // The weight gradient sums 11,520 products of unit normals (partial sums
    // ~100): float32 rounding reaches ~1e-3 there.
    expectTrainingStepMatchesNaive(randn({5, 64, 48, 48}, dt),
                                   randn({3, 64, 3, 3}, dt), randn({3}, dt), c,
                                   dt == kFloat ? 5e-3 : 1e-10);
  }
  // conv_transpose2d over the same chunks: its output is the naive input
  // gradient of the conv2d it is the adjoint of.
  Tensor go = randn({5, 3, 48, 48}, kDouble), w = randn({3, 64, 3, 3}, kDouble);
  EXPECT_TENSOR(conv_transpose2d(go, w, {}, 1, 1), {5, 64, 48, 48},
                naiveInputGrad(go, w, {5, 64, 48, 48}, c), 1e-12);
}

TEST(ConvTest, ConvTranspose2dGradientsMatchNaiveReferences) {
  // conv_transpose2d(x, w) is the adjoint of conv2d(., w), so for the loss
  // sum(y * gy) its weight gradient is conv2d's weight gradient with input
  // gy and output gradient x (no kept columns: they are built here), and
  // its input gradient is conv2d(gy, w).
  manual_seed(16);
  std::vector<Conv> cases = convCases();
  cases[1].oph = 1;
  for (const Conv &c : cases)
    for (ScalarType dt : {kFloat, kDouble}) {
      SCOPED_TRACE(::testing::Message()
                   << "groups " << c.groups << " dtype " << dt);
      Tensor x = randn({3, 4, 5, 4}, dt).requires_grad_();
      Tensor w = randn({4, 3, 3, 2}, dt).requires_grad_();
      Tensor y = convTransposeWith(x, w, Tensor(), c);
      Tensor gy = randn(y.sizes(), dt);
      y.backward(gy);
      double tol = dt == kFloat ? 1e-4 : 1e-12;
      EXPECT_TENSOR(w.grad(), {4, 3, 3, 2},
                    naiveWeightGrad(gy, x.detach(), 3, 2, c), tol);
      int64_t oh, ow;
      EXPECT_TENSOR(x.grad(), {3, 4, 5, 4},
                    naiveConv2d(gy, w.detach(), Tensor(), c, oh, ow), tol);
    }
}

TEST(ConvTest, Errors) {
  Tensor x = ones({1, 3, 8, 8});
  EXPECT_EQ(test::errorOf([&] {
              conv2d(x, ones({16, 4, 3, 3}));
            }),
            "Given groups=1, weight of size [16, 4, 3, 3], expected "
            "input[1, 3, 8, 8] to have 4 channels, but got 3 channels instead");
  EXPECT_EQ(test::errorOf([&] {
              conv2d(x, ones({3, 1, 3, 3}), {}, 1, 0, 1, 2);
            }),
            "Given groups=2, expected weight to be divisible by 2 at dimension "
            "0, but got weight of size [3, 1, 3, 3] instead");
  EXPECT_EQ(test::errorOf([&] {
              conv2d(x, ones({16, 3, 3, 3}), ones({8}));
            }),
            "Given weight of size [16, 3, 3, 3], expected bias to be "
            "1-dimensional with 16 elements, but got bias of size [8] instead");
  EXPECT_EQ(test::errorOf([] {
              conv2d(ones({1, 1, 2, 2}), ones({1, 1, 3, 3}));
            }),
            "Calculated padded input size per channel: (2 x 2). Kernel size: "
            "(3 x 3). Kernel size can't be greater than actual input size");
  EXPECT_ERROR_CONTAINS(conv2d(ones({3, 8}), ones({1, 1, 3, 3})),
                        "Expected 3D (unbatched) or 4D (batched) input to "
                        "conv2d, but got input of size: [3, 8]");
  EXPECT_ERROR_CONTAINS(conv2d(x, ones({1, 3, 3})), "expected a 4-D weight");
  EXPECT_ERROR_CONTAINS(conv2d(x, ones({1, 3, 3, 3}), {}, {1, 1, 1}),
                        "expected stride to be a single integer value or a "
                        "list of 2 values");
  EXPECT_ERROR_CONTAINS(conv2d(x, ones({1, 3, 3, 3}), {}, 0),
                        "non-positive stride is not supported");
  EXPECT_ERROR_CONTAINS(conv2d(x, ones({1, 3, 3, 3}, kDouble)),
                        "input type (Float) and weight type (Double) should be "
                        "the same");
  EXPECT_ERROR_CONTAINS(conv2d(x.to(kLong), ones({1, 3, 3, 3}, kLong)),
                        "expected a floating point input, got Long");
  EXPECT_ERROR_CONTAINS(conv_transpose2d(x, ones({4, 2, 3, 3})),
                        "Given transposed=1, weight of size [4, 2, 3, 3], "
                        "expected input[1, 3, 8, 8] to have 4 channels");
  EXPECT_ERROR_CONTAINS(
      conv_transpose2d(x, ones({3, 2, 3, 3}), {}, 2, 0, 2),
      "output padding must be smaller than either stride or dilation");
}

TEST(ConvTest, Float32GradientsMatchFloat64) {
  // The float path runs the runtime kernels forward and backward (the
  // weight gradient is itself an unusual convolution); float64 runs the
  // reference path.
  manual_seed(11);
  for (const Conv &c : convCases()) {
    Tensor x = randn({2, 4, 7, 8}, kDouble);
    Tensor w = randn({c.groups == 4 ? 4 : 6, 4 / c.groups, 3, 2}, kDouble);
    Tensor b = randn({w.size(0)}, kDouble);
    std::vector<Tensor> grads[2];
    for (int k = 0; k < 2; ++k) {
      ScalarType dt = k == 0 ? kFloat : kDouble;
      Tensor xs = x.to(dt).requires_grad_(), ws = w.to(dt).requires_grad_(),
             bs = b.to(dt).requires_grad_();
      Tensor y = conv2dWith(xs, ws, bs, c);
      (y * y).sum().backward();
      grads[k] = {xs.grad(), ws.grad(), bs.grad()};
    }
    for (int i = 0; i < 3; ++i)
      EXPECT_TRUE(grads[0][size_t(i)].to(kDouble).allclose(grads[1][size_t(i)],
                                                           1e-4, 1e-3))
          << "gradient " << i << ", groups " << c.groups;
  }
}

TEST(ConvTest, Gradcheck) {
  manual_seed(12);
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) { return linear(in[0], in[1], in[2]); },
      {test::leaf({2, 3, 4}), test::leaf({5, 4}), test::leaf({5})}));
  for (const Conv &c : convCases()) {
    Tensor w =
        test::leaf({c.groups == 4 ? 4 : 2 * c.groups, 4 / c.groups, 2, 3});
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return conv2dWith(in[0], in[1], in[2], c);
        },
        {test::leaf({2, 4, 6, 5}), w, test::leaf({w.size(0)})}))
        << "conv2d, groups " << c.groups;
  }
  std::vector<Conv> cases = convCases();
  cases[1].oph = 1;
  for (const Conv &c : cases) {
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return convTransposeWith(in[0], in[1], in[2], c);
        },
        {test::leaf({1, 4, 4, 3}), test::leaf({4, 2, 2, 3}),
         test::leaf({2 * c.groups})}))
        << "conv_transpose2d, groups " << c.groups;
  }
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return conv1d(in[0], in[1], in[2], 2, 1, 1, 2);
      },
      {test::leaf({2, 4, 7}), test::leaf({4, 2, 3}), test::leaf({4})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return conv2d(in[0], in[1], {}, 1, "same");
      },
      {test::leaf({1, 2, 4, 5}), test::leaf({2, 2, 2, 3})}));
}

TEST(ConvTest, Gradgradcheck) {
  manual_seed(13);
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return linear(in[0], in[1], in[2]).tanh();
      },
      {test::leaf({3, 4}), test::leaf({2, 4}), test::leaf({2})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor y = conv2d(in[0], in[1], in[2], 2, 1, 1, 2);
        return y * y;
      },
      {test::leaf({1, 4, 5, 4}), test::leaf({4, 2, 3, 2}), test::leaf({4})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor y = conv_transpose2d(in[0], in[1], {}, 2, 1, 1);
        return y * y;
      },
      {test::leaf({1, 2, 3, 3}), test::leaf({2, 3, 3, 3})}));
}
