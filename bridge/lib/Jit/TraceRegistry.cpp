//===- TraceRegistry.cpp - Building the table of trace mappings -----------===//

#include "TraceRegistry.h"
#include "ModuleState.h"

namespace tcc {
namespace jit {

void TraceRegistry::trace(const char *eagerOp, TraceFn fn) {
  if (!traces_.emplace(eagerOp, TraceEntry{std::move(fn), ""}).second)
    jitError(std::string("bridge: eager op '") + eagerOp +
             "' has two trace mappings");
}

void TraceRegistry::untraceable(const char *eagerOp, const char *reason) {
  if (!traces_.emplace(eagerOp, TraceEntry{nullptr, reason}).second)
    jitError(std::string("bridge: eager op '") + eagerOp +
             "' has two trace mappings");
}

const TraceRegistry::TraceEntry *
TraceRegistry::findTrace(std::string_view eagerOp) const {
  auto it = traces_.find(eagerOp);
  return it == traces_.end() ? nullptr : &it->second;
}

const TraceRegistry &traceRegistry() {
  static const TraceRegistry registry = [] {
    TraceRegistry r;
    // The frontend's family order (Autograd/Record.cpp's registerAll).
    registerCopyTraces(r);
    registerViewTraces(r);
    registerBinaryTraces(r);
    registerUnaryTraces(r);
    registerReductionTraces(r);
    registerLinalgTraces(r);
    registerNNTraces(r);
    registerQuantizationTraces(r);
    return r;
  }();
  return registry;
}

} // namespace jit
} // namespace tcc
