//===- Transformer.cpp - MultiheadAttention, TransformerEncoderLayer ------===//

#include "tcc/Frontend/nn/modules/Transformer.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/NN.h"
#include "tcc/Frontend/nn/Init.h"

#include <cmath>
#include <limits>
#include <ostream>

namespace tcc {
namespace nn {

// --- MultiheadAttention ------------------------------------------------------

MultiheadAttentionImpl::MultiheadAttentionImpl(
    const MultiheadAttentionOptions &options)
    : options(options) {
  reset();
}

void MultiheadAttentionImpl::reset() {
  int64_t e = options.embed_dim();
  TCC_CHECK(options.num_heads() > 0, "num_heads must be positive");
  head_dim = e / options.num_heads();
  TCC_CHECK(head_dim * options.num_heads() == e,
            "embed_dim must be divisible by num_heads");
  TCC_CHECK(options.kdim() == e && options.vdim() == e,
            "MultiheadAttention: kdim and vdim other than embed_dim are not "
            "supported by tcc");
  TCC_CHECK(!options.add_bias_kv() && !options.add_zero_attn(),
            "MultiheadAttention: add_bias_kv and add_zero_attn are not "
            "supported by tcc");
  in_proj_weight = register_parameter("in_proj_weight", tcc::empty({3 * e, e}));
  if (options.bias())
    in_proj_bias = register_parameter("in_proj_bias", tcc::empty({3 * e}));
  else
    in_proj_bias = register_parameter("in_proj_bias", Tensor(), false);
  out_proj = register_module("out_proj",
                             Linear(LinearOptions(e, e).bias(options.bias())));
  _reset_parameters();
}

void MultiheadAttentionImpl::_reset_parameters() {
  init::xavier_uniform_(in_proj_weight);
  if (in_proj_bias.defined()) {
    init::constant_(in_proj_bias, 0.);
    init::constant_(out_proj->bias, 0.);
  }
}

void MultiheadAttentionImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::MultiheadAttention(embed_dim=" << options.embed_dim()
         << ", num_heads=" << options.num_heads() << ")";
}

std::tuple<Tensor, Tensor> MultiheadAttentionImpl::forward(
    const Tensor &query, const Tensor &key, const Tensor &value,
    const Tensor &key_padding_mask, bool need_weights, const Tensor &attn_mask,
    bool average_attn_weights) {
  TCC_CHECK(query.dim() == 3 && key.dim() == 3 && value.dim() == 3,
            "MultiheadAttention: expected [length, batch, embed] query, key "
            "and value, got ",
            query.sizes(), ", ", key.sizes(), ", ", value.sizes());
  int64_t L = query.size(0), N = query.size(1), E = options.embed_dim();
  int64_t S = key.size(0), H = options.num_heads();
  TCC_CHECK(query.size(2) == E, "was expecting embedding dimension of ", E,
            ", but got ", query.size(2));
  TCC_CHECK(key.sizes() == value.sizes(), "key shape ", key.sizes(),
            " does not match value shape ", value.sizes());
  std::vector<Tensor> w = in_proj_weight.chunk(3, 0);
  std::vector<Tensor> b;
  if (in_proj_bias.defined())
    b = in_proj_bias.chunk(3, 0);
  auto proj = [&](const Tensor &x, int i) {
    return linear(x, w[size_t(i)],
                  b.empty() ? std::nullopt
                            : std::optional<Tensor>(b[size_t(i)]));
  };
  auto heads = [&](const Tensor &x, int64_t len) {
    // [len, N, E] -> [N * H, len, head_dim]
    return x.reshape({len, N * H, head_dim}).transpose(0, 1);
  };
  Tensor q = heads(proj(query, 0) * (1.0 / std::sqrt(double(head_dim))), L);
  Tensor k = heads(proj(key, 1), S);
  Tensor v = heads(proj(value, 2), S);
  Tensor scores = bmm(q, k.transpose(1, 2)); // [N * H, L, S]
  const double ninf = -std::numeric_limits<double>::infinity();
  if (attn_mask.defined()) {
    TCC_CHECK((attn_mask.dim() == 2 && attn_mask.size(0) == L &&
               attn_mask.size(1) == S) ||
                  (attn_mask.dim() == 3 && attn_mask.size(0) == N * H &&
                   attn_mask.size(1) == L && attn_mask.size(2) == S),
              "The shape of attn_mask should be (", L, ", ", S, ") or (", N * H,
              ", ", L, ", ", S, "), got ", attn_mask.sizes());
    scores = attn_mask.dtype() == kBool ? scores.masked_fill(attn_mask, ninf)
                                        : scores + attn_mask;
  }
  if (key_padding_mask.defined()) {
    TCC_CHECK(key_padding_mask.dim() == 2 && key_padding_mask.size(0) == N &&
                  key_padding_mask.size(1) == S,
              "expecting key_padding_mask shape of (", N, ", ", S,
              "), but got ", key_padding_mask.sizes());
    Tensor mask = key_padding_mask.to(kBool).view({N, 1, 1, S});
    scores =
        scores.view({N, H, L, S}).masked_fill(mask, ninf).view({N * H, L, S});
  }
  Tensor attn = scores.softmax(-1);
  Tensor dropped = tcc::dropout(attn, options.dropout(), is_training());
  Tensor out = bmm(dropped, v).transpose(0, 1).reshape({L, N, E});
  out = out_proj(out);
  if (!need_weights)
    return {out, Tensor()};
  Tensor weights = attn.view({N, H, L, S});
  if (average_attn_weights)
    weights = weights.mean({1});
  return {out, weights};
}

// --- TransformerEncoderLayer -------------------------------------------------

TransformerEncoderLayerImpl::TransformerEncoderLayerImpl(
    TransformerEncoderLayerOptions options)
    : options(std::move(options)) {
  reset();
}

void TransformerEncoderLayerImpl::reset() {
  int64_t d = options.d_model();
  self_attn = register_module(
      "self_attn",
      MultiheadAttention(MultiheadAttentionOptions(d, options.nhead())
                             .dropout(options.dropout())));
  linear1 = register_module("linear1", Linear(d, options.dim_feedforward()));
  dropout = register_module("dropout", Dropout(options.dropout()));
  linear2 = register_module("linear2", Linear(options.dim_feedforward(), d));
  norm1 = register_module("norm1", LayerNorm(LayerNormOptions({d}).eps(1e-5)));
  norm2 = register_module("norm2", LayerNorm(LayerNormOptions({d}).eps(1e-5)));
  dropout1 = register_module("dropout1", Dropout(options.dropout()));
  dropout2 = register_module("dropout2", Dropout(options.dropout()));
}

void TransformerEncoderLayerImpl::reset_parameters() {
  self_attn->_reset_parameters();
  linear1->reset_parameters();
  linear2->reset_parameters();
  norm1->reset_parameters();
  norm2->reset_parameters();
}

void TransformerEncoderLayerImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::TransformerEncoderLayer(d_model=" << options.d_model()
         << ", nhead=" << options.nhead() << ")";
}

Tensor
TransformerEncoderLayerImpl::forward(const Tensor &src, const Tensor &src_mask,
                                     const Tensor &src_key_padding_mask) {
  Tensor attended = std::get<0>(self_attn->forward(
      src, src, src, src_key_padding_mask, /*need_weights=*/false, src_mask));
  Tensor x = norm1(src + dropout1(attended));
  Tensor hidden = linear1(x);
  const activation_t &act = options.activation();
  if (std::holds_alternative<enumtype::kReLU>(act))
    hidden = hidden.relu();
  else if (std::holds_alternative<enumtype::kGELU>(act))
    hidden = gelu(hidden);
  else
    hidden = std::get<std::function<Tensor(const Tensor &)>>(act)(hidden);
  return norm2(x + dropout2(linear2(dropout(hidden))));
}

} // namespace nn
} // namespace tcc
