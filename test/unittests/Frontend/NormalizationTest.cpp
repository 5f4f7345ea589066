//===- NormalizationTest.cpp - batch_norm, layer_norm, dropout ------------===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;

TEST(NormalizationTest, BatchNormTrainingHandComputed) {
  Tensor x = tensor({{1.0, 2.0}, {3.0, 4.0}});
  Tensor rm = zeros({2}, kDouble), rv = ones({2}, kDouble);
  Tensor y = batch_norm(x, tensor({2.0, 3.0}), tensor({1.0, -1.0}), rm, rv,
                        /*training=*/true, /*momentum=*/0.1, /*eps=*/0.0);
  // Per channel: mean 2 (3), biased variance 1, so x_hat = [-1, 1].
  EXPECT_TENSOR(y, {2, 2}, {-1, -4, 3, 2});
  // Running stats move by momentum toward the batch mean and the unbiased
  // variance (2).
  EXPECT_TENSOR(rm, {2}, {0.2, 0.3});
  EXPECT_TENSOR(rv, {2}, {1.1, 1.1});
  // Without running stats and affine parameters.
  EXPECT_TENSOR(batch_norm(x, {}, {}, {}, {}, true, 0.1, 0.0), {2, 2},
                {-1, -1, 1, 1});
}

TEST(NormalizationTest, BatchNormMatchesDefinition4d) {
  manual_seed(31);
  for (ScalarType dt : {kFloat, kDouble}) {
    Tensor x = randn({3, 4, 5, 2}, dt) * 2 + 1;
    Tensor w = randn({4}, dt), b = randn({4}, dt);
    Tensor rm = zeros({4}, dt), rv = ones({4}, dt);
    Tensor y = batch_norm(x, w, b, rm, rv, true, 0.3, 1e-5);
    Tensor xd = x.to(kDouble);
    Tensor mean = xd.mean({0, 2, 3}, true);
    Tensor var = xd.var({0, 2, 3}, false, true);
    Tensor ref =
        (xd - mean) / (var + 1e-5).sqrt() * w.to(kDouble).view({1, 4, 1, 1}) +
        b.to(kDouble).view({1, 4, 1, 1});
    double tol = dt == kFloat ? 1e-5 : 1e-12;
    EXPECT_TENSOR(y, {3, 4, 5, 2}, test::values(ref), tol);
    EXPECT_TENSOR(rm, {4}, test::values(mean.view({4}) * 0.3), tol);
    Tensor unbiased = xd.var({0, 2, 3}, true, false);
    EXPECT_TENSOR(rv, {4}, test::values(unbiased * 0.3 + 0.7), tol);
    // Evaluation uses the running statistics.
    Tensor e = batch_norm(x, w, b, rm, rv, false, 0.3, 1e-5);
    Tensor eref = (xd - rm.to(kDouble).view({1, 4, 1, 1})) /
                      (rv.to(kDouble).view({1, 4, 1, 1}) + 1e-5).sqrt() *
                      w.to(kDouble).view({1, 4, 1, 1}) +
                  b.to(kDouble).view({1, 4, 1, 1});
    EXPECT_TENSOR(e, {3, 4, 5, 2}, test::values(eref), tol);
  }
}

TEST(NormalizationTest, BatchNormErrors) {
  Tensor x = ones({2, 3});
  EXPECT_ERROR_CONTAINS(batch_norm(x, {}, {}, {}, {}, false, 0.1, 1e-5),
                        "running_mean and running_var must be defined in "
                        "evaluation mode");
  EXPECT_ERROR_CONTAINS(batch_norm(x, ones({2}), {}, {}, {}, true, 0.1, 1e-5),
                        "expected weight to have 3 elements (one per channel), "
                        "but got weight of size [2]");
  EXPECT_ERROR_CONTAINS(
      batch_norm(ones({1, 3}), {}, {}, {}, {}, true, 0.1, 1e-5),
      "Expected more than 1 value per channel when training, "
      "got input size [1, 3]");
  EXPECT_ERROR_CONTAINS(batch_norm(ones({3}), {}, {}, {}, {}, true, 0.1, 1e-5),
                        "at least 2 dims");
}

