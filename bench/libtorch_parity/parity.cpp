// A deterministic program written against libtorch's C++ API (1.13). Built
// twice by bench/libtorch_parity/run.sh, once against Debian's libtorch and
// once against tcc's <torch/torch.h>, unchanged; the two outputs must match
// (numbers printed to 4 decimals, tensors through operator<<).
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

namespace {

void show(const char *what, const torch::Tensor &t) {
  torch::Tensor flat = t.detach().to(torch::kDouble).contiguous().view({-1});
  std::printf("%s [", what);
  for (int64_t i = 0; i < t.dim(); ++i)
    std::printf("%s%lld", i ? "," : "", static_cast<long long>(t.size(i)));
  std::printf("] %s:", std::string(c10::toString(t.scalar_type())).c_str());
  for (int64_t i = 0; i < flat.numel(); ++i)
    std::printf(" %.4f", flat[i].item<double>());
  std::printf("\n");
}

struct NetImpl : torch::nn::Module {
  NetImpl()
      : conv(register_module(
            "conv", torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 2, 3).padding(1)))),
        fc(register_module("fc", torch::nn::Linear(8, 3))) {
    torch::NoGradGuard noGrad;
    conv->weight.copy_(torch::linspace(-1, 1, 18).view({2, 1, 3, 3}));
    conv->bias.fill_(0.1);
    fc->weight.copy_(torch::linspace(-0.5, 0.5, 24).view({3, 8}));
    fc->bias.zero_();
  }
  torch::Tensor forward(torch::Tensor x) {
    x = torch::relu(conv->forward(x));
    x = torch::max_pool2d(x, 2);
    return fc->forward(x.flatten(1));
  }
  torch::nn::Conv2d conv{nullptr};
  torch::nn::Linear fc{nullptr};
};
TORCH_MODULE(Net);

} // namespace

int main() {
  // Views, broadcasting and type promotion.
  torch::Tensor a = torch::arange(12, torch::kFloat).view({3, 4});
  torch::Tensor b = torch::tensor({1, 2, 3, 4});  // int64
  show("a.t()", a.t());
  show("a + b", a + b);
  show("b * 2.5", b * 2.5);
  show("b / 3", b / 3);
  show("a[1].narrow(0,1,2)", a[1].narrow(0, 1, 2));
  show("a.permute.contiguous", a.view({3, 2, 2}).permute({2, 0, 1}).contiguous());
  show("a.expand", torch::tensor({1.0f, 2.0f}).view({2, 1}).expand({2, 3}));
  std::cout << a.t().is_contiguous() << " " << a.stride(0) << "\n";

  // Ops and reductions.
  torch::Tensor x = torch::linspace(-2, 2, 9);
  show("sigmoid", torch::sigmoid(x));
  show("gelu", torch::gelu(x));
  show("softmax", torch::softmax(a, 1));
  show("log_softmax", torch::log_softmax(a, 0));
  show("sum(1,keepdim)", a.sum(1, true));
  show("mean(0)", a.mean(0));
  show("var(1)", a.var(1));
  show("max(1)", std::get<0>(a.max(1)));
  show("argmax(0)", a.argmax(0));
  show("matmul", torch::matmul(a, a.t()));
  show("cat", torch::cat({a, a * 2}, 0).sum(0));
  show("where", torch::where(x > 0, x, x * 0.1));
  show("clamp", torch::clamp(x, -1, 0.5));
  show("cross_entropy", torch::nn::functional::cross_entropy(
                            a, torch::tensor({0, 3, 1})));

  // Autograd: backward, retain_grad, grad of grad, no_grad.
  torch::Tensor w = torch::tensor({0.5, -1.0, 2.0}, torch::requires_grad());
  torch::Tensor h = (w * w).sum();
  torch::Tensor y = torch::tanh(w).pow(2).sum() + h;
  torch::Tensor hh = w.exp();
  hh.retain_grad();
  (y + hh.sum()).backward();
  show("w.grad", w.grad());
  show("hh.grad", hh.grad());
  torch::Tensor z = torch::tensor({1.5}, torch::requires_grad());
  torch::Tensor cube = z.pow(3);
  torch::Tensor dz = torch::autograd::grad({cube}, {z}, {}, true, true)[0];
  torch::Tensor d2z = torch::autograd::grad({dz}, {z})[0];
  show("d/dz z^3", dz);
  show("d2/dz2 z^3", d2z);
  {
    torch::NoGradGuard noGrad;
    std::cout << (w * 2).requires_grad() << "\n";
  }

  // A module, a loss, two SGD steps with momentum.
  Net net;
  torch::optim::SGD sgd(net->parameters(),
                        torch::optim::SGDOptions(0.1).momentum(0.9));
  torch::Tensor img = torch::linspace(0, 1, 2 * 16).view({2, 1, 4, 4});
  torch::Tensor target = torch::tensor({2, 0});
  for (int step = 0; step < 2; ++step) {
    sgd.zero_grad();
    torch::Tensor loss =
        torch::nn::functional::cross_entropy(net->forward(img), target);
    loss.backward();
    sgd.step();
    show("loss", loss);
  }
  show("fc.weight[0]", net->fc->weight[0]);
  show("conv.bias", net->conv->bias);
  std::cout << torch::tensor({1.5f, -2.0f}) << "\n";
  return 0;
}
