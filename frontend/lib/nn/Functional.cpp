//===- Functional.cpp - nn::functional on the eager ops -------------------===//

#include "tcc/Frontend/nn/Functional.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/NN.h"

namespace tcc {
namespace nn {
namespace functional {
namespace {

std::optional<Tensor> optionalTensor(const Tensor &t) {
  return t.defined() ? std::optional<Tensor>(t) : std::nullopt;
}

template <size_t D>
Tensor convNd(const Tensor &input, const Tensor &weight,
              const ConvFuncOptions<D> &o) {
  auto run = [&](const auto &padding) -> Tensor {
    if constexpr (D == 1)
      return tcc::conv1d(input, weight, optionalTensor(o.bias()), o.stride(),
                         padding, o.dilation(), o.groups());
    else
      return tcc::conv2d(input, weight, optionalTensor(o.bias()), o.stride(),
                         padding, o.dilation(), o.groups());
  };
  if (std::holds_alternative<enumtype::kValid>(o.padding()))
    return run(std::string("valid"));
  if (std::holds_alternative<enumtype::kSame>(o.padding()))
    return run(std::string("same"));
  return run(IntArrayRef(std::get<ExpandingArray<D>>(o.padding())));
}

} // namespace

Tensor linear(const Tensor &input, const Tensor &weight, const Tensor &bias) {
  return tcc::linear(input, weight, optionalTensor(bias));
}

Tensor conv1d(const Tensor &input, const Tensor &weight,
              const Conv1dFuncOptions &options) {
  return convNd<1>(input, weight, options);
}

Tensor conv2d(const Tensor &input, const Tensor &weight,
              const Conv2dFuncOptions &options) {
  return convNd<2>(input, weight, options);
}

Tensor conv_transpose2d(const Tensor &input, const Tensor &weight,
                        const ConvTranspose2dFuncOptions &o) {
  return tcc::conv_transpose2d(input, weight, optionalTensor(o.bias()),
                               o.stride(), o.padding(), o.output_padding(),
                               o.groups(), o.dilation());
}

Tensor max_pool2d(const Tensor &input, const MaxPool2dFuncOptions &o) {
  return tcc::max_pool2d(input, o.kernel_size(), o.stride(), o.padding(),
                         o.dilation(), o.ceil_mode());
}

Tensor avg_pool2d(const Tensor &input, const AvgPool2dFuncOptions &o) {
  return tcc::avg_pool2d(input, o.kernel_size(), o.stride(), o.padding(),
                         o.ceil_mode(), o.count_include_pad(),
                         o.divisor_override());
}

Tensor adaptive_avg_pool2d(const Tensor &input,
                           const AdaptiveAvgPool2dFuncOptions &o) {
  TCC_CHECK(input.dim() >= 2,
            "adaptive_avg_pool2d: expected an input with "
            "at least 2 dims, got ",
            input.sizes());
  int64_t size[2];
  for (int i = 0; i < 2; ++i) {
    const std::optional<int64_t> &s = o.output_size()[i];
    size[i] = s ? *s : input.size(input.dim() - 2 + i);
  }
  return tcc::adaptive_avg_pool2d(input, IntArrayRef(size, 2));
}

Tensor batch_norm(const Tensor &input, const Tensor &running_mean,
                  const Tensor &running_var, const BatchNormFuncOptions &o) {
  TCC_CHECK(!o.training() || input.dim() < 2 ||
                input.numel() / input.size(1) > 1,
            "Expected more than 1 value per channel when training, got input "
            "size ",
            input.sizes());
  return tcc::batch_norm(input, optionalTensor(o.weight()),
                         optionalTensor(o.bias()), optionalTensor(running_mean),
                         optionalTensor(running_var), o.training(),
                         o.momentum().value_or(0.0), o.eps());
}

Tensor layer_norm(const Tensor &input, const LayerNormFuncOptions &o) {
  return tcc::layer_norm(input, o.normalized_shape(),
                         optionalTensor(o.weight()), optionalTensor(o.bias()),
                         o.eps());
}

Tensor normalize(const Tensor &input, NormalizeFuncOptions o) {
  Tensor norm = input.norm(o.p(), {o.dim()}, /*keepdim=*/true);
  return input / norm.clamp_min(o.eps()).expand_as(input);
}

Tensor dropout(const Tensor &input, const DropoutFuncOptions &o) {
  TCC_CHECK(o.p() >= 0 && o.p() <= 1,
            "dropout probability has to be between 0 and 1, but got ", o.p());
  Tensor out = tcc::dropout(input, o.p(), o.training());
  if (o.inplace() && !out.is_same(input))
    return input.copy_(out), input;
  return out;
}

Tensor dropout2d(const Tensor &input, const Dropout2dFuncOptions &o) {
  TCC_CHECK(o.p() >= 0 && o.p() <= 1,
            "dropout probability has to be between 0 and 1, but got ", o.p());
  TCC_CHECK(input.dim() == 3 || input.dim() == 4,
            "dropout2d: expected a 3-D or 4-D input, got ", input.dim(),
            "-D input of shape ", input.sizes());
  // A [C, H, W] input has no batch dim: its channels are dim 0.
  Tensor batched = input.dim() == 3 ? input.unsqueeze(0) : input;
  Tensor out = tcc::feature_dropout(batched, o.p(), o.training());
  if (input.dim() == 3)
    out = out.squeeze(0);
  if (o.inplace() && !out.is_same(input))
    return input.copy_(out), input;
  return out;
}

Tensor embedding(const Tensor &input, const Tensor &weight,
                 const EmbeddingFuncOptions &o) {
  TCC_CHECK(!o.max_norm(), "embedding: max_norm is not supported by tcc");
  TCC_CHECK(!o.sparse(), "embedding: sparse gradients are not supported by "
                         "tcc");
  int64_t padding = -1;
  if (o.padding_idx()) {
    padding = *o.padding_idx();
    int64_t n = weight.size(0);
    TCC_CHECK(padding < n && padding >= -n,
              "Padding_idx must be within num_embedding");
    if (padding < 0)
      padding += n;
  }
  return tcc::embedding(weight, input, padding, o.scale_grad_by_freq(), false);
}

Tensor one_hot(const Tensor &tensor, int64_t num_classes) {
  return tcc::one_hot(tensor, num_classes);
}

Tensor pad(const Tensor &input, const PadFuncOptions &o) {
  std::string mode = enumtype::get_enum_name(o.mode()).substr(1);
  for (char &c : mode)
    c = char(std::tolower(c));
  return tcc::pad(input, o.pad(), mode,
                  mode == "constant" ? std::optional<double>(o.value())
                                     : std::nullopt);
}

Tensor relu(const Tensor &input, const ReLUFuncOptions &o) {
  return o.inplace() ? input.relu_() : input.relu();
}

Tensor leaky_relu(const Tensor &input, const LeakyReLUFuncOptions &o) {
  // where() keeps the gradient: 1 for positive inputs, the slope otherwise.
  Tensor out = tcc::where(input > 0, input, input * o.negative_slope());
  if (o.inplace())
    return input.copy_(out), input;
  return out;
}

Tensor gelu(const Tensor &input, const GELUFuncOptions &o) {
  return tcc::gelu(input, o.approximate());
}

Tensor silu(const Tensor &input) { return tcc::silu(input); }

Tensor softmax(const Tensor &input, const SoftmaxFuncOptions &o) {
  return tcc::softmax(input, o.dim(), o.dtype());
}

Tensor log_softmax(const Tensor &input, const LogSoftmaxFuncOptions &o) {
  return tcc::log_softmax(input, o.dim(), o.dtype());
}

Tensor mse_loss(const Tensor &input, const Tensor &target,
                const MSELossFuncOptions &o) {
  return tcc::mse_loss(input, target, reductionCode(o.reduction()));
}

Tensor l1_loss(const Tensor &input, const Tensor &target,
               const L1LossFuncOptions &o) {
  return tcc::l1_loss(input, target, reductionCode(o.reduction()));
}

Tensor smooth_l1_loss(const Tensor &input, const Tensor &target,
                      const SmoothL1LossFuncOptions &o) {
  return tcc::smooth_l1_loss(input, target, reductionCode(o.reduction()),
                             o.beta().value_or(1.0));
}

Tensor binary_cross_entropy(const Tensor &input, const Tensor &target,
                            const BinaryCrossEntropyFuncOptions &o) {
  return tcc::binary_cross_entropy(input, target, optionalTensor(o.weight()),
                                   reductionCode(o.reduction()));
}

Tensor binary_cross_entropy_with_logits(
    const Tensor &input, const Tensor &target,
    const BinaryCrossEntropyWithLogitsFuncOptions &o) {
  return tcc::binary_cross_entropy_with_logits(
      input, target, optionalTensor(o.weight()), optionalTensor(o.pos_weight()),
      reductionCode(o.reduction()));
}

Tensor nll_loss(const Tensor &input, const Tensor &target,
                const NLLLossFuncOptions &o) {
  return tcc::nll_loss(input, target, optionalTensor(o.weight()),
                       reductionCode(o.reduction()), o.ignore_index());
}

Tensor cross_entropy(const Tensor &input, const Tensor &target,
                     const CrossEntropyFuncOptions &o) {
  return tcc::cross_entropy_loss(input, target, optionalTensor(o.weight()),
                                 reductionCode(o.reduction()), o.ignore_index(),
                                 o.label_smoothing());
}

} // namespace functional
} // namespace nn
} // namespace tcc