TEST(NormalizationTest, LayerNormHandComputed) {
  // Row 2 is row 1 scaled by 2: the same normalized values.
  Tensor x = tensor({{1.0, 2.0, 3.0}, {2.0, 4.0, 6.0}});
  double s = 1 / std::sqrt(2.0 / 3.0);
  EXPECT_TENSOR(layer_norm(x, {3}, {}, {}, 0.0), {2, 3}, {-s, 0, s, -s, 0, s});
  EXPECT_TENSOR(
      layer_norm(x, {3}, tensor({1.0, 2.0, 3.0}), tensor({0.0, 1.0, 0.0}), 0.0),
      {2, 3}, {-s, 1, 3 * s, -s, 1, 3 * s});
  // A constant row normalizes to 0 (eps keeps it finite).
  EXPECT_TENSOR(layer_norm(ones({1, 4}), {4}), {1, 4}, {0, 0, 0, 0});
  // Two normalized dims: all six elements share one mean and variance.
  Tensor all = layer_norm(x, {2, 3}, {}, {}, 0.0);
  Tensor ref = (x - x.mean()) / x.var(false).sqrt();
  EXPECT_TENSOR(all, {2, 3}, test::values(ref));
}

TEST(NormalizationTest, LayerNormErrors) {
  EXPECT_EQ(test::errorOf([] {
              layer_norm(ones({2, 3}), {4});
            }),
            "Given normalized_shape=[4], expected input with shape [*, 4], but "
            "got input of size[2, 3]");
  EXPECT_EQ(test::errorOf([] {
              layer_norm(ones({2, 3}), {3}, ones({4}));
            }),
            "Expected weight to be of same shape as normalized_shape, but got "
            "weight of shape [4] and normalized_shape = [3]");
}

TEST(NormalizationTest, Gradcheck) {
  manual_seed(32);
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return batch_norm(in[0], in[1], in[2], {}, {}, true, 0.1, 1e-5);
      },
      {test::leaf({3, 2, 2, 2}), test::leaf({2}), test::leaf({2})}));
  Tensor rm = rand({2}, kDouble), rv = rand({2}, kDouble) + 0.5;
  EXPECT_TRUE(test::gradcheck(
      [&](const std::vector<Tensor> &in) {
        return batch_norm(in[0], in[1], in[2], rm, rv, false, 0.1, 1e-5);
      },
      {test::leaf({3, 2, 2}), test::leaf({2}), test::leaf({2})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return layer_norm(in[0], {2, 3}, in[1], in[2]);
      },
      {test::leaf({2, 2, 3}), test::leaf({2, 3}), test::leaf({2, 3})}));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        return batch_norm(in[0], {}, {}, {}, {}, true, 0.1, 1e-5);
      },
      {test::leaf({4, 3})}));
  EXPECT_TRUE(test::gradcheck( // a single row: nothing to sum weights over
      [](const std::vector<Tensor> &in) {
        return layer_norm(in[0], {4}, in[1], in[2]);
      },
      {test::leaf({4}), test::leaf({4}), test::leaf({4})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return batch_norm(in[0], in[1], {}, {}, {}, true, 0.1, 1e-5).tanh();
      },
      {test::leaf({4, 2}), test::leaf({2})}));
  EXPECT_TRUE(test::gradgradcheck(
      [](const std::vector<Tensor> &in) {
        return layer_norm(in[0], {3}, in[1], {}).tanh();
      },
      {test::leaf({2, 3}), test::leaf({3})}));
}

