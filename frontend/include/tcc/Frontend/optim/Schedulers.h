//===- Schedulers.h - Learning-rate schedulers ------------------*- C++ -*-===//
//
// libtorch's LRScheduler base (`step()` once per epoch sets every group's
// lr from get_lrs()), StepLR and ReduceLROnPlateauScheduler, plus PyTorch's
// CosineAnnealingLR and LinearLR (a linear warm-up), which libtorch lacks.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPTIM_SCHEDULERS_H
#define TCC_FRONTEND_OPTIM_SCHEDULERS_H

#include "tcc/Frontend/optim/Optimizer.h"

#include <vector>

namespace tcc {
namespace optim {

class LRScheduler {
public:
  explicit LRScheduler(Optimizer &optimizer) : optimizer_(optimizer) {}
  virtual ~LRScheduler() = default;
  /// Advances one epoch and sets the new learning rates.
  void step();
  /// How many times step() was called.
  unsigned step_count() const { return step_count_; }

protected:
  /// The learning rates for the epoch just reached (one per group).
  virtual std::vector<double> get_lrs() = 0;
  std::vector<double> get_current_lrs() const;
  void set_optimizer_lrs(const std::vector<double> &learning_rates);

  unsigned step_count_ = 0;
  Optimizer &optimizer_;
};

/// lr *= gamma every step_size epochs.
class StepLR : public LRScheduler {
public:
  StepLR(Optimizer &optimizer, const unsigned step_size,
         const double gamma = 0.1);

private:
  std::vector<double> get_lrs() override;
  unsigned step_size_;
  double gamma_;
};

/// lr = eta_min + (base_lr - eta_min) (1 + cos(pi t / T_max)) / 2 at epoch t.
class CosineAnnealingLR : public LRScheduler {
public:
  CosineAnnealingLR(Optimizer &optimizer, unsigned T_max, double eta_min = 0);

private:
  std::vector<double> get_lrs() override;
  std::vector<double> base_lrs_;
  unsigned T_max_;
  double eta_min_;
};

/// Linear warm-up: lr = base_lr * factor, factor going from start_factor
/// (set at construction) to end_factor over total_iters epochs, then kept.
class LinearLR : public LRScheduler {
public:
  LinearLR(Optimizer &optimizer, double start_factor = 1.0 / 3,
           double end_factor = 1.0, unsigned total_iters = 5);

private:
  std::vector<double> get_lrs() override;
  std::vector<double> base_lrs_;
  double start_factor_, end_factor_;
  unsigned total_iters_;
};

/// Cuts the lr by `factor` when a metric stops improving for `patience`
/// epochs (PyTorch's ReduceLROnPlateau; step(metric) instead of step()).
class ReduceLROnPlateauScheduler {
public:
  enum SchedulerMode { min, max };
  enum ThresholdMode { rel, abs };

  ReduceLROnPlateauScheduler(Optimizer &optimizer, SchedulerMode mode = min,
                             float factor = 0.1, int patience = 10,
                             double threshold = 1e-4,
                             ThresholdMode threshold_mode = rel,
                             int cooldown = 0,
                             const std::vector<float> &min_lr = {},
                             double eps = 1e-8, bool verbose = false);
  virtual ~ReduceLROnPlateauScheduler() = default;
  void step(float metric);
  int num_bad_epochs() const { return num_bad_epochs_; }

private:
  bool isBetter(float a) const;
  void reduceLR(int epoch);

  Optimizer &optimizer_;
  SchedulerMode mode_;
  float factor_;
  int patience_;
  double threshold_;
  ThresholdMode thresholdMode_;
  int cooldown_;
  std::vector<float> minLrs_;
  double eps_;
  bool verbose_;
  float best_;
  int lastEpoch_ = 0;
  int cooldownCounter_ = 0;
  int num_bad_epochs_ = 0;
};
using ReduceLROnPlateau = ReduceLROnPlateauScheduler;

} // namespace optim
} // namespace tcc

#endif // TCC_FRONTEND_OPTIM_SCHEDULERS_H
