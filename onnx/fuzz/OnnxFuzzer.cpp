//===- OnnxFuzzer.cpp - libFuzzer target for importing ONNX models --------===//
//
// importModelBytes on any bytes: protobuf parsing with limits, the graph
// checks, initializers, every op importer and the final verification. It
// must return a module or an error, never crash, hang or allocate what a
// hostile shape asks for. There is no model folder, so external data is
// refused; the path checks have their own unit tests (TccOnnxTests).
//
//===----------------------------------------------------------------------===//

#include "tcc/Onnx/Import.h"
#include "tcc/Support/InputGuards.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <memory>

namespace {

/// A context for many inputs: making one per input is slow, but types,
/// attributes and blobs accumulate in it, so it is remade every so often.
mlir::MLIRContext &context() {
  constexpr unsigned kInputsPerContext = 200;
  static std::unique_ptr<mlir::MLIRContext> context;
  static unsigned uses = 0;
  if (!context || ++uses == kInputsPerContext) {
    context.reset();
    context = std::make_unique<mlir::MLIRContext>(
        mlir::MLIRContext::Threading::DISABLED);
    uses = 0;
  }
  return *context;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext &ctx = context();
  mlir::ScopedDiagnosticHandler quiet(&ctx, [](mlir::Diagnostic &) {
    return mlir::success();
  });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  mlir::tcc::runWithLargeStack([&] {
    std::string error;
    mlir::OwningOpRef<mlir::ModuleOp> module = mlir::tcc::onnx::importModelBytes(
        &ctx, bytes, /*modelDir=*/"", mlir::tcc::onnx::ImportOptions(), &error);
    // Exactly one of a module and an error.
    if (!module == error.empty())
      __builtin_trap();
    return module ? 0 : 1;
  });
  return 0;
}
