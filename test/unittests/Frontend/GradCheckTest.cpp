//===- GradCheckTest.cpp - Every backward formula vs finite differences ---===//
//
// Each case checks first-order gradients (gradcheck) and, where the
// formula is itself differentiable, second-order ones (gradgradcheck), in
// float64 with central differences. Other files check their own families
// (ConvTest, PoolingTest, LossTest, ...); GradCheckCoverageTest fails,
// naming the op, for any registered op with a backward formula that no
// check covers at first and second order.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cmath>

using namespace tcc;
using test::gradcheck;
using test::gradgradcheck;
using test::leaf;
using V = std::vector<Tensor>;

namespace {

struct Case {
  const char *name;
  std::function<V()> inputs;
  test::TensorFn fn;
  bool second = true;
};

/// Values away from 0 (|x| in [0.5, 1.5]) with random signs.
Tensor awayFromZero(std::vector<int64_t> sizes) {
  Tensor mag = rand(sizes, kDouble) + 0.5;
  Tensor sgn = where(rand(sizes, kDouble) > 0.5, 1.0, -1.0);
  return (mag * sgn).detach().requires_grad_(true);
}
Tensor positive(std::vector<int64_t> sizes) { return leaf(sizes, 0.5, 2.0); }

/// fn(x) squared, so that a second derivative of a piecewise-linear op is
/// not identically zero.
test::TensorFn squared(test::TensorFn fn) {
  return [fn](const V &x) {
    Tensor y = fn(x);
    return y * y;
  };
}

/// d/dx[k] sum(fn(x)^2) as a differentiable function of x: its graph holds
/// the ops that fn's backward formulas call (max_pool2d_backward, ...), so
/// gradcheck of it checks their formulas and gradgradcheck the next order.
test::TensorFn gradientOf(test::TensorFn fn, size_t k) {
  return [fn, k](const V &x) {
    AutoGradMode on(true); // also inside gradcheck's no-grad evaluations
    Tensor y = fn(x);
    return autograd::grad({(y * y).sum()}, {x[k]}, {}, true, true)[0];
  };
}

std::vector<Case> cases() {
  return {
      {"add", [] { return V{leaf({2, 3}), leaf({3})}; },
       [](const V &x) { return add(x[0], x[1], 2.5); }},
      {"sub", [] { return V{leaf({2, 3}), leaf({2, 1})}; },
       [](const V &x) { return sub(x[0], x[1], 0.5); }},
      {"rsub_scalar", [] { return V{leaf({3})}; },
       [](const V &x) { return 2 - x[0]; }},
      {"mul", [] { return V{leaf({2, 3}), leaf({3})}; },
       [](const V &x) { return x[0] * x[1]; }},
      {"div", [] { return V{leaf({2, 3}), positive({2, 3})}; },
       [](const V &x) { return x[0] / x[1]; }},
      {"div_scalar_by_tensor", [] { return V{positive({4})}; },
       [](const V &x) { return 3.0 / x[0]; }},
      {"pow_tensor", [] { return V{positive({3}), leaf({3})}; },
       [](const V &x) { return pow(x[0], x[1]); }},
      {"pow_scalar", [] { return V{positive({3})}; },
       [](const V &x) { return x[0].pow(2.5); }},
      {"pow_square", [] { return V{leaf({3})}; },
       [](const V &x) { return x[0].pow(2); }},
      {"pow_scalar_base", [] { return V{leaf({3})}; },
       [](const V &x) { return pow(2.0, x[0]); }},
      {"maximum", [] { return V{leaf({4}), leaf({4})}; },
       [](const V &x) { return maximum(x[0], x[1]); }},
      {"minimum", [] { return V{leaf({4}), leaf({4})}; },
       [](const V &x) { return minimum(x[0], x[1]); }},
      {"where", [] { return V{leaf({4}), leaf({4})}; },
       [](const V &x) {
         return where(tensor({true, false, true, false}), x[0], x[1]);
       }},
      {"neg", [] { return V{leaf({3})}; }, [](const V &x) { return -x[0]; }},
      {"abs", [] { return V{awayFromZero({5})}; },
       [](const V &x) { return x[0].abs(); }},
      {"exp", [] { return V{leaf({3})}; }, [](const V &x) { return x[0].exp(); }},
      {"log", [] { return V{positive({3})}; }, [](const V &x) { return x[0].log(); }},
      {"log1p", [] { return V{positive({3})}; },
       [](const V &x) { return x[0].log1p(); }},
      {"sqrt", [] { return V{positive({3})}; },
       [](const V &x) { return x[0].sqrt(); }},
      {"rsqrt", [] { return V{positive({3})}; },
       [](const V &x) { return x[0].rsqrt(); }},
      {"reciprocal", [] { return V{positive({3})}; },
       [](const V &x) { return x[0].reciprocal(); }},
      {"square", [] { return V{leaf({3})}; },
       [](const V &x) { return x[0].square(); }},
      {"sin", [] { return V{leaf({3})}; }, [](const V &x) { return x[0].sin(); }},
      {"cos", [] { return V{leaf({3})}; }, [](const V &x) { return x[0].cos(); }},
      {"tanh", [] { return V{leaf({3})}; }, [](const V &x) { return x[0].tanh(); }},
      {"sigmoid", [] { return V{leaf({3})}; },
       [](const V &x) { return x[0].sigmoid(); }},
      {"relu", [] { return V{awayFromZero({5})}; },
       [](const V &x) { return x[0].relu(); }},
      {"gelu", [] { return V{leaf({4}, -2, 2)}; },
       [](const V &x) { return gelu(x[0]); }},
      {"gelu_tanh", [] { return V{leaf({4}, -2, 2)}; },
       [](const V &x) { return gelu(x[0], "tanh"); }},
      {"silu", [] { return V{leaf({4}, -2, 2)}; },
       [](const V &x) { return silu(x[0]); }},
      {"erf", [] { return V{leaf({4})}; }, [](const V &x) { return x[0].erf(); }},
      {"sign", [] { return V{awayFromZero({3})}; },
       [](const V &x) { return x[0].sign() * x[0]; }},
      {"floor_ceil_round", [] { return V{leaf({3}, 0.1, 0.4)}; },
       [](const V &x) { return x[0].floor() + x[0].ceil() + x[0].round() + x[0]; }},
      {"clamp", [] { return V{leaf({6}, -2, 2)}; },
       [](const V &x) { return x[0].clamp(-1, 1); }},
      {"clamp_min", [] { return V{leaf({6}, -2, 2)}; },
       [](const V &x) { return x[0].clamp_min(0.1); }},
      {"sum", [] { return V{leaf({2, 3})}; }, [](const V &x) { return x[0].sum(); }},
      {"sum_dims", [] { return V{leaf({2, 3, 4})}; },
       [](const V &x) { return x[0].sum({0, 2}, true); }},
      {"mean", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return x[0].mean({1}); }},
      {"mean_all", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return x[0].mean() * x[0]; }},
      {"prod", [] { return V{leaf({2, 3})}; }, [](const V &x) { return x[0].prod(); }},
      {"prod_dim_with_zero", [] {
         Tensor t = leaf({2, 3}).detach();
         t[0][1] = 0.0;
         return V{t.requires_grad_(true)};
       },
       [](const V &x) { return x[0].prod(1); }},
      {"max_all", [] { return V{leaf({2, 3})}; }, [](const V &x) { return x[0].max(); }},
      {"min_all", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return x[0].min() * x[0]; }},
      {"max_dim", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return std::get<0>(x[0].max(1)); }},
      {"min_dim_keepdim", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return std::get<0>(x[0].min(0, true)); }},
      {"amax", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return x[0].amax({1}); }},
      {"amin", [] { return V{leaf({2, 3})}; },
       [](const V &x) { return x[0].amin({0}); }},
      {"var", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].var({1}, true); }},
      {"var_correction0", [] { return V{leaf({5})}; },
       [](const V &x) { return var(x[0], std::nullopt, 0); }},
      {"std", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].std({0}, true, true); }},
      {"norm2", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].norm(2, {1}); }},
      {"norm1", [] { return V{awayFromZero({5})}; },
       [](const V &x) { return x[0].norm(1); }},
      {"norm3", [] { return V{awayFromZero({5})}; },
       [](const V &x) { return x[0].norm(3); }},
      {"norm_inf", [] { return V{leaf({5})}; },
       [](const V &x) { return x[0].norm(INFINITY); }},
      {"logsumexp", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].logsumexp({1}); }},
      {"softmax", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].softmax(1); }},
      {"softmax_dim0", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].softmax(0); }},
      {"log_softmax", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].log_softmax(-1); }},
      {"mm", [] { return V{leaf({3, 4}), leaf({4, 2})}; },
       [](const V &x) { return x[0].mm(x[1]); }},
      {"bmm", [] { return V{leaf({2, 3, 4}), leaf({2, 4, 2})}; },
       [](const V &x) { return x[0].bmm(x[1]); }},
      {"addmm", [] { return V{leaf({2}), leaf({3, 4}), leaf({4, 2})}; },
       [](const V &x) { return addmm(x[0], x[1], x[2], 0.5, 2); }},
      {"dot", [] { return V{leaf({4}), leaf({4})}; },
       [](const V &x) { return x[0].dot(x[1]); }},
      {"mv", [] { return V{leaf({3, 4}), leaf({4})}; },
       [](const V &x) { return x[0].mv(x[1]); }},
      {"matmul_batched_broadcast", [] { return V{leaf({2, 1, 3, 4}), leaf({3, 4, 2})}; },
       [](const V &x) { return matmul(x[0], x[1]); }},
      {"matmul_vec_mat", [] { return V{leaf({4}), leaf({2, 4, 3})}; },
       [](const V &x) { return matmul(x[0], x[1]); }},
      {"view_reshape", [] { return V{leaf({2, 6})}; },
       [](const V &x) { return x[0].view({3, 4}).t().reshape({12}) * x[0].flatten(); }},
      {"transpose_permute", [] { return V{leaf({2, 3, 4})}; },
       [](const V &x) { return x[0].transpose(0, 2).permute({1, 0, 2}).contiguous(); }},
      {"squeeze_unsqueeze", [] { return V{leaf({2, 1, 3})}; },
       [](const V &x) { return x[0].squeeze().unsqueeze(0).squeeze(0).unsqueeze(2); }},
      {"unflatten", [] { return V{leaf({2, 6})}; },
       [](const V &x) { return x[0].unflatten(1, {2, 3}); }},
      {"select", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].select(1, 2) * x[0][0].sum(); }},
      {"slice_narrow", [] { return V{leaf({5, 4})}; },
       [](const V &x) { return x[0].slice(0, 1, 5, 2) + x[0].narrow(0, 0, 2); }},
      {"expand", [] { return V{leaf({3, 1})}; },
       [](const V &x) { return x[0].expand({2, 3, 4}); }},
      {"diagonal", [] { return V{leaf({3, 4})}; },
       [](const V &x) { return x[0].diagonal(1); }},
      {"as_strided", [] { return V{leaf({6})}; },
       squared([](const V &x) { return x[0].as_strided({2, 2}, {1, 2}, 1); })},
      {"as_strided_overlapping", [] { return V{leaf({6})}; },
       squared([](const V &x) { return x[0].as_strided({3, 3}, {1, 1}, 0); })},
      {"clone", [] { return V{leaf({3})}; },
       [](const V &x) { return x[0].clone() * x[0]; }},
      // Indexing and padding, squared for a non-zero second derivative.
      {"masked_fill", [] { return V{leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].masked_fill(tensor({true, false, true}), 2.0);
       })},
      {"masked_fill_tensor", [] { return V{leaf({2, 3}), leaf({})}; },
       squared([](const V &x) {
         return x[0].masked_fill(tensor({false, true, true}), x[1]);
       })},
      {"scatter", [] { return V{leaf({2, 4}), leaf({2, 2})}; },
       squared([](const V &x) { // distinct per row: scatter is exact
         return x[0].scatter(1, tensor({{2, 0}, {1, 3}}), x[1]);
       })},
      {"scatter_value", [] { return V{leaf({2, 4})}; },
       squared([](const V &x) {
         return x[0].scatter(1, tensor({{2, 0}, {1, 3}}), 2.0);
       })},
      {"scatter_add", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_add(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1]);
       })},
      {"scatter_reduce_sum", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "sum", true);
       })},
      {"scatter_reduce_sum_exclude_self", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "sum", false);
       })},
      {"scatter_reduce_prod", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "prod", true);
       })},
      {"scatter_reduce_prod_exclude_self", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "prod", false);
       })},
      {"scatter_reduce_mean", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "mean", true);
       })},
      {"scatter_reduce_mean_exclude_self", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "mean", false);
       })},
      {"scatter_reduce_amax", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "amax", true);
       })},
      {"scatter_reduce_amax_exclude_self", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "amax", false);
       })},
      {"scatter_reduce_amin", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "amin", true);
       })},
      {"scatter_reduce_amin_exclude_self", [] { return V{leaf({2, 4}), leaf({2, 3})}; },
       squared([](const V &x) {
         return x[0].scatter_reduce(1, tensor({{2, 0, 2}, {1, 1, 0}}), x[1],
                                    "amin", false);
       })},
      {"pad_constant", [] { return V{leaf({2, 3})}; },
       squared([](const V &x) { return pad(x[0], {1, 2, 0, 1}, "constant", 0.5); })},
      // Dropout draws its mask from the global generator: the same seed
      // gives the same mask on every evaluation.
      {"dropout", [] { return V{leaf({3, 4})}; },
       squared([](const V &x) {
         manual_seed(7);
         return dropout(x[0], 0.4, true);
       })},
      {"feature_dropout", [] { return V{leaf({2, 4, 3})}; },
       squared([](const V &x) {
         manual_seed(9);
         return feature_dropout(x[0], 0.5, true);
       })},
      // Pooling and convolution, and the ops their formulas call.
      {"max_pool2d_with_indices", [] { return V{leaf({1, 2, 4, 5})}; },
       squared([](const V &x) {
         return std::get<0>(max_pool2d_with_indices(x[0], 2, 1));
       })},
      {"max_pool2d_backward", [] { return V{leaf({1, 2, 5, 5})}; },
       gradientOf([](const V &x) { return max_pool2d(x[0], 3, 2, 1); }, 0)},
      {"avg_pool2d_backward", [] { return V{leaf({1, 2, 5, 5})}; },
       gradientOf([](const V &x) { return avg_pool2d(x[0], 3, 2, 1); }, 0)},
      {"adaptive_avg_pool2d_backward", [] { return V{leaf({1, 2, 5, 7})}; },
       gradientOf([](const V &x) { return adaptive_avg_pool2d(x[0], {3, 2}); }, 0)},
      {"conv2d_weight_grad",
       [] { return V{leaf({1, 4, 5, 4}), leaf({4, 2, 3, 2})}; },
       gradientOf([](const V &x) { return conv2d(x[0], x[1], {}, 2, 1, 1, 2); }, 1)},
      {"inplace_on_nonleaf", [] { return V{leaf({3}), leaf({3})}; },
       [](const V &x) {
         Tensor y = x[0] * 2;
         y.mul_(x[1]).add_(x[0]).exp_();
         return y;
       }},
      {"inplace_into_view", [] { return V{leaf({2, 3}), leaf({3})}; },
       [](const V &x) {
         Tensor y = x[0].clone();
         y[1].mul_(x[1]);
         return y * y;
       }},
      {"copy_into_view", [] { return V{leaf({2, 3}), leaf({3})}; },
       [](const V &x) {
         Tensor y = zeros({2, 3}, kDouble);
         y[0].copy_(x[1]);
         return y * x[0];
       }},
  };
}

