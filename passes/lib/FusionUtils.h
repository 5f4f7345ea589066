//===- FusionUtils.h - Building tcc.fusion groups ---------------*- C++ -*-===//

#ifndef TCC_PASSES_FUSIONUTILS_H
#define TCC_PASSES_FUSIONUTILS_H

#include "tcc/IR/TccOps.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tcc {

/// Whether `value` is a splat tcc.constant, which a group copies in rather
/// than taking as an input.
bool isSplatConstant(Value value);

/// Moves `members` (ops of one block, any order) into a new tcc.fusion
/// placed at the last member. Inputs are the values the members use from
/// outside (in first-use order; splat constants are cloned inside); results
/// are the members' values used outside the group. Returns the fusion.
FusionOp createFusion(const llvm::SetVector<Operation *> &members);

} // namespace mlir::tcc

#endif // TCC_PASSES_FUSIONUTILS_H
