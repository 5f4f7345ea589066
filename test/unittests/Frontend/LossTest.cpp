//===- LossTest.cpp - regression, binary and class-index losses -----------===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;

namespace {
constexpr int64_t kNone = Reduction::None, kMean = Reduction::Mean,
                  kSum = Reduction::Sum;

/// log(softmax(row))[c] in double.
double logSoftmaxAt(const std::vector<double> &row, size_t c) {
  double m = row[0];
  for (double v : row)
    m = std::max(m, v);
  double s = 0;
  for (double v : row)
    s += std::exp(v - m);
  return row[c] - m - std::log(s);
}
} // namespace

TEST(LossTest, Regression) {
  Tensor x = tensor({1.0, 2.0, 4.0}), t = tensor({1.5, 2.0, 1.0});
  EXPECT_TENSOR(mse_loss(x, t, kNone), {3}, {0.25, 0, 9});
  EXPECT_TENSOR(mse_loss(x, t), {}, {9.25 / 3});
  EXPECT_TENSOR(mse_loss(x, t, kSum), {}, {9.25});
  EXPECT_TENSOR(l1_loss(x, t, kNone), {3}, {0.5, 0, 3});
  EXPECT_TENSOR(l1_loss(x, t), {}, {3.5 / 3});
  // smooth_l1 (beta 1): 0.5 d^2 below 1, |d| - 0.5 above.
  EXPECT_TENSOR(smooth_l1_loss(x, t, kNone), {3}, {0.125, 0, 2.5});
  EXPECT_TENSOR(smooth_l1_loss(x, t, kSum, 4.0), {}, {0.25 / 8 + 0 + 9.0 / 8});
  EXPECT_TENSOR(smooth_l1_loss(x, t, kMean, 0.0), {}, {3.5 / 3});
  EXPECT_ERROR_CONTAINS(smooth_l1_loss(x, t, kMean, -1),
                        "does not support negative values for beta");
  EXPECT_ERROR_CONTAINS(mse_loss(x, t, 3), "reduction must be Reduction::None");
  EXPECT_ERROR_CONTAINS(mse_loss(x, ones({2})),
                        "The size of tensor a (3) must match the size of "
                        "tensor b (2)");
}

TEST(LossTest, BinaryCrossEntropy) {
  Tensor x = tensor({0.25, 0.5, 0.9}, kDouble);
  Tensor t = tensor({0.0, 1.0, 1.0}, kDouble);
  std::vector<double> ref = {-std::log(0.75), -std::log(0.5), -std::log(0.9)};
  EXPECT_TENSOR(binary_cross_entropy(x, t, {}, kNone), {3}, ref);
  EXPECT_TENSOR(binary_cross_entropy(x, t), {},
                {(ref[0] + ref[1] + ref[2]) / 3});
  EXPECT_TENSOR(binary_cross_entropy(x, t, tensor({2.0, 0.0, 1.0}), kSum), {},
                {2 * ref[0] + ref[2]});
  // log(0) clamps to -100, as in PyTorch.
  EXPECT_TENSOR(binary_cross_entropy(tensor({0.0}), tensor({1.0}), {}, kNone),
                {1}, {100});
  EXPECT_ERROR_CONTAINS(binary_cross_entropy(tensor({1.5}), tensor({1.0})),
                        "all elements of input should be between 0 and 1");
  EXPECT_ERROR_CONTAINS(binary_cross_entropy(ones({2, 1}) / 2, ones({2})),
                        "Using a target size ([2]) that is different to the "
                        "input size ([2, 1]) is deprecated");

  Tensor z = tensor({-2.0, 0.0, 3.0}, kDouble);
  std::vector<double> lref;
  for (int i = 0; i < 3; ++i) {
    double s = 1 / (1 + std::exp(-test::values(z)[size_t(i)]));
    double tv = test::values(t)[size_t(i)];
    lref.push_back(-(tv * std::log(s) + (1 - tv) * std::log(1 - s)));
  }
  EXPECT_TENSOR(binary_cross_entropy_with_logits(z, t, {}, {}, kNone), {3},
                lref, 1e-12);
  // Stable for large logits.
  EXPECT_TENSOR(binary_cross_entropy_with_logits(
                    tensor({800.0, -800.0}), tensor({1.0, 0.0}), {}, {}, kNone),
                {2}, {0, 0});
  // pos_weight scales the positive term: (1 - t) x + (1 + (pw - 1) t) sp(-x).
  Tensor pw = tensor({3.0, 3.0, 3.0}, kDouble);
  std::vector<double> pref;
  for (int i = 0; i < 3; ++i) {
    double xv = test::values(z)[size_t(i)], tv = test::values(t)[size_t(i)];
    double sp = std::log1p(std::exp(-xv));
    pref.push_back((1 - tv) * xv + (1 + 2 * tv) * sp);
  }
  EXPECT_TENSOR(binary_cross_entropy_with_logits(z, t, {}, pw, kNone), {3},
                pref, 1e-12);
  // The gradient at x = 0 is sigmoid(0) - t (exact, not through |x|).
  Tensor x0 = zeros({1}, kDouble).requires_grad_();
  binary_cross_entropy_with_logits(x0, tensor({1.0}), {}, {}, kSum).backward();
  EXPECT_TENSOR(x0.grad(), {1}, {-0.5});
  EXPECT_ERROR_CONTAINS(
      binary_cross_entropy_with_logits(ones({2}), ones({3})),
      "Target size ([3]) must be the same as input size ([2])");
}

