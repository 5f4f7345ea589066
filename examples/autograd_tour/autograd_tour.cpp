//===- autograd_tour.cpp - What tcc's autograd does, checked as it goes ---===//
//
// Leaf and non-leaf tensors, gradient accumulation, retain_grad, no_grad
// and detach, vector-Jacobian products, higher-order gradients with
// autograd::grad(create_graph), and a custom autograd::Function. Every step
// prints what it shows and checks it against the value worked out by hand;
// the program exits non-zero if any check fails.
//
//===----------------------------------------------------------------------===//

#include "tcc/tcc.h"

#include <cmath>
#include <cstdio>
#include <iostream>

using tcc::Tensor;

namespace {

int failures = 0;

void check(bool ok, const char *what) {
  std::printf("  [%s] %s\n", ok ? "ok" : "FAILED", what);
  failures += !ok;
}

bool near(const Tensor &t, std::initializer_list<double> want,
          double tol = 1e-5) {
  Tensor flat = t.detach().to(tcc::kDouble).flatten();
  if (flat.numel() != int64_t(want.size()))
    return false;
  int64_t i = 0;
  for (double w : want)
    if (std::abs(flat[i++].item<double>() - w) > tol)
      return false;
  return true;
}

/// y = x * c, with the constant kept in the context as an IValue.
struct MulConstant : tcc::autograd::Function<MulConstant> {
  static Tensor forward(tcc::autograd::AutogradContext *ctx, Tensor x,
                        double c) {
    ctx->saved_data["c"] = c;
    return x * c;
  }
  static tcc::autograd::variable_list
  backward(tcc::autograd::AutogradContext *ctx,
           tcc::autograd::variable_list grads) {
    return {grads[0] * ctx->saved_data["c"].toDouble(), Tensor()};
  }
};

/// y = exp(x), saving its output for backward (dy/dx = y).
struct Exp : tcc::autograd::Function<Exp> {
  static Tensor forward(tcc::autograd::AutogradContext *ctx, Tensor x) {
    Tensor y = x.exp();
    ctx->save_for_backward({y});
    return y;
  }
  static tcc::autograd::variable_list
  backward(tcc::autograd::AutogradContext *ctx,
           tcc::autograd::variable_list grads) {
    return {grads[0] * ctx->get_saved_variables()[0]};
  }
};

} // namespace

int main() {
  std::puts("1. Leaves and the graph");
  Tensor x = tcc::ones({2, 2}, tcc::requires_grad());
  Tensor y = x + 2;
  Tensor z = y * y * 3;
  Tensor out = z.mean();
  std::cout << "  y.grad_fn: " << y.grad_fn()->name()
            << ", out.grad_fn: " << out.grad_fn()->name() << "\n";
  check(x.is_leaf() && !y.is_leaf(), "x is a leaf, y is not");
  check(y.grad_fn()->name() == "AddBackward0", "y was made by an add");
  out.backward();
  // d(out)/dx = 6 (x + 2) / 4 = 4.5 everywhere.
  check(near(x.grad(), {4.5, 4.5, 4.5, 4.5}), "d mean(3 (x+2)^2) / dx = 4.5");

  std::puts("2. Gradients accumulate; zero them between steps");
  (x * 2).sum().backward();
  check(near(x.grad(), {6.5, 6.5, 6.5, 6.5}), "a second backward adds 2");
  x.mutable_grad().zero_();
  check(near(x.grad(), {0, 0, 0, 0}), "zero_() clears it");

  std::puts("3. retain_grad keeps a non-leaf's gradient");
  Tensor a = tcc::tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor b = a * a;
  b.retain_grad();
  (b * 10).sum().backward();
  check(near(b.grad(), {10, 10, 10}), "d(10 b)/db = 10");
  check(near(a.grad(), {20, 40, 60}), "d(10 a^2)/da = 20 a");

  std::puts("4. Vector-Jacobian products");
  Tensor v = tcc::tensor({1.0, 2.0, 3.0}).requires_grad_();
  Tensor w = v * v * v;
  w.backward(tcc::tensor({0.1, 1.0, 0.0001}));
  check(near(v.grad(), {0.3, 12.0, 0.0027}), "J^T g for w = v^3 is 3 v^2 g");

  std::puts("5. no_grad and detach stop recording");
  {
    tcc::NoGradGuard noGrad;
    check(!(v * 2).requires_grad(),
          "ops under NoGradGuard do not require grad");
  }
  Tensor d = v.detach();
  check(!d.requires_grad() && d.equal(v),
        "detach shares the values, not the graph");

  std::puts("6. Higher-order gradients");
  Tensor s = tcc::tensor({2.0}).requires_grad_();
  Tensor f = s.pow(3); // f' = 3 s^2 = 12, f'' = 6 s = 12
  Tensor g =
      tcc::autograd::grad({f}, {s}, {}, std::nullopt, /*create_graph=*/true)[0];
  check(near(g, {12}), "f'(2) = 12 for f = s^3");
  Tensor h = tcc::autograd::grad({g}, {s})[0];
  check(near(h, {12}), "f''(2) = 12");

  std::puts("7. Custom functions");
  Tensor p = tcc::tensor({1.0, -1.0}).requires_grad_();
  MulConstant::apply(p, 5.5).sum().backward();
  check(near(p.grad(), {5.5, 5.5}), "MulConstant's backward scales by 5.5");
  Tensor q = tcc::tensor({0.0, 1.0}).requires_grad_();
  Tensor e = Exp::apply(q);
  std::cout << "  custom node: " << e.grad_fn()->name() << "\n";
  e.sum().backward();
  check(near(q.grad(), {1.0, std::exp(1.0)}),
        "Exp's backward uses its saved output");

  std::printf("%s: %d failed check(s)\n",
              failures ? "FAILED" : "all checks passed", failures);
  return failures ? 1 : 0;
}
