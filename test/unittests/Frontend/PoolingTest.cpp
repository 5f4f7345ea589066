//===- PoolingTest.cpp - max_pool2d, avg_pool2d, adaptive_avg_pool2d ------===//

#include "TestSupport.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace tcc;

namespace {

struct Pool {
  int64_t kh, kw, sh, sw, ph = 0, pw = 0, dh = 1, dw = 1;
  bool ceil = false, includePad = true;
  std::optional<int64_t> divisor;
};

int64_t outSize(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d,
                bool ceil) {
  double v = double(in + 2 * p - d * (k - 1) - 1) / double(s);
  int64_t out = int64_t(ceil ? std::ceil(v) : std::floor(v)) + 1;
  if (ceil && (out - 1) * s >= in + p)
    --out;
  return out;
}

/// Naive max pooling of [planes, h, w] values; also the argmax indices.
std::vector<double> naiveMaxPool(const Tensor &x, const Pool &p, int64_t &oh,
                                 int64_t &ow, std::vector<double> &indices) {
  std::vector<double> v = test::values(x);
  int64_t h = x.size(-2), w = x.size(-1), planes = x.numel() / (h * w);
  oh = outSize(h, p.kh, p.sh, p.ph, p.dh, p.ceil);
  ow = outSize(w, p.kw, p.sw, p.pw, p.dw, p.ceil);
  std::vector<double> out;
  indices.clear();
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xo = 0; xo < ow; ++xo) {
        double best = -std::numeric_limits<double>::infinity();
        int64_t arg = -1;
        for (int64_t i = 0; i < p.kh; ++i)
          for (int64_t j = 0; j < p.kw; ++j) {
            int64_t r = y * p.sh - p.ph + i * p.dh,
                    c = xo * p.sw - p.pw + j * p.dw;
            if (r < 0 || r >= h || c < 0 || c >= w)
              continue;
            double e = v[size_t(pl * h * w + r * w + c)];
            if (arg < 0 || e > best) {
              best = e;
              arg = r * w + c;
            }
          }
        out.push_back(best);
        indices.push_back(double(arg));
      }
  return out;
}

/// Naive average pooling, PyTorch's divisor rules.
std::vector<double> naiveAvgPool(const Tensor &x, const Pool &p, int64_t &oh,
                                 int64_t &ow) {
  std::vector<double> v = test::values(x);
  int64_t h = x.size(-2), w = x.size(-1), planes = x.numel() / (h * w);
  oh = outSize(h, p.kh, p.sh, p.ph, 1, p.ceil);
  ow = outSize(w, p.kw, p.sw, p.pw, 1, p.ceil);
  std::vector<double> out;
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t y = 0; y < oh; ++y)
      for (int64_t xo = 0; xo < ow; ++xo) {
        int64_t r0 = y * p.sh - p.ph, c0 = xo * p.sw - p.pw;
        int64_t r1 = std::min(r0 + p.kh, h + p.ph),
                c1 = std::min(c0 + p.kw, w + p.pw);
        int64_t padded = (r1 - r0) * (c1 - c0);
        double sum = 0;
        int64_t count = 0;
        for (int64_t r = std::max<int64_t>(r0, 0); r < std::min(r1, h); ++r)
          for (int64_t c = std::max<int64_t>(c0, 0); c < std::min(c1, w); ++c) {
            sum += v[size_t(pl * h * w + r * w + c)];
            ++count;
          }
        double div = p.divisor      ? double(*p.divisor)
                     : p.includePad ? double(padded)
                                    : double(count);
        out.push_back(count ? sum / div : 0.0);
      }
  return out;
}

std::vector<Pool> poolCases() {
  std::vector<Pool> c;
  c.push_back({2, 2, 2, 2});
  c.push_back({3, 3, 2, 2, 1, 1});
  c.push_back({3, 2, 1, 2, 1, 0, 2, 1});
  c.push_back({2, 3, 2, 2, 1, 1, 1, 2, true});
  c.push_back({3, 3, 3, 2, 1, 1, 1, 1, true, false});
  Pool d{2, 2, 1, 1, 1, 0};
  d.divisor = 3;
  c.push_back(d);
  // Windows inside the input (max pooling's bounds-free loops): overlapping
  // 2x2, and 3x2 with unequal strides.
  c.push_back({2, 2, 1, 1});
  c.push_back({3, 2, 2, 3});
  return c;
}

