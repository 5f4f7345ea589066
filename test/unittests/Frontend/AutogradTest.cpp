//===- AutogradTest.cpp - The autograd rules and their errors -------------===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;
using autograd::AutogradContext;
using autograd::variable_list;

namespace {

TEST(AutogradTest, LeavesAndGradFn) {
  Tensor x = tensor({1.0, 2.0}, TensorOptions().requires_grad(true));
  Tensor c = tensor({3.0, 4.0});
  EXPECT_TRUE(x.is_leaf());
  EXPECT_TRUE(c.is_leaf());
  EXPECT_FALSE(c.requires_grad());
  Tensor y = x * c;
  EXPECT_FALSE(y.is_leaf());
  EXPECT_TRUE(y.requires_grad());
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  EXPECT_EQ((x + c).grad_fn()->name(), "AddBackward0");
  EXPECT_EQ(y.sum().grad_fn()->name(), "SumBackward0");
  EXPECT_EQ(y.sum({0}).grad_fn()->name(), "SumBackward1");
  EXPECT_EQ(x.exp().grad_fn()->name(), "ExpBackward0");
  EXPECT_EQ(x.view({2, 1}).grad_fn()->name(), "ViewBackward0");
  EXPECT_EQ(x.unsqueeze(0).mm(x.unsqueeze(1)).grad_fn()->name(), "MmBackward0");
  EXPECT_EQ(x.grad_fn(), nullptr);
  EXPECT_FALSE((c * 2).requires_grad());
  EXPECT_FALSE((x > 1).requires_grad()); // comparisons are not differentiable
  EXPECT_FALSE(x.argmax().requires_grad());
}

TEST(AutogradTest, BackwardAccumulates) {
  Tensor x = tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  EXPECT_TENSOR(x.grad(), {3}, {2, 4, 6});
  y.backward();
  EXPECT_TENSOR(x.grad(), {3}, {4, 8, 12});
  x.grad().zero_();
  (x * 3).sum().backward();
  EXPECT_TENSOR(x.grad(), {3}, {3, 3, 3});
}

TEST(AutogradTest, BackwardWithGradientAndErrors) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x * x;
  EXPECT_EQ(test::errorOf([&] { y.backward(); }),
            "grad can be implicitly created only for scalar outputs");
  y.backward(tensor({1.0, 0.5}));
  EXPECT_TENSOR(x.grad(), {2}, {2, 2});
  EXPECT_ERROR_CONTAINS((x * 2).backward(tensor({1.0})),
                        "Mismatch in shape: grad_output[0] has a shape of [1] and output[0] has a shape of [2].");
  EXPECT_EQ(test::errorOf([] { tensor({1.0}).backward(); }),
            "element 0 of tensors does not require grad and does not have a grad_fn");
}

TEST(AutogradTest, BroadcastAndDtypeGradients) {
  Tensor a = ones({3}, kFloat).requires_grad_();
  Tensor b = ones({2, 3}, kDouble).requires_grad_();
  Tensor y = (a * b).sum();
  EXPECT_EQ(y.dtype(), kDouble);
  y.backward();
  EXPECT_EQ(a.grad().dtype(), kFloat);
  EXPECT_TENSOR(a.grad(), {3}, {2, 2, 2});
  EXPECT_TENSOR(b.grad(), {2, 3}, {1, 1, 1, 1, 1, 1});
}

TEST(AutogradTest, RetainGradAndNonLeafGrad) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor h = x * 3;
  h.retain_grad();
  Tensor k = h * 2;
  EXPECT_TRUE(h.retains_grad());
  (k * k).sum().backward();
  EXPECT_TENSOR(h.grad(), {2}, {24, 48});
  EXPECT_FALSE(k.grad().defined());
  EXPECT_TENSOR(x.grad(), {2}, {72, 144});
  EXPECT_EQ(test::errorOf([] { tensor({1.0}).retain_grad(); }),
            "can't retain_grad on Tensor that has requires_grad=False");
}

TEST(AutogradTest, NoGradAndDetach) {
  Tensor x = tensor({1.0}).requires_grad_();
  {
    NoGradGuard guard;
    EXPECT_FALSE(GradMode::is_enabled());
    EXPECT_FALSE((x * 2).requires_grad());
  }
  EXPECT_TRUE(GradMode::is_enabled());
  Tensor d = x.detach();
  EXPECT_FALSE(d.requires_grad());
  d.add_(1);
  EXPECT_EQ(x.item<double>(), 2); // shares data
  Tensor y = x * 2;
  EXPECT_TRUE(y.detach().is_leaf());
}

