//===- OptimTest.cpp - Optimizers against hand-computed updates -----------===//
//
// Each optimizer runs a few steps on a float64 parameter whose gradient is
// set by hand (g = 0.3 p + c), next to a scalar re-implementation of the
// update written from PyTorch's documented algorithm, one element at a time.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tcc/nn.h"
#include "tcc/optim.h"
#include "tcc/serialize.h"

#include <cmath>
#include <functional>

using namespace tcc;
using tcc::test::values;

namespace {

const std::vector<double> kStart = {1.0, -2.0, 0.25};
const std::vector<double> kOffset = {0.5, 1.0, -0.75};

double gradOf(double p, size_t i) { return 0.3 * p + kOffset[i]; }

Tensor makeParam() { return tensor(kStart, kDouble).requires_grad_(); }

void setGrad(const Tensor &p) {
  NoGradGuard g;
  p.mutable_grad() = p.detach() * 0.3 + tensor(kOffset, kDouble);
}

/// Runs `steps` steps of `opt` on `p` and of `reference` (one element: value,
/// gradient, step number from 1, per-element state) on plain doubles.
using ScalarStep = std::function<double(double p, double g, int t,
                                        std::vector<double> &state)>;
void expectMatches(optim::Optimizer &opt, const Tensor &p,
                   const ScalarStep &reference, int steps = 4) {
  std::vector<double> ref = kStart;
  std::vector<std::vector<double>> state(ref.size(), std::vector<double>(4, 0));
  for (int t = 1; t <= steps; ++t) {
    setGrad(p);
    opt.step();
    for (size_t i = 0; i < ref.size(); ++i)
      ref[i] = reference(ref[i], gradOf(ref[i], i), t, state[i]);
    std::vector<double> got = values(p);
    for (size_t i = 0; i < ref.size(); ++i)
      EXPECT_NEAR(got[i], ref[i], 1e-12) << "step " << t << " element " << i;
  }
}

} // namespace

TEST(SGDTest, MomentumAndWeightDecayByHand) {
  Tensor p = tensor({1.0, -2.0}, kDouble).requires_grad_();
  optim::SGD sgd({p}, optim::SGDOptions(0.1).momentum(0.9).weight_decay(0.1));
  optim::Optimizer &opt = sgd; // used through the base class
  for (int i = 0; i < 2; ++i) {
    p.mutable_grad() = tensor({0.5, 1.0}, kDouble);
    opt.step();
  }
  // d1 = g + 0.1 p = [0.6, 0.8] = buf; p1 = [0.94, -2.08];
  // d2 = [0.594, 0.792]; buf = 0.9 buf + d2 = [1.134, 1.512].
  EXPECT_TENSOR(p, {2}, {0.8266, -2.2312}, 1e-12);
}

TEST(SGDTest, NesterovAndDampeningByHand) {
  Tensor p = tensor({1.0, -2.0}, kDouble).requires_grad_();
  optim::SGD nesterov({p}, optim::SGDOptions(0.1).momentum(0.9).nesterov(true));
  for (int i = 0; i < 2; ++i) {
    p.mutable_grad() = tensor({0.5, 1.0}, kDouble);
    nesterov.step();
  }
  EXPECT_TENSOR(p, {2}, {0.7695, -2.461}, 1e-12);

  Tensor q = tensor({1.0, -2.0}, kDouble).requires_grad_();
  optim::SGD damp({q}, optim::SGDOptions(0.1).momentum(0.9).dampening(0.5));
  for (int i = 0; i < 2; ++i) {
    q.mutable_grad() = tensor({0.5, 1.0}, kDouble);
    damp.step();
  }
  // The first step takes g as the buffer undamped; then 0.9 buf + 0.5 g.
  EXPECT_TENSOR(q, {2}, {0.88, -2.24}, 1e-12);
  EXPECT_ERROR_CONTAINS(
      optim::SGD({q}, optim::SGDOptions(0.1).nesterov(true)),
      "Nesterov momentum requires a momentum and zero dampening");
  EXPECT_ERROR_CONTAINS(optim::SGD({q}, optim::SGDOptions(-1)),
                        "Invalid learning rate value: -1");
}

