//===- Bridge.cpp - Building the table of trace and interpreter mappings --===//

#include "Bridge.h"
#include "ModuleState.h"

namespace tcc {
namespace jit {

void BridgeRegistry::trace(const char *eagerOp, TraceFn fn) {
  if (!traces_.emplace(eagerOp, TraceEntry{std::move(fn), ""}).second)
    jitError(std::string("bridge: eager op '") + eagerOp +
             "' has two trace mappings");
}

void BridgeRegistry::untraceable(const char *eagerOp, const char *reason) {
  if (!traces_.emplace(eagerOp, TraceEntry{nullptr, reason}).second)
    jitError(std::string("bridge: eager op '") + eagerOp +
             "' has two trace mappings");
}

void BridgeRegistry::addInterpreter(llvm::StringRef tccOp, InterpretFn fn) {
  if (!interpreters_.emplace(tccOp.str(), std::move(fn)).second)
    jitError("bridge: '" + tccOp.str() + "' has two interpreter mappings");
}

const BridgeRegistry::TraceEntry *
BridgeRegistry::findTrace(std::string_view eagerOp) const {
  auto it = traces_.find(eagerOp);
  return it == traces_.end() ? nullptr : &it->second;
}

const InterpretFn *
BridgeRegistry::findInterpreter(std::string_view tccOp) const {
  auto it = interpreters_.find(tccOp);
  return it == interpreters_.end() ? nullptr : &it->second;
}

const BridgeRegistry &bridgeRegistry() {
  static const BridgeRegistry registry = [] {
    BridgeRegistry r;
    registerConstantBridge(r);
    registerElementwiseBridge(r);
    registerReductionBridge(r);
    registerLinalgBridge(r);
    registerShapeBridge(r);
    registerNNBridge(r);
    return r;
  }();
  return registry;
}

} // namespace jit
} // namespace tcc
