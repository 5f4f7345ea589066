//===- LayersTest.cpp - Layers, containers, init, functional, clipping ----===//

#include "TestSupport.h"

#include "tcc/nn.h"

#include <cmath>

using namespace tcc;
using tcc::test::errorOf;
using tcc::test::values;
namespace F = tcc::nn::functional;

namespace {
double maxAbs(const Tensor &t) { return t.abs().max().item<double>(); }
} // namespace

TEST(LinearTest, ForwardIsXWtPlusBAndInitIsBounded) {
  manual_seed(0);
  nn::Linear fc(4, 3);
  EXPECT_EQ(fc->weight.sizes(), IntArrayRef({3, 4}));
  // kaiming_uniform_(a = sqrt(5)) and the bias both give +-1/sqrt(fan_in).
  EXPECT_LE(maxAbs(fc->weight), 0.5);
  EXPECT_LE(maxAbs(fc->bias), 0.5);
  EXPECT_GT(fc->weight.std().item<double>(), 0.1); // not a constant fill
  {
    NoGradGuard g;
    fc->weight.copy_(
        tensor({{1., 0., 0., 0.}, {0., 2., 0., 0.}, {1., 1., 1., 1.}}));
    fc->bias.copy_(tensor({0.5, -1., 0.}));
  }
  EXPECT_TENSOR(fc(tensor({{1., 2., 3., 4.}})), {1, 3}, {1.5, 3.0, 10.0});
  nn::Linear noBias(nn::LinearOptions(2, 2).bias(false));
  EXPECT_FALSE(noBias->bias.defined());
  EXPECT_EQ(noBias->parameters().size(), 1u);
}

TEST(ConvTest, ShapesInitAndPaddingModes) {
  manual_seed(1);
  nn::Conv2d conv(nn::Conv2dOptions(2, 4, 3).padding(1));
  EXPECT_EQ(conv->weight.sizes(), IntArrayRef({4, 2, 3, 3}));
  double bound = 1.0 / std::sqrt(18.0);
  EXPECT_LE(maxAbs(conv->weight), bound + 1e-7);
  EXPECT_LE(maxAbs(conv->bias), bound + 1e-7);
  Tensor x = randn({1, 2, 5, 5});
  Tensor y = conv(x);
  EXPECT_EQ(y.sizes(), IntArrayRef({1, 4, 5, 5}));
  EXPECT_TRUE(
      y.allclose(conv2d(x, conv->weight, conv->bias, 1, 1), 1e-5, 1e-6));

  nn::Conv2d reflect(
      nn::Conv2dOptions(2, 4, 3).padding(1).padding_mode(kReflect));
  Tensor r = reflect(x);
  Tensor expected =
      conv2d(pad(x, {1, 1, 1, 1}, "reflect"), reflect->weight, reflect->bias);
  EXPECT_TRUE(r.allclose(expected, 1e-5, 1e-6));

  nn::Conv2d same(nn::Conv2dOptions(2, 3, {3, 5}).padding(kSame));
  EXPECT_EQ(same(x).sizes(), IntArrayRef({1, 3, 5, 5}));
  EXPECT_ERROR_CONTAINS(nn::Conv2d(nn::Conv2dOptions(3, 4, 3).groups(2)),
                        "in_channels must be divisible by groups");

  nn::Conv1d conv1(2, 3, 2);
  EXPECT_EQ(conv1(randn({4, 2, 6})).sizes(), IntArrayRef({4, 3, 5}));
  nn::ConvTranspose2d up(
      nn::ConvTranspose2dOptions(4, 2, 4).stride(2).padding(1));
  EXPECT_EQ(up->weight.sizes(), IntArrayRef({4, 2, 4, 4}));
  EXPECT_EQ(up(randn({1, 4, 3, 3})).sizes(), IntArrayRef({1, 2, 6, 6}));
}

