//===- Dropout.cpp - Dropout, Dropout2d, Embedding ------------------------===//

#include "tcc/Frontend/nn/modules/Dropout.h"
#include "tcc/Frontend/nn/modules/Embedding.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Init.h"

#include <ostream>

namespace tcc {
namespace nn {
namespace {
void checkProbability(double p) {
  TCC_CHECK(p >= 0 && p <= 1,
            "dropout probability has to be between 0 and 1, but got ", p);
}
} // namespace

DropoutImpl::DropoutImpl(const DropoutOptions &options) : options(options) {
  reset();
}
void DropoutImpl::reset() { checkProbability(options.p()); }
void DropoutImpl::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha << "torch::nn::Dropout(p=" << options.p()
         << ", inplace=" << options.inplace() << ")";
}
Tensor DropoutImpl::forward(Tensor input) {
  return functional::dropout(input, functional::DropoutFuncOptions()
                                        .p(options.p())
                                        .training(is_training())
                                        .inplace(options.inplace()));
}

Dropout2dImpl::Dropout2dImpl(const Dropout2dOptions &options)
    : options(options) {
  reset();
}
void Dropout2dImpl::reset() { checkProbability(options.p()); }
void Dropout2dImpl::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha << "torch::nn::Dropout2d(p=" << options.p()
         << ", inplace=" << options.inplace() << ")";
}
Tensor Dropout2dImpl::forward(Tensor input) {
  return functional::dropout2d(input, functional::Dropout2dFuncOptions()
                                          .p(options.p())
                                          .training(is_training())
                                          .inplace(options.inplace()));
}

EmbeddingImpl::EmbeddingImpl(EmbeddingOptions options)
    : options(std::move(options)) {
  reset();
}

void EmbeddingImpl::reset() {
  if (options.padding_idx()) {
    int64_t &p = *options.padding_idx();
    int64_t n = options.num_embeddings();
    TCC_CHECK(p < n && p >= -n, "Padding_idx must be within num_embeddings");
    if (p < 0)
      p += n;
  }
  if (!options._weight().defined()) {
    weight = register_parameter(
        "weight",
        tcc::empty({options.num_embeddings(), options.embedding_dim()}));
    reset_parameters();
  } else {
    TCC_CHECK(
        options._weight().sizes() ==
            IntArrayRef({options.num_embeddings(), options.embedding_dim()}),
        "Shape of _weight does not match num_embeddings and "
        "embedding_dim");
    weight = register_parameter("weight", options._weight());
  }
}

void EmbeddingImpl::reset_parameters() {
  init::normal_(weight);
  if (options.padding_idx()) {
    NoGradGuard noGrad;
    weight[*options.padding_idx()].fill_(0);
  }
}

void EmbeddingImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Embedding(num_embeddings=" << options.num_embeddings()
         << ", embedding_dim=" << options.embedding_dim();
  if (options.padding_idx())
    stream << ", padding_idx=" << *options.padding_idx();
  stream << ")";
}

Tensor EmbeddingImpl::forward(const Tensor &indices) {
  return functional::embedding(
      indices, weight,
      functional::EmbeddingFuncOptions()
          .padding_idx(options.padding_idx())
          .max_norm(options.max_norm())
          .norm_type(options.norm_type())
          .scale_grad_by_freq(options.scale_grad_by_freq())
          .sparse(options.sparse()));
}

Embedding Embedding::from_pretrained(const Tensor &embeddings,
                                     const EmbeddingFromPretrainedOptions &o) {
  TCC_CHECK(embeddings.dim() == 2,
            "Embeddings parameter is expected to be 2-dimensional");
  Embedding embedding(EmbeddingOptions(embeddings.size(0), embeddings.size(1))
                          ._weight(embeddings)
                          .padding_idx(o.padding_idx())
                          .max_norm(o.max_norm())
                          .norm_type(o.norm_type())
                          .scale_grad_by_freq(o.scale_grad_by_freq())
                          .sparse(o.sparse()));
  embedding->weight.set_requires_grad(!o.freeze());
  return embedding;
}

} // namespace nn
} // namespace tcc
