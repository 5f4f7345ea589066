//===- Schedulers.cpp - StepLR, CosineAnnealingLR, LinearLR, plateau ------===//

#include "tcc/Frontend/optim/Schedulers.h"

#include "tcc/Frontend/Check.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <limits>

namespace tcc {
namespace optim {

void LRScheduler::step() {
  ++step_count_;
  set_optimizer_lrs(get_lrs());
}

std::vector<double> LRScheduler::get_current_lrs() const {
  std::vector<double> lrs;
  for (const OptimizerParamGroup &g : optimizer_.param_groups())
    lrs.push_back(g.options().get_lr());
  return lrs;
}

void LRScheduler::set_optimizer_lrs(const std::vector<double> &lrs) {
  auto &groups = optimizer_.param_groups();
  TCC_CHECK(lrs.size() == groups.size(), "Number of learning rates (",
            lrs.size(), ") does not match the number of parameter groups (",
            groups.size(), ")");
  for (size_t i = 0; i < groups.size(); ++i)
    groups[i].options().set_lr(lrs[i]);
}

StepLR::StepLR(Optimizer &optimizer, const unsigned step_size,
               const double gamma)
    : LRScheduler(optimizer), step_size_(step_size), gamma_(gamma) {
  TCC_CHECK(step_size > 0, "StepLR: step_size must be positive");
}

std::vector<double> StepLR::get_lrs() {
  std::vector<double> lrs = get_current_lrs();
  if (step_count_ % step_size_ == 0)
    for (double &lr : lrs)
      lr *= gamma_;
  return lrs;
}

CosineAnnealingLR::CosineAnnealingLR(Optimizer &optimizer, unsigned T_max,
                                     double eta_min)
    : LRScheduler(optimizer), base_lrs_(get_current_lrs()), T_max_(T_max),
      eta_min_(eta_min) {
  TCC_CHECK(T_max > 0, "CosineAnnealingLR: T_max must be positive");
}

std::vector<double> CosineAnnealingLR::get_lrs() {
  std::vector<double> lrs;
  const double pi = std::acos(-1.0);
  for (double base : base_lrs_)
    lrs.push_back(eta_min_ + (base - eta_min_) *
                                 (1 + std::cos(pi * step_count_ / T_max_)) / 2);
  return lrs;
}

LinearLR::LinearLR(Optimizer &optimizer, double start_factor, double end_factor,
                   unsigned total_iters)
    : LRScheduler(optimizer), base_lrs_(get_current_lrs()),
      start_factor_(start_factor), end_factor_(end_factor),
      total_iters_(total_iters) {
  TCC_CHECK(start_factor > 0 && start_factor <= 1,
            "Starting multiplicative factor expected to be greater than 0 and "
            "less or equal to 1, got ",
            start_factor);
  TCC_CHECK(end_factor >= 0 && end_factor <= 1,
            "Ending multiplicative factor expected to be between 0 and 1, got ",
            end_factor);
  set_optimizer_lrs(get_lrs()); // epoch 0 starts warmed down
}

std::vector<double> LinearLR::get_lrs() {
  double t = total_iters_ == 0
                 ? 1.0
                 : std::min(1.0, double(step_count_) / double(total_iters_));
  double factor = start_factor_ + (end_factor_ - start_factor_) * t;
  std::vector<double> lrs;
  for (double base : base_lrs_)
    lrs.push_back(base * factor);
  return lrs;
}

ReduceLROnPlateauScheduler::ReduceLROnPlateauScheduler(
    Optimizer &optimizer, SchedulerMode mode, float factor, int patience,
    double threshold, ThresholdMode threshold_mode, int cooldown,
    const std::vector<float> &min_lr, double eps, bool verbose)
    : optimizer_(optimizer), mode_(mode), factor_(factor), patience_(patience),
      threshold_(threshold), thresholdMode_(threshold_mode),
      cooldown_(cooldown), eps_(eps), verbose_(verbose) {
  TCC_CHECK(factor < 1.0, "ReduceLROnPlateauScheduler: factor should be < 1.0");
  size_t groups = optimizer.param_groups().size();
  if (min_lr.empty())
    minLrs_.assign(groups, 0.0f);
  else if (min_lr.size() == 1)
    minLrs_.assign(groups, min_lr[0]);
  else {
    TCC_CHECK(min_lr.size() == groups, "Number of min_lr values (",
              min_lr.size(),
              ") does not match the number of parameter "
              "groups (",
              groups, ")");
    minLrs_ = min_lr;
  }
  best_ = mode == min ? std::numeric_limits<float>::infinity()
                      : -std::numeric_limits<float>::infinity();
}

bool ReduceLROnPlateauScheduler::isBetter(float a) const {
  if (mode_ == min && thresholdMode_ == rel)
    return a < best_ * (1.0 - threshold_);
  if (mode_ == min && thresholdMode_ == abs)
    return a < best_ - threshold_;
  if (mode_ == max && thresholdMode_ == rel)
    return a > best_ * (1.0 + threshold_);
  return a > best_ + threshold_;
}

void ReduceLROnPlateauScheduler::step(float metric) {
  ++lastEpoch_;
  if (isBetter(metric)) {
    best_ = metric;
    num_bad_epochs_ = 0;
  } else {
    ++num_bad_epochs_;
  }
  if (cooldownCounter_ > 0) {
    --cooldownCounter_;
    num_bad_epochs_ = 0; // bad epochs during cooldown do not count
  }
  if (num_bad_epochs_ > patience_) {
    reduceLR(lastEpoch_);
    cooldownCounter_ = cooldown_;
    num_bad_epochs_ = 0;
  }
}

void ReduceLROnPlateauScheduler::reduceLR(int epoch) {
  auto &groups = optimizer_.param_groups();
  for (size_t i = 0; i < groups.size(); ++i) {
    double old = groups[i].options().get_lr();
    double updated = std::max(old * factor_, double(minLrs_[i]));
    if (old - updated > eps_) {
      groups[i].options().set_lr(updated);
      if (verbose_)
        std::cout << "Epoch " << epoch << ": reducing learning rate of group "
                  << i << " to " << updated << std::endl;
    }
  }
}

} // namespace optim
} // namespace tcc
