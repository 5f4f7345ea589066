// One training epoch of the digits CNN (examples/digits_cnn/DigitsNet.h's
// architecture) and of an MLP, written against libtorch's API and built
// unchanged against libtorch and against tcc's <torch/torch.h> by run.sh,
// so both libraries run the identical program. 1,438 samples of 8x8 (the
// digits training split's size), batch 32, Adam; median epoch time of 5,
// wall clock and process CPU time (the CPU time is steadier on a loaded
// machine when one thread runs).
// Usage: train_bench [threads] [cnn|mlp|both]
#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

namespace {

struct CnnImpl : torch::nn::Module {
  CnnImpl()
      : conv1(register_module("conv1", torch::nn::Conv2d(
                                           torch::nn::Conv2dOptions(1, 16, 3).padding(1)))),
        conv2(register_module("conv2", torch::nn::Conv2d(
                                           torch::nn::Conv2dOptions(16, 32, 3).padding(1)))),
        dropout(register_module("dropout", torch::nn::Dropout(0.25))),
        fc1(register_module("fc1", torch::nn::Linear(32 * 4 * 4, 64))),
        fc2(register_module("fc2", torch::nn::Linear(64, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = conv1(x).relu();
    x = torch::max_pool2d(conv2(x).relu(), 2);
    x = dropout(x).flatten(1);
    x = fc1(x).relu();
    return fc2(x).log_softmax(1);
  }
  torch::nn::Conv2d conv1, conv2;
  torch::nn::Dropout dropout;
  torch::nn::Linear fc1, fc2;
};
TORCH_MODULE(Cnn);

struct MlpImpl : torch::nn::Module {
  MlpImpl()
      : fc1(register_module("fc1", torch::nn::Linear(64, 256))),
        fc2(register_module("fc2", torch::nn::Linear(256, 256))),
        fc3(register_module("fc3", torch::nn::Linear(256, 10))) {}
  torch::Tensor forward(torch::Tensor x) {
    x = fc1(x.flatten(1)).relu();
    x = fc2(x).relu();
    return fc3(x).log_softmax(1);
  }
  torch::nn::Linear fc1, fc2, fc3;
};
TORCH_MODULE(Mlp);

double cpuSeconds() {
  timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

/// Median wall and CPU seconds of one epoch.
template <class Net>
std::pair<double, double> epochSeconds(Net &net, const torch::Tensor &x,
                                       const torch::Tensor &y) {
  torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(2e-3));
  net->train();
  const int64_t n = x.size(0), batch = 32;
  std::vector<double> wall, cpu;
  for (int epoch = 0; epoch < 6; ++epoch) {
    auto t0 = std::chrono::steady_clock::now();
    double c0 = cpuSeconds();
    torch::Tensor order = torch::randperm(n);
    for (int64_t b = 0; b < n; b += batch) {
      torch::Tensor idx = order.narrow(0, b, std::min(batch, n - b));
      adam.zero_grad();
      torch::Tensor loss = torch::nll_loss(net->forward(x.index_select(0, idx)),
                                           y.index_select(0, idx));
      loss.backward();
      adam.step();
    }
    if (epoch > 0) { // the first epoch warms caches and allocators
      wall.push_back(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
              .count());
      cpu.push_back(cpuSeconds() - c0);
    }
  }
  return {median(wall), median(cpu)};
}

} // namespace

int main(int argc, char **argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 1;
  const char *which = argc > 2 ? argv[2] : "both";
  torch::set_num_threads(threads);
  torch::manual_seed(0);
  const int64_t n = 1438;
  torch::Tensor x = torch::rand({n, 1, 8, 8}) * 2 - 1;
  torch::Tensor y = torch::randint(0, 10, {n});
  Cnn cnn;
  Mlp mlp;
  std::printf("threads %d:", threads);
  if (std::strcmp(which, "mlp") != 0) {
    auto [wall, cpu] = epochSeconds(cnn, x, y);
    std::printf(" digits CNN epoch %.1f ms (CPU %.1f ms)", wall * 1e3,
                cpu * 1e3);
  }
  if (std::strcmp(which, "cnn") != 0) {
    auto [wall, cpu] = epochSeconds(mlp, x, y);
    std::printf(" MLP epoch %.1f ms (CPU %.1f ms)", wall * 1e3, cpu * 1e3);
  }
  std::printf("\n");
  return 0;
}