TEST(GradCheckTest, EveryDifferentiableOp) {
  for (const Case &c : cases()) {
    SCOPED_TRACE(c.name);
    manual_seed(2024);
    V in = c.inputs();
    EXPECT_TRUE(gradcheck(c.fn, in)) << c.name;
    if (c.second) {
      EXPECT_TRUE(gradgradcheck(c.fn, in)) << c.name;
    }
  }
}

TEST(GradCheckTest, ToDtype) {
  // Through float32: looser steps and tolerances.
  manual_seed(5);
  auto fn = [](const V &x) { return x[0].to(kFloat).to(kDouble) * x[0]; };
  EXPECT_TRUE(gradcheck(fn, {leaf({3})}, 1e-2, 1e-3, 1e-2));
  EXPECT_TRUE(gradgradcheck(fn, {leaf({3})}, 1e-2, 1e-3, 1e-2));
}

TEST(GradCheckTest, DetectsAWrongGradient) {
  // A custom function with a deliberately wrong backward must fail.
  struct Wrong : autograd::Function<Wrong> {
    static Tensor forward(autograd::AutogradContext *, Tensor x) { return x * 2; }
    static autograd::variable_list backward(autograd::AutogradContext *,
                                            autograd::variable_list g) {
      return {g[0] * 3};
    }
  };
  EXPECT_FALSE(gradcheck([](const V &x) { return Wrong::apply(x[0]); }, {leaf({3})}));
}

} // namespace
