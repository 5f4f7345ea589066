//===- CoalesceLoops.cpp - One loop over dims walked contiguously ---------===//
//
// linalg's parallel loops keep one variable per tensor dim. A pointwise
// kernel on [1, C, 14, 14] then vectorizes only its rows of 14, where
// 16-float vectors never fill; merging the dims every access walks in
// storage order gives LLVM one long loop.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

#include <map>

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCCOALESCELOOPS
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// A load or store and its memref indices.
struct Access {
  Operation *op;
  Value memref() const {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return load.getMemRef();
    return cast<memref::StoreOp>(op).getMemRef();
  }
  OperandRange indices() const {
    if (auto load = dyn_cast<memref::LoadOp>(op))
      return load.getIndices();
    return cast<memref::StoreOp>(op).getIndices();
  }
};

/// The loads and stores that use an induction variable of `loop`; null
/// when a variable has any other use (arithmetic on it, a nested loop
/// bound), whose value a merged variable would not give.
std::optional<SmallVector<Access>> accessesOfVariables(scf::ParallelOp loop) {
  llvm::SetVector<Operation *> users;
  for (Value iv : loop.getInductionVars())
    for (Operation *user : iv.getUsers()) {
      if (auto store = dyn_cast<memref::StoreOp>(user);
          store && store.getValueToStore() == iv)
        return std::nullopt;
      if (!isa<memref::LoadOp, memref::StoreOp>(user))
        return std::nullopt;
      users.insert(user);
    }
  SmallVector<Access> accesses;
  for (Operation *user : users)
    accesses.push_back({user});
  return accesses;
}

/// Where variables [first, last] of `loop` appear in `access`: the dim of
/// `first` when they index consecutive dims in order, each once, with the
/// memref's later dims as long as the later variables' extents (so the
/// merged index is the collapsed dim's); -1 when none appears; null when
/// they cannot merge for this access.
std::optional<int64_t> groupDim(scf::ParallelOp loop, ArrayRef<int64_t> extents,
                                int64_t first, int64_t last,
                                const Access &access) {
  auto type = cast<MemRefType>(access.memref().getType());
  if (!type.getLayout().isIdentity() || !type.hasStaticShape() ||
      !loop.isDefinedOutsideOfLoop(access.memref()))
    return std::nullopt;
  SmallVector<Value> indices(access.indices());
  // getInductionVars() returns a new vector: keep it alive.
  SmallVector<Value> ivs(loop.getInductionVars());
  auto position = [&](Value iv) -> std::optional<int64_t> {
    std::optional<int64_t> found;
    for (auto [d, index] : llvm::enumerate(indices))
      if (index == iv) {
        if (found)
          return -2; // twice
        found = d;
      }
    return found;
  };
  std::optional<int64_t> start = position(ivs[first]);
  bool anyAppears = false;
  for (int64_t v = first; v <= last; ++v)
    anyAppears |= position(ivs[v]).has_value();
  if (!anyAppears)
    return -1;
  if (!start || *start < 0)
    return std::nullopt;
  for (int64_t v = first + 1; v <= last; ++v) {
    int64_t d = *start + (v - first);
    if (position(ivs[v]) != d || type.getDimSize(d) != extents[v])
      return std::nullopt;
  }
  return start;
}