TEST(SGDTest, AgreesWithScalarReference) {
  Tensor p = makeParam();
  optim::SGD opt({p}, optim::SGDOptions(0.05)
                          .momentum(0.8)
                          .dampening(0.1)
                          .weight_decay(0.01)
                          .nesterov(false));
  expectMatches(opt, p, [](double x, double g, int t, std::vector<double> &s) {
    double d = g + 0.01 * x;
    s[0] = t == 1 ? d : 0.8 * s[0] + 0.9 * d;
    return x - 0.05 * s[0];
  });
}

TEST(AdamTest, FirstStepMovesByLrTimesSign) {
  Tensor p = tensor({1.0, -2.0}, kDouble).requires_grad_();
  optim::Adam adam({p}, optim::AdamOptions(0.1));
  p.mutable_grad() = tensor({0.5, -3.0}, kDouble);
  adam.step();
  // m_hat = g and v_hat = g^2 after one step: p -= lr * g / (|g| + eps).
  EXPECT_TENSOR(p, {2}, {0.9, -1.9}, 1e-7);
}

TEST(AdamTest, AgreesWithScalarReference) {
  for (bool amsgrad : {false, true}) {
    Tensor p = makeParam();
    optim::Adam opt({p}, optim::AdamOptions(0.01)
                             .betas(std::make_tuple(0.8, 0.9))
                             .eps(1e-6)
                             .weight_decay(0.05)
                             .amsgrad(amsgrad));
    expectMatches(
        opt, p, [&](double x, double g, int t, std::vector<double> &s) {
          g += 0.05 * x;
          s[0] = 0.8 * s[0] + 0.2 * g;
          s[1] = 0.9 * s[1] + 0.1 * g * g;
          s[2] = std::max(s[2], s[1]);
          double v = amsgrad ? s[2] : s[1];
          double mhat = s[0] / (1 - std::pow(0.8, t));
          double denom = std::sqrt(v) / std::sqrt(1 - std::pow(0.9, t)) + 1e-6;
          return x - 0.01 * mhat / denom;
        });
  }
}

TEST(AdamTest, Float32StepIsBitwiseTheOpByOpUpdate) {
  // Adam updates contiguous float tensors in one pass; it must round
  // exactly as the eager ops of PyTorch's algorithm do, step after step.
  manual_seed(5);
  Tensor p = randn({1003}).requires_grad_();
  Tensor ref = p.detach().clone(), m = zeros({1003}), v = zeros({1003});
  optim::Adam adam(
      {p},
      optim::AdamOptions(0.01).betas(std::make_tuple(0.8, 0.95)).eps(1e-6));
  for (int t = 1; t <= 3; ++t) {
    Tensor g = randn({1003}) * 3;
    p.mutable_grad() = g;
    adam.step();
    double bc1 = 1 - std::pow(0.8, t), bc2 = 1 - std::pow(0.95, t);
    m.mul_(0.8).add_(g, 1 - 0.8);
    v.mul_(0.95).add_(g * g, 1 - 0.95);
    Tensor denom = v.sqrt() / std::sqrt(bc2) + 1e-6;
    ref.sub_(m / denom, 0.01 / bc1);
    EXPECT_TRUE(equal(p.detach(), ref)) << "step " << t;
  }
}

TEST(AdamWTest, AgreesWithScalarReference) {
  Tensor p = makeParam();
  optim::AdamW opt({p}, optim::AdamWOptions(0.01).weight_decay(0.1));
  // Decoupled decay: the gradient is taken at the old value, then p
  // shrinks by lr * weight_decay before the Adam step.
  std::vector<double> ref = kStart;
  std::vector<double> m(3, 0), v(3, 0);
  for (int t = 1; t <= 4; ++t) {
    setGrad(p);
    opt.step();
    for (size_t i = 0; i < 3; ++i) {
      double g = gradOf(ref[i], i);
      ref[i] *= 1 - 0.01 * 0.1;
      m[i] = 0.9 * m[i] + 0.1 * g;
      v[i] = 0.999 * v[i] + 0.001 * g * g;
      double denom = std::sqrt(v[i]) / std::sqrt(1 - std::pow(0.999, t)) + 1e-8;
      ref[i] -= 0.01 / (1 - std::pow(0.9, t)) * m[i] / denom;
    }
    std::vector<double> got = values(p);
    for (size_t i = 0; i < 3; ++i)
      EXPECT_NEAR(got[i], ref[i], 1e-12) << "step " << t;
  }
}

