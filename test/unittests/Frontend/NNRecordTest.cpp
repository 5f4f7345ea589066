//===- NNRecordTest.cpp - What the tracer sees of the nn-style ops --------===//

#include "TestSupport.h"

#include "tcc/Frontend/OpObserver.h"

using namespace tcc;

namespace {

struct Recorder : detail::OpObserver {
  struct Call {
    std::string name;
    size_t inputs;
    std::vector<bool> definedInputs;
    detail::AttrList attrs;
    bool inplace;
  };
  std::vector<Call> calls;
  std::vector<std::string> reads;
  void onOp(const detail::OpCall &c) override {
    Call k{c.op.name, c.inputs.size(), {}, c.attrs, c.inplace};
    for (const Tensor &t : c.inputs)
      k.definedInputs.push_back(t.defined());
    calls.push_back(k);
  }
  void onDataRead(const Tensor &, const char *what) override {
    reads.push_back(what);
  }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const Call &c : calls)
      n.push_back(c.name);
    return n;
  }
};

/// Records the ops `f` runs.
template <class F> Recorder record(F f) {
  Recorder r;
  detail::OpObserver *prev = detail::setObserver(&r);
  try {
    f();
  } catch (...) {
    detail::setObserver(prev);
    throw;
  }
  detail::setObserver(prev);
  return r;
}

const detail::AttrValue &attr(const Recorder::Call &c, const char *name) {
  for (const detail::Attr &a : c.attrs)
    if (std::string(a.name) == name)
      return a.value;
  static detail::AttrValue missing;
  ADD_FAILURE() << c.name << " has no attribute " << name;
  return missing;
}

using Ints = std::vector<int64_t>;
using Names = std::vector<std::string>;

} // namespace

TEST(NNRecordTest, ConvAndPoolingCarryTheDialectsAttributes) {
  Tensor x = ones({1, 2, 6, 6}), w = ones({4, 1, 3, 3});
  Recorder r = record([&] {
    Tensor y = conv2d(x, w, {}, 2, 1, 1, 2);
    max_pool2d(y, 2, {}, 0, 1, true);
    avg_pool2d(y, 3, 1, 1, false, false, 2);
    adaptive_avg_pool2d(y, {1, 1});
  });
  ASSERT_EQ(r.names(), Names({"conv2d", "max_pool2d", "avg_pool2d",
                              "adaptive_avg_pool2d"}));
  const auto &conv = r.calls[0];
  EXPECT_EQ(conv.inputs, 3u); // input, weight, bias (None)
  EXPECT_EQ(conv.definedInputs, std::vector<bool>({true, true, false}));
  EXPECT_EQ(std::get<Ints>(attr(conv, "stride")), Ints({2, 2}));
  EXPECT_EQ(std::get<Ints>(attr(conv, "padding")), Ints({1, 1}));
  EXPECT_EQ(std::get<Ints>(attr(conv, "dilation")), Ints({1, 1}));
  EXPECT_EQ(std::get<int64_t>(attr(conv, "groups")), 2);
  const auto &mp = r.calls[1];
  EXPECT_EQ(std::get<Ints>(attr(mp, "kernel_size")), Ints({2, 2}));
  EXPECT_EQ(std::get<Ints>(attr(mp, "stride")), Ints({2, 2})); // = kernel
  EXPECT_TRUE(std::get<bool>(attr(mp, "ceil_mode")));
  const auto &ap = r.calls[2];
  EXPECT_FALSE(std::get<bool>(attr(ap, "count_include_pad")));
  EXPECT_EQ(std::get<int64_t>(attr(ap, "divisor_override")), 2);
  EXPECT_EQ(std::get<Ints>(attr(r.calls[3], "output_size")), Ints({1, 1}));
}