/// Merges runs of consecutive variables of `loop` that every access walks
/// contiguously; returns whether it changed anything. With `keepFirst` the
/// first variable stays as it is (see runOnOperation).
bool coalesce(scf::ParallelOp loop, bool keepFirst, RewriterBase &rewriter) {
  if (!loop.getInitVals().empty())
    return false;
  SmallVector<int64_t> extents;
  for (auto [lb, ub, step] :
       llvm::zip(loop.getLowerBound(), loop.getUpperBound(), loop.getStep())) {
    APInt l, u, s;
    if (!matchPattern(lb, m_ConstantInt(&l)) ||
        !matchPattern(ub, m_ConstantInt(&u)) ||
        !matchPattern(step, m_ConstantInt(&s)) || !l.isZero() || !s.isOne())
      return false;
    extents.push_back(u.getSExtValue());
  }
  std::optional<SmallVector<Access>> accesses = accessesOfVariables(loop);
  if (!accesses)
    return false;
  auto mergeable = [&](int64_t first, int64_t last) {
    return llvm::all_of(*accesses, [&](const Access &access) {
      return groupDim(loop, extents, first, last, access).has_value();
    });
  };
  // Greedy runs from the outermost variable.
  SmallVector<std::pair<int64_t, int64_t>> groups;
  int64_t n = static_cast<int64_t>(extents.size());
  for (int64_t first = 0; first < n;) {
    int64_t last = first;
    while (last + 1 < n && !(keepFirst && first == 0) &&
           mergeable(first, last + 1))
      ++last;
    groups.push_back({first, last});
    first = last + 1;
  }
  if (static_cast<int64_t>(groups.size()) == n)
    return false;

  // Each access's new memref (a collapse_shape view, shared by accesses of
  // the same memref and grouping) and indices.
  Location loc = loop.getLoc();
  rewriter.setInsertionPoint(loop);
  std::map<std::pair<const void *, SmallVector<int64_t>>, Value> views;
  for (const Access &access : *accesses) {
    SmallVector<Value> indices(access.indices());
    SmallVector<int64_t> collapsedFrom; // the first dim of each view dim
    SmallVector<ReassociationIndices> reassociation;
    SmallVector<Value> newIndices;
    int64_t rank = static_cast<int64_t>(indices.size());
    std::map<int64_t, int64_t> runLength; // dim -> dims merged into it
    for (auto [first, last] : groups) {
      if (first == last)
        continue;
      int64_t d = *groupDim(loop, extents, first, last, access);
      if (d >= 0)
        runLength[d] = last - first + 1;
    }
    if (runLength.empty())
      continue;
    for (int64_t d = 0; d < rank;) {
      int64_t length = runLength.count(d) ? runLength[d] : 1;
      ReassociationIndices group;
      for (int64_t k = d; k < d + length; ++k)
        group.push_back(k);
      reassociation.push_back(group);
      newIndices.push_back(indices[d]);
      collapsedFrom.push_back(d);
      d += length;
    }
    Value memref = access.memref();
    Value &view = views[{memref.getAsOpaquePointer(), collapsedFrom}];
    if (!view)
      view = rewriter.create<memref::CollapseShapeOp>(loc, memref,
                                                      reassociation);
    rewriter.modifyOpInPlace(access.op, [&] {
      if (auto load = dyn_cast<memref::LoadOp>(access.op)) {
        load.getMemrefMutable().assign(view);
        load.getIndicesMutable().assign(newIndices);
      } else {
        auto store = cast<memref::StoreOp>(access.op);
        store.getMemrefMutable().assign(view);
        store.getIndicesMutable().assign(newIndices);
      }
    });
  }

  // The new loop: one variable per run, the first of the run's variables
  // standing for the run (the others are no longer used).
  SmallVector<Value> lbs, ubs, steps;
  Value zero = rewriter.create<arith::ConstantIndexOp>(loc, 0);
  Value one = rewriter.create<arith::ConstantIndexOp>(loc, 1);
  for (auto [first, last] : groups) {
    int64_t extent = 1;
    for (int64_t v = first; v <= last; ++v)
      extent *= extents[v];
    lbs.push_back(zero);
    ubs.push_back(rewriter.create<arith::ConstantIndexOp>(loc, extent));
    steps.push_back(one);
  }
  auto merged = rewriter.create<scf::ParallelOp>(loc, lbs, ubs, steps);
  Block *body = merged.getBody();
  rewriter.eraseOp(body->getTerminator());
  SmallVector<Value> replacements;
  for (auto [i, range] : llvm::enumerate(groups))
    for (int64_t v = range.first; v <= range.second; ++v)
      replacements.push_back(merged.getInductionVars()[i]);
  rewriter.inlineBlockBefore(loop.getBody(), body, body->end(), replacements);
  rewriter.eraseOp(loop);
  return true;
}

struct CoalesceLoopsPass
    : tcc::impl::TccCoalesceLoopsBase<CoalesceLoopsPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      SmallVector<scf::ParallelOp> loops(
          func.getBody().front().getOps<scf::ParallelOp>());
      // tcc-tile-kernels splits the first variable, whose extent all of a
      // kernel's loops must share: with several loops, merging it into one
      // loop and not another (a fill and a window loop) would lose that.
      bool keepFirst = loops.size() > 1;
      for (scf::ParallelOp loop : loops)
        coalesce(loop, keepFirst, rewriter);
    }
  }
};

} // namespace
