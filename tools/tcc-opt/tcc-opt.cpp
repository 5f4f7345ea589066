//===- tcc-opt.cpp - Runs tcc passes and pipelines on IR text -------------===//
//
// mlir-opt with the tcc dialect and passes: `tcc compile` runs the same
// registered pipelines, so any compile can be reproduced here step by step.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/Passes.h"
#include "tcc/IR/TccDialect.h"

int main(int argc, char **argv) {
  mlir::registerAllPasses();
  mlir::tcc::registerTccCodegenPasses();
  mlir::tcc::registerKernelPipelines();
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::tcc::TccDialect>();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "tcc optimizer driver\n", registry));
}
