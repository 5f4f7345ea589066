//===- Linear.cpp - Linear, Identity, Flatten, Unflatten ------------------===//

#include "tcc/Frontend/nn/modules/Linear.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Ops/NN.h"
#include "tcc/Frontend/nn/Init.h"

#include <cmath>
#include <ostream>

namespace tcc {
namespace nn {

LinearImpl::LinearImpl(const LinearOptions &options) : options(options) {
  reset();
}

void LinearImpl::reset() {
  weight = register_parameter(
      "weight", tcc::empty({options.out_features(), options.in_features()}));
  if (options.bias())
    bias = register_parameter("bias", tcc::empty({options.out_features()}));
  else
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  reset_parameters();
}

void LinearImpl::reset_parameters() {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    auto [fanIn, fanOut] = init::_calculate_fan_in_and_fan_out(weight);
    (void)fanOut;
    double bound = fanIn > 0 ? 1.0 / std::sqrt(double(fanIn)) : 0.0;
    init::uniform_(bias, -bound, bound);
  }
}

void LinearImpl::pretty_print(std::ostream &stream) const {
  stream << std::boolalpha
         << "torch::nn::Linear(in_features=" << options.in_features()
         << ", out_features=" << options.out_features()
         << ", bias=" << options.bias() << ")";
}

Tensor LinearImpl::forward(const Tensor &input) {
  return linear(input, weight,
                bias.defined() ? std::optional<Tensor>(bias) : std::nullopt);
}

void IdentityImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Identity()";
}

void FlattenImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Flatten(start_dim=" << options.start_dim()
         << ", end_dim=" << options.end_dim() << ")";
}

void UnflattenImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Unflatten(dim=" << options.dim()
         << ", unflattened_size=" << IntArrayRef(options.sizes()) << ")";
}

} // namespace nn
} // namespace tcc
