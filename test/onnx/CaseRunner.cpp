//===- CaseRunner.cpp - One ONNX conformance case through tcc -------------===//
//
// The interpreter and the eager library throw tcc::Error; every call into
// them sits in a function that catches and returns an error string, none
// inside an MLIR callback.
//
//===----------------------------------------------------------------------===//

#include "CaseRunner.h"

#include "TensorMatch.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/ModelCompiler.h"
#include "tcc/Onnx/Import.h"
#include "tcc/Onnx/ModelFacts.h"
#include "tcc/Onnx/TensorFile.h"
#include "tcc/jit.h"
#include "tcc/jit/RunArtifact.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>

namespace tcc::conformance {

namespace {

using mlir::tcc::ConstantData;
using Tensors = std::vector<Tensor>;

struct DataSet {
  std::vector<ConstantData> inputs, outputs;
};

/// `dir`/`prefix`<i>`suffix` for i = 0, 1, ... while the file exists.
std::vector<std::string> numbered(const std::string &dir,
                                  const std::string &prefix,
                                  const std::string &suffix) {
  std::vector<std::string> paths;
  for (int i = 0;; ++i) {
    std::string path = dir + "/" + prefix + std::to_string(i) + suffix;
    if (!llvm::sys::fs::exists(path))
      return paths;
    paths.push_back(path);
  }
}

std::string readDataSets(mlir::MLIRContext *context, const std::string &dir,
                         std::vector<DataSet> *sets) {
  for (const std::string &setDir : numbered(dir, "test_data_set_", "")) {
    DataSet set;
    for (auto [prefix, values] : {std::pair{"input_", &set.inputs},
                                  std::pair{"output_", &set.outputs}})
      for (const std::string &path : numbered(setDir, prefix, ".pb")) {
        values->emplace_back();
        std::string error =
            mlir::tcc::onnx::readTensorFile(context, path, &values->back());
        if (!error.empty())
          return error;
      }
    sets->push_back(std::move(set));
  }
  return sets->empty() ? "the case has no test_data_set_0" : "";
}

/// The data set's values for `func`'s arguments, matched by their ONNX
/// names (tcc.name); the data set lists the graph's non-initializer inputs.
std::string bindArguments(mlir::func::FuncOp func,
                          const mlir::tcc::onnx::ModelFacts &facts,
                          const DataSet &set, Tensors *args) {
  if (set.inputs.size() != facts.inputs.size())
    return "the data set has " + std::to_string(set.inputs.size()) +
           " inputs, the model " + std::to_string(facts.inputs.size());
  for (unsigned i = 0; i < func.getNumArguments(); ++i) {
    auto name = func.getArgAttrOfType<mlir::StringAttr>(i, "tcc.name");
    auto it = std::find_if(
        facts.inputs.begin(), facts.inputs.end(),
        [&](const auto &input) { return name && input.name == name.getValue(); });
    if (it == facts.inputs.end())
      return "argument " + std::to_string(i) + " names no graph input";
    try {
      args->push_back(toTensor(set.inputs[it - facts.inputs.begin()]));
    } catch (const std::exception &e) {
      return "input '" + it->name + "': " + e.what();
    }
  }
  return "";
}

std::string interpret(mlir::ModuleOp module, const Tensors &args,
                      Tensors *outputs) {
  std::string text;
  llvm::raw_string_ostream os(text);
  module.print(os);
  try {
    *outputs = jit::Interpreter::parse(text, "onnx-case").run(args);
    return "";
  } catch (const std::exception &e) {
    return e.what();
  }
}

/// "" when `got` matches every expected output of `set`.
std::string matchOutputs(const Tensors &got, const DataSet &set, size_t index,
                         const CaseSpec &spec) {
  std::string where = "data set " + std::to_string(index) + ": ";
  if (got.size() != set.outputs.size())
    return where + std::to_string(got.size()) + " outputs, expected " +
           std::to_string(set.outputs.size());
  for (size_t i = 0; i < got.size(); ++i) {
    std::string difference;
    try {
      difference = matchTensor(got[i], set.outputs[i], spec.rtol, spec.atol);
    } catch (const std::exception &e) {
      difference = std::string("cannot compare: ") + e.what();
    }
    if (!difference.empty())
      return where + "output " + std::to_string(i) + ": " + difference;
  }
  return "";
}

/// One line of at most 300 characters: errors list details on later lines.
std::string oneLine(const std::string &text) {
  std::string line;
  for (char c : text) {
    if (c == '\n' || c == '\t')
      c = ' ';
    if (c == ' ' && (line.empty() || line.back() == ' '))
      continue;
    line += c;
  }
  while (!line.empty() && line.back() == ' ')
    line.pop_back();
  return line.size() > 300 ? line.substr(0, 297) + "..." : line;
}

} // namespace

CaseResult runCase(const CaseSpec &spec,
                   const std::function<void(const CaseResult &)> &progress) {
  CaseResult r;
  auto enter = [&](const char *stage) {
    r.status = kCrashed;
    r.stage = stage;
    progress(r);
  };
  std::string modelPath = spec.dir + "/model.onnx";
  auto finish = [&](const char *status, std::string error) {
    // The importer names the file; every result is of this one.
    std::string prefix = "'" + modelPath + "': ";
    if (error.compare(0, prefix.size(), prefix) == 0)
      error.erase(0, prefix.size());
    r.status = status;
    r.error = oneLine(error);
    if (r.status == kOutOfScope)
      r.stage.clear();
    return r;
  };

  set_num_threads(1); // the shards are the parallelism
  mlir::DialectRegistry registry;
  mlir::tcc::registerCodegenDialects(registry);
  mlir::MLIRContext context(registry);
  context.disableMultithreading();
  std::string diagnostic; // the first error the compiler reports
  mlir::ScopedDiagnosticHandler handler(&context, [&](mlir::Diagnostic &d) {
    if (diagnostic.empty() && d.getSeverity() == mlir::DiagnosticSeverity::Error)
      diagnostic = d.str();
    return mlir::success();
  });

  enter("import");
  mlir::tcc::onnx::ModelFacts facts;
  std::string error =
      mlir::tcc::onnx::readModelFacts(&context, modelPath, &facts);
  if (!error.empty())
    return finish(kImportFailed, error);
  for (const std::string &op : facts.opTypes)
    if (std::find(r.ops.begin(), r.ops.end(), op) == r.ops.end())
      r.ops.push_back(op);
  for (const auto *values : {&facts.inputs, &facts.outputs})
    for (const auto &v : *values)
      r.floatData |= v.isFloat;
  progress(r); // a crash from here on still names the ops
  if (!spec.note.empty())
    return finish(kOutOfScope, spec.note);
  if (!facts.outOfScope.empty())
    return finish(kOutOfScope, facts.outOfScope);

  std::vector<DataSet> sets;
  error = readDataSets(&context, spec.dir, &sets);
  if (!error.empty())
    return finish(kImportFailed, "test data: " + error);

  // Inputs an op needs constant (a Reshape's shape, a Clip's bounds, a
  // Resize's scales) are given each data set's values: first the integer
  // inputs; if that is not enough, the one-element inputs too; then every
  // input that no node takes as its first (data) operand.
  auto needsConstants = [](const std::string &error) {
    return error.find("must be a constant") != std::string::npos;
  };
  int fixing = 0; // 0: nothing; 1: integer inputs; 2: and one-element
                  // ones; 3: and the inputs that are no node's data
  auto importFixed = [&](const DataSet &set) {
    mlir::tcc::onnx::ImportOptions options;
    for (size_t i = 0; i < facts.inputs.size() && i < set.inputs.size(); ++i)
      if ((fixing >= 1 && facts.inputs[i].isInteger) ||
          (fixing >= 2 && set.inputs[i].numElements() == 1) ||
          (fixing == 3 && !facts.inputs[i].isFirstOperand))
        options.inputValues[facts.inputs[i].name] = set.inputs[i];
    return mlir::tcc::onnx::importModelFile(&context, modelPath, options,
                                            &error);
  };
  mlir::OwningOpRef<mlir::ModuleOp> shared = importFixed(sets[0]);
  if (!shared) {
    if (!needsConstants(error))
      return finish(kImportFailed, error);
    fixing = 1;
    r.fixedInputs = true;
  }

  std::vector<uint8_t> artifact;
  for (size_t s = 0; s < sets.size(); ++s) {
    mlir::OwningOpRef<mlir::ModuleOp> own;
    if (fixing) {
      enter("import");
      own = importFixed(sets[s]);
      while (!own && fixing < 3 && needsConstants(error)) {
        ++fixing;
        own = importFixed(sets[s]);
      }
      if (!own)
        return finish(kImportFailed, error);
    }
    mlir::ModuleOp module = own ? *own : *shared;
    mlir::FailureOr<mlir::func::FuncOp> func =
        mlir::tcc::findEntryFunction(module);
    Tensors args, want, got;
    if (mlir::failed(func))
      return finish(kImportFailed, "the imported module has no entry function");
    error = bindArguments(*func, facts, sets[s], &args);
    if (!error.empty())
      return finish(kImportFailed, "test data: " + error);

    enter("interpreter");
    error = interpret(module, args, &want);
    if (!error.empty())
      return finish(kInterpreterFailed, error);
    error = matchOutputs(want, sets[s], s, spec);
    if (!error.empty())
      return finish(kMismatch, error);

    if (artifact.empty() || own) {
      enter("compile");
      diagnostic.clear();
      mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
      mlir::FailureOr<std::vector<uint8_t>> bytes =
          mlir::tcc::compileModel(*copy, mlir::tcc::ModelCompileOptions());
      if (mlir::failed(bytes))
        return finish(kCompileFailed,
                      diagnostic.empty() ? "compileModel failed" : diagnostic);
      artifact = std::move(*bytes);
    }
    enter("compiled run");
    error = jit::runArtifact(artifact, args, &got);
    if (!error.empty())
      return finish(kRunFailed, error);
    error = matchOutputs(got, sets[s], s, spec);
    if (!error.empty())
      return finish(kMismatch, error);
  }
  r.stage.clear();
  return finish(kPassed, "");
}

} // namespace tcc::conformance
