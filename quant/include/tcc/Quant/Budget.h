//===- Budget.h - Accuracy budget: sensitivity and fp32 fallback -*- C++ -*-===//
//
// Given a Calibration and evaluation data, measures the fp32 model, the
// fully quantized one, and each layer quantized alone (its sensitivity),
// then returns layers to fp32, most sensitive first, until the budget holds:
//
//   - accuracy drop: (fp32 accuracy - int8 accuracy) in percentage points,
//     accuracy being the argmax of output 0 against the labels;
//   - output error: the relative L2 error of output 0 against fp32's,
//     ||y_int8 - y_fp32|| / ||y_fp32|| over all evaluation batches.
//
// Every model runs with the reference interpreter.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_QUANT_BUDGET_H
#define TCC_QUANT_BUDGET_H

#include "tcc/Quant/Calibrate.h"

#include <functional>
#include <string>
#include <vector>

namespace tcc {
namespace quant {

struct EvalData {
  std::vector<Batch> inputs;
  /// The class of each sample of each batch ([batch] integers); empty when
  /// there are no labels (then only output error is measured).
  std::vector<Tensor> labels;
};

enum class BudgetKind { AccuracyDrop, OutputError };

struct Budget {
  BudgetKind kind = BudgetKind::OutputError;
  /// Percentage points (AccuracyDrop) or relative L2 (OutputError), >= 0.
  double limit = 0;
};

/// One model measured on the evaluation data.
struct Evaluation {
  /// In [0, 1]; -1 without labels.
  double accuracy = -1;
  /// Relative L2 error of output 0 against the fp32 model's.
  double outputError = 0;
};

struct LayerSensitivity {
  std::string name, kind;
  /// The model with only this layer quantized.
  Evaluation alone;
  /// Its cost in the budget's unit (accuracy points lost, or output error).
  double cost = 0;
};

struct BudgetReport {
  Budget budget;
  Evaluation fp32, allInt8, chosen;
  double allInt8Cost = 0, chosenCost = 0;
  /// Program order.
  std::vector<LayerSensitivity> layers;
  /// The layers returned to fp32, in the order they were (most sensitive
  /// first), with the cost after each.
  std::vector<std::pair<std::string, double>> fallback;
  /// Whether the chosen configuration meets the budget; when none does, the
  /// chosen one is the best found.
  bool met = false;

  std::vector<std::string> fp32Layers() const;
};

/// Measures the model with the layers in `fp32Layers` left fp32.
Evaluation evaluate(const Calibration &calibration, const EvalData &eval,
                    const std::set<std::string> &fp32Layers);

/// Sensitivity analysis and fallback; `progress` (if set) hears one line
/// per model evaluated. Throws QuantError for evaluation data that does not
/// fit (labels missing for an accuracy budget, counts that differ).
BudgetReport fitBudget(const Calibration &calibration, const EvalData &eval,
                       const Budget &budget,
                       const std::function<void(const std::string &)>
                           &progress = {});

/// The report as a table (what `tcc quantize` prints) and as JSON.
std::string reportText(const BudgetReport &report);
std::string reportJson(const BudgetReport &report, const Calibration &c);

} // namespace quant
} // namespace tcc

#endif // TCC_QUANT_BUDGET_H