Tensor maxPoolWith(const Tensor &x, const Pool &p) {
  return max_pool2d(x, {p.kh, p.kw}, {p.sh, p.sw}, {p.ph, p.pw}, {p.dh, p.dw},
                    p.ceil);
}

Tensor avgPoolWith(const Tensor &x, const Pool &p) {
  return avg_pool2d(x, {p.kh, p.kw}, {p.sh, p.sw}, {p.ph, p.pw}, p.ceil,
                    p.includePad, p.divisor);
}

} // namespace

TEST(PoolingTest, HandComputed) {
  Tensor x = arange(16, kFloat).view({1, 1, 4, 4});
  EXPECT_TENSOR(max_pool2d(x, 2), {1, 1, 2, 2}, {5, 7, 13, 15});
  auto [values, indices] = max_pool2d_with_indices(x, 2);
  EXPECT_TENSOR(values, {1, 1, 2, 2}, {5, 7, 13, 15});
  EXPECT_TENSOR(indices, {1, 1, 2, 2}, {5, 7, 13, 15});
  EXPECT_EQ(indices.dtype(), kLong);
  EXPECT_TENSOR(avg_pool2d(x, 2), {1, 1, 2, 2}, {2.5, 4.5, 10.5, 12.5});
  // Padding 1, stride 2, kernel 2: the corner window holds x[0][0] only.
  EXPECT_TENSOR(avg_pool2d(x, 2, 2, 1), {1, 1, 3, 3},
                {0, 0.75, 0.75, 3, 7.5, 4.5, 3, 6.75, 3.75});
  EXPECT_TENSOR(avg_pool2d(x, 2, 2, 1, false, false), {1, 1, 3, 3},
                {0, 1.5, 3, 6, 7.5, 9, 12, 13.5, 15});
  EXPECT_TENSOR(avg_pool2d(x, 2, 2, 0, false, true, 1), {1, 1, 2, 2},
                {10, 18, 42, 50});
  // ceil_mode keeps the partial last window.
  Tensor y = arange(25, kDouble).view({1, 5, 5});
  EXPECT_TENSOR(max_pool2d(y, 2, 2, 0, 1, true), {1, 3, 3},
                {6, 8, 9, 16, 18, 19, 21, 23, 24});
  EXPECT_TENSOR(
      adaptive_avg_pool2d(arange(9, kFloat).view({1, 1, 3, 3}), {2, 2}),
      {1, 1, 2, 2}, {2, 3, 5, 6});
  EXPECT_TENSOR(adaptive_avg_pool2d(x, {1, 1}), {1, 1, 1, 1}, {7.5});
  // NaN wins a max window; with two, the last one in window order (as
  // PyTorch), both where windows lie inside the input and where padding
  // clips them.
  Tensor n = tensor({1.0, NAN, 3.0, 2.0}).view({1, 1, 2, 2});
  EXPECT_TRUE(std::isnan(max_pool2d(n, 2).item<double>()));
  Tensor nn = tensor({1.0, NAN, NAN, 7.0}).view({1, 1, 2, 2});
  EXPECT_TENSOR(std::get<1>(max_pool2d_with_indices(nn, 2)), {1, 1, 1, 1}, {2});
  EXPECT_TENSOR(std::get<1>(max_pool2d_with_indices(nn, 3, 1, 1)), {1, 1, 2, 2},
                {2, 2, 2, 2});
  // Ties keep the first maximum.
  Tensor tie = tensor({4.0, 4.0, 1.0, 4.0}).view({1, 1, 2, 2});
  EXPECT_TENSOR(std::get<1>(max_pool2d_with_indices(tie, 2)), {1, 1, 1, 1},
                {0});
}

TEST(PoolingTest, MaxPoolTakesEightBitIntegers) {
  // Quantized tensors: i8 values all below 0, where a padded position
  // reading 0 would win; u8 at 0, the lowest value.
  Tensor s8 = (arange(16, kChar) - 120).view({1, 1, 4, 4});
  EXPECT_EQ(max_pool2d(s8, 2).dtype(), kChar);
  EXPECT_TENSOR(max_pool2d(s8, 2), {1, 1, 2, 2}, {-115, -113, -107, -105});
  EXPECT_TENSOR(max_pool2d(s8, 3, 2, 1), {1, 1, 2, 2},
                {-115, -113, -107, -105});
  Tensor u8 = zeros({1, 1, 3, 3}, kByte);
  EXPECT_TENSOR(max_pool2d(u8, 2, 2, 1), {1, 1, 2, 2}, {0, 0, 0, 0});
  auto [values, indices] = max_pool2d_with_indices(s8, 2);
  EXPECT_TENSOR(indices, {1, 1, 2, 2}, {5, 7, 13, 15});
}

