//===- ModelFile.cpp - Reading and printing models for tcc quantize -------===//

#include "tcc/Quant/Calibrate.h"

#include "ModuleState.h"
#include "TracedGraphAccess.h"

#include "tcc/IR/EntryFunction.h"
#include "tcc/Support/InputGuards.h"

#include "mlir/IR/OperationSupport.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

namespace tcc {
namespace quant {

jit::TracedGraph readModel(const std::string &path, bool allowBytecode) {
  if (std::string problem = mlir::tcc::checkInputPath(path); !problem.empty())
    throw QuantError(problem);
  // Blobs are read in place and must keep their alignment.
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      llvm::MemoryBuffer::getFile(path, /*IsText=*/false,
                                  /*RequiresNullTerminator=*/true,
                                  /*IsVolatile=*/false, llvm::Align(64));
  if (!buffer)
    throw QuantError(path + ": cannot open: " + buffer.getError().message());
  auto state = std::make_shared<jit::ModuleState>();
  state->context = jit::makeContext();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());
  mlir::tcc::InputLimits limits;
  limits.allowBytecode = allowBytecode;
  std::string diagnostics;
  llvm::raw_string_ostream os(diagnostics);
  {
    mlir::SourceMgrDiagnosticHandler handler(sourceMgr, state->context.get(),
                                             os);
    mlir::tcc::runWithLargeStack([&] {
      state->module =
          mlir::tcc::parseModelFile(sourceMgr, state->context.get(), limits);
      return 0;
    });
  }
  if (!state->module)
    throw QuantError("cannot load " + path + ":\n" + diagnostics);
  std::string error;
  mlir::func::FuncOp entry =
      mlir::tcc::findEntryFunction(state->module.get(), "", &error);
  if (!entry)
    throw QuantError(path + ": " + error);
  std::string name = entry.getSymName().str();
  return jit::TracedGraphAccess::make(std::move(state), name);
}

std::string modelText(const jit::TracedGraph &graph) {
  std::string text;
  llvm::raw_string_ostream os(text);
  jit::TracedGraphAccess::state(graph).module.get()->print(
      os, mlir::OpPrintingFlags().enableDebugInfo());
  return text;
}

} // namespace quant
} // namespace tcc
