//===- Adam.h - Adam and AdamW ----------------------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_OPTIM_ADAM_H
#define TCC_FRONTEND_OPTIM_ADAM_H

#include "tcc/Frontend/optim/Optimizer.h"

#include <tuple>

namespace tcc {
namespace optim {

struct AdamOptions : public OptimizerCloneableOptions<AdamOptions> {
  /* implicit */ AdamOptions(double lr = 1e-3) : lr_(lr) {}
  using betas_t = std::tuple<double, double>;
  TCC_ARG(double, lr);
  TCC_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TCC_ARG(double, eps) = 1e-8;
  TCC_ARG(double, weight_decay) = 0;
  TCC_ARG(bool, amsgrad) = false;

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
  double get_lr() const override { return lr(); }
  void set_lr(const double lr) override { this->lr(lr); }
};

struct AdamWOptions : public OptimizerCloneableOptions<AdamWOptions> {
  /* implicit */ AdamWOptions(double lr = 1e-3) : lr_(lr) {}
  using betas_t = std::tuple<double, double>;
  TCC_ARG(double, lr);
  TCC_ARG(betas_t, betas) = std::make_tuple(0.9, 0.999);
  TCC_ARG(double, eps) = 1e-8;
  TCC_ARG(double, weight_decay) = 1e-2;
  TCC_ARG(bool, amsgrad) = false;

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
  double get_lr() const override { return lr(); }
  void set_lr(const double lr) override { this->lr(lr); }
};

/// State of Adam and AdamW.
struct AdamParamState : public OptimizerCloneableParamState<AdamParamState> {
  TCC_ARG(int64_t, step) = 0;
  TCC_ARG(Tensor, exp_avg);
  TCC_ARG(Tensor, exp_avg_sq);
  TCC_ARG(Tensor, max_exp_avg_sq) = {};

public:
  void serialize(serialize::InputArchive &archive) override;
  void serialize(serialize::OutputArchive &archive) const override;
};
using AdamWParamState = AdamParamState;

/// PyTorch's Adam: g += weight_decay * p; m = b1 m + (1 - b1) g; v = b2 v +
/// (1 - b2) g^2; p -= lr / (1 - b1^t) * m / (sqrt(v) / sqrt(1 - b2^t) +
/// eps), with v replaced by its running maximum under amsgrad.
class Adam : public Optimizer {
public:
  explicit Adam(std::vector<OptimizerParamGroup> param_groups,
                AdamOptions defaults = {});
  explicit Adam(std::vector<Tensor> params, AdamOptions defaults = {})
      : Adam({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}
  Tensor step(LossClosure closure = nullptr) override;

protected:
  std::unique_ptr<OptimizerParamState> newParamState() const override {
    return std::make_unique<AdamParamState>();
  }
  void checkOptions(const OptimizerOptions &options) const override;
};

/// Adam with decoupled weight decay: p *= 1 - lr * weight_decay first, and
/// the gradient is not decayed.
class AdamW : public Optimizer {
public:
  explicit AdamW(std::vector<OptimizerParamGroup> param_groups,
                 AdamWOptions defaults = {});
  explicit AdamW(std::vector<Tensor> params, AdamWOptions defaults = {})
      : AdamW({OptimizerParamGroup(std::move(params))}, std::move(defaults)) {}
  Tensor step(LossClosure closure = nullptr) override;

protected:
  std::unique_ptr<OptimizerParamState> newParamState() const override {
    return std::make_unique<AdamParamState>();
  }
  void checkOptions(const OptimizerOptions &options) const override;
};

} // namespace optim
} // namespace tcc

#endif // TCC_FRONTEND_OPTIM_ADAM_H
