//===- Transformer.h - MultiheadAttention, TransformerEncoderLayer -*- C++ -*-//
//
// libtorch 1.13's layouts: sequences are [length, batch, embed]. Attention
// masks: bool (true = may not attend) or float (added to the scores), [L, S]
// or [batch * heads, L, S]; key_padding_mask is bool [batch, S].
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_MODULES_TRANSFORMER_H
#define TCC_FRONTEND_NN_MODULES_TRANSFORMER_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Options.h"
#include "tcc/Frontend/nn/Pimpl.h"
#include "tcc/Frontend/nn/modules/Dropout.h"
#include "tcc/Frontend/nn/modules/Linear.h"
#include "tcc/Frontend/nn/modules/Normalization.h"

#include <tuple>

namespace tcc {
namespace nn {

/// in_proj_weight [3E, E] (xavier_uniform_), in_proj_bias [3E] (zeros) and
/// out_proj (a Linear with a zero bias).
class MultiheadAttentionImpl : public Cloneable<MultiheadAttentionImpl> {
public:
  MultiheadAttentionImpl(int64_t embed_dim, int64_t num_heads)
      : MultiheadAttentionImpl(
            MultiheadAttentionOptions(embed_dim, num_heads)) {}
  explicit MultiheadAttentionImpl(const MultiheadAttentionOptions &options);
  void reset() override;
  void _reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  /// (attention output [L, N, E], weights [N, L, S] averaged over heads, or
  /// [N, heads, L, S]; undefined unless need_weights).
  std::tuple<Tensor, Tensor>
  forward(const Tensor &query, const Tensor &key, const Tensor &value,
          const Tensor &key_padding_mask = {}, bool need_weights = true,
          const Tensor &attn_mask = {}, bool average_attn_weights = true);

  MultiheadAttentionOptions options;
  Tensor in_proj_weight;
  Tensor in_proj_bias;
  Linear out_proj{nullptr};
  int64_t head_dim = 0;
};
TCC_MODULE(MultiheadAttention);

/// Post-norm encoder layer: x = norm1(x + dropout1(self_attn(x))); x =
/// norm2(x + dropout2(linear2(dropout(activation(linear1(x)))))).
class TransformerEncoderLayerImpl
    : public Cloneable<TransformerEncoderLayerImpl> {
public:
  TransformerEncoderLayerImpl(int64_t d_model, int64_t nhead)
      : TransformerEncoderLayerImpl(
            TransformerEncoderLayerOptions(d_model, nhead)) {}
  explicit TransformerEncoderLayerImpl(TransformerEncoderLayerOptions options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &src, const Tensor &src_mask = {},
                 const Tensor &src_key_padding_mask = {});

  TransformerEncoderLayerOptions options;
  MultiheadAttention self_attn{nullptr};
  Linear linear1{nullptr};
  Dropout dropout{nullptr};
  Linear linear2{nullptr};
  LayerNorm norm1{nullptr};
  LayerNorm norm2{nullptr};
  Dropout dropout1{nullptr};
  Dropout dropout2{nullptr};
};
TCC_MODULE(TransformerEncoderLayer);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_TRANSFORMER_H
