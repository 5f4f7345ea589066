//===- RMSprop.h - RMSprop and Adagrad --------------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_OPTIM_RMSPROP_H
#define TCC_FRONTEND_OPTIM_RMSPROP_H

#include "tcc/Frontend/optim/Optimizer.h"

namespace tcc {
namespace optim {

struct RMSpropOptions : public OptimizerCloneableOptions<RMSpropOptions> {
  /* implicit */ RMSpropOptions(double lr = 1e-2) : lr_(lr) {}
  TCC_ARG(double, lr);
  TCC_ARG(double, alpha) = 0.99;
  TCC_ARG(double, eps) = 1e-8;
  TCC_ARG(double, weight_decay) = 0;
  TCC_ARG(double, momentum) = 0;
  TCC_ARG(bool, centered) = false;

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
  double get_lr() const override { return lr(); }
  void set_lr(const double lr) override { this->lr(lr); }
};

struct RMSpropParamState
    : public OptimizerCloneableParamState<RMSpropParamState> {
  TCC_ARG(int64_t, step) = 0;
  TCC_ARG(Tensor, square_avg);
  TCC_ARG(Tensor, momentum_buffer) = {};
  TCC_ARG(Tensor, grad_avg) = {};

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
};

/// PyTorch's RMSprop: s = alpha s + (1 - alpha) g^2; avg = sqrt(s - a^2) +
/// eps (centered, a the running mean of g) or sqrt(s) + eps; with momentum
/// buf = momentum buf + g / avg and p -= lr buf, else p -= lr g / avg.
class RMSprop : public Optimizer {
public:
  explicit RMSprop(std::vector<OptimizerParamGroup> param_groups,
                   RMSpropOptions defaults = {});
  explicit RMSprop(std::vector<Tensor> params, RMSpropOptions defaults = {})
      : RMSprop({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {
  }
  Tensor step(LossClosure closure = nullptr) override;

protected:
  std::unique_ptr<OptimizerParamState> newParamState() const override {
    return std::make_unique<RMSpropParamState>();
  }
  void checkOptions(const OptimizerOptions &options) const override;
};

struct AdagradOptions : public OptimizerCloneableOptions<AdagradOptions> {
  /* implicit */ AdagradOptions(double lr = 1e-2) : lr_(lr) {}
  TCC_ARG(double, lr);
  TCC_ARG(double, lr_decay) = 0;
  TCC_ARG(double, weight_decay) = 0;
  TCC_ARG(double, initial_accumulator_value) = 0;
  TCC_ARG(double, eps) = 1e-10;

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
  double get_lr() const override { return lr(); }
  void set_lr(const double lr) override { this->lr(lr); }
};

struct AdagradParamState
    : public OptimizerCloneableParamState<AdagradParamState> {
  TCC_ARG(Tensor, sum);
  TCC_ARG(int64_t, step) = 0;

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
};

/// PyTorch's Adagrad: sum += g^2; p -= lr / (1 + (t - 1) lr_decay) * g /
/// (sqrt(sum) + eps). The sums start at initial_accumulator_value.
class Adagrad : public Optimizer {
public:
  explicit Adagrad(std::vector<OptimizerParamGroup> param_groups,
                   AdagradOptions defaults = {});
  explicit Adagrad(std::vector<Tensor> params, AdagradOptions defaults = {})
      : Adagrad({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {
  }
  Tensor step(LossClosure closure = nullptr) override;

protected:
  std::unique_ptr<OptimizerParamState> newParamState() const override {
    return std::make_unique<AdagradParamState>();
  }
  void checkOptions(const OptimizerOptions &options) const override;
};

} // namespace optim
} // namespace tcc

#endif // TCC_FRONTEND_OPTIM_RMSPROP_H