TEST(LossTest, NllAndCrossEntropy) {
  Tensor logp = tensor({{-1.0, -2.0, -3.0}, {-0.5, -1.5, -2.5}});
  Tensor t = tensor({2, 0});
  EXPECT_TENSOR(nll_loss(logp, t, {}, kNone), {2}, {3, 0.5});
  EXPECT_TENSOR(nll_loss(logp, t), {}, {1.75});
  EXPECT_TENSOR(nll_loss(logp, t, {}, kSum), {}, {3.5});
  // Class weights; mean divides by the weights of the targets.
  Tensor w = tensor({2.0, 1.0, 0.5});
  EXPECT_TENSOR(nll_loss(logp, t, w), {}, {(1.5 + 1.0) / 2.5});
  // ignore_index drops a sample from sum and count.
  EXPECT_TENSOR(nll_loss(logp, tensor({1, -100})), {}, {2.0});
  EXPECT_TENSOR(nll_loss(logp, tensor({1, 7}), {}, kNone, 7), {2}, {2, 0});
  // [C] input with a 0-dim target; [N, C, d] input.
  EXPECT_TENSOR(nll_loss(logp[0], tensor(1), {}, kNone), {}, {2});
  Tensor spatial = logp.unsqueeze(2).expand({2, 3, 2});
  EXPECT_TENSOR(nll_loss(spatial, tensor({{2, 1}, {0, 0}}), {}, kNone), {2, 2},
                {3, 2, 0.5, 0.5});

  Tensor x = tensor({{1.0, 2.0, 0.5}, {0.0, -1.0, 3.0}});
  std::vector<double> r0 = test::values(x[0]), r1 = test::values(x[1]);
  double l0 = -logSoftmaxAt(r0, 1), l1 = -logSoftmaxAt(r1, 2);
  EXPECT_TENSOR(cross_entropy_loss(x, tensor({1, 2}), {}, kNone), {2}, {l0, l1},
                1e-6);
  EXPECT_TENSOR(cross_entropy_loss(x, tensor({1, 2})), {}, {(l0 + l1) / 2},
                1e-6);
  // Label smoothing 0.3: (1 - 0.3) * nll + 0.3 * mean over classes of -logp.
  double s0 = 0, s1 = 0;
  for (size_t c = 0; c < 3; ++c) {
    s0 -= logSoftmaxAt(r0, c);
    s1 -= logSoftmaxAt(r1, c);
  }
  EXPECT_TENSOR(cross_entropy_loss(x, tensor({1, 2}), {}, kNone, -100, 0.3),
                {2}, {0.7 * l0 + 0.1 * s0, 0.7 * l1 + 0.1 * s1}, 1e-6);
  EXPECT_TENSOR(cross_entropy_loss(x, tensor({1, -100}), {}, kMean, -100, 0.3),
                {}, {0.7 * l0 + 0.1 * s0}, 1e-6);
  // Class-probability targets.
  Tensor p = tensor({{0.0, 1.0, 0.0}, {0.5, 0.0, 0.5}});
  double q1 = -(0.5 * logSoftmaxAt(r1, 0) + 0.5 * logSoftmaxAt(r1, 2));
  EXPECT_TENSOR(cross_entropy_loss(x, p, {}, kNone), {2}, {l0, q1}, 1e-6);
  EXPECT_TENSOR(cross_entropy_loss(x, p), {}, {(l0 + q1) / 2}, 1e-6);
}

