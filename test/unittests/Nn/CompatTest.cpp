//===- CompatTest.cpp - libtorch programs through <torch/torch.h> ---------===//
//
// Written as a libtorch user writes, with only libtorch's names; compiled
// against tcc's compatibility layer.
//
//===----------------------------------------------------------------------===//

#include <torch/torch.h>

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

// User code reopens namespace torch (an alias would make this an error).
namespace torch {
namespace nn {
struct TwoLayerImpl : torch::nn::Module {
  TwoLayerImpl(int64_t in, int64_t hidden)
      : fc1(register_module("fc1", torch::nn::Linear(in, hidden))),
        fc2(register_module("fc2", torch::nn::Linear(hidden, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc2(torch::relu(fc1(x))); }
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(TwoLayer);
} // namespace nn
} // namespace torch

namespace {

using namespace torch::autograd;

class MulConstant : public Function<MulConstant> {
public:
  static torch::Tensor forward(AutogradContext *ctx, torch::Tensor tensor,
                               double constant) {
    ctx->saved_data["constant"] = constant;
    return tensor * constant;
  }
  static tensor_list backward(AutogradContext *ctx, tensor_list grad_outputs) {
    return {grad_outputs[0] * ctx->saved_data["constant"].toDouble(),
            torch::Tensor()};
  }
};

// forward has a defaulted tensor argument; backward returns a gradient for
// it even when apply() was not given it (libtorch drops the extra one).
class LinearFunction : public Function<LinearFunction> {
public:
  static torch::Tensor forward(AutogradContext *ctx, torch::Tensor input,
                               torch::Tensor weight,
                               torch::Tensor bias = torch::Tensor()) {
    ctx->save_for_backward({input, weight, bias});
    auto output = input.mm(weight.t());
    if (bias.defined())
      output += bias.unsqueeze(0).expand_as(output);
    return output;
  }
  static tensor_list backward(AutogradContext *ctx, tensor_list grad_outputs) {
    auto saved = ctx->get_saved_variables();
    auto grad_output = grad_outputs[0];
    auto grad_bias = torch::Tensor();
    if (saved[2].defined())
      grad_bias = grad_output.sum(0);
    return {grad_output.mm(saved[1]), grad_output.t().mm(saved[0]), grad_bias};
  }
};

class PairDataset : public torch::data::datasets::Dataset<PairDataset> {
public:
  explicit PairDataset(int64_t n) : n_(n) {}
  torch::data::Example<> get(size_t index) override {
    auto x = torch::full({2}, static_cast<double>(index));
    return {x, torch::tensor(static_cast<int64_t>(index % 2), torch::kLong)};
  }
  torch::optional<size_t> size() const override { return n_; }

private:
  int64_t n_;
};

struct NetImpl : torch::nn::SequentialImpl {
  NetImpl() {
    using namespace torch::nn;
    auto stride = torch::ExpandingArray<2>({2, 2});
    torch::ExpandingArray<2> shape({-1, 16});
    push_back(Conv2d(Conv2dOptions(1, 4, 3).padding(1)));
    push_back(Functional(torch::relu));
    push_back(Functional(torch::max_pool2d, 2, stride, 0, 1, false));
    push_back(Functional(torch::reshape, shape));
    push_back(Dropout());
    push_back(Linear(16, 2));
    push_back(Functional(
        [](torch::Tensor input) { return torch::log_softmax(input, 1); }));
  }
};
TORCH_MODULE(Net);

} // namespace

TEST(CompatTest, UsingNamespaceTorchAndHolders) {
  using namespace torch;
  manual_seed(1);
  nn::TwoLayer model(3, 8);
  nn::Linear empty{nullptr};
  EXPECT_TRUE(empty.is_empty());
  optim::SGD sgd(model->parameters(), optim::SGDOptions(0.1).momentum(0.5));
  optim::Optimizer &opt = sgd;
  Tensor x = randn({16, 3});
  Tensor y = x.sum(1, true);
  double first = 0, last = 0;
  for (int i = 0; i < 200; ++i) {
    opt.zero_grad();
    Tensor loss = torch::mse_loss(model(x), y);
    loss.backward();
    opt.step();
    (i == 0 ? first : last) = loss.item<double>();
  }
  EXPECT_LT(last, first / 10);
  EXPECT_EQ(model->named_parameters().keys()[0], "fc1.weight");
  EXPECT_EQ(torch::kFloat, torch::Dtype::Float);
  // torch/types.h's short names.
  EXPECT_EQ(torch::kF32, torch::kFloat);
  EXPECT_EQ(torch::kF64, torch::kDouble);
  EXPECT_EQ(torch::kI64, torch::kLong);
  EXPECT_EQ(torch::kU8, torch::kByte);
  EXPECT_FALSE(torch::cuda::is_available());
}

TEST(CompatTest, ErrorsAndMacros) {
  try {
    TORCH_CHECK(1 + 1 == 3, "math is ", "broken");
    FAIL() << "TORCH_CHECK did not throw";
  } catch (const c10::Error &e) {
    EXPECT_STREQ(e.what(), "math is broken");
    EXPECT_STREQ(e.what_without_backtrace(), "math is broken");
  }
  try {
    AT_ASSERT(false);
    FAIL() << "AT_ASSERT did not throw";
  } catch (const c10::Error &e) {
    EXPECT_NE(std::string(e.what()).find("false"), std::string::npos);
  }
  EXPECT_THROW(torch::zeros({2}).view({3}), c10::Error);
  EXPECT_EQ(torch::str("dcgan-sample-", 3, ".pt"), "dcgan-sample-3.pt");
  c10::optional<int> none = c10::nullopt;
  EXPECT_FALSE(none.has_value());
}

TEST(CompatTest, CustomFunctionsKeepIValuesInSavedData) {
  auto x = torch::randn({2}).requires_grad_();
  auto y = MulConstant::apply(x, 5.5);
  y.sum().backward();
  EXPECT_TRUE(x.grad().allclose(torch::full({2}, 5.5)));

  auto input = torch::randn({2, 3}).requires_grad_();
  auto weight = torch::randn({4, 3}).requires_grad_();
  LinearFunction::apply(input, weight).sum().backward();
  EXPECT_TRUE(input.grad().allclose(torch::ones({2, 4}).mm(weight)));
  EXPECT_TRUE(weight.grad().allclose(torch::ones({4, 2}).mm(input)));
}

TEST(CompatTest, SequentialImplSubclassFunctionalAndDataLoader) {
  torch::manual_seed(2);
  Net net;
  auto out = net->forward(torch::randn({3, 1, 4, 4}));
  EXPECT_EQ(out.sizes(), torch::IntArrayRef({3, 2}));
  EXPECT_TRUE(out.exp().sum(1).allclose(torch::ones({3})));

  auto loader =
      torch::data::make_data_loader<torch::data::samplers::SequentialSampler>(
          PairDataset(10).map(torch::data::transforms::Stack<>()),
          torch::data::DataLoaderOptions().batch_size(4).workers(2));
  int64_t seen = 0;
  for (torch::data::Example<> &batch : *loader) {
    EXPECT_EQ(batch.data.size(1), 2);
    seen += batch.data.size(0);
  }
  EXPECT_EQ(seen, 10);
}

TEST(CompatTest, SaveAndLoadModulesAndOptimizers) {
  torch::nn::Sequential a(torch::nn::Linear(2, 2), torch::nn::BatchNorm1d(2));
  torch::nn::Sequential b(torch::nn::Linear(2, 2), torch::nn::BatchNorm1d(2));
  torch::optim::Adam adam(
      a->parameters(),
      torch::optim::AdamOptions(2e-4).betas(std::make_tuple(0.5, 0.5)));
  std::stringstream modelBytes, optimBytes;
  torch::save(a, modelBytes);
  torch::save(adam, optimBytes);
  torch::load(b, modelBytes);
  torch::optim::Adam adam2(b->parameters());
  torch::load(adam2, optimBytes);
  EXPECT_TRUE(a[0]->as<torch::nn::Linear>()->weight.equal(
      b[0]->as<torch::nn::Linear>()->weight));
  auto &o = static_cast<torch::optim::AdamOptions &>(
      adam2.param_groups()[0].options());
  EXPECT_DOUBLE_EQ(std::get<0>(o.betas()), 0.5);
  EXPECT_DOUBLE_EQ(o.lr(), 2e-4);
}

TEST(CompatTest, FunctionalNamespaceAndEnums) {
  namespace F = torch::nn::functional;
  auto x = torch::tensor({-1.0, 2.0});
  EXPECT_TRUE(F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.1))
                  .allclose(torch::tensor({-0.1, 2.0})));
  EXPECT_TRUE(torch::leaky_relu(x, 0.1).allclose(torch::tensor({-0.1, 2.0})));
  auto loss =
      F::mse_loss(x, torch::zeros({2}), F::MSELossFuncOptions(torch::kSum));
  EXPECT_DOUBLE_EQ(loss.item<double>(), 5.0);
  EXPECT_NEAR(torch::nll_loss(torch::log_softmax(torch::zeros({1, 2}), 1),
                              torch::tensor({1}, torch::kLong), {},
                              torch::Reduction::Sum)
                  .item<double>(),
              std::log(2.0), 1e-6);
  torch::nn::init::kaiming_uniform_(torch::empty({3, 3}), 0, torch::kFanIn,
                                    torch::kReLU);
}
