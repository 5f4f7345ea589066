//===- InterpreterRegistry.cpp - Building the table of interpreters -------===//

#include "InterpreterRegistry.h"
#include "ModuleState.h"

namespace tcc {
namespace jit {

void InterpreterRegistry::add(llvm::StringRef tccOp, InterpretFn fn) {
  if (!interpreters_.emplace(tccOp.str(), std::move(fn)).second)
    jitError("bridge: '" + tccOp.str() + "' has two interpreter mappings");
}

const InterpretFn *InterpreterRegistry::find(std::string_view tccOp) const {
  auto it = interpreters_.find(tccOp);
  return it == interpreters_.end() ? nullptr : &it->second;
}

const InterpreterRegistry &interpreterRegistry() {
  static const InterpreterRegistry registry = [] {
    InterpreterRegistry r;
    // The frontend's family order (Autograd/Record.cpp's registerAll).
    registerConstantInterpreters(r);
    registerCopyInterpreters(r);
    registerViewInterpreters(r);
    registerBinaryInterpreters(r);
    registerUnaryInterpreters(r);
    registerReductionInterpreters(r);
    registerLinalgInterpreters(r);
    registerNNInterpreters(r);
    registerQuantizationInterpreters(r);
    return r;
  }();
  return registry;
}

} // namespace jit
} // namespace tcc