TEST(AutogradTest, RequiresGradRules) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_ERROR_CONTAINS(y.requires_grad_(false),
                        "you can only change requires_grad flags of leaf variables.");
  EXPECT_ERROR_CONTAINS(tensor({1}).requires_grad_(),
                        "only Tensors of floating point and complex dtype can require gradients");
  EXPECT_TRUE(y.requires_grad_(true).requires_grad()); // no-op on a non-leaf
}

TEST(AutogradTest, RetainGraphError) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = (x.exp() * x).sum();
  y.backward();
  EXPECT_ERROR_CONTAINS(y.backward(), "Trying to backward through the graph a second time");
}

TEST(AutogradTest, GradFunctionAndHigherOrder) {
  Tensor x = tensor({2.0, 3.0}).requires_grad_();
  Tensor y = (x * x * x).sum();
  auto g = autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true);
  EXPECT_TENSOR(g[0], {2}, {12, 27});
  EXPECT_TRUE(g[0].requires_grad());
  EXPECT_FALSE(x.grad().defined()); // grad() does not accumulate
  auto g2 = autograd::grad({g[0].sum()}, {x}, {}, std::nullopt, true);
  EXPECT_TENSOR(g2[0], {2}, {12, 18});
  auto g3 = autograd::grad({g2[0].sum()}, {x});
  EXPECT_TENSOR(g3[0], {2}, {6, 6});
  // Gradient with respect to a non-leaf.
  Tensor a = tensor({1.0, 2.0}).requires_grad_();
  Tensor h = a * 2;
  Tensor out = (h * h).sum();
  EXPECT_TENSOR(autograd::grad({out}, {h})[0], {2}, {4, 8});
}

TEST(AutogradTest, AllowUnused) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor z = tensor({1.0}).requires_grad_();
  Tensor y = x * 2;
  EXPECT_ERROR_CONTAINS(autograd::grad({y}, {x, z}, {}, true),
                        "One of the differentiated Tensors appears to not have been used in the graph. Set allow_unused=True");
  auto g = autograd::grad({y}, {x, z}, {}, std::nullopt, false, true);
  EXPECT_TENSOR(g[0], {1}, {2});
  EXPECT_FALSE(g[1].defined());
  EXPECT_ERROR_CONTAINS(autograd::grad({y}, {tensor({1.0})}),
                        "One of the differentiated Tensors does not require grad");
}

TEST(AutogradTest, BackwardInputs) {
  Tensor a = tensor({1.0}).requires_grad_(), b = tensor({2.0}).requires_grad_();
  (a * b).backward({}, std::nullopt, false, std::vector<Tensor>{a});
  EXPECT_TENSOR(a.grad(), {1}, {2});
  EXPECT_FALSE(b.grad().defined());
}

struct MulConstant : autograd::Function<MulConstant> {
  static Tensor forward(AutogradContext *ctx, Tensor x, double c) {
    ctx->saved_data["c"] = c;
    ctx->save_for_backward({x});
    return x * c;
  }
  static variable_list backward(AutogradContext *ctx, variable_list g) {
    Tensor x = ctx->get_saved_variables()[0];
    return {g[0] * ctx->saved_data["c"].toDouble() + x * 0, Tensor()};
  }
};

struct SquareSavingOutput : autograd::Function<SquareSavingOutput> {
  static Tensor forward(AutogradContext *ctx, Tensor x) {
    Tensor y = x * x;
    ctx->save_for_backward({x, y});
    return y;
  }
  static variable_list backward(AutogradContext *ctx, variable_list g) {
    auto saved = ctx->get_saved_variables();
    return {g[0] * 2 * saved[0]};
  }
};

TEST(AutogradTest, CustomFunction) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = MulConstant::apply(x, 5.0);
  EXPECT_NE(y.grad_fn()->name().find("MulConstant"), std::string::npos);
  y.sum().backward();
  EXPECT_TENSOR(x.grad(), {2}, {5, 5});
  Tensor z = SquareSavingOutput::apply(x);
  std::weak_ptr<autograd::Node> node = z.grad_fn();
  z.sum().backward();
  EXPECT_TENSOR(x.grad(), {2}, {7, 9});
  z.reset();
  EXPECT_TRUE(node.expired()); // saved output did not make a cycle
  EXPECT_FALSE(MulConstant::apply(tensor({1.0}), 2.0).requires_grad());
}

TEST(AutogradTest, SavedOutputsDoNotLeak) {
  std::weak_ptr<autograd::Node> node;
  {
    Tensor x = tensor({1.0}).requires_grad_();
    Tensor y = x.exp(); // ExpBackward0 saves its output
    node = y.grad_fn();
    EXPECT_FALSE(node.expired());
  }
  EXPECT_TRUE(node.expired());
}

