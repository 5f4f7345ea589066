//===- Optimizer.cpp - Parameter groups, zero_grad, save/load -------------===//

#include "tcc/Frontend/optim/Optimizer.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/TensorImpl.h"
#include "tcc/Frontend/serialize/Archive.h"

#include <unordered_set>

namespace tcc {
namespace optim {

std::unique_ptr<OptimizerParamState> OptimizerParamState::clone() const {
  detail::throwError("clone() has not been implemented for "
                     "torch::optim::OptimizerParamState. Subclass "
                     "torch::optim::OptimizerCloneableParamState<YourOptimizer"
                     "ParamState> instead of torch::optim::OptimizerParamState "
                     "to inherit the ability to clone.");
}
void OptimizerParamState::serialize(serialize::InputArchive &) {
  detail::throwError("serialize() of this optimizer param state is not "
                     "implemented");
}
void OptimizerParamState::serialize(serialize::OutputArchive &) const {
  detail::throwError("serialize() of this optimizer param state is not "
                     "implemented");
}

std::unique_ptr<OptimizerOptions> OptimizerOptions::clone() const {
  detail::throwError("clone() has not been implemented for "
                     "torch::optim::OptimizerOptions. Subclass "
                     "torch::optim::OptimizerCloneableOptions<YourOptimizer"
                     "Options> instead of torch::optim::OptimizerOptions to "
                     "inherit the ability to clone.");
}
void OptimizerOptions::serialize(serialize::InputArchive &) {
  detail::throwError("serialize() of these optimizer options is not "
                     "implemented");
}
void OptimizerOptions::serialize(serialize::OutputArchive &) const {
  detail::throwError("serialize() of these optimizer options is not "
                     "implemented");
}
double OptimizerOptions::get_lr() const {
  detail::throwError("get_lr() is not implemented for these optimizer options");
}
void OptimizerOptions::set_lr(const double) {
  detail::throwError("set_lr() is not implemented for these optimizer options");
}

OptimizerParamGroup::OptimizerParamGroup(const OptimizerParamGroup &other)
    : params_(other.params_),
      options_(other.has_options() ? other.options().clone() : nullptr) {}

OptimizerOptions &OptimizerParamGroup::options() {
  TCC_CHECK(options_, "This param group has no options");
  return *options_;
}
const OptimizerOptions &OptimizerParamGroup::options() const {
  TCC_CHECK(options_, "This param group has no options");
  return *options_;
}

Optimizer::Optimizer(std::vector<OptimizerParamGroup> param_groups,
                     std::unique_ptr<OptimizerOptions> defaults)
    : defaults_(std::move(defaults)) {
  for (const OptimizerParamGroup &group : param_groups)
    add_param_group(group);
}

void Optimizer::add_param_group(const OptimizerParamGroup &param_group) {
  OptimizerParamGroup group(param_group.params(),
                            param_group.has_options()
                                ? param_group.options().clone()
                                : defaults_->clone());
  std::unordered_set<const TensorImpl *> seen;
  for (const OptimizerParamGroup &g : param_groups_)
    for (const Tensor &p : g.params())
      seen.insert(p.unsafeGetTensorImpl());
  for (const Tensor &p : group.params()) {
    TCC_CHECK(p.defined(), "optimizer: a parameter is undefined");
    TCC_CHECK(p.is_leaf(), "can't optimize a non-leaf Tensor");
    TCC_CHECK(seen.insert(p.unsafeGetTensorImpl()).second,
              "some parameters appear in more than one parameter group");
  }
  checkOptions(group.options());
  param_groups_.push_back(std::move(group));
}

void Optimizer::add_parameters(const std::vector<Tensor> &parameters) {
  TCC_CHECK(!param_groups_.empty(), "optimizer has no parameter group");
  auto &params = param_groups_.front().params();
  params.insert(params.end(), parameters.begin(), parameters.end());
}

void Optimizer::zero_grad(bool set_to_none) {
  for (OptimizerParamGroup &group : param_groups_)
    for (Tensor &p : group.params()) {
      Tensor &g = p.mutable_grad();
      if (!g.defined())
        continue;
      if (set_to_none) {
        g = Tensor();
      } else {
        g = g.detach();
        g.zero_();
      }
    }
}

const std::vector<Tensor> &Optimizer::parameters() const noexcept {
  return param_groups_.at(0).params();
}
std::vector<Tensor> &Optimizer::parameters() noexcept {
  return param_groups_.at(0).params();
}

size_t Optimizer::size() const noexcept {
  size_t n = 0;
  for (const OptimizerParamGroup &g : param_groups_)
    n += g.params().size();
  return n;
}

std::string Optimizer::stateKey(const Tensor &param) {
  return std::to_string(
      reinterpret_cast<uintptr_t>(param.unsafeGetTensorImpl()));
}

void Optimizer::save(serialize::OutputArchive &archive) const {
  archive.write("num_param_groups", IValue(int64_t(param_groups_.size())));
  int64_t index = 0;
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    const OptimizerParamGroup &group = param_groups_[g];
    serialize::OutputArchive groupArchive;
    group.options().serialize(groupArchive);
    std::vector<int64_t> ids;
    for (const Tensor &p : group.params()) {
      auto it = state_.find(stateKey(p));
      if (it != state_.end()) {
        serialize::OutputArchive stateArchive;
        it->second->serialize(stateArchive);
        archive.write("state." + std::to_string(index), stateArchive);
      }
      ids.push_back(index++);
    }
    groupArchive.write("params", IValue(ids));
    archive.write("param_groups." + std::to_string(g), groupArchive);
  }
}

void Optimizer::load(serialize::InputArchive &archive) {
  IValue count;
  archive.read("num_param_groups", count);
  TCC_CHECK(count.toInt() == int64_t(param_groups_.size()),
            "loaded optimizer state has ", count.toInt(),
            " parameter groups, but this optimizer has ", param_groups_.size());
  std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> state;
  int64_t index = 0;
  for (size_t g = 0; g < param_groups_.size(); ++g) {
    OptimizerParamGroup &group = param_groups_[g];
    serialize::InputArchive groupArchive;
    archive.read("param_groups." + std::to_string(g), groupArchive);
    IValue ids;
    groupArchive.read("params", ids);
    TCC_CHECK(ids.toIntVector().size() == group.params().size(),
              "loaded optimizer state has ", ids.toIntVector().size(),
              " parameters in group ", g, ", but this optimizer has ",
              group.params().size());
    group.options().serialize(groupArchive);
    for (const Tensor &p : group.params()) {
      serialize::InputArchive stateArchive;
      if (archive.try_read("state." + std::to_string(index++), stateArchive)) {
        auto s = newParamState();
        s->serialize(stateArchive);
        state[stateKey(p)] = std::move(s);
      }
    }
  }
  state_ = std::move(state);
}

} // namespace optim
} // namespace tcc
