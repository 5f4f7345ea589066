//===- torch_peer.cpp - The benchmark models in libtorch eager ------------===//
//
// The same architectures as model_bench.cpp, module for module and with the
// same parameter names, so weights copy over by name.
//
//===----------------------------------------------------------------------===//

#include "torch_peer.h"

#include <torch/torch.h>

#include <ATen/Parallel.h>

#include <dlfcn.h>
#include <map>

namespace torchpeer {
namespace {

struct DigitsNetImpl : torch::nn::Module {
  DigitsNetImpl()
      : conv1(register_module(
            "conv1",
            torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 16, 3).padding(1)))),
        conv2(register_module(
            "conv2",
            torch::nn::Conv2d(torch::nn::Conv2dOptions(16, 32, 3).padding(1)))),
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
TORCH_MODULE(DigitsNet);

struct BasicBlockImpl : torch::nn::Module {
  BasicBlockImpl(int64_t in, int64_t out, int64_t stride)
      : conv1(register_module(
            "conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(in, out, 3)
                                           .stride(stride)
                                           .padding(1)
                                           .bias(false)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(out))),
        conv2(register_module(
            "conv2", torch::nn::Conv2d(
                         torch::nn::Conv2dOptions(out, out, 3).padding(1).bias(
                             false)))),
        bn2(register_module("bn2", torch::nn::BatchNorm2d(out))) {
    if (stride != 1 || in != out) {
      downConv = register_module(
          "downsample_conv",
          torch::nn::Conv2d(
              torch::nn::Conv2dOptions(in, out, 1).stride(stride).bias(false)));
      downBn = register_module("downsample_bn", torch::nn::BatchNorm2d(out));
    }
  }
  torch::Tensor forward(const torch::Tensor &x) {
    torch::Tensor h = bn1(conv1(x)).relu();
    h = bn2(conv2(h));
    torch::Tensor shortcut = downConv ? downBn(downConv(x)) : x;
    return (h + shortcut).relu();
  }
  torch::nn::Conv2d conv1;
  torch::nn::BatchNorm2d bn1;
  torch::nn::Conv2d conv2;
  torch::nn::BatchNorm2d bn2;
  torch::nn::Conv2d downConv{nullptr};
  torch::nn::BatchNorm2d downBn{nullptr};
};
TORCH_MODULE(BasicBlock);

struct ResNet18Impl : torch::nn::Module {
  ResNet18Impl(int64_t width, int64_t classes)
      : conv1(register_module(
            "conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(3, width, 7)
                                           .stride(2)
                                           .padding(3)
                                           .bias(false)))),
        bn1(register_module("bn1", torch::nn::BatchNorm2d(width))),
        fc(register_module("fc", torch::nn::Linear(8 * width, classes))) {
    int64_t in = width;
    for (int64_t stage = 0; stage < 4; ++stage) {
      int64_t out = width << stage;
      for (int64_t b = 0; b < 2; ++b) {
        int64_t stride = stage > 0 && b == 0 ? 2 : 1;
        blocks.push_back(register_module(
            "layer" + std::to_string(stage + 1) + "_" + std::to_string(b),
            BasicBlock(in, out, stride)));
        in = out;
      }
    }
  }
  torch::Tensor forward(const torch::Tensor &x) {
    torch::Tensor h = bn1(conv1(x)).relu();
    h = torch::max_pool2d(h, {3, 3}, {2, 2}, {1, 1});
    for (BasicBlock &block : blocks)
      h = block(h);
    h = torch::adaptive_avg_pool2d(h, {1, 1}).flatten(1);
    return fc(h);
  }
  torch::nn::Conv2d conv1;
  torch::nn::BatchNorm2d bn1;
  torch::nn::Linear fc;
  std::vector<BasicBlock> blocks;
};
TORCH_MODULE(ResNet18);

/// model_bench.cpp's EncoderLayer: nn.TransformerEncoderLayer's math with
/// separate q, k and v projections.
struct EncoderLayerImpl : torch::nn::Module {
  EncoderLayerImpl(int64_t d, int64_t heads, int64_t ff)
      : heads(heads), q(register_module("q", torch::nn::Linear(d, d))),
        k(register_module("k", torch::nn::Linear(d, d))),
        v(register_module("v", torch::nn::Linear(d, d))),
        out(register_module("out", torch::nn::Linear(d, d))),
        linear1(register_module("linear1", torch::nn::Linear(d, ff))),
        linear2(register_module("linear2", torch::nn::Linear(ff, d))),
        norm1(register_module(
            "norm1", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})))),
        norm2(register_module(
            "norm2", torch::nn::LayerNorm(torch::nn::LayerNormOptions({d})))) {}
  torch::Tensor forward(const torch::Tensor &x) {
    int64_t s = x.size(0), n = x.size(1), d = x.size(2), dk = d / heads;
    auto split = [&](const torch::Tensor &t) {
      return t.reshape({s, n * heads, dk}).transpose(0, 1);
    };
    torch::Tensor scores = split(q(x)).matmul(split(k(x)).transpose(1, 2)) /
                           std::sqrt(double(dk));
    torch::Tensor context = scores.softmax(-1).matmul(split(v(x)));
    context = context.transpose(0, 1).reshape({s, n, d});
    torch::Tensor h = norm1(x + out(context));
    return norm2(h + linear2(linear1(h).relu()));
  }
  int64_t heads;
  torch::nn::Linear q, k, v, out, linear1, linear2;
  torch::nn::LayerNorm norm1, norm2;
};
TORCH_MODULE(EncoderLayer);

