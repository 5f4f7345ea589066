//===- Bridge.h - The per-op table of trace and interpreter mappings ------===//
//
// Every eager op either has a trace mapping (its OpDef name, attributes and
// input values -> tcc ops) or an explicit reason why it cannot be traced,
// and every tcc op has an interpreter mapping (tcc op -> eager call). Each op
// family keeps both directions of its ops together in one file,
// lib/Ops/<Family>.cpp, and registers them from register<Family>Bridge
// (explicitly called from Bridge.cpp: no static self-registration).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_BRIDGE_H
#define TCC_JIT_LIB_BRIDGE_H

#include "tcc/tcc.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tcc {
namespace jit {

class TraceContext;

/// Values the interpreter has computed so far, by SSA value.
class InterpretContext {
public:
  virtual ~InterpretContext() = default;
  /// The tensor of `v`; an undefined tensor for a null value (an absent
  /// optional operand).
  virtual Tensor operator()(mlir::Value v) const = 0;
  std::vector<Tensor> operator()(mlir::ValueRange values) const {
    std::vector<Tensor> out;
    for (mlir::Value v : values)
      out.push_back((*this)(v));
    return out;
  }
};

/// Emits the tcc ops of one eager call; returns one value per eager output.
using TraceFn = std::function<std::vector<mlir::Value>(TraceContext &)>;
/// Runs one tcc op with eager ops; returns its result.
using InterpretFn =
    std::function<Tensor(mlir::Operation *, const InterpretContext &)>;

class BridgeRegistry {
public:
  struct TraceEntry {
    TraceFn fn;              // null when not traceable
    std::string untraceable; // why not, when fn is null
  };

  /// The eager op `eagerOp` (an OpDef name) traces through `fn`.
  void trace(const char *eagerOp, TraceFn fn);
  /// The eager op `eagerOp` cannot be traced: `reason` says why (and what to
  /// do instead); tracing it throws a JitError with that reason.
  void untraceable(const char *eagerOp, const char *reason);
  /// The tcc op OpTy runs through `fn(OpTy, values)`.
  template <class OpTy, class F> void interpret(F fn) {
    addInterpreter(OpTy::getOperationName(),
                   [fn](mlir::Operation *op, const InterpretContext &values) {
                     return fn(llvm::cast<OpTy>(op), values);
                   });
  }

  const TraceEntry *findTrace(std::string_view eagerOp) const;
  const InterpretFn *findInterpreter(std::string_view tccOp) const;
  const std::map<std::string, TraceEntry, std::less<>> &traces() const {
    return traces_;
  }
  const std::map<std::string, InterpretFn, std::less<>> &interpreters() const {
    return interpreters_;
  }

private:
  void addInterpreter(llvm::StringRef tccOp, InterpretFn fn);

  std::map<std::string, TraceEntry, std::less<>> traces_;
  std::map<std::string, InterpretFn, std::less<>> interpreters_;
};

/// The table, built on first use from every family's register function.
const BridgeRegistry &bridgeRegistry();

// One per op family (lib/Ops/<Family>.cpp).
void registerConstantBridge(BridgeRegistry &registry);
void registerElementwiseBridge(BridgeRegistry &registry);
void registerReductionBridge(BridgeRegistry &registry);
void registerLinalgBridge(BridgeRegistry &registry);
void registerShapeBridge(BridgeRegistry &registry);
void registerNNBridge(BridgeRegistry &registry);

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_BRIDGE_H
