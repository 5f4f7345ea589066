//===- Import.cpp - tcc import: ONNX model -> model.ir --------------------===//

#include "CommandLine.h"
#include "OnnxInput.h"
#include "Subcommands.h"

#include "tcc/IR/TccDialect.h"
#include "tcc/Support/InputGuards.h"
#include "tcc/Support/OutOfMemory.h"
#include "tcc/runtime/FileWrite.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/MLIRContext.h"

#include <vector>
#include "llvm/Support/raw_ostream.h"

namespace tcc {
namespace tool {

namespace {

const char *kHelp =
    R"(usage: tcc import MODEL.onnx -o MODEL.ir [options]

Imports an ONNX model (opsets 11 to 28) into tcc IR: one function whose
arguments and results carry the model's input and output names, with the
initializers as dense_resource blobs. Shapes are inferred and shape
subgraphs folded at import; inputs with symbolic dims need --input-shape.
External data files are read from the model's folder, never outside it.
What is supported: docs/onnx.md. MODEL.ir is written whole or not at all.

options:
  -o FILE                  the IR file to write ("-": standard output)
)"
    "%s"
    R"(  --function NAME          name of the imported function (default forward)
  -h, --help               this text
)";

int importModel(const std::string &input, const std::string &output,
                mlir::tcc::onnx::ImportOptions options,
                const std::vector<std::string> &inputValues) {
  const char *cmd = "import";
  if (output != "-" && runtime::isSameFile(input, output))
    return fail(cmd, "-o " + output + " is the input file");
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.loadDialect<mlir::tcc::TccDialect, mlir::func::FuncDialect>();
  for (const std::string &value : inputValues)
    if (std::string error = addInputValue(value, &context, &options);
        !error.empty())
      return fail(cmd, error);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      importOnnxForTool(cmd, &context, input, options);
  if (!module)
    return 1;
  mlir::tcc::ToolStage writing("writing the IR");
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  os.flush();
  if (output == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : fail(cmd, "cannot write to standard output");
  }
  std::string error = runtime::writeFileAtomically(output, text.data(), text.size());
  return error.empty() ? 0 : fail(cmd, error);
}

} // namespace

int importMain(int argc, char **argv) {
  const char *cmd = "import";
  CommandLine args(argc, argv);
  std::string input, output, value, error;
  mlir::tcc::onnx::ImportOptions options;
  std::vector<std::string> inputValues; // read once a context exists
  while (!args.done()) {
    std::string arg = args.next();
    if (arg == "--help" || arg == "-h") {
      std::printf(kHelp, kInputShapeHelp);
      return 0;
    }
    if (arg == "-o") {
      if (args.done())
        return fail(cmd, "-o needs a file name");
      output = args.next();
    } else if (args.option(arg, "--input-shape", &value, &error)) {
      if (error.empty())
        error = addInputShape(value, &options);
      if (!error.empty())
        return fail(cmd, error);
    } else if (args.option(arg, "--input-value", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      inputValues.push_back(value);
    } else if (args.option(arg, "--function", &value, &error)) {
      if (!error.empty())
        return fail(cmd, error);
      if (value.empty())
        return fail(cmd, "--function needs a name");
      options.functionName = value;
    } else if (arg.size() > 1 && arg[0] == '-') {
      return fail(cmd, "unknown option '" + arg + "' (see tcc import --help)");
    } else if (input.empty()) {
      input = arg;
    } else {
      return fail(cmd, "unexpected argument '" + arg + "'");
    }
  }
  if (input.empty())
    return fail(cmd, "no input given (usage: tcc import MODEL.onnx -o MODEL.ir)");
  if (output.empty())
    return fail(cmd, "no output given: add -o MODEL.ir");
  mlir::tcc::installOutOfMemoryHandlers("tcc import");
  return mlir::tcc::runWithLargeStack(
      [&] { return importModel(input, output, options, inputValues); });
}

} // namespace tool
} // namespace tcc
