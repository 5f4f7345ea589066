//===- Planner.h - The target-neutral execution plan of a model -*- C++ -*-===//

#ifndef TCC_CODEGEN_PLANNER_H
#define TCC_CODEGEN_PLANNER_H

#include "tcc/Codegen/ModelCompiler.h"

namespace mlir::tcc {

class Target;

/// The artifact of `entry` (after the graph passes) for `target`: the
/// execution plan, the memory plan, the constants and the target's code.
FailureOr<std::vector<uint8_t>> planModel(func::FuncOp entry,
                                          const Target &target,
                                          const ModelCompileOptions &options,
                                          ModelCompileStats *stats);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_PLANNER_H
