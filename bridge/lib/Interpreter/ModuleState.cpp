//===- ModuleState.cpp - Contexts, errors and captured diagnostics --------===//

#include "ModuleState.h"

#include "tcc/IR/TccDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Diagnostics.h"

namespace tcc {
namespace jit {

std::unique_ptr<mlir::MLIRContext> makeContext() {
  auto context = std::make_unique<mlir::MLIRContext>(
      mlir::MLIRContext::Threading::DISABLED);
  context->loadDialect<mlir::tcc::TccDialect, mlir::func::FuncDialect>();
  return context;
}

void jitError(const std::string &message) { throw JitError(message); }

DiagnosticCapture::DiagnosticCapture(mlir::MLIRContext *context)
    : context_(context) {
  // The handler runs inside MLIR: it only appends text, it never throws.
  handlerId_ =
      context->getDiagEngine().registerHandler([this](mlir::Diagnostic &diag) {
        if (!text_.empty())
          text_ += "\n";
        std::string loc;
        llvm::raw_string_ostream os(loc);
        if (!mlir::isa<mlir::UnknownLoc>(diag.getLocation()))
          os << diag.getLocation() << ": ";
        text_ += loc + diag.str();
        for (const mlir::Diagnostic &note : diag.getNotes())
          text_ += "\n  note: " + note.str();
        return mlir::success();
      });
}

DiagnosticCapture::~DiagnosticCapture() {
  context_->getDiagEngine().eraseHandler(handlerId_);
}

} // namespace jit
} // namespace tcc
