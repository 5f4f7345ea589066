//===- Normalization.h - BatchNorm1d/2d, LayerNorm --------------*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_MODULES_NORMALIZATION_H
#define TCC_FRONTEND_NN_MODULES_NORMALIZATION_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Options.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

/// weight = 1, bias = 0; buffers running_mean = 0, running_var = 1 and
/// num_batches_tracked (int64), as libtorch. `Dims` is the input rank(s)
/// accepted: 2 or 3 for BatchNorm1d, 4 for BatchNorm2d.
template <size_t D, class Derived>
class BatchNormImplBase : public Cloneable<Derived> {
public:
  explicit BatchNormImplBase(const BatchNormOptions &options)
      : options(options) {}
  void reset() override;
  void reset_running_stats();
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input);

  BatchNormOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;

private:
  void checkInputDim(const Tensor &input) const;
};

class BatchNorm1dImpl : public BatchNormImplBase<1, BatchNorm1dImpl> {
public:
  explicit BatchNorm1dImpl(int64_t num_features)
      : BatchNorm1dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm1dImpl(const BatchNormOptions &options);
};
TCC_MODULE(BatchNorm1d);

class BatchNorm2dImpl : public BatchNormImplBase<2, BatchNorm2dImpl> {
public:
  explicit BatchNorm2dImpl(int64_t num_features)
      : BatchNorm2dImpl(BatchNormOptions(num_features)) {}
  explicit BatchNorm2dImpl(const BatchNormOptions &options);
};
TCC_MODULE(BatchNorm2d);

class LayerNormImpl : public Cloneable<LayerNormImpl> {
public:
  LayerNormImpl(std::vector<int64_t> normalized_shape)
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNormImpl(LayerNormOptions options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input);

  LayerNormOptions options;
  Tensor weight;
  Tensor bias;
};
TCC_MODULE(LayerNorm);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_NORMALIZATION_H
