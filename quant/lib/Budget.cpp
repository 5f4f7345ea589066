//===- Budget.cpp - Sensitivity analysis and fp32 fallback ----------------===//

#include "tcc/Quant/Budget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tcc {
namespace quant {

namespace {

std::string fixed(double v, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

std::string quoted(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

/// Runs models on the evaluation data against the fp32 outputs, which it
/// computes once.
class Evaluator {
public:
  Evaluator(const Calibration &calibration, const EvalData &eval)
      : calibration_(calibration), eval_(eval) {
    if (eval.inputs.empty())
      throw QuantError("no evaluation data");
    if (!eval.labels.empty() && eval.labels.size() != eval.inputs.size())
      throw QuantError("evaluation data has " +
                       std::to_string(eval.inputs.size()) +
                       " batches but labels for " +
                       std::to_string(eval.labels.size()));
    for (const Batch &batch : eval.inputs)
      reference_.push_back(run(calibration.folded(), batch));
  }

  Evaluation evaluate(const jit::TracedGraph &graph) const {
    Evaluation e;
    double diff = 0, norm = 0;
    int64_t correct = 0, samples = 0;
    jit::Interpreter interpreter(graph);
    for (size_t b = 0; b < eval_.inputs.size(); ++b) {
      Tensor out = interpreter.run(eval_.inputs[b])[0].contiguous();
      const Tensor &ref = reference_[b];
      const float *y = out.data_ptr<float>(), *r = ref.data_ptr<float>();
      for (int64_t i = 0, n = out.numel(); i < n; ++i) {
        double d = double(y[i]) - double(r[i]);
        diff += d * d;
        norm += double(r[i]) * double(r[i]);
      }
      if (!eval_.labels.empty()) {
        int64_t classes = out.dim() ? out.size(-1) : 1;
        Tensor predicted = out.reshape({-1, classes}).argmax(1);
        Tensor labels = eval_.labels[b].reshape({-1}).to(kLong);
        if (labels.numel() != predicted.numel())
          throw QuantError("evaluation batch " + std::to_string(b) + " has " +
                           std::to_string(predicted.numel()) +
                           " predictions but " +
                           std::to_string(labels.numel()) + " labels");
        correct += predicted.eq(labels).sum().item<int64_t>();
        samples += labels.numel();
      }
    }
    e.outputError = norm > 0 ? std::sqrt(diff / norm) : std::sqrt(diff);
    if (!eval_.labels.empty())
      e.accuracy = double(correct) / double(samples);
    return e;
  }

  Evaluation evaluate(const std::set<std::string> &fp32Layers) const {
    return evaluate(calibration_.quantize(fp32Layers));
  }

private:
  static Tensor run(const jit::TracedGraph &graph, const Batch &batch) {
    std::vector<Tensor> out = graph.run(batch);
    if (out.empty() || out[0].scalar_type() != kFloat)
      throw QuantError("output 0 of the model is not float32");
    return out[0].contiguous();
  }

  const Calibration &calibration_;
  const EvalData &eval_;
  std::vector<Tensor> reference_;
};

double costOf(const Budget &budget, const Evaluation &fp32,
              const Evaluation &e) {
  if (budget.kind == BudgetKind::AccuracyDrop)
    return (fp32.accuracy - e.accuracy) * 100.0;
  return e.outputError;
}

std::string describe(const Evaluation &e) {
  std::string s;
  if (e.accuracy >= 0)
    s += "accuracy " + fixed(e.accuracy * 100, 2) + "%, ";
  return s + "output error " + fixed(e.outputError, 5);
}

std::string evaluationJson(const Evaluation &e) {
  std::string s = "{";
  if (e.accuracy >= 0)
    s += "\"accuracy\": " + fixed(e.accuracy, 6) + ", ";
  return s + "\"output_error\": " + fixed(e.outputError, 8) + "}";
}

} // namespace

std::vector<std::string> BudgetReport::fp32Layers() const {
  std::vector<std::string> names;
  for (const auto &step : fallback)
    names.push_back(step.first);
  return names;
}

Evaluation evaluate(const Calibration &calibration, const EvalData &eval,
                    const std::set<std::string> &fp32Layers) {
  return Evaluator(calibration, eval).evaluate(fp32Layers);
}

BudgetReport fitBudget(const Calibration &calibration, const EvalData &eval,
                       const Budget &budget,
                       const std::function<void(const std::string &)> &progress) {
  if (!(budget.limit >= 0))
    throw QuantError("the budget must be a number >= 0");
  if (budget.kind == BudgetKind::AccuracyDrop && eval.labels.empty())
    throw QuantError("an accuracy budget needs labels for the evaluation data");
  auto say = [&](const std::string &line) {
    if (progress)
      progress(line);
  };
  Evaluator evaluator(calibration, eval);
  BudgetReport report;
  report.budget = budget;
  report.fp32 = evaluator.evaluate(calibration.folded());
  say("fp32: " + describe(report.fp32));
  std::set<std::string> all;
  for (const LayerInfo &layer : calibration.layers())
    all.insert(layer.name);

  report.allInt8 = evaluator.evaluate(std::set<std::string>{});
  report.allInt8Cost = costOf(budget, report.fp32, report.allInt8);
  say("all layers int8: " + describe(report.allInt8));
  for (const LayerInfo &layer : calibration.layers()) {
    std::set<std::string> others = all;
    others.erase(layer.name);
    LayerSensitivity s{layer.name, layer.kind, evaluator.evaluate(others), 0};
    s.cost = costOf(budget, report.fp32, s.alone);
    say(layer.name + " alone int8: " + describe(s.alone));
    report.layers.push_back(s);
  }

  // Most sensitive first; output error breaks ties of accuracy.
  std::vector<LayerSensitivity> order = report.layers;
  std::stable_sort(order.begin(), order.end(),
                   [](const LayerSensitivity &a, const LayerSensitivity &b) {
                     if (a.cost != b.cost)
                       return a.cost > b.cost;
                     return a.alone.outputError > b.alone.outputError;
                   });
  std::set<std::string> fp32;
  Evaluation current = report.allInt8, best = current;
  double cost = report.allInt8Cost, bestCost = cost;
  std::vector<std::pair<std::string, double>> bestFallback;
  for (const LayerSensitivity &layer : order) {
    if (cost <= budget.limit)
      break;
    fp32.insert(layer.name);
    current = evaluator.evaluate(fp32);
    cost = costOf(budget, report.fp32, current);
    report.fallback.push_back({layer.name, cost});
    say(layer.name + " back to fp32: " + describe(current));
    if (cost < bestCost) {
      best = current;
      bestCost = cost;
      bestFallback = report.fallback;
    }
  }
  report.met = cost <= budget.limit;
  if (report.met) {
    report.chosen = current;
    report.chosenCost = cost;
  } else {
    report.chosen = best;
    report.chosenCost = bestCost;
    report.fallback = bestFallback;
  }
  return report;
}

std::string reportText(const BudgetReport &r) {
  bool accuracy = r.budget.kind == BudgetKind::AccuracyDrop;
  std::string unit = accuracy ? " points" : "";
  std::string s =
      std::isfinite(r.budget.limit)
          ? "budget: " +
                std::string(accuracy ? "accuracy drop <= " : "output error <= ") +
                fixed(r.budget.limit, accuracy ? 2 : 5) + unit + "\n"
          : std::string("budget: none (every layer int8)\n");
  s += "  fp32:            " + describe(r.fp32) + "\n";
  s += "  all layers int8: " + describe(r.allInt8) + "\n";
  s += "sensitivity (each layer int8 alone):\n";
  for (const LayerSensitivity &l : r.layers) {
    char line[256];
    std::snprintf(line, sizeof line, "  %-20s %-16s %s\n", l.name.c_str(),
                  l.kind.c_str(), describe(l.alone).c_str());
    s += line;
  }
  if (r.fallback.empty())
    s += "fallback to fp32: none\n";
  for (const auto &[name, cost] : r.fallback)
    s += "fallback to fp32: " + name + " (cost then " +
         fixed(cost, accuracy ? 2 : 5) + unit + ")\n";
  s += std::string(r.met ? "budget met: " : "budget NOT met; best found: ") +
       describe(r.chosen) + " (cost " + fixed(r.chosenCost, accuracy ? 2 : 5) +
       unit + "), " +
       std::to_string(r.layers.size() - r.fallback.size()) + " of " +
       std::to_string(r.layers.size()) + " layers int8\n";
  return s;
}

std::string reportJson(const BudgetReport &r, const Calibration &c) {
  bool accuracy = r.budget.kind == BudgetKind::AccuracyDrop;
  std::set<std::string> fp32;
  for (const auto &step : r.fallback)
    fp32.insert(step.first);
  std::string s = "{\n";
  s += "  \"observer\": " + quoted(observerName(c.options().observer)) + ",\n";
  s += "  \"activations\": " +
       quoted(c.options().activations == ActivationType::U8 ? "u8" : "s8") +
       ",\n";
  s += "  \"calibration_batches\": " + std::to_string(c.batches()) + ",\n";
  s += "  \"budget\": {\"kind\": " +
       quoted(accuracy ? "max_accuracy_drop" : "max_output_error") +
       ", \"limit\": " +
       (std::isfinite(r.budget.limit) ? fixed(r.budget.limit, 8) : "null") +
       "},\n";
  s += "  \"fp32\": " + evaluationJson(r.fp32) + ",\n";
  s += "  \"all_int8\": " + evaluationJson(r.allInt8) + ",\n";
  s += "  \"chosen\": " + evaluationJson(r.chosen) + ",\n";
  s += "  \"met\": " + std::string(r.met ? "true" : "false") + ",\n";
  s += "  \"layers\": [\n";
  for (size_t i = 0; i < r.layers.size(); ++i) {
    const LayerSensitivity &l = r.layers[i];
    s += "    {\"name\": " + quoted(l.name) + ", \"kind\": " + quoted(l.kind) +
         ", \"int8\": " + (fp32.count(l.name) ? "false" : "true") +
         ", \"alone\": " + evaluationJson(l.alone) +
         ", \"cost\": " + fixed(l.cost, 8) + "}" +
         (i + 1 < r.layers.size() ? "," : "") + "\n";
  }
  s += "  ],\n  \"fallback\": [";
  for (size_t i = 0; i < r.fallback.size(); ++i)
    s += std::string(i ? ", " : "") + "{\"name\": " +
         quoted(r.fallback[i].first) +
         ", \"cost_after\": " + fixed(r.fallback[i].second, 8) + "}";
  s += "]\n}\n";
  return s;
}

} // namespace quant
} // namespace tcc