TEST(AutogradTest, Hooks) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  std::vector<double> seen;
  x.register_hook([&](const Tensor &g) { seen.push_back(g.sum().item<double>()); });
  Tensor h = x * 2;
  unsigned id = h.register_hook([](const Tensor &g) { return g * 10; });
  h.sum().backward({}, true);
  EXPECT_TENSOR(x.grad(), {2}, {20, 20});
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], 40);
  h.remove_hook(id);
  x.grad().zero_();
  h.sum().backward();
  EXPECT_TENSOR(x.grad(), {2}, {2, 2});
  EXPECT_ERROR_CONTAINS(tensor({1.0}).register_hook([](const Tensor &) {}),
                        "cannot register a hook on a tensor that doesn't require gradient");
}

TEST(AutogradTest, PostAccumulateGradHookSeesTheSummedGrad) {
  // x is used twice: the hook runs once per backward, after both paths'
  // gradients are in x.grad(), and sees what earlier passes accumulated.
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  std::vector<std::vector<double>> seen;
  unsigned id = x.register_post_accumulate_grad_hook([&](const Tensor &leaf) {
    EXPECT_TRUE(leaf.is_same(x));
    seen.push_back({leaf.grad()[0].item<double>(), leaf.grad()[1].item<double>()});
  });
  (x * x + x * 3).sum().backward(); // d/dx = 2x + 3
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0], (std::vector<double>{5, 7}));
  (x * 2).sum().backward();
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[1], (std::vector<double>{7, 9}));
  x.remove_hook(id);
  (x * 2).sum().backward();
  EXPECT_EQ(seen.size(), 2u);
  EXPECT_ERROR_CONTAINS(
      (x * 2).register_post_accumulate_grad_hook([](const Tensor &) {}),
      "cannot be registered on non-leaf tensors");
}

TEST(AutogradTest, AnomalyModeNamesTheOp) {
  Tensor x = tensor({0.0}).requires_grad_();
  Tensor y = (x / x).sum();
  autograd::DetectAnomalyGuard guard;
  EXPECT_EQ(test::errorOf([&] { y.backward(); }),
            "Function 'DivBackward0' returned nan values in its 1th output.");
}

TEST(AutogradTest, InplaceErrors) {
  Tensor w = tensor({1.0, 2.0}).requires_grad_();
  EXPECT_EQ(test::errorOf([&] { w.add_(1); }),
            "a leaf Variable that requires grad is being used in an in-place operation.");
  EXPECT_EQ(test::errorOf([&] { w[0].mul_(2); }),
            "a view of a leaf Variable that requires grad is being used in an in-place operation.");
  {
    NoGradGuard guard; // allowed without grad mode (optimizer updates)
    w.sub_(tensor({1.0, 1.0}));
  }
  EXPECT_TENSOR(w, {2}, {0, 1});
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x.exp();
  Tensor z = y * 2;
  y.add_(1); // y was saved by ExpBackward0 (its output)
  std::string msg = test::errorOf([&] { (z + y).sum().backward(); });
  EXPECT_NE(msg.find("one of the variables needed for gradient computation has been "
                     "modified by an inplace operation: [CPUFloatType [2]], which is "
                     "output 0 of ExpBackward0, is at version 1; expected version 0 instead."),
            std::string::npos) << msg;
}

TEST(AutogradTest, InplaceHistory) {
  Tensor x = tensor({1.0, 2.0}).requires_grad_();
  Tensor y = x * 1;
  y.mul_(x); // y = x^2, history rebased onto MulBackward0
  EXPECT_EQ(y.grad_fn()->name(), "MulBackward0");
  y.sum().backward();
  EXPECT_TENSOR(x.grad(), {2}, {2, 4});
  Tensor b = zeros({2, 2}, kDouble);
  Tensor v = tensor({1.0, 2.0}).requires_grad_();
  b[1].copy_(v);
  EXPECT_TRUE(b.requires_grad());
  EXPECT_EQ(b.grad_fn()->name(), "CopySlices");
  (b * b).sum().backward();
  EXPECT_TENSOR(v.grad(), {2}, {2, 4});
}

TEST(AutogradTest, DeepGraphsDoNotOverflowTheStack) {
  Tensor x = tensor({1.0}).requires_grad_();
  Tensor y = x;
  for (int i = 0; i < 200000; ++i)
    y = y * 1.0;
  y.backward();
  EXPECT_TENSOR(x.grad(), {1}, {1});
  y.reset(); // destroys the whole chain
}

} // namespace
