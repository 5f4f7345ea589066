//===- Passes.h - Optimization passes on the tcc dialect --------*- C++ -*-===//

#ifndef TCC_PASSES_PASSES_H
#define TCC_PASSES_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class OpPassManager;
namespace tcc {

class TargetCapabilities;

#define GEN_PASS_DECL
#include "tcc/Passes/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Passes/Passes.h.inc"

/// The passes that ask the target, built with its capabilities.
std::unique_ptr<Pass> createTccConvertLayout(const TargetCapabilities &target);
std::unique_ptr<Pass> createTccFuseEpilogues(const TargetCapabilities &target);

/// The graph-level pipeline `tcc compile -O<level>` runs before code
/// generation for `target` (registered as `tcc-graph-O0` and `tcc-graph-O2`,
/// with a `target` option naming a registered target).
void buildGraphPipeline(OpPassManager &pm, int optLevel,
                        const TargetCapabilities &target);
void registerGraphPipelines();

} // namespace tcc
} // namespace mlir

#endif // TCC_PASSES_PASSES_H
