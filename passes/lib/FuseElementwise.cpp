//===- FuseElementwise.cpp - Pointwise chains into one kernel -------------===//

#include "tcc/Passes/Passes.h"
#include "FusionUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFUSEELEMENTWISE
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

bool isPointwise(Operation *op) {
  return op->hasTrait<OpTrait::tcc::Pointwise>() &&
         isa<func::FuncOp>(op->getParentOp());
}

struct FuseElementwisePass
    : tcc::impl::TccFuseElementwiseBase<FuseElementwisePass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    DenseSet<Operation *> grouped;
    SmallVector<llvm::SetVector<Operation *>> groups;
    for (Block &block : func.getBody()) {
      for (Operation &op : llvm::reverse(block)) {
        if (!isPointwise(&op) || grouped.contains(&op))
          continue;
        llvm::SetVector<Operation *> group;
        group.insert(&op);
        // Pull in producers whose every user is in the group; the worklist
        // grows as the group does.
        for (size_t i = 0; i < group.size(); ++i) {
          for (Value operand : group[i]->getOperands()) {
            Operation *producer = operand.getDefiningOp();
            if (!producer || !isPointwise(producer) ||
                producer->getBlock() != &block || group.contains(producer) ||
                grouped.contains(producer))
              continue;
            bool allUsersInGroup = llvm::all_of(
                producer->getUsers(),
                [&](Operation *user) { return group.contains(user); });
            if (allUsersInGroup)
              group.insert(producer);
          }
        }
        for (Operation *member : group)
          grouped.insert(member);
        if (group.size() > 1)
          groups.push_back(std::move(group));
      }
    }
    for (const auto &group : groups)
      createFusion(group);
  }
};

} // namespace
