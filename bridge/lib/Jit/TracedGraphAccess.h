//===- TracedGraphAccess.h - The bridge's back door to TracedGraph --------===//
//
// For the libraries beside tracing that make or read traced graphs (in-process
// compile, ONNX import): a TracedGraph's module state, and a TracedGraph
// around a module built some other way than by tracing.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_JIT_LIB_TRACEDGRAPHACCESS_H
#define TCC_JIT_LIB_TRACEDGRAPHACCESS_H

#include "ModuleState.h"

#include "tcc/jit.h"

namespace tcc {
namespace jit {

struct TracedGraphAccess {
  static const ModuleState &state(const TracedGraph &graph) {
    return *graph.state_;
  }
  static TracedGraph make(std::shared_ptr<const ModuleState> state,
                          std::string function,
                          std::vector<std::string> warnings = {}) {
    return TracedGraph(std::move(state), std::move(function),
                       std::move(warnings));
  }
};

} // namespace jit
} // namespace tcc

#endif // TCC_JIT_LIB_TRACEDGRAPHACCESS_H
