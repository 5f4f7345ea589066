//===- Quantize.cpp - tcc quantize: model.ir -> calibrated int8 model.ir --===//

#include "CommandLine.h"
#include "QuantizeData.h"
#include "Subcommands.h"

#include "tcc/Quant/Budget.h"
#include "tcc/Quant/Calibrate.h"
#include "tcc/Support/InputGuards.h"
#include "tcc/Support/OutOfMemory.h"
#include "tcc/runtime/FileWrite.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace tcc {
namespace tool {

namespace {

const char *kHelp =
    R"(usage: tcc quantize MODEL.ir --calibrate DATA -o MODEL.int8.ir [options]

Post-training int8 quantization (docs/quantization.md). Folds batch norm,
runs the model with the reference interpreter on the calibration data,
records the range of every layer's input and output, and rewrites conv2d
(depthwise too), linear, matmul by a constant and add into tcc's integer
ops: s8 weights per output channel (symmetric), int32 bias, activations u8
or s8 per tensor. With evaluation data it measures each layer quantized
alone and returns layers to fp32, most sensitive first, until the budget
holds. MODEL.int8.ir and the report are written whole or not at all.

DATA is a folder of .npy files, one batch per file, named by the model's
input (INPUT.npy or INPUT.TAG.npy; with several inputs, the files of one
TAG form a batch), a single .npy file, or an IDX images file (models of one
input). An array of [k * B, ...] for an input of shape [B, ...] is k
batches; any other shape or dtype is refused.

options:
  -o FILE                   the int8 model to write
  --calibrate DATA          calibration inputs (required)
  --observer KIND           minmax (default), percentile, kl (entropy), mse
  --percentile P            share of values the percentile observer keeps
                            (default 99.99)
  --activations u8|s8       type of quantized activations (default u8)
  --normalize MEAN,STD      IDX images become (v / 255 - MEAN) / STD
                            (default 0,1)
  --eval-data DATA          evaluation inputs (same forms as --calibrate)
  --eval-labels FILE        their classes (.npy of integers or IDX labels);
                            accuracy is the argmax of output 0
  --max-accuracy-drop PTS   budget: at most PTS percentage points of
                            accuracy lost (needs --eval-labels)
  --max-output-error E      budget: relative L2 error of output 0 against
                            fp32 at most E
  --report FILE             save the sensitivity report as JSON (needs
                            --eval-data)
  --allow-bytecode          accept an MLIR bytecode MODEL (not hardened
                            against corrupted files)
  -h, --help                this text

With --eval-data and no budget, the report is made and every layer stays
int8. `tcc inspect` of the compiled model names the int8 layers
(loc("NAME int8")).
)";

struct Options {
  std::string input, output, calibrate, evalData, evalLabels, report;
  quant::CalibrationOptions calibration;
  ImageNormalization normalization;
  bool hasBudget = false, allowBytecode = false;
  quant::Budget budget;
};

bool parseNumber(const std::string &text, double *out) {
  char *end = nullptr;
  *out = std::strtod(text.c_str(), &end);
  return !text.empty() && end && *end == '\0' && std::isfinite(*out);
}

int run(const Options &o) {
  const char *cmd = "quantize";
  // Outputs never replace an input (the model, data or labels) or each
  // other.
  for (const std::string *out : {&o.output, &o.report})
    for (const std::string *in :
         {&o.input, &o.calibrate, &o.evalData, &o.evalLabels})
      if (!out->empty() && !in->empty() && runtime::isSameFile(*in, *out))
        return fail(cmd, *out + " is the input file " + *in);
  if (!o.report.empty() &&
      (o.report == o.output || runtime::isSameFile(o.output, o.report)))
    return fail(cmd, "-o and --report name the same file");
  try {
    jit::TracedGraph model = quant::readModel(o.input, o.allowBytecode);
    jit::Signature signature = model.signature();
    std::vector<quant::Batch> calibrationBatches;
    if (std::string e = readModelInputs(o.calibrate, signature,
                                        o.normalization, &calibrationBatches);
        !e.empty())
      return fail(cmd, e);
    quant::EvalData eval;
    if (!o.evalData.empty()) {
      if (std::string e = readModelInputs(o.evalData, signature,
                                          o.normalization, &eval.inputs);
          !e.empty())
        return fail(cmd, e);
      if (!o.evalLabels.empty())
        if (std::string e = readLabels(o.evalLabels, eval.inputs, &eval.labels);
            !e.empty())
          return fail(cmd, e);
    }

    std::printf("calibrating on %zu batches with the %s observer\n",
                calibrationBatches.size(),
                quant::observerName(o.calibration.observer));
    quant::Calibration calibration = quant::calibrate(
        model, quant::loaderOf(std::move(calibrationBatches)), o.calibration);

    std::set<std::string> fp32;
    if (!o.evalData.empty()) {
      quant::Budget budget = o.budget;
      if (!o.hasBudget) {
        budget.kind = eval.labels.empty() ? quant::BudgetKind::OutputError
                                          : quant::BudgetKind::AccuracyDrop;
        budget.limit = std::numeric_limits<double>::infinity();
      }
      quant::BudgetReport report =
          quant::fitBudget(calibration, eval, budget, [](const std::string &line) {
            std::printf("  evaluated %s\n", line.c_str());
            std::fflush(stdout);
          });
      std::printf("%s", quant::reportText(report).c_str());
      for (const std::string &name : report.fp32Layers())
        fp32.insert(name);
      if (!o.report.empty()) {
        std::string json = quant::reportJson(report, calibration);
        if (std::string e =
                runtime::writeFileAtomically(o.report, json.data(), json.size());
            !e.empty())
          return fail(cmd, e);
      }
    }

    std::string text = quant::modelText(calibration.quantize(fp32));
    if (std::string e =
            runtime::writeFileAtomically(o.output, text.data(), text.size());
        !e.empty())
      return fail(cmd, e);
    std::string int8Layers;
    size_t count = 0;
    for (const quant::LayerInfo &layer : calibration.layers())
      if (!fp32.count(layer.name)) {
        int8Layers += (int8Layers.empty() ? "" : ", ") + layer.name;
        ++count;
      }
    std::printf("wrote %s: %zu of %zu layers int8%s%s\n", o.output.c_str(),
                count, calibration.layers().size(),
                count ? ": " : "", int8Layers.c_str());
    return 0;
  } catch (const std::exception &e) {
    return fail(cmd, e.what());
  }
}

} // namespace

