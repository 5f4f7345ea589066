//===- TileKernels.cpp - Independent tiles for the runtime's threads ------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCTILEKERNELS
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// The enclosing top-level scf.parallel of an op in `func`, or null.
scf::ParallelOp topLevelLoop(Operation *op, func::FuncOp func) {
  scf::ParallelOp loop;
  for (Operation *p = op->getParentOp(); p && p != func; p = p->getParentOp())
    if (auto parallel = dyn_cast<scf::ParallelOp>(p))
      loop = parallel;
  if (loop && loop->getParentOp() != func)
    return nullptr;
  return loop;
}

/// The common upper bound D of dim 0 when every top-level loop is an
/// scf.parallel over [0, D) step 1 and every write lands in dim-0 row i of
/// the loop's first induction variable i, so tiles of dim 0 are independent.
std::optional<int64_t> independentTiles(func::FuncOp func) {
  std::optional<int64_t> bound;
  for (Operation &op : func.getBody().front()) {
    if (isa<func::ReturnOp, arith::ConstantOp>(op) || isPure(&op))
      continue;
    auto loop = dyn_cast<scf::ParallelOp>(op);
    if (!loop)
      return std::nullopt;
    APInt lb, ub, step;
    if (!matchPattern(loop.getLowerBound()[0], m_ConstantInt(&lb)) ||
        !matchPattern(loop.getUpperBound()[0], m_ConstantInt(&ub)) ||
        !matchPattern(loop.getStep()[0], m_ConstantInt(&step)) || !lb.isZero() ||
        !step.isOne())
      return std::nullopt;
    if (bound && *bound != ub.getSExtValue())
      return std::nullopt;
    bound = ub.getSExtValue();
  }
  if (!bound)
    return std::nullopt;

  // Every buffer written must be a function argument whose every access is
  // a load or store in its own row of a top-level loop.
  for (BlockArgument arg : func.getArguments()) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    bool written = llvm::any_of(arg.getUsers(), [](Operation *user) {
      return !isa<memref::LoadOp>(user);
    });
    if (!written)
      continue;
    for (Operation *user : arg.getUsers()) {
      Value index;
      if (auto load = dyn_cast<memref::LoadOp>(user))
        index = load.getIndices().empty() ? Value() : load.getIndices()[0];
      else if (auto store = dyn_cast<memref::StoreOp>(user))
        index = store.getIndices().empty() ? Value() : store.getIndices()[0];
      else
        return std::nullopt;
      scf::ParallelOp loop = topLevelLoop(user, func);
      if (!index || !loop || index != loop.getInductionVars()[0])
        return std::nullopt;
    }
  }
  return bound;
}

struct TileKernelsPass : tcc::impl::TccTileKernelsBase<TileKernelsPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.isPublic())
        continue;
      std::optional<int64_t> tiles = independentTiles(func);
      OpBuilder b(func.getContext());
      Type index = b.getIndexType();
      unsigned first = func.getNumArguments();
      func.insertArgument(first, index, b.getDictionaryAttr({}), func.getLoc());
      func.insertArgument(first + 1, index, b.getDictionaryAttr({}), func.getLoc());
      func->setAttr("tcc.tiles", b.getI64IntegerAttr(tiles.value_or(1)));
      if (!tiles)
        continue;
      Value begin = func.getArgument(first), end = func.getArgument(first + 1);
      for (auto loop : func.getBody().front().getOps<scf::ParallelOp>()) {
        loop.getLowerBoundMutable().slice(0, 1).assign(begin);
        loop.getUpperBoundMutable().slice(0, 1).assign(end);
      }
    }
  }
};

} // namespace