TEST(NNRecordTest, CompositesRecordOnce) {
  Tensor x = randn({4, 3}), t = tensor({0, 2, 1, 1});
  Tensor rm = zeros({3}), rv = ones({3});
  Recorder r = record([&] {
    cross_entropy_loss(x, t, {}, Reduction::Mean, -100, 0.1);
    batch_norm(x, ones({3}), zeros({3}), rm, rv, true, 0.1, 1e-5);
    layer_norm(x, {3});
    conv1d(ones({1, 2, 5}), ones({3, 2, 2}));
    stack({x, x}, 1);
    pad(x, {1, 1}, "reflect");
    mse_loss(x, x);
  });
  EXPECT_EQ(r.names(), Names({"cross_entropy_loss", "batch_norm", "layer_norm",
                              "conv1d", "stack", "pad", "mse_loss"}));
  EXPECT_DOUBLE_EQ(std::get<double>(attr(r.calls[0], "label_smoothing")), 0.1);
  EXPECT_EQ(std::get<int64_t>(attr(r.calls[0], "reduction")), Reduction::Mean);
  EXPECT_TRUE(std::get<bool>(attr(r.calls[1], "training")));
  EXPECT_DOUBLE_EQ(std::get<double>(attr(r.calls[1], "eps")), 1e-5);
  EXPECT_EQ(r.calls[1].inputs, 5u);
  EXPECT_EQ(std::get<Ints>(attr(r.calls[2], "normalized_shape")), Ints({3}));
  EXPECT_EQ(std::get<std::string>(attr(r.calls[5], "mode")), "reflect");
  EXPECT_EQ(std::get<Ints>(attr(r.calls[5], "pad")), Ints({1, 1}));
}

TEST(NNRecordTest, InferenceFormsAndInPlaceOps) {
  Tensor x = ones({2, 3});
  Recorder r = record([&] {
    dropout(x, 0.5, /*train=*/false); // the identity: nothing to trace
    dropout(x, 0.5, true);
    Tensor y = x.clone();
    y.masked_fill_(y > 0, 2.0);
    x.gather(1, tensor({{0}, {2}}));
    one_hot(tensor({1, 0}), 3);
  });
  EXPECT_EQ(r.names(), Names({"dropout", "clone", "gt", "masked_fill", "gather",
                              "one_hot"}));
  EXPECT_DOUBLE_EQ(std::get<double>(attr(r.calls[0], "p")), 0.5);
  EXPECT_TRUE(r.calls[3].inplace);
  EXPECT_EQ(std::get<int64_t>(attr(r.calls[4], "dim")), 1);
  EXPECT_EQ(std::get<int64_t>(attr(r.calls[5], "num_classes")), 3);
  // Argument checks read data without telling the tracer; a shape that
  // depends on the data does tell it.
  EXPECT_TRUE(r.reads.empty());
  Recorder r2 = record([&] { one_hot(tensor({1, 0})); });
  ASSERT_EQ(r2.reads.size(), 1u);
  EXPECT_EQ(r2.reads[0], "one_hot without num_classes");
}

TEST(NNRecordTest, EveryOpIsRegistered) {
  for (const char *name : {"linear",
                           "conv2d",
                           "conv1d",
                           "conv_transpose2d",
                           "max_pool2d",
                           "max_pool2d_with_indices",
                           "avg_pool2d",
                           "avg_pool2d_backward",
                           "adaptive_avg_pool2d",
                           "adaptive_avg_pool2d_backward",
                           "batch_norm",
                           "layer_norm",
                           "dropout",
                           "feature_dropout",
                           "embedding",
                           "one_hot",
                           "cat",
                           "stack",
                           "gather",
                           "scatter",
                           "scatter.value",
                           "scatter_add",
                           "index_select",
                           "masked_fill",
                           "masked_fill.Tensor",
                           "pad",
                           "mse_loss",
                           "l1_loss",
                           "smooth_l1_loss",
                           "binary_cross_entropy",
                           "binary_cross_entropy_with_logits",
                           "nll_loss",
                           "cross_entropy_loss"})
    EXPECT_NE(detail::findOp(name), nullptr) << name;
}
