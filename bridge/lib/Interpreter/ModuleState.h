//===- ModuleState.h - The MLIR side of a traced graph or interpreter -----===//
//
// A context and a verified module in it. Traced graphs and interpreters share
// one (immutable once built) through a shared_ptr; nothing here is visible
// from <tcc/jit.h>.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_MODULESTATE_H
#define TCC_JIT_LIB_MODULESTATE_H

#include "tcc/jit/Interpreter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace tcc {
namespace jit {

struct ModuleState {
  std::unique_ptr<mlir::MLIRContext> context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  /// Constants the interpreter has materialized, by op: weights are copied
  /// out of their blobs once, not on every run.
  mutable std::mutex constantsMutex;
  mutable std::unordered_map<mlir::Operation *, Tensor> constants;
};

/// A context with the dialects tcc modules use (tcc, func) loaded, and
/// without MLIR's thread pool (the bridge never runs passes).
std::unique_ptr<mlir::MLIRContext> makeContext();

/// Throws JitError with `message`.
[[noreturn]] void jitError(const std::string &message);

/// Collects the diagnostics MLIR emits while it lives (instead of printing
/// them), so they can become part of an error message.
class DiagnosticCapture {
public:
  explicit DiagnosticCapture(mlir::MLIRContext *context);
  ~DiagnosticCapture();
  /// Everything collected so far, one diagnostic per line.
  const std::string &text() const { return text_; }

private:
  std::string text_;
  mlir::MLIRContext *context_;
  uint64_t handlerId_;
};

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_MODULESTATE_H
