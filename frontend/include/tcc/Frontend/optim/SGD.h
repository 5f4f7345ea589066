//===- SGD.h - Stochastic gradient descent ----------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_OPTIM_SGD_H
#define TCC_FRONTEND_OPTIM_SGD_H

#include "tcc/Frontend/optim/Optimizer.h"

namespace tcc {
namespace optim {

struct SGDOptions : public OptimizerCloneableOptions<SGDOptions> {
  /* implicit */ SGDOptions(double lr) : lr_(lr) {}
  TCC_ARG(double, lr);
  TCC_ARG(double, momentum) = 0;
  TCC_ARG(double, dampening) = 0;
  TCC_ARG(double, weight_decay) = 0;
  TCC_ARG(bool, nesterov) = false;

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
  double get_lr() const override { return lr(); }
  void set_lr(const double lr) override { this->lr(lr); }
};

struct SGDParamState : public OptimizerCloneableParamState<SGDParamState> {
  TCC_ARG(Tensor, momentum_buffer);

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
};

/// PyTorch's SGD: g += weight_decay * p; with momentum, buf = momentum *
/// buf + (1 - dampening) * g (buf = g on the first step) and g = buf, or g
/// += momentum * buf with Nesterov; then p -= lr * g.
class SGD : public Optimizer {
public:
  explicit SGD(std::vector<OptimizerParamGroup> param_groups,
               SGDOptions defaults);
  explicit SGD(std::vector<Tensor> params, SGDOptions defaults)
      : SGD({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}
  Tensor step(LossClosure closure = nullptr) override;

protected:
  std::unique_ptr<OptimizerParamState> newParamState() const override {
    return std::make_unique<SGDParamState>();
  }
  void checkOptions(const OptimizerOptions &options) const override;
};

} // namespace optim
} // namespace tcc

#endif // TCC_FRONTEND_OPTIM_SGD_H