TEST(BatchNormTest, RunningStatisticsFollowMomentum) {
  nn::BatchNorm1d bn(2);
  Tensor x = tensor({{1., 10.}, {3., 20.}, {5., 60.}});
  Tensor y = bn(x);
  // Batch statistics normalize (biased variance): column 0 is 1, 3, 5.
  double s = std::sqrt(8.0 / 3 + 1e-5);
  EXPECT_TENSOR(y.select(1, 0), {3}, {-2 / s, 0, 2 / s}, 1e-5);
  // running = 0.9 * running + 0.1 * batch (unbiased variance).
  EXPECT_TENSOR(bn->running_mean, {2}, {0.3, 3.0}, 1e-6);
  EXPECT_TENSOR(bn->running_var, {2}, {0.9 + 0.1 * 4, 0.9 + 0.1 * 700}, 1e-4);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);
  bn->eval();
  Tensor e = bn(tensor({{0.3, 3.0}}));
  EXPECT_TENSOR(e, {1, 2}, {0.0, 0.0}, 1e-6);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 1);

  // momentum = None: a cumulative average over the batches seen.
  nn::BatchNorm1d avg(nn::BatchNormOptions(1).momentum(std::nullopt));
  avg(tensor({{2.}, {4.}}));
  avg(tensor({{6.}, {8.}}));
  EXPECT_TENSOR(avg->running_mean, {1}, {5.0}, 1e-6);
  EXPECT_ERROR_CONTAINS(nn::BatchNorm2d(3)(ones({2, 3, 4})),
                        "expected 4D input (got 3D input)");
}

TEST(LayerNormTest, NormalizesTrailingDims) {
  nn::LayerNorm ln(nn::LayerNormOptions({3}));
  Tensor y = ln(tensor({{1., 2., 3.}, {2., 4., 9.}}));
  EXPECT_TENSOR(y.mean({1}), {2}, {0.0, 0.0}, 1e-6);
  EXPECT_TENSOR(y.var({1}, /*unbiased=*/false), {2}, {1.0, 1.0}, 1e-4);
  EXPECT_EQ(ln->weight.sizes(), IntArrayRef({3}));
}

TEST(DropoutTest, TrainingAndEval) {
  manual_seed(3);
  nn::Dropout drop(0.5);
  Tensor x = ones({1000});
  Tensor y = drop(x);
  std::vector<double> v = values(y);
  int zeros = 0;
  for (double e : v) {
    EXPECT_TRUE(e == 0.0 || e == 2.0);
    zeros += e == 0.0;
  }
  EXPECT_GT(zeros, 400);
  EXPECT_LT(zeros, 600);
  drop->eval();
  EXPECT_TRUE(drop(x).equal(x));
  EXPECT_ERROR_CONTAINS(nn::Dropout(1.5), "between 0 and 1, but got 1.5");

  nn::Dropout2d drop2(0.5);
  Tensor c = drop2(ones({4, 8, 3, 3}));
  for (int n = 0; n < 4; ++n)
    for (int ch = 0; ch < 8; ++ch) {
      Tensor plane = c[n][ch];
      double first = plane.flatten()[0].item<double>();
      EXPECT_TRUE(plane.eq(first).all().item<bool>()); // whole channels
    }
}

TEST(EmbeddingTest, PaddingRowAndPretrained) {
  nn::Embedding emb(nn::EmbeddingOptions(5, 3).padding_idx(-1));
  EXPECT_EQ(*emb->options.padding_idx(), 4);
  EXPECT_TENSOR(emb->weight[4], {3}, {0, 0, 0});
  Tensor out = emb(tensor({{4, 0}}, kLong));
  EXPECT_EQ(out.sizes(), IntArrayRef({1, 2, 3}));
  out.sum().backward();
  EXPECT_TENSOR(emb->weight.grad()[4], {3}, {0, 0, 0});
  EXPECT_TENSOR(emb->weight.grad()[0], {3}, {1, 1, 1});

  auto pre = nn::Embedding::from_pretrained(tensor({{1., 2.}, {3., 4.}}));
  EXPECT_FALSE(pre->weight.requires_grad());
  EXPECT_TENSOR(pre(tensor({1}, kLong)), {1, 2}, {3, 4});
}