TEST(NormalizationTest, Float32GradientsMatchFloat64) {
  // First-order gradients come from the fused kernels; compare float32
  // with float64 on a larger batch.
  manual_seed(33);
  Tensor x = randn({8, 5, 6, 7}, kDouble) * 3 + 2;
  Tensor w = randn({5}, kDouble), b = randn({5}, kDouble);
  Tensor lw = randn({6, 7}, kDouble), lb = randn({6, 7}, kDouble);
  std::vector<Tensor> grads[2];
  for (int k = 0; k < 2; ++k) {
    ScalarType dt = k == 0 ? kFloat : kDouble;
    Tensor xs = x.to(dt).requires_grad_(), ws = w.to(dt).requires_grad_(),
           bs = b.to(dt).requires_grad_(), lws = lw.to(dt).requires_grad_(),
           lbs = lb.to(dt).requires_grad_();
    Tensor y = batch_norm(xs, ws, bs, {}, {}, true, 0.1, 1e-5);
    Tensor z = layer_norm(y, {6, 7}, lws, lbs);
    // (Layer norm over each (n, c) plane alone would leave batch norm's bias
    // gradient at exactly zero: the y term keeps it well conditioned.)
    ((z * z * z).sum() + (y * y.sin()).sum()).backward();
    grads[k] = {xs.grad(), ws.grad(), bs.grad(), lws.grad(), lbs.grad()};
  }
  for (size_t i = 0; i < 5; ++i)
    EXPECT_TRUE(grads[0][i].to(kDouble).allclose(grads[1][i], 1e-3, 1e-3))
        << "gradient " << i << ": max |diff| "
        << (grads[0][i].to(kDouble) - grads[1][i]).abs().max().item<double>()
        << ", max |value| " << grads[1][i].abs().max().item<double>();
}

TEST(NormalizationTest, DropoutSemantics) {
  Tensor x = ones({100, 100});
  EXPECT_TRUE(dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(dropout(x, 0.0, true).is_same(x));
  EXPECT_TENSOR(dropout(ones({3}), 1.0, true), {3}, {0, 0, 0});
  manual_seed(5);
  Tensor y = dropout(x, 0.25, true);
  // Kept elements are scaled by 1 / (1 - p); about a quarter are dropped.
  Tensor kept = y != 0;
  EXPECT_TRUE((y.masked_fill(kept.logical_not(), 4.0 / 3.0) == 4.0 / 3.0)
                  .all()
                  .item<bool>());
  double dropped = 1 - kept.to(kDouble).mean().item<double>();
  EXPECT_GT(dropped, 0.23);
  EXPECT_LT(dropped, 0.27);
  manual_seed(5);
  EXPECT_TRUE(dropout(x, 0.25, true).equal(y));
  EXPECT_FALSE(dropout(x, 0.25, true).equal(y));
  EXPECT_ERROR_CONTAINS(dropout(x, 1.5, true),
                        "dropout probability has to be between 0 and 1, but "
                        "got 1.5");
  EXPECT_ERROR_CONTAINS(dropout(ones({2}, kLong), 0.5, true),
                        "expected a floating point input");
}

TEST(NormalizationTest, DropoutGradient) {
  manual_seed(6);
  Tensor x = test::leaf({50}, 0.5, 1.5);
  Tensor y = dropout(x, 0.3, true);
  y.sum().backward();
  // The gradient is the mask scaled by 1 / (1 - p).
  EXPECT_TRUE(x.grad().allclose((y != 0).to(kDouble) / 0.7));
  EXPECT_EQ(y.grad_fn()->name(), "NativeDropoutBackward0");
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        manual_seed(7); // the same mask on every evaluation
        return dropout(in[0], 0.4, true);
      },
      {test::leaf({3, 4})}));
}

TEST(NormalizationTest, FeatureDropoutDropsWholeChannels) {
  manual_seed(8);
  Tensor x = ones({4, 8, 3, 3});
  Tensor y = feature_dropout(x, 0.5, true);
  Tensor perChannel = y.view({32, 9});
  for (int64_t c = 0; c < 32; ++c) {
    double lo = perChannel[c].min().item<double>(),
           hi = perChannel[c].max().item<double>();
    EXPECT_EQ(lo, hi);
    EXPECT_TRUE(lo == 0 || lo == 2);
  }
  EXPECT_TRUE(feature_dropout(x, 0.5, false).is_same(x));
  EXPECT_TRUE(test::gradcheck(
      [](const std::vector<Tensor> &in) {
        manual_seed(9);
        return feature_dropout(in[0], 0.5, true);
      },
      {test::leaf({2, 3, 2})}));
  EXPECT_ERROR_CONTAINS(feature_dropout(ones({3}), 0.5, true),
                        "at least 2 dims");
}