TEST(PoolingTest, MatchNaiveReference) {
  manual_seed(21);
  for (const Pool &p : poolCases())
    for (ScalarType dt : {kFloat, kDouble}) {
      Tensor x = randn({2, 3, 7, 9}, dt);
      int64_t oh, ow;
      std::vector<double> idx;
      std::vector<double> ref = naiveMaxPool(x, p, oh, ow, idx);
      if (!p.divisor) {
        auto [v, i] = max_pool2d_with_indices(
            x, {p.kh, p.kw}, {p.sh, p.sw}, {p.ph, p.pw}, {p.dh, p.dw}, p.ceil);
        EXPECT_TENSOR(v, {2, 3, oh, ow}, ref);
        EXPECT_TENSOR(i, {2, 3, oh, ow}, idx);
        EXPECT_TENSOR(maxPoolWith(x, p), {2, 3, oh, ow}, ref);
      }
      if (p.dh == 1 && p.dw == 1) {
        ref = naiveAvgPool(x, p, oh, ow);
        EXPECT_TENSOR(avgPoolWith(x, p), {2, 3, oh, ow}, ref, 1e-6);
        // Unbatched input, non-contiguous.
        Tensor xt = x[1].transpose(1, 2).contiguous().transpose(1, 2);
        ref = naiveAvgPool(xt, p, oh, ow);
        EXPECT_TENSOR(avgPoolWith(xt, p), {3, oh, ow}, ref, 1e-6);
      }
    }
}

TEST(PoolingTest, MaxPool2x2Float32MatchesNaiveReference) {
  // Kernel 2, stride 2 in float32 (vectorized where AVX-512 is present):
  // widths giving one partial vector, exactly one, and one plus a tail;
  // odd sizes leave a last row and column unread; ties everywhere from
  // rounding to a coarse grid.
  manual_seed(23);
  for (int64_t w : {9, 32, 37})
    for (int64_t h : {2, 5}) {
      Tensor x = (randn({2, 3, h, w}) * 2).round();
      Pool p{2, 2, 2, 2};
      int64_t oh, ow;
      std::vector<double> idx;
      std::vector<double> ref = naiveMaxPool(x, p, oh, ow, idx);
      auto [v, i] = max_pool2d_with_indices(x, 2);
      EXPECT_TENSOR(v, {2, 3, oh, ow}, ref) << "w " << w << " h " << h;
      EXPECT_TENSOR(i, {2, 3, oh, ow}, idx) << "w " << w << " h " << h;
    }
  // NaN: the last NaN of a window in row-major order wins, in every lane.
  std::vector<float> v(2 * 40, 1.0f);
  for (int64_t x = 0; x < 20; ++x) {
    if (x % 3 == 0)
      v[size_t(2 * x + 1)] = NAN; // row 0, odd column
    if (x % 2 == 0)
      v[size_t(40 + 2 * x)] = NAN; // row 1, even column
  }
  Tensor n = from_blob(v.data(), {1, 1, 2, 40}, TensorOptions(kFloat)).clone();
  auto [values, indices] = max_pool2d_with_indices(n, 2);
  std::vector<double> want;
  for (int64_t x = 0; x < 20; ++x)
    want.push_back(x % 2 == 0 ? 40 + 2 * x : x % 3 == 0 ? 2 * x + 1 : 2 * x);
  EXPECT_TENSOR(indices, {1, 1, 1, 20}, want);
  for (int64_t x = 0; x < 20; ++x)
    EXPECT_EQ(std::isnan(values[0][0][0][x].item<float>()),
              x % 2 == 0 || x % 3 == 0)
        << x;
}

TEST(PoolingTest, AdaptiveMatchesWindowDefinition) {
  manual_seed(22);
  Tensor x = randn({2, 3, 5, 7}, kDouble);
  Tensor y = adaptive_avg_pool2d(x, {3, 4});
  std::vector<double> ref;
  for (int64_t pl = 0; pl < 6; ++pl)
    for (int64_t i = 0; i < 3; ++i)
      for (int64_t j = 0; j < 4; ++j) {
        int64_t r0 = i * 5 / 3, r1 = ((i + 1) * 5 + 2) / 3;
        int64_t c0 = j * 7 / 4, c1 = ((j + 1) * 7 + 3) / 4;
        Tensor win = x.view({6, 5, 7})[pl].slice(0, r0, r1).slice(1, c0, c1);
        ref.push_back(win.mean().item<double>());
      }
  EXPECT_TENSOR(y, {2, 3, 3, 4}, ref, 1e-12);
  // Output larger than input: windows overlap.
  EXPECT_EQ(adaptive_avg_pool2d(x, {8, 9}).sizes().vec(),
            std::vector<int64_t>({2, 3, 8, 9}));
}