/// Any module holder with forward(Tensor) -> Tensor.
template <class M> class Peer : public Model {
public:
  Peer(M module, torch::Tensor input)
      : module_(std::move(module)), input_(std::move(input)) {}
  void run() override {
    torch::InferenceMode guard;
    output_ = module_->forward(input_);
  }
  std::vector<float> output() const override {
    torch::Tensor o = output_.contiguous();
    return std::vector<float>(o.data_ptr<float>(),
                              o.data_ptr<float>() + o.numel());
  }

private:
  M module_;
  torch::Tensor input_, output_;
};

/// Copies `weights` into the module's parameters and buffers by name.
bool load(torch::nn::Module &module, const std::vector<Named> &weights,
          std::string *error) {
  std::map<std::string, const Named *> byName;
  for (const Named &w : weights)
    byName[w.name] = &w;
  torch::NoGradGuard noGrad;
  auto copy = [&](const std::string &name, torch::Tensor &t) {
    auto it = byName.find(name);
    if (it == byName.end()) {
      *error = "libtorch's '" + name + "' has no tcc counterpart";
      return false;
    }
    const Named &w = *it->second;
    if (t.sizes().vec() != w.shape) {
      *error = "'" + name + "' has another shape in libtorch";
      return false;
    }
    t.copy_(torch::from_blob(const_cast<float *>(w.data), w.shape));
    byName.erase(it);
    return true;
  };
  for (auto &p : module.named_parameters())
    if (!copy(p.key(), p.value()))
      return false;
  for (auto &b : module.named_buffers()) {
    if (b.key().find("num_batches_tracked") != std::string::npos)
      continue;
    if (!copy(b.key(), b.value()))
      return false;
  }
  if (!byName.empty()) {
    *error = "tcc's '" + byName.begin()->first + "' has no libtorch counterpart";
    return false;
  }
  return true;
}

template <class M>
std::unique_ptr<Model> finish(M module, const std::vector<Named> &weights,
                              torch::Tensor input, std::string *error) {
  module->eval();
  if (!load(*module, weights, error))
    return nullptr;
  return std::make_unique<Peer<M>>(std::move(module), std::move(input));
}

} // namespace

std::unique_ptr<Model> make(Kind kind, const Config &config,
                            const std::vector<Named> &weights,
                            const float *input,
                            const std::vector<int64_t> &inputShape,
                            std::string *error) {
  torch::Tensor x =
      torch::from_blob(const_cast<float *>(input), inputShape).clone();
  switch (kind) {
  case Kind::Mlp:
    return finish(torch::nn::Sequential(torch::nn::Linear(784, config.hidden),
                                        torch::nn::ReLU(),
                                        torch::nn::Linear(config.hidden,
                                                          config.hidden),
                                        torch::nn::ReLU(),
                                        torch::nn::Linear(config.hidden, 10)),
                  weights, x, error);
  case Kind::DigitsCnn:
    return finish(DigitsNet(), weights, x, error);
  case Kind::ResNet18:
    return finish(ResNet18(config.width, config.classes), weights, x, error);
  case Kind::EncoderLayer:
    return finish(EncoderLayer(config.dModel, config.heads, config.feedForward),
                  weights, x, error);
  }
  *error = "unknown model";
  return nullptr;
}

void setThreads(int threads) {
  at::set_num_threads(threads);
  // Debian's libtorch runs GEMMs in OpenBLAS, whose own pool
  // at::set_num_threads does not size; found at run time, since which BLAS
  // libblas.so.3 is depends on the machine's alternatives.
  using SetThreads = void (*)(int);
  if (auto set = reinterpret_cast<SetThreads>(
          dlsym(RTLD_DEFAULT, "openblas_set_num_threads")))
    set(threads);
}

std::string describe() {
  std::string blas =
      dlsym(RTLD_DEFAULT, "openblas_set_num_threads") ? ", OpenBLAS" : "";
  return std::string("libtorch ") + TORCH_VERSION + blas;
}

} // namespace torchpeer
