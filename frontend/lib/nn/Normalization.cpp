//===- Normalization.cpp - BatchNorm1d/2d, LayerNorm ----------------------===//

#include "tcc/Frontend/nn/modules/Normalization.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Init.h"

#include <ostream>

namespace tcc {
namespace nn {

template <size_t D, class Derived> void BatchNormImplBase<D, Derived>::reset() {
  if (options.affine()) {
    weight = this->register_parameter("weight",
                                      tcc::empty({options.num_features()}));
    bias =
        this->register_parameter("bias", tcc::empty({options.num_features()}));
  } else {
    weight = this->register_parameter("weight", Tensor(), false);
    bias = this->register_parameter("bias", Tensor(), false);
  }
  if (options.track_running_stats()) {
    running_mean = this->register_buffer("running_mean",
                                         tcc::zeros({options.num_features()}));
    running_var = this->register_buffer("running_var",
                                        tcc::ones({options.num_features()}));
    num_batches_tracked =
        this->register_buffer("num_batches_tracked", tensor(int64_t(0), kLong));
  } else {
    running_mean = this->register_buffer("running_mean", Tensor());
    running_var = this->register_buffer("running_var", Tensor());
    num_batches_tracked =
        this->register_buffer("num_batches_tracked", Tensor());
  }
  reset_parameters();
}

template <size_t D, class Derived>
void BatchNormImplBase<D, Derived>::reset_running_stats() {
  if (!options.track_running_stats())
    return;
  NoGradGuard noGrad;
  running_mean.zero_();
  running_var.fill_(1);
  num_batches_tracked.zero_();
}

template <size_t D, class Derived>
void BatchNormImplBase<D, Derived>::reset_parameters() {
  reset_running_stats();
  if (options.affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

template <size_t D, class Derived>
void BatchNormImplBase<D, Derived>::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha << "torch::nn::BatchNorm" << D << "d("
         << options.num_features() << ", eps=" << options.eps()
         << ", momentum=";
  if (options.momentum())
    stream << *options.momentum();
  else
    stream << "None";
  stream << ", affine=" << options.affine()
         << ", track_running_stats=" << options.track_running_stats() << ")";
}

template <size_t D, class Derived>
void BatchNormImplBase<D, Derived>::checkInputDim(const Tensor &input) const {
  if (D == 1)
    TCC_CHECK(input.dim() == 2 || input.dim() == 3,
              "expected 2D or 3D input (got ", input.dim(), "D input)");
  else
    TCC_CHECK(input.dim() == 4, "expected 4D input (got ", input.dim(),
              "D input)");
  TCC_CHECK(input.size(1) == options.num_features(), "BatchNorm", D,
            "d: expected ", options.num_features(),
            " channels in dim 1 of the input, got input of shape ",
            input.sizes());
}

template <size_t D, class Derived>
Tensor BatchNormImplBase<D, Derived>::forward(const Tensor &input) {
  checkInputDim(input);
  double momentum = options.momentum().value_or(0.0);
  if (this->is_training() && options.track_running_stats()) {
    NoGradGuard noGrad;
    num_batches_tracked.add_(1);
    if (!options.momentum()) // cumulative moving average
      momentum = 1.0 / double(num_batches_tracked.template item<int64_t>());
  }
  return functional::batch_norm(
      input, running_mean, running_var,
      functional::BatchNormFuncOptions()
          .weight(weight)
          .bias(bias)
          .training(this->is_training() || !options.track_running_stats())
          .momentum(momentum)
          .eps(options.eps()));
}

template class BatchNormImplBase<1, BatchNorm1dImpl>;
template class BatchNormImplBase<2, BatchNorm2dImpl>;

BatchNorm1dImpl::BatchNorm1dImpl(const BatchNormOptions &options)
    : BatchNormImplBase(options) {
  reset();
}

BatchNorm2dImpl::BatchNorm2dImpl(const BatchNormOptions &options)
    : BatchNormImplBase(options) {
  reset();
}

LayerNormImpl::LayerNormImpl(LayerNormOptions options)
    : options(std::move(options)) {
  reset();
}

void LayerNormImpl::reset() {
  if (options.elementwise_affine()) {
    weight =
        register_parameter("weight", tcc::empty(options.normalized_shape()));
    bias = register_parameter("bias", tcc::empty(options.normalized_shape()));
  } else {
    weight = register_parameter("weight", Tensor(), false);
    bias = register_parameter("bias", Tensor(), false);
  }
  reset_parameters();
}

void LayerNormImpl::reset_parameters() {
  if (options.elementwise_affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

void LayerNormImpl::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha << "torch::nn::LayerNorm("
         << IntArrayRef(options.normalized_shape()) << ", eps=" << options.eps()
         << ", elementwise_affine=" << options.elementwise_affine() << ")";
}

Tensor LayerNormImpl::forward(const Tensor &input) {
  return functional::layer_norm(
      input, functional::LayerNormFuncOptions(options.normalized_shape())
                 .weight(weight)
                 .bias(bias)
                 .eps(options.eps()));
}

} // namespace nn
} // namespace tcc