TEST(ActivationTest, ValuesAndLeakyReluGradient) {
  Tensor x = tensor({-2., 0.5, 3.}).requires_grad_();
  nn::LeakyReLU leaky(nn::LeakyReLUOptions().negative_slope(0.2));
  Tensor y = leaky(x);
  EXPECT_TENSOR(y, {3}, {-0.4, 0.5, 3.0}, 1e-6);
  y.sum().backward();
  EXPECT_TENSOR(x.grad(), {3}, {0.2, 1.0, 1.0}, 1e-6);
  EXPECT_TENSOR(nn::ReLU()(x), {3}, {0, 0.5, 3.0});
  EXPECT_TENSOR(nn::Sigmoid()(tensor({0.})), {1}, {0.5});
  EXPECT_TENSOR(nn::Tanh()(tensor({0.})), {1}, {0.0});
  EXPECT_TENSOR(nn::SiLU()(tensor({1.})), {1}, {1 / (1 + std::exp(-1.0))},
                1e-6);
  EXPECT_TENSOR(nn::GELU()(tensor({1.})), {1},
                {0.5 * (1 + std::erf(1 / std::sqrt(2.0)))}, 1e-6);
  Tensor s = nn::Softmax(1)(tensor({{1., 2., 3.}}));
  EXPECT_NEAR(s.sum().item<double>(), 1.0, 1e-6);
  Tensor ls = nn::LogSoftmax(1)(tensor({{1., 2., 3.}}));
  EXPECT_TRUE(ls.exp().allclose(s));
  Tensor inplace = tensor({-1., 1.});
  nn::ReLU(nn::ReLUOptions(true))(inplace);
  EXPECT_TENSOR(inplace, {2}, {0, 1});
}

TEST(PoolingTest, ModulesMatchTheOps) {
  Tensor x = arange(16, kFloat).reshape({1, 1, 4, 4});
  EXPECT_TENSOR(nn::MaxPool2d(2)(x), {1, 1, 2, 2}, {5, 7, 13, 15});
  EXPECT_TENSOR(nn::AvgPool2d(2)(x), {1, 1, 2, 2}, {2.5, 4.5, 10.5, 12.5});
  EXPECT_TENSOR(nn::AdaptiveAvgPool2d(1)(x), {1, 1, 1, 1}, {7.5});
  EXPECT_TENSOR(nn::AdaptiveAvgPool2d(ExpandingArrayWithOptionalElem<2>(
                    {std::nullopt, std::optional<int64_t>(1)}))(x),
                {1, 1, 4, 1}, {1.5, 5.5, 9.5, 13.5});
  EXPECT_EQ(nn::Flatten()(x).sizes(), IntArrayRef({1, 16}));
  EXPECT_EQ(
      nn::Unflatten(1, std::vector<int64_t>{2, 8})(x.view({1, 16})).sizes(),
      IntArrayRef({1, 2, 8}));
}

TEST(LossModuleTest, HandComputedValues) {
  Tensor a = tensor({1., 2., 3.}), b = tensor({1., 0., 6.});
  EXPECT_TENSOR(nn::MSELoss()(a, b), {}, {13.0 / 3}, 1e-6);
  EXPECT_TENSOR(nn::MSELoss(nn::MSELossOptions(kSum))(a, b), {}, {13.0});
  EXPECT_TENSOR(nn::L1Loss()(a, b), {}, {5.0 / 3}, 1e-6);
  EXPECT_TENSOR(nn::SmoothL1Loss()(a, b), {}, {(0 + 1.5 + 2.5) / 3}, 1e-6);
  Tensor logp = tensor({{std::log(0.25), std::log(0.75)}});
  EXPECT_TENSOR(nn::NLLLoss()(logp, tensor({1}, kLong)), {}, {-std::log(0.75)},
                1e-6);
  Tensor logits = tensor({{0., 0.}});
  EXPECT_TENSOR(nn::CrossEntropyLoss()(logits, tensor({0}, kLong)), {},
                {std::log(2.0)}, 1e-6);
  EXPECT_TENSOR(nn::BCELoss()(tensor({0.5}), tensor({1.})), {}, {std::log(2.0)},
                1e-6);
  EXPECT_TENSOR(nn::BCEWithLogitsLoss()(tensor({0.}), tensor({1.})), {},
                {std::log(2.0)}, 1e-6);
}