TEST(PoolingTest, Errors) {
  Tensor x = ones({1, 1, 4, 4});
  EXPECT_ERROR_CONTAINS(max_pool2d(x, 3, 1, 2),
                        "pad should be at most half of kernel size, but got "
                        "padding=[2, 2] and kernel_size=[3, 3]");
  EXPECT_ERROR_CONTAINS(max_pool2d(ones({1, 1, 2, 2}), 3),
                        "the calculated output size (0x0) is too small");
  EXPECT_ERROR_CONTAINS(avg_pool2d(ones({4, 4}), 2),
                        "expected a 3D or 4D (batch mode) tensor");
  EXPECT_ERROR_CONTAINS(max_pool2d(x, 0), "kernel size should be greater than "
                                          "zero");
  EXPECT_ERROR_CONTAINS(max_pool2d(x, {2, 2, 2}),
                        "expected kernel_size to be a single integer value or "
                        "a list of 2 values");
  EXPECT_ERROR_CONTAINS(avg_pool2d(x, 2, 2, 0, false, true, 0),
                        "divisor must be not zero");
  EXPECT_ERROR_CONTAINS(max_pool2d(ones({1, 1, 4, 4}, kLong), 2),
                        "expected a floating point input, got Long");
  EXPECT_ERROR_CONTAINS(avg_pool2d(ones({1, 1, 4, 4}, kByte), 2),
                        "expected a floating point input, got Byte");
  EXPECT_ERROR_CONTAINS(adaptive_avg_pool2d(x, {0, 2}),
                        "elements of output_size must be greater than 0");
  EXPECT_ERROR_CONTAINS(adaptive_avg_pool2d(ones({1, 0, 4}), {2, 2}),
                        "non-zero channel and spatial dims");
}

TEST(PoolingTest, Gradcheck) {
  manual_seed(23);
  for (const Pool &p : poolCases()) {
    if (!p.divisor)
      EXPECT_TRUE(test::gradcheck(
          [&](const std::vector<Tensor> &in) { return maxPoolWith(in[0], p); },
          {test::leaf({2, 2, 6, 5})}))
          << "max_pool2d " << p.kh << "x" << p.kw;
    if (p.dh == 1 && p.dw == 1)
      EXPECT_TRUE(test::gradcheck(
          [&](const std::vector<Tensor> &in) { return avgPoolWith(in[0], p); },
          {test::leaf({2, 2, 6, 5})}))
          << "avg_pool2d " << p.kh << "x" << p.kw;
  }
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return adaptive_avg_pool2d(in[0], {3, 2});
      },
      {test::leaf({2, 5, 7})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return std::get<0>(max_pool2d_with_indices(in[0], 2, 1));
      },
      {test::leaf({1, 2, 4, 4})}));
}

TEST(PoolingTest, Gradgradcheck) {
  manual_seed(24);
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor y = max_pool2d(in[0], 3, 2, 1);
        return y * y;
      },
      {test::leaf({1, 2, 5, 5})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor y = avg_pool2d(in[0], 3, 2, 1, true, false);
        return y * y;
      },
      {test::leaf({1, 2, 5, 6})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        Tensor y = adaptive_avg_pool2d(in[0], {2, 3});
        return y * y;
      },
      {test::leaf({1, 2, 5, 4})}));
}

TEST(PoolingTest, BackwardNodeNames) {
  Tensor x = test::leaf({1, 1, 4, 4});
  EXPECT_EQ(max_pool2d(x, 2).grad_fn()->name(),
            "MaxPool2DWithIndicesBackward0");
  EXPECT_EQ(avg_pool2d(x, 2).grad_fn()->name(), "AvgPool2DBackward0");
  EXPECT_EQ(adaptive_avg_pool2d(x, {1, 1}).grad_fn()->name(),
            "AdaptiveAvgPool2DBackward0");
  EXPECT_FALSE(std::get<1>(max_pool2d_with_indices(x, 2)).requires_grad());
}
