//===- TraceRegistry.h - Eager op -> tcc ops, per op ----------------------===//
//
// Every eager op either has a trace mapping (its OpDef name, attributes and
// input values -> tcc ops) or an explicit reason why it cannot be traced.
// The mappings are grouped by the frontend's op families
// (lib/Jit/Ops/<Family>.cpp: Copy, Views, Unary, Binary, Reduction, Linalg,
// NN, Quantization), and each family registers them from
// register<Family>Traces, called once from TraceRegistry.cpp (no static
// self-registration). The other
// direction, tcc op -> eager call, is the interpreter's
// (lib/Interpreter/InterpreterRegistry.h).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_TRACEREGISTRY_H
#define TCC_JIT_LIB_TRACEREGISTRY_H

#include "tcc/tcc.h"

#include "mlir/IR/Value.h"

#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace tcc {
namespace jit {

class TraceContext;

/// Emits the tcc ops of one eager call; returns one value per eager output.
using TraceFn = std::function<std::vector<mlir::Value>(TraceContext &)>;

class TraceRegistry {
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

  const TraceEntry *findTrace(std::string_view eagerOp) const;
  const std::map<std::string, TraceEntry, std::less<>> &traces() const {
    return traces_;
  }

private:
  std::map<std::string, TraceEntry, std::less<>> traces_;
};

/// The table, built on first use from every family's register function.
const TraceRegistry &traceRegistry();

// One per op family (lib/Jit/Ops/<Family>.cpp).
void registerCopyTraces(TraceRegistry &registry);
void registerViewTraces(TraceRegistry &registry);
void registerUnaryTraces(TraceRegistry &registry);
void registerBinaryTraces(TraceRegistry &registry);
void registerReductionTraces(TraceRegistry &registry);
void registerLinalgTraces(TraceRegistry &registry);
void registerNNTraces(TraceRegistry &registry);
void registerQuantizationTraces(TraceRegistry &registry);
/// The NN family's joining, indexing and padding ops (Ops/Indexing.cpp, as
/// the frontend's Join.cpp, Indexing.cpp and Pad.cpp); called by
/// registerNNTraces.
void registerIndexingTraces(TraceRegistry &registry);

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_TRACEREGISTRY_H
