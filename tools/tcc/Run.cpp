//===- Run.cpp - tcc run: a compiled model on .npy inputs -----------------===//

#include "CommandLine.h"
#include "ModelIO.h"
#include "Subcommands.h"

#include "tcc/runtime/FileWrite.h"

#include <cstdio>

namespace tcc {
namespace tool {

namespace {

// The help text states this limit in words.
static_assert(TCC_MAX_THREADS == 1024, "update kHelp's --threads limit");

const char kHelp[] =
    R"(usage: tcc run MODEL.bin --input [NAME=]X.npy ... [--output [NAME=]Y.npy ...]
               [--threads N] [--device NAME] [--print-all]

Loads MODEL.bin, binds each --input file to an input of the model and runs
it once. Outputs with an --output file are saved there; the others are
printed (past 1000 elements, as a summary: first and last values, min, max,
mean, NaN and infinite counts). Files without NAME= bind inputs/outputs in order (skipping those
bound by name). Each input's dtype and shape must match the model's.

options:
  --input [NAME=]FILE.npy    an input (repeat for each)
  --output [NAME=]FILE.npy   where to save an output (repeat for each)
  --threads N                intra-op threads (default 1, at most 1024)
  --device NAME              the device to run on: cpu (default) or a plugin
                             such as cuda (libtcc_device_NAME.so); fails,
                             saying why, where the device cannot be opened
  --print-all                print every value of large outputs
  --public-key FILE          load the model only if it is signed by this
                             32-byte Ed25519 public key (tcc compile --sign)
  --help                     this text
)";

} // namespace

int runMain(int argc, char **argv) {
  const char *cmd = "run";
  CommandLine args(argc, argv);
  std::string modelPath, value, error, publicKeyPath, deviceName;
  std::vector<NamedPath> inputs, outputs;
  int64_t threads = 1;
  bool printAll = false;
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
    } else if (args.option(arg, "--device", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      deviceName = value;
    } else if (args.option(arg, "--public-key", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      publicKeyPath = value;
    } else if (args.option(arg, "--threads", &value, &error)) {
      if (!error.empty() ||
          !CommandLine::parsePositive(value, "--threads", &threads, &error,
                                      TCC_MAX_THREADS))
        return fail(cmd, error);
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc run --help)");
    } else if (modelPath.empty()) {
      modelPath = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (modelPath.empty())
    return fail(cmd, "no model given (usage: tcc run MODEL.bin --input X.npy)");

  // The device first: without it nothing else can run.
  runtime::Device device;
  if (!deviceName.empty()) {
    runtime::Status opened = runtime::Device::open(deviceName, &device);
    if (!opened.ok())
      return fail(cmd, "--device " + deviceName + ": " + opened.message());
  }
  TrustedKey trusted;
  runtime::Model model;
  runtime::Status s = readTrustedKey(publicKeyPath, &trusted);
  if (s.ok())
    s = runtime::Model::loadFile(modelPath, &model, 0, trusted.data());
  if (!s.ok())
    return fail(cmd, s.message());
  std::vector<std::string> inputPaths, outputPaths;
  if (!(s = assignInputs(model, inputs, &inputPaths)).ok() ||
      !(s = assignOutputs(model, outputs, &outputPaths)).ok())
    return fail(cmd, s.message());

  for (const std::string &output : outputPaths) {
    if (output.empty())
      continue;
    if (runtime::isSameFile(output, modelPath))
      return fail(cmd, "--output " + output + " is the model file");
    for (const std::string &input : inputPaths)
      if (runtime::isSameFile(output, input))
        return fail(cmd, "--output " + output + " is the input file " + input);
  }

  runtime::Pool pool;
  if (threads > 1 && !(s = runtime::Pool::create(int(threads), &pool)).ok())
    return fail(cmd, s.message());
  runtime::Session session;
  std::vector<runtime::NpyArray> arrays;
  if (!(s = model.createSession(pool ? pool.parallel() : nullptr, &session,
                                 device))
           .ok() ||
      !(s = bindNpyInputs(model, session, inputPaths, &arrays)).ok() ||
      !(s = session.run()).ok())
    return fail(cmd, s.message());

  for (size_t i = 0; i < model.outputCount(); ++i) {
    runtime::TensorInfo info;
    const void *data = nullptr;
    if (!(s = model.output(i, &info)).ok() ||
        !(s = session.output(i, &data)).ok())
      return fail(cmd, s.message());
    if (outputPaths[i].empty())
      printTensor(stdout, info, data, printAll);
    else if (!(s = runtime::writeNpy(outputPaths[i], info.dtype, info.shape,
                                     data, info.byteSize))
                  .ok())
      return fail(cmd, s.message());
  }
  return 0;
}

} // namespace tool
} // namespace tcc
