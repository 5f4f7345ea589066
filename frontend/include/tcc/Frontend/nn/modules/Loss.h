//===- Loss.h - Loss modules ------------------------------------*- C++ -*-===//
//
// `nn::MSELoss()(output, target)`; options as nn::functional's.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_MODULES_LOSS_H
#define TCC_FRONTEND_NN_MODULES_LOSS_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Functional.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

#define TCC_DECLARE_LOSS(Name, Options, fn)                                    \
  class Name##Impl : public Cloneable<Name##Impl> {                            \
  public:                                                                      \
    explicit Name##Impl(Options options = {}) : options(std::move(options)) {} \
    void reset() override {}                                                   \
    void pretty_print(std::ostream &stream) const override;                    \
    Tensor forward(const Tensor &input, const Tensor &target) {                \
      return functional::fn(input, target, options);                           \
    }                                                                          \
    Options options;                                                           \
  };                                                                           \
  TCC_MODULE(Name)

TCC_DECLARE_LOSS(MSELoss, MSELossOptions, mse_loss);
TCC_DECLARE_LOSS(L1Loss, L1LossOptions, l1_loss);
TCC_DECLARE_LOSS(SmoothL1Loss, SmoothL1LossOptions, smooth_l1_loss);
TCC_DECLARE_LOSS(BCELoss, BCELossOptions, binary_cross_entropy);
TCC_DECLARE_LOSS(BCEWithLogitsLoss, BCEWithLogitsLossOptions,
                 binary_cross_entropy_with_logits);
TCC_DECLARE_LOSS(NLLLoss, NLLLossOptions, nll_loss);
TCC_DECLARE_LOSS(CrossEntropyLoss, CrossEntropyLossOptions, cross_entropy);
#undef TCC_DECLARE_LOSS

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_LOSS_H
