//===- Conv.h - Conv1d, Conv2d, ConvTranspose2d -----------------*- C++ -*-===//
//
// Weights [out, in / groups, k...] (transposed: [in, out / groups, k...])
// and biases initialized as libtorch: kaiming_uniform_(a = sqrt(5)) and
// uniform in +-1/sqrt(fan_in).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_MODULES_CONV_H
#define TCC_FRONTEND_NN_MODULES_CONV_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Options.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

template <size_t D, class Derived>
class ConvNdImpl : public Cloneable<Derived> {
public:
  explicit ConvNdImpl(ConvOptions<D> options) : options(std::move(options)) {}
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;

  ConvOptions<D> options;
  Tensor weight;
  Tensor bias;

protected:
  Tensor convForward(const Tensor &input, const Tensor &weight);
};

class Conv1dImpl : public ConvNdImpl<1, Conv1dImpl> {
public:
  Conv1dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<1> kernel_size)
      : Conv1dImpl(
            Conv1dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv1dImpl(Conv1dOptions options);
  Tensor forward(const Tensor &input);
};
TCC_MODULE(Conv1d);

class Conv2dImpl : public ConvNdImpl<2, Conv2dImpl> {
public:
  Conv2dImpl(int64_t input_channels, int64_t output_channels,
             ExpandingArray<2> kernel_size)
      : Conv2dImpl(
            Conv2dOptions(input_channels, output_channels, kernel_size)) {}
  explicit Conv2dImpl(Conv2dOptions options);
  Tensor forward(const Tensor &input);
};
TCC_MODULE(Conv2d);

class ConvTranspose2dImpl : public Cloneable<ConvTranspose2dImpl> {
public:
  ConvTranspose2dImpl(int64_t input_channels, int64_t output_channels,
                      ExpandingArray<2> kernel_size)
      : ConvTranspose2dImpl(ConvTranspose2dOptions(
            input_channels, output_channels, kernel_size)) {}
  explicit ConvTranspose2dImpl(ConvTranspose2dOptions options);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input);

  ConvTranspose2dOptions options;
  Tensor weight;
  Tensor bias;
};
TCC_MODULE(ConvTranspose2d);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_CONV_H
