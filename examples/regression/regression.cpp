//===- regression.cpp - Fit a polynomial with SGD
//---------------------------===//
//
// Learns y = w1 x + w2 x^2 + w3 x^3 + w4 x^4 + b from random samples of a
// target polynomial with one nn::Linear(4, 1) and SGD (learning rate halved
// every 1000 batches by StepLR), until the smooth-L1
// loss of a batch falls below a threshold (1e-6), then prints both polynomials
// and checks that the learned coefficients match the target's.
//
//   regression [--max-batches N] [--loss-threshold L] [--tolerance T]
//
//===----------------------------------------------------------------------===//

#include "tcc/nn.h"
#include "tcc/optim.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

constexpr int64_t kDegree = 4;

/// Columns x, x^2, x^3, x^4 of a batch of x.
tcc::Tensor features(const tcc::Tensor &x) {
  std::vector<tcc::Tensor> columns;
  for (int64_t i = 1; i <= kDegree; ++i)
    columns.push_back(x.unsqueeze(1).pow(i));
  return tcc::cat(columns, 1);
}

std::string describe(const tcc::Tensor &w, double b) {
  std::string s = "y =";
  char buf[64];
  for (int64_t i = kDegree - 1; i >= 0; --i) {
    std::snprintf(buf, sizeof buf, " %+.3f x^%lld", w[i].item<double>(),
                  static_cast<long long>(i + 1));
    s += buf;
  }
  std::snprintf(buf, sizeof buf, " %+.3f", b);
  return s + buf;
}

} // namespace

int main(int argc, char **argv) {
  int64_t maxBatches = 20000;
  double tolerance = 0.02, threshold = 1e-6;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--max-batches"))
      maxBatches = std::atoll(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--loss-threshold"))
      threshold = std::atof(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--tolerance"))
      tolerance = std::atof(argv[i + 1]);
  }

  tcc::manual_seed(1);
  tcc::Tensor wTarget = tcc::randn({kDegree, 1}) * 5;
  tcc::Tensor bTarget = tcc::randn({1}) * 5;

  tcc::nn::Linear fc(kDegree, 1);
  tcc::optim::SGD sgd(fc->parameters(), tcc::optim::SGDOptions(0.1));
  // x^4 of normal samples is heavy-tailed: SGD at a fixed rate keeps
  // jittering, so the rate halves every 1000 batches.
  tcc::optim::StepLR schedule(sgd, 1000, 0.5);

  double loss = 0;
  int64_t batch = 0;
  while (++batch <= maxBatches) {
    tcc::Tensor x = features(tcc::randn({32}));
    tcc::Tensor y = x.mm(wTarget) + bTarget;
    sgd.zero_grad();
    tcc::Tensor l = tcc::smooth_l1_loss(fc(x), y);
    l.backward();
    sgd.step();
    schedule.step();
    loss = l.item<double>();
    if (loss < threshold)
      break;
  }
  std::printf("Loss: %.6f after %lld batches\n", loss,
              static_cast<long long>(batch));
  std::printf("==> Learned function:\t%s\n",
              describe(fc->weight.view({-1}), fc->bias.item<double>()).c_str());
  std::printf("==> Actual function:\t%s\n",
              describe(wTarget.view({-1}), bTarget.item<double>()).c_str());

  double worst =
      (fc->weight.view({-1}) - wTarget.view({-1})).abs().max().item<double>();
  worst = std::max(worst,
                   std::abs(fc->bias.item<double>() - bTarget.item<double>()));
  std::printf("largest coefficient error: %.4f (tolerance %.4f)\n", worst,
              tolerance);
  return worst <= tolerance ? 0 : 1;
}
