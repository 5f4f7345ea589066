//===- IrFuzzer.cpp - libFuzzer target for reading IR text ----------------===//
//
// The tools' loader, parseModelFile (text scan, parse, size checks,
// verifier), on any bytes: it must load the module or report diagnostics,
// never crash or hang. MLIR itself is not instrumented (Debian's build), so
// coverage guides through tcc's dialect, verifiers and InputGuards; seeds
// are the repo's .mlir tests. Like the tools, it runs on a large stack.
//
//===----------------------------------------------------------------------===//

#include "tcc/IR/TccDialect.h"
#include "tcc/Support/InputGuards.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdint>
#include <memory>

namespace {

/// A context for many inputs: making one per input is slow, but types and
/// attributes are uniqued in it forever, so it is remade every so often.
mlir::MLIRContext &context() {
  constexpr unsigned kInputsPerContext = 1000;
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses == kInputsPerContext) {
    mlir::DialectRegistry registry;
    // The dialects a tcc input file and the pass tests use.
    registry.insert<mlir::tcc::TccDialect, mlir::arith::ArithDialect,
                    mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                    mlir::math::MathDialect, mlir::memref::MemRefDialect,
                    mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
    context.reset();
    context = std::make_unique<mlir::MLIRContext>(
        registry, mlir::MLIRContext::Threading::DISABLED);
    uses = 0;
  }
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = context();
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "input.mlir"),
      llvm::SMLoc());
  // Diagnostics are the expected outcome for most inputs; drop them.
  mlir::ScopedDiagnosticHandler quiet(&ctx, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  mlir::tcc::runWithLargeStack([&] {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::tcc::parseModelFile(sourceMgr, &ctx);
    return module ? 0 : 1;
  });
  return 0;
}
