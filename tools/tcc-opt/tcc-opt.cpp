//===- tcc-opt.cpp - Runs tcc passes and pipelines on IR text -------------===//
//
// mlir-opt with the tcc dialect and passes: `tcc compile` runs the same
// registered pipelines, so any compile can be reproduced here step by step.
// Unlike mlir-opt it checks its input before MLIR parses it and works on a
// large stack (tcc/Support/InputGuards.h), so malformed IR gets a diagnostic
// instead of a crash.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/Passes.h"
#include "tcc/Codegen/Target.h"
#include "tcc/IR/TccDialect.h"
#include "tcc/Passes/Passes.h"
#include "tcc/Support/InputGuards.h"
#include "tcc/Support/OutOfMemory.h"

#include <cstdio>

using namespace mlir;

/// MlirOptMain's own argv entry point, with the input check between reading
/// the file and parsing it.
static int tccOptMain(int argc, char **argv) {
  registerAllPasses();
  tcc::registerTccCodegenPasses();
  tcc::registerKernelPipelines();
  tcc::registerTccPasses();
  tcc::registerGraphPipelines();
  tcc::registerTargets();
  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registry.insert<tcc::TccDialect>();

  static llvm::cl::opt<bool> allowBytecode(
      "allow-bytecode",
      llvm::cl::desc("Read MLIR bytecode input (trusted files only: MLIR's "
                     "bytecode reader is not hardened against corrupted "
                     "files)"),
      llvm::cl::init(false));
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "tcc optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleaveComma(registry.getDialectNames(), llvm::outs());
    llvm::outs() << "\n";
    return EXIT_SUCCESS;
  }
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";

  std::string error = tcc::checkInputPath(inputFilename);
  if (!error.empty()) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  std::unique_ptr<llvm::MemoryBuffer> input =
      openInputFile(inputFilename, &error);
  if (!input) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  tcc::InputLimits limits;
  limits.allowBytecode = allowBytecode;
  if (failed(tcc::checkInputFile(*input, llvm::errs(), limits)))
    return EXIT_FAILURE;
  std::unique_ptr<llvm::ToolOutputFile> output =
      openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return EXIT_FAILURE;
  }
  tcc::ToolStage processing("processing the IR");
  if (failed(MlirOptMain(output->os(), std::move(input), registry, config)))
    return EXIT_FAILURE;
  output->keep();
  return EXIT_SUCCESS;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tcc::installOutOfMemoryHandlers("tcc-opt");
  return tcc::runWithLargeStack([&] { return tccOptMain(argc, argv); });
}
