//===- CalibrateTest.cpp - calibrate(), quantize() and fitBudget() --------===//
//
// Small traced models: the int8 result of a linear layer is checked bit for
// bit against an int32 reference computed here from the calibrated ranges;
// a residual block with batch norm and a depthwise conv against fp32.
//
//===----------------------------------------------------------------------===//

#include "tcc/Quant/Budget.h"
#include "tcc/Quant/Calibrate.h"

#include "tcc/nn.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace tcc;
using namespace tcc::quant;

namespace {

std::vector<Batch> randomBatches(int count, std::vector<int64_t> shape,
                                 uint64_t seed) {
  manual_seed(seed);
  std::vector<Batch> batches;
  for (int i = 0; i < count; ++i)
    batches.push_back({randn(shape)});
  return batches;
}

std::string errorOf(const std::function<void()> &f) {
  try {
    f();
  } catch (const QuantError &e) {
    return e.what();
  }
  return "";
}

struct LinearNet : nn::Module {
  LinearNet() : fc(register_module("fc", nn::Linear(6, 4))) {}
  Tensor forward(const Tensor &x) { return fc(x); }
  nn::Linear fc;
};

/// An int32 reference of the quantized linear: input u8 per tensor from
/// the calibration range, weight s8 per output channel, bias int32 at
/// s_x * s_w, requantize by (s_x * s_w) / s_y in double, dequantize.
TEST(Calibrate, LinearMatchesAnInt32ReferenceBitForBit) {
  manual_seed(3);
  auto net = std::make_shared<LinearNet>();
  std::vector<Batch> batches = randomBatches(4, {5, 6}, 11);
  auto traced = jit::trace(net, {batches[0][0]});
  Calibration c = calibrate(traced, loaderOf(batches));
  ASSERT_EQ(c.layers().size(), 1u);
  EXPECT_EQ(c.layers()[0].name, "fc");
  EXPECT_EQ(c.layers()[0].kind, "linear");
  EXPECT_EQ(c.batches(), 4);
  EXPECT_EQ(c.samples(), 20);
  jit::TracedGraph q = c.quantize();
  EXPECT_NE(q.str().find("tcc.matmul_integer"), std::string::npos);
  EXPECT_EQ(q.str().find("tcc.linear"), std::string::npos);

  // The ranges min/max sees: of the inputs, and of the fp32 outputs.
  NoGradGuard noGrad;
  double xMin = 0, xMax = 0, yMin = 0, yMax = 0;
  for (const Batch &b : batches) {
    Tensor x = b[0], y = net->forward(x);
    xMin = std::min(xMin, x.min().item<double>());
    xMax = std::max(xMax, x.max().item<double>());
    yMin = std::min(yMin, y.min().item<double>());
    yMax = std::max(yMax, y.max().item<double>());
  }
  AffineParams px = affineParams({xMin, xMax}, IntegerRange::u8(), "x");
  AffineParams py = affineParams({yMin, yMax}, IntegerRange::u8(), "y");
  Tensor w = net->fc->weight.contiguous(), bias = net->fc->bias.contiguous();
  std::vector<float> sw(4);
  for (int o = 0; o < 4; ++o) {
    double m = 0;
    for (int k = 0; k < 6; ++k)
      m = std::max(m, std::fabs(double(w.data_ptr<float>()[o * 6 + k])));
    sw[o] = float(m) / 127.0f;
  }
  auto clampRound = [](double v, double lo, double hi) {
    return std::min(hi, std::max(lo, std::nearbyint(v)));
  };
  Tensor x = batches[2][0].contiguous();
  Tensor got = q.run({x})[0].contiguous();
  for (int i = 0; i < 5; ++i)
    for (int o = 0; o < 4; ++o) {
      int64_t acc = 0;
      for (int k = 0; k < 6; ++k) {
        float xv = x.data_ptr<float>()[i * 6 + k];
        int64_t xq = int64_t(clampRound(double(float(xv / px.scale)) +
                                            double(px.zeroPoint),
                                        0, 255));
        int64_t wq = int64_t(clampRound(
            double(float(w.data_ptr<float>()[o * 6 + k] / sw[o])), -127, 127));
        acc += (xq - px.zeroPoint) * wq;
      }
      acc += int64_t(std::nearbyint(double(bias.data_ptr<float>()[o]) /
                                    double(px.scale * sw[o])));
      float multiplier = (px.scale * sw[o]) / py.scale;
      double yq = clampRound(double(acc) * double(multiplier) +
                                 double(py.zeroPoint),
                             0, 255);
      float expected = float(yq - double(py.zeroPoint)) * py.scale;
      EXPECT_EQ(got.data_ptr<float>()[i * 4 + o], expected)
          << "row " << i << " column " << o;
    }
}

/// conv + batch norm + ReLU, a depthwise conv, a residual add and a linear.
struct BlockNet : nn::Module {
  BlockNet()
      : stem(register_module(
            "stem", nn::Conv2d(nn::Conv2dOptions(3, 8, 3).padding(1).bias(false)))),
        bn(register_module("bn", nn::BatchNorm2d(8))),
        dw(register_module(
            "dw", nn::Conv2d(nn::Conv2dOptions(8, 8, 3).padding(1).groups(8)))),
        head(register_module("head", nn::Linear(8 * 6 * 6, 5))) {}
  Tensor forward(const Tensor &x) {
    Tensor h = bn(stem(x)).relu();
    Tensor r = (dw(h) + h).relu();
    return head(r.flatten(1));
  }
  nn::Conv2d stem;
  nn::BatchNorm2d bn;
  nn::Conv2d dw;
  nn::Linear head;
};

std::shared_ptr<BlockNet> blockNet() {
  manual_seed(5);
  auto net = std::make_shared<BlockNet>();
  {
    NoGradGuard noGrad;
    net->bn->running_mean.uniform_(-0.5, 0.5);
    net->bn->running_var.uniform_(0.5, 2.0);
    net->bn->weight.uniform_(0.5, 1.5);
  }
  net->eval();
  return net;
}

double relativeError(const Tensor &a, const Tensor &b) {
  return (a - b).norm().item<double>() / b.norm().item<double>();
}

TEST(Calibrate, FoldsBatchNormAndQuantizesEveryKind) {
  auto net = blockNet();
  std::vector<Batch> batches = randomBatches(8, {2, 3, 6, 6}, 21);
  auto traced = jit::trace(net, {batches[0][0]});
  ASSERT_NE(traced.str().find("tcc.batch_norm"), std::string::npos);
  Calibration c = calibrate(traced, loaderOf(batches));
  EXPECT_EQ(c.folded().str().find("tcc.batch_norm"), std::string::npos);
  std::vector<std::string> kinds;
  for (const LayerInfo &l : c.layers())
    kinds.push_back(l.name + ":" + l.kind);
  EXPECT_EQ(kinds, (std::vector<std::string>{"stem:conv2d",
                                             "dw:depthwise_conv2d", "add#0:add",
                                             "head:linear"}));
  jit::TracedGraph q = c.quantize();
  std::string ir = q.str();
  EXPECT_EQ(ir.find("tcc.conv2d "), std::string::npos) << ir;
  EXPECT_NE(ir.find("groups = 8"), std::string::npos);
  EXPECT_EQ(ir.find("tcc.relu"), std::string::npos); // absorbed

  NoGradGuard noGrad;
  Tensor x = randomBatches(1, {2, 3, 6, 6}, 99)[0][0];
  Tensor fp32 = net->forward(x);
  double error = relativeError(q.run({x})[0], fp32);
  EXPECT_LT(error, 0.05);
  EXPECT_GT(error, 0.0); // it did quantize

  // A layer named fp32 stays a float op; s8 activations work too.
  std::string mixed = c.quantize({"head"}).str();
  EXPECT_NE(mixed.find("tcc.linear"), std::string::npos);
  EXPECT_NE(errorOf([&] { c.quantize({"nope"}); }).find("no layer named 'nope'"),
            std::string::npos);
  CalibrationOptions s8;
  s8.activations = ActivationType::S8;
  s8.observer = ObserverKind::Mse;
  Calibration cs8 = calibrate(traced, loaderOf(batches), s8);
  jit::TracedGraph qs8 = cs8.quantize();
  EXPECT_NE(qs8.str().find("xi8>"), std::string::npos);
  EXPECT_LT(relativeError(qs8.run({x})[0], fp32), 0.05);
}

TEST(Calibrate, BadDataIsRefusedNamingTheInput) {
  auto net = std::make_shared<LinearNet>();
  auto traced = jit::trace(net, {randn({5, 6})},
                           jit::TraceOptions{{"features"}, {}, "forward"});
  std::string shape = errorOf(
      [&] { calibrate(traced, loaderOf(randomBatches(2, {5, 7}, 1))); });
  EXPECT_NE(shape.find("calibration batch 0: input 'features' is Float[5,7]; "
                       "the model takes Float[5,6]"),
            std::string::npos)
      << shape;
  std::string dtype = errorOf([&] {
    calibrate(traced, loaderOf({{randn({5, 6}).to(kDouble)}}));
  });
  EXPECT_NE(dtype.find("input 'features' is Double[5,6]"), std::string::npos)
      << dtype;
  EXPECT_NE(errorOf([&] { calibrate(traced, loaderOf({})); })
                .find("no calibration data"),
            std::string::npos);
  // An input that is always 0 has no range to quantize.
  std::string zero = errorOf([&] {
    calibrate(traced, loaderOf({{zeros({5, 6})}})).quantize();
  });
  EXPECT_NE(zero.find("fc: input: the scale comes out zero"), std::string::npos)
      << zero;
}

TEST(Calibrate, HistogramObserversMakeASecondPass) {
  auto net = std::make_shared<LinearNet>();
  std::vector<Batch> batches = randomBatches(3, {5, 6}, 13);
  auto traced = jit::trace(net, {batches[0][0]});
  for (auto [kind, passes] : {std::pair(ObserverKind::MinMax, 1),
                              std::pair(ObserverKind::Percentile, 2),
                              std::pair(ObserverKind::Entropy, 2),
                              std::pair(ObserverKind::Mse, 2)}) {
    int calls = 0;
    BatchLoader counting = [&](const std::function<void(const Batch &)> &visit) {
      ++calls;
      for (const Batch &b : batches)
        visit(b);
    };
    CalibrationOptions options;
    options.observer = kind;
    Calibration c = calibrate(traced, counting, options);
    EXPECT_EQ(calls, passes) << observerName(kind);
    EXPECT_EQ(c.batches(), 3) << observerName(kind);
  }
}

TEST(Budget, FallsBackMostSensitiveFirstUntilTheBudgetHolds) {
  auto net = blockNet();
  std::vector<Batch> batches = randomBatches(6, {2, 3, 6, 6}, 31);
  auto traced = jit::trace(net, {batches[0][0]});
  Calibration c = calibrate(traced, loaderOf(batches));
  EvalData eval;
  eval.inputs = randomBatches(3, {2, 3, 6, 6}, 41);

  // An unbounded budget keeps every layer int8 and still reports each.
  BudgetReport loose = fitBudget(c, eval, {BudgetKind::OutputError, 1e9});
  EXPECT_TRUE(loose.met);
  EXPECT_TRUE(loose.fallback.empty());
  ASSERT_EQ(loose.layers.size(), 4u);
  for (const LayerSensitivity &l : loose.layers) {
    EXPECT_GT(l.alone.outputError, 0.0) << l.name;
    EXPECT_LE(l.alone.outputError, loose.allInt8.outputError * 1.5) << l.name;
  }
  EXPECT_EQ(loose.fp32.outputError, 0.0);

  // A budget of 0 error: only all-fp32 meets it, reached in the order of
  // sensitivity.
  BudgetReport strict = fitBudget(c, eval, {BudgetKind::OutputError, 0});
  EXPECT_TRUE(strict.met);
  ASSERT_EQ(strict.fallback.size(), 4u);
  EXPECT_EQ(strict.chosen.outputError, 0.0);
  std::vector<LayerSensitivity> order = strict.layers;
  std::stable_sort(order.begin(), order.end(), [](auto &a, auto &b) {
    return a.cost > b.cost;
  });
  for (size_t i = 0; i < order.size(); ++i)
    EXPECT_EQ(strict.fallback[i].first, order[i].name);

  // The chosen configuration is what evaluate() measures.
  Evaluation again = evaluate(c, eval, {});
  EXPECT_EQ(again.outputError, loose.allInt8.outputError);
  EXPECT_NE(reportJson(strict, c).find("\"fallback\": [{\"name\": \"" +
                                       order[0].name + "\""),
            std::string::npos);
}

TEST(Budget, AccuracyBudgetNeedsLabels) {
  auto net = std::make_shared<LinearNet>();
  std::vector<Batch> batches = randomBatches(2, {5, 6}, 7);
  auto traced = jit::trace(net, {batches[0][0]});
  Calibration c = calibrate(traced, loaderOf(batches));
  EvalData eval;
  eval.inputs = batches;
  EXPECT_NE(errorOf([&] {
              fitBudget(c, eval, {BudgetKind::AccuracyDrop, 1});
            }).find("needs labels"),
            std::string::npos);
  // Labels equal to fp32's argmax: fp32 accuracy is 1.
  NoGradGuard noGrad;
  for (const Batch &b : batches)
    eval.labels.push_back(net->forward(b[0]).argmax(1));
  BudgetReport r = fitBudget(c, eval, {BudgetKind::AccuracyDrop, 100});
  EXPECT_EQ(r.fp32.accuracy, 1.0);
  EXPECT_TRUE(r.met);
}

} // namespace