TEST(RMSpropTest, AgreesWithScalarReference) {
  for (bool centered : {false, true}) {
    Tensor p = makeParam();
    optim::RMSprop opt({p}, optim::RMSpropOptions(0.01)
                                .alpha(0.9)
                                .momentum(0.5)
                                .weight_decay(0.02)
                                .centered(centered));
    expectMatches(opt, p, [&](double x, double g, int, std::vector<double> &s) {
      g += 0.02 * x;
      s[0] = 0.9 * s[0] + 0.1 * g * g;
      s[1] = 0.9 * s[1] + 0.1 * g;
      double avg = std::sqrt(centered ? s[0] - s[1] * s[1] : s[0]) + 1e-8;
      s[2] = 0.5 * s[2] + g / avg;
      return x - 0.01 * s[2];
    });
  }
}

TEST(AdagradTest, AgreesWithScalarReference) {
  Tensor p = makeParam();
  optim::Adagrad opt({p}, optim::AdagradOptions(0.1)
                              .lr_decay(0.01)
                              .initial_accumulator_value(0.2)
                              .weight_decay(0.03));
  expectMatches(opt, p, [](double x, double g, int t, std::vector<double> &s) {
    if (t == 1)
      s[0] = 0.2;
    g += 0.03 * x;
    s[0] += g * g;
    double clr = 0.1 / (1 + (t - 1) * 0.01);
    return x - clr * g / (std::sqrt(s[0]) + 1e-10);
  });
}

TEST(OptimizerTest, ParamGroupsZeroGradAndClosure) {
  Tensor a = ones({1}).requires_grad_(), b = ones({1}).requires_grad_();
  std::vector<optim::OptimizerParamGroup> groups;
  groups.emplace_back(std::vector<Tensor>{a});
  groups.emplace_back(std::vector<Tensor>{b},
                      std::make_unique<optim::SGDOptions>(1.0));
  optim::SGD sgd(std::move(groups), optim::SGDOptions(0.1));
  EXPECT_EQ(sgd.size(), 2u);
  EXPECT_DOUBLE_EQ(sgd.param_groups()[0].options().get_lr(), 0.1);
  EXPECT_DOUBLE_EQ(sgd.param_groups()[1].options().get_lr(), 1.0);
  int calls = 0;
  Tensor loss = sgd.step([&] {
    ++calls;
    sgd.zero_grad();
    Tensor l = (a * 2 + b * 3).sum();
    l.backward();
    return l;
  });
  EXPECT_EQ(calls, 1);
  EXPECT_DOUBLE_EQ(loss.item<double>(), 5.0);
  EXPECT_TENSOR(a, {1}, {0.8}, 1e-6);
  EXPECT_TENSOR(b, {1}, {-2.0}, 1e-6);
  sgd.zero_grad();
  EXPECT_TENSOR(a.grad(), {1}, {0.0});
  sgd.zero_grad(/*set_to_none=*/true);
  EXPECT_FALSE(a.grad().defined());
  EXPECT_ERROR_CONTAINS(sgd.add_param_group(optim::OptimizerParamGroup({a})),
                        "more than one parameter group");
  Tensor c = ones({1}).requires_grad_();
  sgd.add_param_group(optim::OptimizerParamGroup({c}));
  EXPECT_DOUBLE_EQ(sgd.param_groups()[2].options().get_lr(), 0.1); // defaults
  EXPECT_ERROR_CONTAINS(optim::SGD({a * 2}, 0.1), "non-leaf");
}

