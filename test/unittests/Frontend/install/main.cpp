// Uses the installed <tcc/tcc.h>: a tiny fit by gradient descent.
#include <tcc/tcc.h>

#include <iostream>

int main() {
  tcc::manual_seed(0);
  tcc::Tensor x = tcc::linspace(-1, 1, 16).view({16, 1});
  tcc::Tensor y = 3 * x + 0.5;
  tcc::Tensor w = tcc::zeros({1, 1}, tcc::requires_grad());
  tcc::Tensor b = tcc::zeros({1}, tcc::requires_grad());
  for (int step = 0; step < 300; ++step) {
    tcc::Tensor loss = (tcc::addmm(b, x, w) - y).pow(2).mean();
    loss.backward();
    tcc::NoGradGuard noGrad;
    w.sub_(w.grad() * 0.5);
    b.sub_(b.grad() * 0.5);
    w.grad().zero_();
    b.grad().zero_();
  }
  std::cout << "w=" << w.item<float>() << " b=" << b.item<float>() << "\n";
  bool ok = std::abs(w.item<float>() - 3) < 1e-3 && std::abs(b.item<float>() - 0.5) < 1e-3;
  return ok ? 0 : 1;
}
