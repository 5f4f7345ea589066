//===- TestModels.h - Whole models written as plain eager code ------------===//
//
// Until tcc::nn modules exist, the models the bridge is tested on are
// structs with a `forward` and `named_parameters()` / `named_buffers()`
// (what tcc::jit::trace looks for): an MLP, a small CNN with batch norm for
// 8x8 digit images, a ResNet-style block and a transformer encoder layer
// (multi-head attention written out, as nn.TransformerEncoderLayer
// computes it). All are in inference form (batch norm on running stats).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_JIT_TESTMODELS_H
#define TCC_TEST_JIT_TESTMODELS_H

#include "tcc/tcc.h"

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace testmodels {

using Named = std::vector<std::pair<std::string, Tensor>>;

inline Tensor param(std::vector<int64_t> shape, double scale) {
  return (rand(shape) * 2 - 1) * scale;
}

/// Linear layer weights, initialised like PyTorch's (uniform +-1/sqrt(in)).
struct Dense {
  Tensor weight, bias;
  Dense(int64_t in, int64_t out)
      : weight(param({out, in}, 1 / std::sqrt(double(in)))),
        bias(param({out}, 1 / std::sqrt(double(in)))) {}
  Tensor operator()(const Tensor &x) const { return linear(x, weight, bias); }
  void name(Named &out, const std::string &prefix) const {
    out.push_back({prefix + ".weight", weight});
    out.push_back({prefix + ".bias", bias});
  }
};

struct Conv {
  Tensor weight, bias;
  int64_t padding, stride;
  Conv(int64_t in, int64_t out, int64_t k, int64_t pad, bool withBias = true,
       int64_t stride = 1)
      : weight(param({out, in, k, k}, 1 / std::sqrt(double(in * k * k)))),
        bias(withBias ? param({out}, 0.1) : Tensor()), padding(pad),
        stride(stride) {}
  Tensor operator()(const Tensor &x) const {
    return conv2d(x, weight,
                  bias.defined() ? std::optional<Tensor>(bias) : std::nullopt,
                  stride, padding);
  }
  void name(Named &out, const std::string &prefix) const {
    out.push_back({prefix + ".weight", weight});
    if (bias.defined())
      out.push_back({prefix + ".bias", bias});
  }
};

/// Batch norm in eval mode, with running statistics that are not 0/1.
struct BatchNorm {
  Tensor weight, bias, mean, var;
  explicit BatchNorm(int64_t c)
      : weight(rand({c}) + 0.5), bias(param({c}, 0.2)), mean(param({c}, 0.3)),
        var(rand({c}) + 0.5) {}
  Tensor operator()(const Tensor &x) const {
    return batch_norm(x, weight, bias, mean, var, /*training=*/false, 0.1,
                      1e-5);
  }
  void name(Named &params, Named &buffers, const std::string &prefix) const {
    params.push_back({prefix + ".weight", weight});
    params.push_back({prefix + ".bias", bias});
    buffers.push_back({prefix + ".running_mean", mean});
    buffers.push_back({prefix + ".running_var", var});
  }
};

struct Mlp {
  Dense fc1{64, 32}, fc2{32, 32}, fc3{32, 10};
  Tensor forward(const Tensor &x) const {
    Tensor h = fc1(x.flatten(1)).relu();
    h = tanh(fc2(h));
    return fc3(h).log_softmax(-1);
  }
  Named named_parameters() const {
    Named n;
    fc1.name(n, "fc1");
    fc2.name(n, "fc2");
    fc3.name(n, "fc3");
    return n;
  }
};

/// For [N, 1, 8, 8] digit images.
struct DigitsCnn {
  Conv conv1{1, 8, 3, 1, false};
  BatchNorm bn1{8};
  Conv conv2{8, 16, 3, 1};
  Dense fc{16 * 2 * 2, 10};
  Tensor forward(const Tensor &x) const {
    Tensor h = max_pool2d(bn1(conv1(x)).relu(), 2); // [N, 8, 4, 4]
    h = avg_pool2d(conv2(h).relu(), 2);             // [N, 16, 2, 2]
    return fc(h.flatten(1));
  }
  Named named_parameters() const {
    Named p, b;
    conv1.name(p, "conv1");
    bn1.name(p, b, "bn1");
    conv2.name(p, "conv2");
    fc.name(p, "fc");
    return p;
  }
  Named named_buffers() const {
    Named p, b;
    bn1.name(p, b, "bn1");
    return b;
  }
};

/// ResNet's basic block. With a stride or a change of width it is ResNet's
/// downsampling block: a 1x1 projection with batch norm takes the
/// shortcut, and once batch norm folds into biases the main path's and the
/// shortcut's epilogue chains meet at the residual add.
struct ResBlock {
  // Declaration order is initialization order: the seeded weights.
  Conv conv1, conv2;
  std::optional<Conv> shortcut;
  BatchNorm bn1, bn2;
  std::optional<BatchNorm> bnShortcut;
  explicit ResBlock(int64_t in = 8, int64_t out = 8, int64_t stride = 1)
      : conv1(in, out, 3, 1, false, stride), conv2(out, out, 3, 1, false),
        shortcut(stride != 1 || in != out
                     ? std::optional<Conv>(std::in_place, in, out, 1, 0,
                                           false, stride)
                     : std::nullopt),
        bn1(out), bn2(out),
        bnShortcut(shortcut ? std::optional<BatchNorm>(std::in_place, out)
                            : std::nullopt) {}
  Tensor forward(const Tensor &x) const {
    Tensor h = bn1(conv1(x)).relu();
    h = bn2(conv2(h));
    return (h + (shortcut ? (*bnShortcut)((*shortcut)(x)) : x)).relu();
  }
  void name(Named &params, Named &buffers) const {
    conv1.name(params, "conv1");
    bn1.name(params, buffers, "bn1");
    conv2.name(params, "conv2");
    bn2.name(params, buffers, "bn2");
    if (shortcut) {
      shortcut->name(params, "shortcut");
      bnShortcut->name(params, buffers, "shortcut_bn");
    }
  }
  Named named_parameters() const {
    Named p, b;
    name(p, b);
    return p;
  }
  Named named_buffers() const {
    Named p, b;
    name(p, b);
    return b;
  }
};

/// Post-norm encoder layer: self-attention (d_model 16, 2 heads), then a
/// GELU feed-forward block, each with dropout (inactive), a residual and
/// layer norm. Takes [N, S, 16] and a [S, S] additive attention mask.
struct EncoderLayer {
  static constexpr int64_t kModel = 16, kHeads = 2, kFeedForward = 32;
  Dense qkv{kModel, 3 * kModel}, out{kModel, kModel};
  Dense ff1{kModel, kFeedForward}, ff2{kFeedForward, kModel};
  Tensor norm1Weight = rand({kModel}) + 0.5, norm1Bias = param({kModel}, 0.1);
  Tensor norm2Weight = rand({kModel}) + 0.5, norm2Bias = param({kModel}, 0.1);

  Tensor forward(const Tensor &x, const Tensor &mask) const {
    int64_t n = x.size(0), s = x.size(1), dk = kModel / kHeads;
    std::vector<Tensor> parts = chunk(qkv(x), 3, -1);
    auto heads = [&](const Tensor &t) {
      return t.reshape({n, s, kHeads, dk}).transpose(1, 2); // [N, H, S, dk]
    };
    Tensor q = heads(parts[0]), k = heads(parts[1]), v = heads(parts[2]);
    Tensor scores = q.matmul(k.transpose(-2, -1)) / std::sqrt(double(dk));
    Tensor attention = (scores + mask).softmax(-1);
    attention = dropout(attention, 0.1, /*train=*/false);
    Tensor context =
        attention.matmul(v).transpose(1, 2).reshape({n, s, kModel});
    Tensor h = layer_norm(x + dropout(out(context), 0.1, false), {kModel},
                          norm1Weight, norm1Bias);
    Tensor f = ff2(gelu(ff1(h)));
    return layer_norm(h + dropout(f, 0.1, false), {kModel}, norm2Weight,
                      norm2Bias);
  }
  Named named_parameters() const {
    Named p;
    qkv.name(p, "self_attn.in_proj");
    out.name(p, "self_attn.out_proj");
    ff1.name(p, "linear1");
    ff2.name(p, "linear2");
    p.push_back({"norm1.weight", norm1Weight});
    p.push_back({"norm1.bias", norm1Bias});
    p.push_back({"norm2.weight", norm2Weight});
    p.push_back({"norm2.bias", norm2Bias});
    return p;
  }
};

/// A causal mask: 0 on and below the diagonal, -inf above.
inline Tensor causalMask(int64_t s) {
  Tensor above = arange(s).unsqueeze(1) < arange(s).unsqueeze(0);
  return where(above, -INFINITY, 0.0).to(kFloat);
}

} // namespace testmodels
} // namespace tcc

#endif // TCC_TEST_JIT_TESTMODELS_H