TEST(OptimizerTest, StateSurvivesSaveAndLoad) {
  manual_seed(4);
  nn::Linear fc(3, 2);
  optim::Adam adam(fc->parameters(), optim::AdamOptions(0.01).amsgrad(true));
  Tensor x = randn({5, 3});
  auto trainStep = [&](nn::Linear &m, optim::Optimizer &o) {
    o.zero_grad();
    m(x).pow(2).sum().backward();
    o.step();
  };
  trainStep(fc, adam);
  trainStep(fc, adam);
  serialize::OutputArchive out;
  adam.save(out);
  std::string bytes = out.bytes();

  auto copy = std::dynamic_pointer_cast<nn::LinearImpl>(fc->clone());
  nn::Linear twin(copy);
  optim::Adam restored(twin->parameters(), optim::AdamOptions(0.5));
  serialize::InputArchive in;
  in.load_from(bytes.data(), bytes.size());
  restored.load(in);
  EXPECT_DOUBLE_EQ(restored.param_groups()[0].options().get_lr(), 0.01);
  trainStep(fc, adam);
  trainStep(twin, restored);
  EXPECT_TRUE(fc->weight.equal(twin->weight));
  EXPECT_TRUE(fc->bias.equal(twin->bias));

  optim::SGD wrongSize(std::vector<Tensor>{twin->weight}, 0.1);
  serialize::InputArchive again;
  again.load_from(bytes.data(), bytes.size());
  EXPECT_ERROR_CONTAINS(wrongSize.load(again), "has 2 parameters in group 0");
}

TEST(SchedulerTest, StepLRCosineAndLinearWarmup) {
  Tensor p = ones({1}).requires_grad_();
  optim::SGD sgd({p}, 1.0);
  optim::StepLR step(sgd, 2, 0.5);
  std::vector<double> lrs;
  for (int e = 0; e < 5; ++e) {
    step.step();
    lrs.push_back(sgd.param_groups()[0].options().get_lr());
  }
  EXPECT_EQ(lrs, (std::vector<double>{1.0, 0.5, 0.5, 0.25, 0.25}));

  optim::SGD sgd2({ones({1}).requires_grad_()}, 0.1);
  optim::CosineAnnealingLR cosine(sgd2, 4, 0.02);
  std::vector<double> expected = {
      0.02 + 0.08 * (1 + std::cos(M_PI / 4)) / 2, 0.06,
      0.02 + 0.08 * (1 + std::cos(3 * M_PI / 4)) / 2, 0.02};
  for (double e : expected) {
    cosine.step();
    EXPECT_NEAR(sgd2.param_groups()[0].options().get_lr(), e, 1e-12);
  }

  optim::SGD sgd3({ones({1}).requires_grad_()}, 0.4);
  optim::LinearLR warmup(sgd3, 0.25, 1.0, 3);
  std::vector<double> warm = {0.1};
  for (int e = 0; e < 4; ++e) {
    warmup.step();
    warm.push_back(sgd3.param_groups()[0].options().get_lr());
  }
  std::vector<double> want = {0.1, 0.2, 0.3, 0.4, 0.4};
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_NEAR(warm[i], want[i], 1e-12);
}

TEST(SchedulerTest, ReduceLROnPlateauWaitsForPatience) {
  optim::SGD sgd({ones({1}).requires_grad_()}, 1.0);
  optim::ReduceLROnPlateauScheduler plateau(
      sgd, optim::ReduceLROnPlateauScheduler::min, 0.5, /*patience=*/2, 1e-4,
      optim::ReduceLROnPlateauScheduler::rel, /*cooldown=*/1);
  // 1.0 is the best; three epochs without improvement exceed patience 2.
  std::vector<float> metrics = {1.0f, 1.0f, 1.0f, 1.0f, 0.5f,
                                0.6f, 0.6f, 0.6f, 0.6f};
  std::vector<double> lrs;
  for (float m : metrics) {
    plateau.step(m);
    lrs.push_back(sgd.param_groups()[0].options().get_lr());
  }
  EXPECT_EQ(lrs, (std::vector<double>{1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.5, 0.25,
                                      0.25}));
}