TEST(LossTest, ClassLossErrors) {
  Tensor logp = zeros({3, 4});
  EXPECT_EQ(test::errorOf([&] {
              nll_loss(logp, tensor({1, 2}));
            }),
            "Expected input batch_size (3) to match target batch_size (2).");
  EXPECT_ERROR_CONTAINS(nll_loss(logp, tensor({1, 2, 4})),
                        "Target 4 is out of bounds");
  EXPECT_ERROR_CONTAINS(nll_loss(logp, tensor({1.0, 2.0, 0.0})),
                        "expected target of dtype Long (class indices), got "
                        "Float");
  EXPECT_ERROR_CONTAINS(nll_loss(logp, tensor({1, 2, 0}), ones({3})),
                        "weight tensor should be defined either for all 4 "
                        "classes or no classes but got weight tensor of shape: "
                        "[3]");
  EXPECT_ERROR_CONTAINS(nll_loss(zeros({2, 3, 5}), zeros({2, 4}, kLong)),
                        "expected target size [2, 5], got [2, 4]");
  EXPECT_ERROR_CONTAINS(
      cross_entropy_loss(logp, tensor({1, 2, 0}), {}, kMean, -100, 1.5),
      "label_smoothing must be between 0.0 and 1.0. Got: 1.5");
  EXPECT_ERROR_CONTAINS(cross_entropy_loss(logp, zeros({3, 3})),
                        "class-probability targets must have the input's size");
}

TEST(LossTest, Gradcheck) {
  manual_seed(61);
  for (int64_t r : {kNone, kMean, kSum}) {
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return mse_loss(in[0], in[1], r);
        },
        {test::leaf({2, 3}), test::leaf({2, 3})}));
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) { return l1_loss(in[0], in[1], r); },
        {test::leaf({2, 3}), test::leaf({2, 3})}));
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return smooth_l1_loss(in[0], in[1], r, 0.5);
        },
        {test::leaf({2, 3}), test::leaf({2, 3})}));
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return binary_cross_entropy(in[0], in[1], in[2], r);
        },
        {test::leaf({2, 3}, 0.1, 0.9), test::leaf({2, 3}, 0, 1),
         test::leaf({2, 3}, 0.5, 2)}));
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return binary_cross_entropy_with_logits(in[0], in[1], in[2], in[3],
                                                  r);
        },
        {test::leaf({2, 3}, -3, 3), test::leaf({2, 3}, 0, 1),
         test::leaf({2, 3}, 0.5, 2), test::leaf({3}, 0.5, 3)}));
    Tensor t = tensor({2, 0, 1, -100});
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return nll_loss(in[0], t, in[1], r);
        },
        {test::leaf({4, 3}), test::leaf({3}, 0.5, 2)}));
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return cross_entropy_loss(in[0], t, in[1], r, -100, 0.2);
        },
        {test::leaf({4, 3}), test::leaf({3}, 0.5, 2)}));
    EXPECT_TRUE(test::gradcheck(
        [&](const std::vector<Tensor> &in) {
          return cross_entropy_loss(in[0], in[1].softmax(1), {}, r, -100, 0.1);
        },
        {test::leaf({2, 4}), test::leaf({2, 4})}));
  }
}

TEST(LossTest, Gradgradcheck) {
  manual_seed(62);
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return cross_entropy_loss(in[0], tensor({1, 0, 2}));
      },
      {test::leaf({3, 3})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return binary_cross_entropy_with_logits(in[0], in[1], {}, in[2]);
      },
      {test::leaf({2, 2}, -2, 2), test::leaf({2, 2}, 0, 1),
       test::leaf({2}, 0.5, 2)}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return binary_cross_entropy(in[0], in[1], {}, Reduction::Sum);
      },
      {test::leaf({3}, 0.2, 0.8), test::leaf({3}, 0, 1)}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return smooth_l1_loss(in[0], in[1], Reduction::Sum, 0.7);
      },
      {test::leaf({4}), test::leaf({4})}));
}
