//===- Embedding.h - A lookup table of vectors ------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_MODULES_EMBEDDING_H
#define TCC_FRONTEND_NN_MODULES_EMBEDDING_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Options.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

/// weight [num_embeddings, embedding_dim] ~ N(0, 1); the padding_idx row is
/// zero and gets no gradient.
class EmbeddingImpl : public Cloneable<EmbeddingImpl> {
public:
  EmbeddingImpl(int64_t num_embeddings, int64_t embedding_dim)
      : EmbeddingImpl(EmbeddingOptions(num_embeddings, embedding_dim)) {}
  explicit EmbeddingImpl(EmbeddingOptions options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &indices);

  EmbeddingOptions options;
  Tensor weight;
};

class Embedding : public ModuleHolder<EmbeddingImpl> {
public:
  using ModuleHolder<EmbeddingImpl>::ModuleHolder;
  using Impl = EmbeddingImpl;
  /// An Embedding whose weight is `embeddings` (2-D), frozen by default.
  static Embedding
  from_pretrained(const Tensor &embeddings,
                  const EmbeddingFromPretrainedOptions &options = {});
};

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_EMBEDDING_H