int quantizeMain(int argc, char **argv) {
  const char *cmd = "quantize";
  CommandLine args(argc, argv);
  Options o;
  std::string value, error;
  int budgets = 0;
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      printHelp(kHelp);
      return 0;
    }
    if (arg == "-o") {
      if (args.done())
        return fail(cmd, "-o needs a file name");
      o.output = args.next();
    } else if (arg == "--allow-bytecode") {
      o.allowBytecode = true;
    } else if (args.option(arg, "--calibrate", &value, &error) ||
               args.option(arg, "--eval-data", &value, &error) ||
               args.option(arg, "--eval-labels", &value, &error) ||
               args.option(arg, "--report", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      std::string name = arg.substr(0, arg.find('='));
      (name == "--calibrate"   ? o.calibrate
       : name == "--eval-data" ? o.evalData
       : name == "--report"    ? o.report
                               : o.evalLabels) = value;
    } else if (args.option(arg, "--observer", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (!quant::parseObserverKind(value, &o.calibration.observer))
        return fail(cmd, "unknown observer '" + value +
                             "' (minmax, percentile, kl, mse)");
    } else if (args.option(arg, "--percentile", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      double p;
      if (!parseNumber(value, &p) || !(p > 0 && p <= 100))
        return fail(cmd, "--percentile needs a number in (0, 100], not '" +
                             value + "'");
      o.calibration.percentile = p;
    } else if (args.option(arg, "--activations", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (value != "u8" && value != "s8")
        return fail(cmd, "--activations is u8 or s8, not '" + value + "'");
      o.calibration.activations =
          value == "u8" ? quant::ActivationType::U8 : quant::ActivationType::S8;
    } else if (args.option(arg, "--normalize", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      size_t comma = value.find(',');
      if (comma == std::string::npos ||
          !parseNumber(value.substr(0, comma), &o.normalization.mean) ||
          !parseNumber(value.substr(comma + 1), &o.normalization.std) ||
          o.normalization.std == 0)
        return fail(cmd, "--normalize needs MEAN,STD with STD nonzero, not '" +
                             value + "'");
    } else if (args.option(arg, "--max-accuracy-drop", &value, &error) ||
               args.option(arg, "--max-output-error", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      bool accuracy = arg.rfind("--max-accuracy-drop", 0) == 0;
      double limit;
      if (!parseNumber(value, &limit) || limit < 0)
        return fail(cmd, std::string(accuracy ? "--max-accuracy-drop"
                                              : "--max-output-error") +
                             " needs a number >= 0, not '" + value + "'");
      o.budget.kind = accuracy ? quant::BudgetKind::AccuracyDrop
                               : quant::BudgetKind::OutputError;
      o.budget.limit = limit;
      o.hasBudget = true;
      ++budgets;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc quantize --help)");
    } else if (o.input.empty()) {
      o.input = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (o.input.empty())
    return fail(cmd, "no model given (usage: tcc quantize MODEL.ir "
                     "--calibrate DATA -o MODEL.int8.ir)");
  if (o.output.empty())
    return fail(cmd, "no output given: add -o MODEL.int8.ir");
  if (o.calibrate.empty())
    return fail(cmd, "no calibration data given: add --calibrate DATA");
  if (budgets > 1)
    return fail(cmd, "give one budget: --max-accuracy-drop or "
                     "--max-output-error");
  if (o.hasBudget && o.evalData.empty())
    return fail(cmd, "a budget needs evaluation data: add --eval-data DATA");
  if (o.hasBudget && o.budget.kind == quant::BudgetKind::AccuracyDrop &&
      o.evalLabels.empty())
    return fail(cmd, "--max-accuracy-drop needs --eval-labels");
  if (!o.evalLabels.empty() && o.evalData.empty())
    return fail(cmd, "--eval-labels needs --eval-data");
  if (!o.report.empty() && o.evalData.empty())
    return fail(cmd, "--report needs --eval-data");
  mlir::tcc::installOutOfMemoryHandlers("tcc quantize");
  return mlir::tcc::runWithLargeStack([&] { return run(o); });
}

} // namespace tool
} // namespace tcc
