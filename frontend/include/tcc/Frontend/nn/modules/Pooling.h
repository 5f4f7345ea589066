//===- Pooling.h - MaxPool2d, AvgPool2d, AdaptiveAvgPool2d ------*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_MODULES_POOLING_H
#define TCC_FRONTEND_NN_MODULES_POOLING_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

class MaxPool2dImpl : public Cloneable<MaxPool2dImpl> {
public:
  MaxPool2dImpl(ExpandingArray<2> kernel_size)
      : MaxPool2dImpl(MaxPool2dOptions(kernel_size)) {}
  explicit MaxPool2dImpl(const MaxPool2dOptions &options) : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return functional::max_pool2d(input, options);
  }
  MaxPool2dOptions options;
};
TCC_MODULE(MaxPool2d);

class AvgPool2dImpl : public Cloneable<AvgPool2dImpl> {
public:
  AvgPool2dImpl(ExpandingArray<2> kernel_size)
      : AvgPool2dImpl(AvgPool2dOptions(kernel_size)) {}
  explicit AvgPool2dImpl(const AvgPool2dOptions &options) : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return functional::avg_pool2d(input, options);
  }
  AvgPool2dOptions options;
};
TCC_MODULE(AvgPool2d);

class AdaptiveAvgPool2dImpl : public Cloneable<AdaptiveAvgPool2dImpl> {
public:
  AdaptiveAvgPool2dImpl(ExpandingArrayWithOptionalElem<2> output_size)
      : AdaptiveAvgPool2dImpl(AdaptiveAvgPool2dOptions(output_size)) {}
  explicit AdaptiveAvgPool2dImpl(const AdaptiveAvgPool2dOptions &options)
      : options(options) {}
  void reset() override {}
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(const Tensor &input) {
    return functional::adaptive_avg_pool2d(input, options);
  }
  AdaptiveAvgPool2dOptions options;
};
TCC_MODULE(AdaptiveAvgPool2d);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_POOLING_H
