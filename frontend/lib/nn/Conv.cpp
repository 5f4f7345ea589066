//===- Conv.cpp - Conv1d, Conv2d, ConvTranspose2d -------------------------===//

#include "tcc/Frontend/nn/modules/Conv.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Init.h"

#include <cmath>
#include <ostream>

namespace tcc {
namespace nn {
namespace {

void initConvParameters(const Tensor &weight, const Tensor &bias) {
  init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    auto [fanIn, fanOut] = init::_calculate_fan_in_and_fan_out(weight);
    (void)fanOut;
    double bound = fanIn > 0 ? 1.0 / std::sqrt(double(fanIn)) : 0.0;
    init::uniform_(bias, -bound, bound);
  }
}

void checkChannels(int64_t in, int64_t out, int64_t groups) {
  TCC_CHECK(groups > 0, "groups must be a positive integer");
  TCC_CHECK(in % groups == 0, "in_channels must be divisible by groups");
  TCC_CHECK(out % groups == 0, "out_channels must be divisible by groups");
}

std::string paddingModeName(const detail::conv_padding_mode_t &mode) {
  std::string s = enumtype::get_enum_name(mode).substr(1);
  for (char &c : s)
    c = char(std::tolower(c));
  return s;
}

} // namespace

template <size_t D, class Derived> void ConvNdImpl<D, Derived>::reset() {
  checkChannels(options.in_channels(), options.out_channels(),
                options.groups());
  if (std::holds_alternative<enumtype::kSame>(options.padding()))
    for (size_t i = 0; i < D; ++i)
      TCC_CHECK(options.stride()[i] == 1,
                "padding='same' is not supported for strided convolutions");
  std::vector<int64_t> shape = {options.out_channels(),
                                options.in_channels() / options.groups()};
  for (int64_t k : *options.kernel_size())
    shape.push_back(k);
  weight = this->register_parameter("weight", tcc::empty(shape));
  if (options.bias())
    bias =
        this->register_parameter("bias", tcc::empty({options.out_channels()}));
  else
    bias = this->register_parameter("bias", Tensor(), false);
  reset_parameters();
}

template <size_t D, class Derived>
void ConvNdImpl<D, Derived>::reset_parameters() {
  initConvParameters(weight, bias);
}

template <size_t D, class Derived>
void ConvNdImpl<D, Derived>::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::Conv" << D << "d(" << options.in_channels() << ", "
         << options.out_channels() << ", kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride();
  if (std::holds_alternative<enumtype::kValid>(options.padding()))
    stream << ", padding='valid'";
  else if (std::holds_alternative<enumtype::kSame>(options.padding()))
    stream << ", padding='same'";
  else if (!(std::get<ExpandingArray<D>>(options.padding()) ==
             ExpandingArray<D>(0)))
    stream << ", padding=" << std::get<ExpandingArray<D>>(options.padding());
  if (!(options.dilation() == ExpandingArray<D>(1)))
    stream << ", dilation=" << options.dilation();
  if (options.groups() != 1)
    stream << ", groups=" << options.groups();
  if (!options.bias())
    stream << ", bias=false";
  if (!std::holds_alternative<enumtype::kZeros>(options.padding_mode()))
    stream << ", padding_mode="
           << enumtype::get_enum_name(options.padding_mode());
  stream << ")";
}

template <size_t D, class Derived>
Tensor ConvNdImpl<D, Derived>::convForward(const Tensor &input,
                                           const Tensor &w) {
  functional::ConvFuncOptions<D> fo;
  fo.bias(bias)
      .stride(options.stride())
      .dilation(options.dilation())
      .groups(options.groups());
  if (std::holds_alternative<enumtype::kZeros>(options.padding_mode())) {
    fo.padding(options.padding());
    if constexpr (D == 1)
      return functional::conv1d(input, w, fo);
    else
      return functional::conv2d(input, w, fo);
  }
  // Other padding modes pad explicitly, then convolve without padding.
  TCC_CHECK(std::holds_alternative<ExpandingArray<D>>(options.padding()),
            "padding_mode ", paddingModeName(options.padding_mode()),
            " needs numeric padding");
  const ExpandingArray<D> &p = std::get<ExpandingArray<D>>(options.padding());
  std::vector<int64_t> pads;
  for (size_t i = D; i-- > 0;) {
    pads.push_back(p[i]);
    pads.push_back(p[i]);
  }
  Tensor padded = pad(input, pads, paddingModeName(options.padding_mode()));
  fo.padding(ExpandingArray<D>(0));
  if constexpr (D == 1)
    return functional::conv1d(padded, w, fo);
  else
    return functional::conv2d(padded, w, fo);
}

template class ConvNdImpl<1, Conv1dImpl>;
template class ConvNdImpl<2, Conv2dImpl>;

Conv1dImpl::Conv1dImpl(Conv1dOptions options) : ConvNdImpl(std::move(options)) {
  reset();
}
Tensor Conv1dImpl::forward(const Tensor &input) {
  return convForward(input, weight);
}

Conv2dImpl::Conv2dImpl(Conv2dOptions options) : ConvNdImpl(std::move(options)) {
  reset();
}
Tensor Conv2dImpl::forward(const Tensor &input) {
  return convForward(input, weight);
}

ConvTranspose2dImpl::ConvTranspose2dImpl(ConvTranspose2dOptions options)
    : options(std::move(options)) {
  reset();
}

void ConvTranspose2dImpl::reset() {
  checkChannels(options.in_channels(), options.out_channels(),
                options.groups());
  TCC_CHECK(std::holds_alternative<enumtype::kZeros>(options.padding_mode()),
            "Only \"zeros\" padding mode is supported for ConvTranspose2d");
  weight = register_parameter(
      "weight",
      tcc::empty({options.in_channels(),
                  options.out_channels() / options.groups(),
                  options.kernel_size()[0], options.kernel_size()[1]}));
  if (options.bias())
    bias = register_parameter("bias", tcc::empty({options.out_channels()}));
  else
    bias = register_parameter("bias", Tensor(), false);
  reset_parameters();
}

void ConvTranspose2dImpl::reset_parameters() {
  initConvParameters(weight, bias);
}

void ConvTranspose2dImpl::pretty_print(std::ostream &stream) const {
  stream << "torch::nn::ConvTranspose2d(" << options.in_channels() << ", "
         << options.out_channels() << ", kernel_size=" << options.kernel_size()
         << ", stride=" << options.stride();
  if (!(options.padding() == ExpandingArray<2>(0)))
    stream << ", padding=" << options.padding();
  if (!(options.output_padding() == ExpandingArray<2>(0)))
    stream << ", output_padding=" << options.output_padding();
  if (options.groups() != 1)
    stream << ", groups=" << options.groups();
  if (!options.bias())
    stream << ", bias=false";
  stream << ")";
}

Tensor ConvTranspose2dImpl::forward(const Tensor &input) {
  return functional::conv_transpose2d(
      input, weight,
      functional::ConvTranspose2dFuncOptions()
          .bias(bias)
          .stride(options.stride())
          .padding(options.padding())
          .output_padding(options.output_padding())
          .groups(options.groups())
          .dilation(options.dilation()));
}

} // namespace nn
} // namespace tcc
