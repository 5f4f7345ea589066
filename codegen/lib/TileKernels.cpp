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

/// A load or store of a buffer, the view it goes through (the buffer
/// itself, or a reshaping view of it) and, for each of its indices, the
/// buffer's dim it walks (-1 for a dim the view merged from several).
struct BufferAccess {
  Operation *op;
  Value view;
  SmallVector<int64_t> bufferDims;
};

/// For each dim of `view` (a collapse_shape or expand_shape of `source`),
/// the source dim it is, or -1 when it is not one source dim as it is.
SmallVector<int64_t> viewDims(Operation *view,
                              ArrayRef<int64_t> sourceDims) {
  SmallVector<int64_t> dims;
  if (auto collapse = dyn_cast<memref::CollapseShapeOp>(view)) {
    for (const ReassociationIndices &group : collapse.getReassociationIndices())
      dims.push_back(group.size() == 1 ? sourceDims[group[0]] : -1);
    return dims;
  }
  auto expand = cast<memref::ExpandShapeOp>(view);
  for (auto [source, group] :
       llvm::enumerate(expand.getReassociationIndices()))
    for (size_t i = 0; i < group.size(); ++i)
      dims.push_back(group.size() == 1 ? sourceDims[source] : -1);
  return dims;
}

/// The loads and stores of `buffer`, directly or through reshaping views
/// (collapse_shape / expand_shape, as collapsed loop nests use), and
/// whether any is a store; null when some other op uses it.
struct BufferAccesses {
  SmallVector<BufferAccess> accesses;
  bool written = false;
};
std::optional<BufferAccesses> accessesOf(Value buffer) {
  BufferAccesses result;
  SmallVector<int64_t> identity = llvm::to_vector(
      llvm::seq<int64_t>(0, cast<MemRefType>(buffer.getType()).getRank()));
  SmallVector<std::pair<Value, SmallVector<int64_t>>> worklist = {
      {buffer, identity}};
  while (!worklist.empty()) {
    auto [view, dims] = worklist.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (isa<memref::CollapseShapeOp, memref::ExpandShapeOp>(user)) {
        worklist.push_back({user->getResult(0), viewDims(user, dims)});
        continue;
      }
      if (!isa<memref::LoadOp, memref::StoreOp>(user))
        return std::nullopt;
      result.written |= isa<memref::StoreOp>(user);
      result.accesses.push_back({user, view, dims});
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
    // The dims indexed by the tile variable in every access so far: tiles
    // then write and read disjoint slices of any such dim. Dims of the one
    // view all accesses go through, else of the buffer (a view's dim that
    // is one buffer dim as it is counts as that dim).
    Value view = uses->accesses.front().view;
    bool oneView = llvm::all_of(uses->accesses, [&](const BufferAccess &a) {
      return a.view == view;
    });
    if (oneView)
      for (BufferAccess &access : uses->accesses)
        access.bufferDims = llvm::to_vector(llvm::seq<int64_t>(
            0, cast<MemRefType>(view.getType()).getRank()));
    llvm::SmallBitVector tileDims(
        cast<MemRefType>((oneView ? view : Value(arg)).getType()).getRank(),
        true);
    for (const BufferAccess &access : uses->accesses) {
      scf::ParallelOp loop = topLevelLoop(access.op, func);
      if (!loop)
        return std::nullopt;
      auto indices = isa<memref::LoadOp>(access.op)
                         ? cast<memref::LoadOp>(access.op).getIndices()
                         : cast<memref::StoreOp>(access.op).getIndices();
      llvm::SmallBitVector dims(tileDims.size());
      for (auto [index, bufferDim] : llvm::zip(indices, access.bufferDims))
        if (bufferDim >= 0 && index == loop.getInductionVars()[0])
          dims.set(bufferDim);
      tileDims &= dims;
      if (tileDims.none())
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
