//===- Passes.h - Optimization passes on the tcc dialect --------*- C++ -*-===//

#ifndef TCC_PASSES_PASSES_H
#define TCC_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Passes/Passes.h.inc"

/// The graph-level pipeline `tcc compile -O<level>` runs before code
/// generation (registered as `tcc-graph-O0` and `tcc-graph-O2`).
void buildGraphPipeline(OpPassManager &pm, int optLevel);
void registerGraphPipelines();

} // namespace tcc
} // namespace mlir

#endif // TCC_PASSES_PASSES_H
