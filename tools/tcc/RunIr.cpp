//===- RunIr.cpp - tcc run-ir: a tcc module on .npy inputs, interpreted ---===//
//
// The reference interpreter (tcc::jit::Interpreter, the eager ops) on the
// command line: the oracle `tcc run` results are compared with. Arguments
// bind like `tcc run`'s.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "tcc/Frontend/RuntimeDtype.h"
#include "ModelIO.h"
#include "Subcommands.h"

#include "tcc/Support/OutOfMemory.h"
#include "tcc/jit.h"

#include <cstdio>
#include <optional>

namespace tcc {
namespace tool {

namespace {

const char kHelp[] =
    R"(usage: tcc run-ir MODEL.ir --input [NAME=]X.npy ... [--output [NAME=]Y.npy ...]
                  [--function NAME] [--print-all] [--allow-bytecode]

Loads MODEL.ir (tcc dialect: MLIR text, or bytecode with --allow-bytecode),
verifies it, binds each
--input file to an argument of the function and runs it once with the
reference interpreter, which executes every op with the eager library's
kernels on the CPU. Outputs with an --output file are saved there; the
others are printed (past 1000 elements, as a summary: first and last values,
min, max, mean, NaN and infinite counts). Files without NAME= bind in order (skipping those bound
by name). Each input's dtype and shape must match the function's.

options:
  --input [NAME=]FILE.npy    an input (repeat for each)
  --output [NAME=]FILE.npy   where to save an output (repeat for each)
  --function NAME            the function to run (default: the module's only
                             public function; several are an error)
  --print-all                print every value of large outputs
  --allow-bytecode           read MODEL.ir as MLIR bytecode; for trusted
                             files only (MLIR's bytecode reader is not
                             hardened against corrupted files)
  --help                     this text
)";

std::string describeSpec(const jit::TensorSpec &spec) {
  return describeTensor(*to_runtime_dtype(spec.dtype), spec.shape);
}

std::string describeArg(const NamedPath &a) {
  return a.name.empty() ? a.path : a.name + "=" + a.path;
}

std::string nameList(const std::vector<jit::TensorSpec> &specs) {
  std::string s;
  for (const jit::TensorSpec &spec : specs)
    s += (s.empty() ? "'" : ", '") + spec.name + "'";
  return s;
}

/// Which file feeds each input (or receives each output): named ones by
/// name, the others in order. Returns an error message, or "".
std::string assign(const std::vector<jit::TensorSpec> &specs, bool inputs,
                   const std::vector<NamedPath> &args,
                   std::vector<std::string> *pathByIndex) {
  const char *kind = inputs ? "input" : "output";
  const char *flag = inputs ? "--input" : "--output";
  std::vector<bool> given(specs.size(), false);
  pathByIndex->assign(specs.size(), "");
  for (const NamedPath &a : args) {
    if (a.name.empty())
      continue;
    size_t index = 0;
    while (index < specs.size() && specs[index].name != a.name)
      ++index;
    if (index == specs.size())
      return std::string(flag) + " " + describeArg(a) + ": the model has no " +
             kind + " named '" + a.name + "' (" + kind +
             "s: " + nameList(specs) + ")";
    if (given[index])
      return std::string(kind) + " '" + a.name + "' is given twice";
    given[index] = true;
    (*pathByIndex)[index] = a.path;
  }
  size_t next = 0;
  for (const NamedPath &a : args) {
    if (!a.name.empty())
      continue;
    while (next < specs.size() && given[next])
      ++next;
    if (next == specs.size())
      return std::string(flag) + " " + a.path + ": the model has only " +
             std::to_string(specs.size()) + " " + kind +
             "s and all are already given";
    given[next] = true;
    (*pathByIndex)[next++] = a.path;
  }
  if (inputs)
    for (size_t i = 0; i < specs.size(); ++i)
      if (!given[i])
        return "input " + std::to_string(i) + " '" + specs[i].name + "' (" +
               describeSpec(specs[i]) + ") has no --input";
  return "";
}

void print(const std::string &name, const Tensor &t, bool all) {
  Tensor c = t.contiguous();
  runtime::TensorInfo info;
  info.name = name;
  info.dtype = *to_runtime_dtype(c.dtype());
  info.shape = c.sizes().vec();
  info.byteSize = c.nbytes();
  printTensor(stdout, info, c.unsafeGetTensorImpl()->data(), all);
}

} // namespace

int runIrMain(int argc, char **argv) {
  const char *cmd = "run-ir";
  CommandLine args(argc, argv);
  std::string modelPath, function, value, error;
  std::vector<NamedPath> inputs, outputs;
  bool printAll = false;
  jit::LoadOptions load;
  load.allowBytecode = false; // unless the user vouches for the file
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      printHelp(kHelp);
      return 0;
    }
    if (args.option(arg, "--input", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      inputs.push_back(parseNamedPath(value));
    } else if (args.option(arg, "--output", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      outputs.push_back(parseNamedPath(value));
    } else if (arg == "--print-all") {
      printAll = true;
    } else if (arg == "--allow-bytecode") {
      load.allowBytecode = true;
    } else if (args.option(arg, "--function", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      function = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc run-ir --help)");
    } else if (modelPath.empty()) {
      modelPath = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (modelPath.empty())
    return fail(cmd,
                "no model given (usage: tcc run-ir MODEL.ir --input X.npy)");

  mlir::tcc::installOutOfMemoryHandlers("tcc run-ir");
  try {
    mlir::tcc::ToolStage loading("loading the IR");
    jit::Interpreter interp = jit::Interpreter::load(modelPath, load);
    if (function.empty())
      function = interp.entry();
    jit::Signature sig = interp.signature(function);
    for (const auto &specs : {sig.inputs, sig.outputs})
      for (const jit::TensorSpec &spec : specs)
        if (!to_runtime_dtype(spec.dtype))
          return fail(cmd, "'" + spec.name + "' has dtype " +
                               toString(spec.dtype) +
                               ", which .npy files here cannot hold");
    std::vector<std::string> inputPaths, outputPaths;
    if (!(error = assign(sig.inputs, true, inputs, &inputPaths)).empty() ||
        !(error = assign(sig.outputs, false, outputs, &outputPaths)).empty())
      return fail(cmd, error);

    std::vector<Tensor> values;
    for (size_t i = 0; i < inputPaths.size(); ++i) {
      Tensor t = load_npy(inputPaths[i]);
      const jit::TensorSpec &spec = sig.inputs[i];
      if (t.dtype() != spec.dtype || !t.sizes().equals(spec.shape))
        return fail(
            cmd, inputPaths[i] + ": " +
                     describeTensor(*to_runtime_dtype(t.dtype()), t.sizes().vec()) +
                     " but input '" + spec.name + "' is " + describeSpec(spec));
      values.push_back(t);
    }
    mlir::tcc::ToolStage running("running the model");
    std::vector<Tensor> results = interp.run(function, values);
    for (size_t i = 0; i < results.size(); ++i) {
      if (outputPaths[i].empty())
        print(sig.outputs[i].name, results[i], printAll);
      else
        save_npy(outputPaths[i], results[i]);
    }
  } catch (const std::exception &e) {
    std::string message = e.what();
    // load_npy/save_npy prefix their messages with the function's name.
    for (const char *prefix : {"load_npy: ", "save_npy: "})
      if (message.rfind(prefix, 0) == 0)
        message = message.substr(std::string(prefix).size());
    return fail(cmd, message);
  }
  return 0;
}

} // namespace tool
} // namespace tcc
