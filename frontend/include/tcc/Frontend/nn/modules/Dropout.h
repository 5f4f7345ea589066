//===- Dropout.h - Dropout, Dropout2d ---------------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_MODULES_DROPOUT_H
#define TCC_FRONTEND_NN_MODULES_DROPOUT_H

#include "tcc/Frontend/nn/Cloneable.h"
#include "tcc/Frontend/nn/Options.h"
#include "tcc/Frontend/nn/Pimpl.h"

namespace tcc {
namespace nn {

/// Zeroes elements with probability p while training; identity in eval().
class DropoutImpl : public Cloneable<DropoutImpl> {
public:
  explicit DropoutImpl(double p) : DropoutImpl(DropoutOptions(p)) {}
  explicit DropoutImpl(const DropoutOptions &options = {});
  void reset() override;
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(Tensor input);
  DropoutOptions options;
};
TCC_MODULE(Dropout);

/// Zeroes whole channels ([N, C, H, W] or [C, H, W]) while training.
class Dropout2dImpl : public Cloneable<Dropout2dImpl> {
public:
  explicit Dropout2dImpl(double p) : Dropout2dImpl(Dropout2dOptions(p)) {}
  explicit Dropout2dImpl(const Dropout2dOptions &options = {});
  void reset() override;
  void pretty_print(std::ostream &stream) const override;
  Tensor forward(Tensor input);
  Dropout2dOptions options;
};
TCC_MODULE(Dropout2d);

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_MODULES_DROPOUT_H
