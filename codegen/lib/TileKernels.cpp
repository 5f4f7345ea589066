//===- TileKernels.cpp - Independent tiles for the runtime's threads ------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SmallBitVector.h"

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

/// The loads and stores of `buffer`, directly or through reshaping views
/// (collapse_shape / expand_shape, as collapsed loop nests use), and
/// whether any is a store. Null when some other op uses it, or when it is
/// accessed through more than one view: tiles of one view's dim are
/// disjoint, tiles of two views' dims need not be.
struct BufferAccesses {
  SmallVector<Operation *> accesses;
  bool written = false;
};
std::optional<BufferAccesses> accessesOf(Value buffer) {
  BufferAccesses result;
  Value accessed;
  SmallVector<Value> worklist = {buffer};
  while (!worklist.empty()) {
    Value view = worklist.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      if (!isa<memref::LoadOp, memref::StoreOp>(user))
        return std::nullopt;
      if (accessed && accessed != view)
        return std::nullopt;
      accessed = view;
      result.written |= isa<memref::StoreOp>(user);
      result.accesses.push_back(user);
    }
  }
  return result;
}

/// The common upper bound D of the first induction variable when every
/// top-level loop is an scf.parallel over [0, D) step 1 and every buffer
/// written is indexed, in one dim the same for all its accesses, by the
/// first induction variable of the loop around the access: tiles of that
/// variable then touch disjoint parts of every buffer they write.
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

  for (BlockArgument arg : func.getArguments()) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    std::optional<BufferAccesses> uses = accessesOf(arg);
    if (!uses)
      return std::nullopt;
    if (!uses->written)
      continue;
    // The dims indexed by the tile variable in every access so far.
    std::optional<llvm::SmallBitVector> tileDims;
    for (Operation *access : uses->accesses) {
      scf::ParallelOp loop = topLevelLoop(access, func);
      if (!loop)
        return std::nullopt;
      auto indices = isa<memref::LoadOp>(access)
                         ? cast<memref::LoadOp>(access).getIndices()
                         : cast<memref::StoreOp>(access).getIndices();
      llvm::SmallBitVector dims(indices.size());
      for (auto [d, index] : llvm::enumerate(indices))
        dims[d] = index == loop.getInductionVars()[0];
      if (tileDims)
        dims &= *tileDims;
      if (dims.none())
        return std::nullopt;
      tileDims = std::move(dims);
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
