//===- FuseElementwise.cpp - Pointwise chains into one kernel -------------===//
//
// Groups pointwise ops, and at most one normalization (softmax,
// log_softmax, layer_norm) with its pointwise prologue and epilogue, into a
// tcc.fusion that the code generator compiles as one kernel.
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/Passes.h"
#include "FusionUtils.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFUSEELEMENTWISE
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

bool inFunction(Operation *op) { return isa<func::FuncOp>(op->getParentOp()); }

bool isPointwise(Operation *op) {
  return op->hasTrait<OpTrait::tcc::Pointwise>() && inFunction(op);
}

/// A reduction that fuses with pointwise ops on either side: the kernel
/// keeps one row in cache while the prologue feeds it and the epilogue
/// consumes it.
bool isNormalization(Operation *op) {
  return isa<SoftmaxOp, LogSoftmaxOp, LayerNormOp>(op) && inFunction(op);
}

struct FuseElementwisePass
    : tcc::impl::TccFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    DenseSet<Operation *> grouped;
    SmallVector<llvm::SetVector<Operation *>> groups;
    for (Block &block : func.getBody()) {
      for (Operation &op : llvm::reverse(block)) {
        bool normalization = isNormalization(&op);
        if ((!isPointwise(&op) && !normalization) || grouped.contains(&op))
          continue;
        llvm::SetVector<Operation *> group;
        group.insert(&op);
        // Pull in producers whose every user is in the group; the worklist
        // grows as the group does. One normalization per group at most.
        for (size_t i = 0; i < group.size(); ++i) {
          for (Value operand : group[i]->getOperands()) {
            Operation *producer = operand.getDefiningOp();
            if (!producer || producer->getBlock() != &block ||
                group.contains(producer) || grouped.contains(producer))
              continue;
            bool takesNormalization =
                !normalization && isNormalization(producer);
            if (!isPointwise(producer) && !takesNormalization)
              continue;
            bool allUsersInGroup = llvm::all_of(
                producer->getUsers(),
                [&](Operation *user) { return group.contains(user); });
            if (!allUsersInGroup)
              continue;
            group.insert(producer);
            normalization |= takesNormalization;
          }
        }
        for (Operation *member : group)
          grouped.insert(member);
        // A lone normalization is a kernel of its own anyway.
        if (group.size() > 1)
          groups.push_back(std::move(group));
      }
    }
    for (const auto &group : groups)
      createFusion(group);
  }
};

} // namespace
