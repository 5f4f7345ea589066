//===- Optimizer.h - The base of every optimizer ----------------*- C++ -*-===//
//
// libtorch's torch::optim::Optimizer (1.13): parameter groups, each with its
// own options (learning rate, ...), per-parameter state, zero_grad(),
// step(closure), add_param_group(), and save/load through archives.
// Optimizers are used through `optim::Optimizer &` as in pytorch/examples.
//
// Saved state is keyed by a parameter's position in the groups (as
// PyTorch's state_dict), so it loads into a new optimizer over a new model
// of the same shape.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPTIM_OPTIMIZER_H
#define TCC_FRONTEND_OPTIM_OPTIMIZER_H

#include "tcc/Frontend/Tensor.h"
#include "tcc/Frontend/nn/Arg.h"

#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace tcc {
namespace serialize {
class OutputArchive;
class InputArchive;
} // namespace serialize

namespace optim {

class OptimizerParamState {
public:
  OptimizerParamState() = default;
  OptimizerParamState(const OptimizerParamState &) = default;
  OptimizerParamState &operator=(const OptimizerParamState &) = default;
  virtual ~OptimizerParamState() = default;
  virtual std::unique_ptr<OptimizerParamState> clone() const;
  virtual void serialize(serialize::InputArchive &archive);
  virtual void serialize(serialize::OutputArchive &archive) const;
};

template <class Derived>
class OptimizerCloneableParamState : public OptimizerParamState {
public:
  std::unique_ptr<OptimizerParamState> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived &>(*this));
  }
};

class OptimizerOptions {
public:
  OptimizerOptions() = default;
  OptimizerOptions(const OptimizerOptions &) = default;
  OptimizerOptions &operator=(const OptimizerOptions &) = default;
  virtual ~OptimizerOptions() = default;
  virtual std::unique_ptr<OptimizerOptions> clone() const;
  virtual void serialize(serialize::InputArchive &archive);
  virtual void serialize(serialize::OutputArchive &archive) const;
  virtual double get_lr() const;
  virtual void set_lr(const double lr);
};

template <class Derived>
class OptimizerCloneableOptions : public OptimizerOptions {
public:
  std::unique_ptr<OptimizerOptions> clone() const override {
    return std::make_unique<Derived>(static_cast<const Derived &>(*this));
  }
};

/// Parameters that share options. A group without options takes the
/// optimizer's defaults when added.
class OptimizerParamGroup {
public:
  OptimizerParamGroup(const OptimizerParamGroup &param_group);
  OptimizerParamGroup(OptimizerParamGroup &&) = default;
  OptimizerParamGroup &operator=(OptimizerParamGroup &&) = default;
  /* implicit */ OptimizerParamGroup(std::vector<Tensor> params)
      : params_(std::move(params)) {}
  OptimizerParamGroup(std::vector<Tensor> params,
                      std::unique_ptr<OptimizerOptions> options)
      : params_(std::move(params)), options_(std::move(options)) {}

  bool has_options() const { return options_ != nullptr; }
  OptimizerOptions &options();
  const OptimizerOptions &options() const;
  void set_options(std::unique_ptr<OptimizerOptions> options) {
    options_ = std::move(options);
  }
  std::vector<Tensor> &params() { return params_; }
  const std::vector<Tensor> &params() const { return params_; }

protected:
  std::vector<Tensor> params_;
  std::unique_ptr<OptimizerOptions> options_;
};

class Optimizer {
public:
  using LossClosure = std::function<Tensor()>;

  Optimizer(const Optimizer &) = delete;
  Optimizer(Optimizer &&) = default;
  explicit Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults);
  explicit Optimizer(std::vector<Tensor> parameters,
                     std::unique_ptr<OptimizerOptions> defaults)
      : Optimizer({OptimizerParamGroup(std::move(parameters))},
                  std::move(defaults)) {}
  virtual ~Optimizer() = default;

  /// Adds a group; a parameter may belong to one group only.
  void add_param_group(const OptimizerParamGroup &param_group);
  /// Updates the parameters from their gradients. With a closure, calls
  /// it first (grad mode on) and returns the loss it returns.
  virtual Tensor step(LossClosure closure = nullptr) = 0;
  /// Adds parameters to the first group.
  void add_parameters(const std::vector<Tensor> &parameters);
  /// Zeroes every gradient (set_to_none: undefines them).
  void zero_grad(bool set_to_none = false);

  const std::vector<Tensor> &parameters() const noexcept;
  std::vector<Tensor> &parameters() noexcept;
  /// Number of parameters over all groups.
  size_t size() const noexcept;

  OptimizerOptions &defaults() noexcept { return *defaults_; }
  const OptimizerOptions &defaults() const noexcept { return *defaults_; }
  std::vector<OptimizerParamGroup> &param_groups() noexcept {
    return param_groups_;
  }
  const std::vector<OptimizerParamGroup> &param_groups() const noexcept {
    return param_groups_;
  }
  /// Per-parameter state, keyed by the parameter's TensorImpl address.
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> &
  state() noexcept {
    return state_;
  }
  const std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> &
  state() const noexcept {
    return state_;
  }

  /// Options of every group and the state of every parameter.
  virtual void save(serialize::OutputArchive &archive) const;
  /// Restores what save wrote; the groups must have the same sizes.
  virtual void load(serialize::InputArchive &archive);

protected:
  /// The key of `param` in state().
  static std::string stateKey(const Tensor &param);
  /// An empty state of this optimizer's kind (for load).
  virtual std::unique_ptr<OptimizerParamState> newParamState() const = 0;
  /// Checks a newly added group's options (learning rate and so on).
  virtual void checkOptions(const OptimizerOptions &options) const {}

  std::vector<OptimizerParamGroup> param_groups_;
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> state_;
  std::unique_ptr<OptimizerOptions> defaults_;
};

} // namespace optim
} // namespace tcc

#endif // TCC_FRONTEND_OPTIM_OPTIMIZER_H
