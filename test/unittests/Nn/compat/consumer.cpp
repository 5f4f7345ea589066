// A small libtorch-style training program (regression of y = 3x - 1 with a
// custom module, a data loader and a checkpoint round trip), built through
// tcc's <torch/torch.h> from an install tree.
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

struct NetImpl : torch::nn::Module {
  NetImpl() : fc(register_module("fc", torch::nn::Linear(1, 1))) {}
  torch::Tensor forward(torch::Tensor x) { return fc(x); }
  torch::nn::Linear fc;
};
TORCH_MODULE(Net);

class Line : public torch::data::datasets::Dataset<Line> {
public:
  torch::data::Example<> get(size_t index) override {
    auto x = torch::full({1}, static_cast<double>(index) / 10);
    return {x, x * 3 - 1};
  }
  torch::optional<size_t> size() const override { return 20; }
};

int main() {
  torch::manual_seed(0);
  Net net;
  torch::optim::SGD optimizer(net->parameters(), torch::optim::SGDOptions(0.1));
  auto loader = torch::data::make_data_loader(
      Line().map(torch::data::transforms::Stack<>()),
      torch::data::DataLoaderOptions().batch_size(5).workers(1));
  for (int epoch = 0; epoch < 300; ++epoch)
    for (auto &batch : *loader) {
      optimizer.zero_grad();
      auto loss = torch::mse_loss(net->forward(batch.data), batch.target);
      AT_ASSERT(!std::isnan(loss.item<float>()));
      loss.backward();
      optimizer.step();
    }
  torch::save(net, "consumer-model.pt");
  Net restored;
  torch::load(restored, "consumer-model.pt");
  float w = restored->fc->weight.item<float>();
  float b = restored->fc->bias.item<float>();
  std::printf("w=%.3f b=%.3f\n", w, b);
  bool ok = std::abs(w - 3) < 0.01 && std::abs(b + 1) < 0.01;
  std::cout << (ok ? "compat consumer: ok" : "compat consumer: WRONG")
            << std::endl;
  return ok ? 0 : 1;
}