TEST(SequentialTest, ForwardChainsAndNames) {
  nn::Sequential seq(nn::Linear(3, 4), nn::ReLU(), nn::Linear(4, 2));
  EXPECT_EQ(seq->size(), 3u);
  EXPECT_EQ(
      seq->named_parameters().keys(),
      (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  Tensor x = randn({5, 3});
  auto l0 = seq->ptr<nn::LinearImpl>(0);
  auto l2 = seq->ptr<nn::LinearImpl>(2);
  EXPECT_TRUE(seq(x).allclose(l2->forward(l0->forward(x).relu())));
  EXPECT_ERROR_CONTAINS(seq->ptr<nn::ReLUImpl>(0), "Unable to cast module");
  EXPECT_ERROR_CONTAINS(seq->ptr(9), "out of range");

  nn::Sequential named({{"fc", nn::Linear(2, 2)}, {"act", nn::Tanh()}});
  EXPECT_EQ(named->named_children().keys(),
            (std::vector<std::string>{"fc", "act"}));
  auto cloned = std::dynamic_pointer_cast<nn::SequentialImpl>(seq->clone());
  EXPECT_TRUE(cloned->forward(x).allclose(seq(x)));
  EXPECT_NE(cloned->ptr<nn::LinearImpl>(0)->weight.data_ptr(),
            l0->weight.data_ptr());
}

TEST(AnyModuleTest, TypeChecksArguments) {
  nn::AnyModule any(nn::Linear(2, 2));
  EXPECT_EQ(any.forward(ones({1, 2})).sizes(), IntArrayRef({1, 2}));
  std::string e = errorOf([&] { any.forward(1.5); });
  EXPECT_NE(e.find("Expected argument #0 to be of type tcc::Tensor, but "
                   "received value of type double"),
            std::string::npos)
      << e;
  EXPECT_ERROR_CONTAINS(any.forward(ones({1, 2}), ones({1})),
                        "expects 1 argument(s), but received 2");
  EXPECT_ERROR_CONTAINS(any.any_forward(ones({1, 2})).get<int>(),
                        "Attempted to cast AnyValue to int");
  EXPECT_NE(any.ptr<nn::LinearImpl>(), nullptr);
}

TEST(ContainerTest, ModuleListModuleDictAndFunctional) {
  nn::ModuleList list(nn::Linear(1, 1), nn::ReLU());
  list->push_back(nn::Linear(1, 2));
  EXPECT_EQ(list->size(), 3u);
  EXPECT_EQ(
      list->named_parameters().keys(),
      (std::vector<std::string>{"0.weight", "0.bias", "2.weight", "2.bias"}));
  list->insert(0, nn::Tanh());
  EXPECT_EQ(
      list->named_parameters().keys(),
      (std::vector<std::string>{"1.weight", "1.bias", "3.weight", "3.bias"}));
  EXPECT_NE(list->ptr<nn::TanhImpl>(0), nullptr);

  nn::ModuleDict dict(
      std::vector<std::pair<std::string, std::shared_ptr<nn::Module>>>{
          {"a", nn::Linear(1, 1).ptr()}, {"b", nn::ReLU().ptr()}});
  EXPECT_EQ(dict->keys(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(dict->contains("b"));
  dict->pop("a");
  EXPECT_TRUE(dict->parameters().empty());
  EXPECT_ERROR_CONTAINS((*dict)["a"], "'a' is not defined");

  auto stride = ExpandingArray<2>({2, 2});
  nn::Functional pool(max_pool2d, 2, stride, 0, 1, false);
  EXPECT_TENSOR(pool(arange(16, kFloat).reshape({1, 1, 4, 4})), {1, 1, 2, 2},
                {5, 7, 13, 15});
  nn::Functional relu(tcc::relu);
  EXPECT_TENSOR(relu(tensor({-1., 2.})), {2}, {0, 2});
  nn::Functional lambda([](Tensor t) { return t * 2; });
  EXPECT_TENSOR(lambda(tensor({3.})), {1}, {6});
}

TEST(InitTest, GainsFansAndDistributions) {
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain(kReLU), std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain(kTanh), 5.0 / 3);
  EXPECT_DOUBLE_EQ(nn::init::calculate_gain(kLeakyReLU, 0.2),
                   std::sqrt(2.0 / 1.04));
  auto [fanIn, fanOut] =
      nn::init::_calculate_fan_in_and_fan_out(empty({6, 4, 3, 3}));
  EXPECT_EQ(fanIn, 36);
  EXPECT_EQ(fanOut, 54);
  EXPECT_ERROR_CONTAINS(nn::init::xavier_uniform_(empty({3})),
                        "fewer than 2 dimensions");

  manual_seed(5);
  Tensor w = empty({200, 300});
  nn::init::xavier_uniform_(w);
  double a = std::sqrt(6.0 / 500);
  EXPECT_LE(maxAbs(w), a);
  EXPECT_NEAR(w.var().item<double>(), a * a / 3, 0.05 * a * a / 3);
  nn::init::kaiming_normal_(w, 0, kFanOut, kReLU);
  EXPECT_NEAR(w.std().item<double>(), std::sqrt(2.0 / 200),
              0.03 * std::sqrt(2.0 / 200));
  nn::init::kaiming_uniform_(w, 0, kFanIn, kReLU);
  EXPECT_LE(maxAbs(w), std::sqrt(6.0 / 300));

  EXPECT_TENSOR(nn::init::eye_(empty({2, 3})), {2, 3}, {1, 0, 0, 0, 1, 0});
  EXPECT_TENSOR(nn::init::constant_(empty({2}), 3.5), {2}, {3.5, 3.5});
  Tensor d = nn::init::dirac_(empty({2, 2, 3}));
  EXPECT_TENSOR(d, {2, 2, 3}, {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0});
  Tensor q = nn::init::orthogonal_(empty({3, 5}));
  EXPECT_TRUE(q.mm(q.t()).allclose(eye(3), 1e-5, 1e-5));
  Tensor leaf = ones({2}).requires_grad_();
  nn::init::zeros_(leaf); // no "in-place on a leaf" error: init runs no-grad
  EXPECT_TENSOR(leaf, {2}, {0, 0});
}

TEST(ClipGradTest, NormAndValue) {
  Tensor a = zeros({2}).requires_grad_(), b = zeros({1}).requires_grad_();
  (a * tensor({3., 0.}) + 0).sum().backward();
  (b * tensor({4.})).sum().backward();
  double total = nn::utils::clip_grad_norm_({a, b}, 1.0);
  EXPECT_NEAR(total, 5.0, 1e-6);
  EXPECT_TENSOR(a.grad(), {2}, {0.6, 0.0}, 1e-5);
  EXPECT_TENSOR(b.grad(), {1}, {0.8}, 1e-5);
  double inf = nn::utils::clip_grad_norm_({a, b}, 10.0, INFINITY);
  EXPECT_NEAR(inf, 0.8, 1e-5); // below the limit: unchanged
  EXPECT_TENSOR(b.grad(), {1}, {0.8}, 1e-5);
  nn::utils::clip_grad_value_({a, b}, 0.7);
  EXPECT_TENSOR(b.grad(), {1}, {0.7}, 1e-6);
  b.mutable_grad().fill_(NAN);
  EXPECT_ERROR_CONTAINS(nn::utils::clip_grad_norm_({a, b}, 1.0, 2.0, true),
                        "non-finite");
}

TEST(FunctionalTest, OptionsFormsMatchTheOps) {
  Tensor x = randn({2, 3, 6, 6});
  EXPECT_TRUE(F::max_pool2d(x, F::MaxPool2dFuncOptions(3).stride(2))
                  .equal(max_pool2d(x, 3, 2)));
  Tensor t = tensor({{3., 4.}});
  EXPECT_TENSOR(F::normalize(t, F::NormalizeFuncOptions().dim(1)), {1, 2},
                {0.6, 0.8}, 1e-6);
  EXPECT_TENSOR(
      F::pad(tensor({{1., 2.}}), F::PadFuncOptions({1, 1}).mode(kReplicate)),
      {1, 4}, {1, 1, 2, 2});
  EXPECT_TENSOR(F::log_softmax(tensor({0., 0.}), 0), {2},
                {-std::log(2.0), -std::log(2.0)}, 1e-6);
  EXPECT_TENSOR(
      F::cross_entropy(tensor({{0., 0.}}), tensor({1}, kLong),
                       F::CrossEntropyFuncOptions().label_smoothing(0.2)),
      {}, {std::log(2.0)}, 1e-6);
  EXPECT_TENSOR(F::one_hot(tensor({2}, kLong), 3), {1, 3}, {0, 0, 1});
}
