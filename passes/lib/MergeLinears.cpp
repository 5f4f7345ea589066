//===- MergeLinears.cpp - One GEMM for linears that share their input -----===//
//
// Attention's q, k and v projections read the same input: as one linear
// with the weights stacked, the input is packed once and the microkernels
// run one larger GEMM instead of three small ones. Each old result becomes a
// slice of the merged one along its last dim; the code generator reads such
// slices in place (a leading dimension and an offset), so no copy is made.
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/Passes.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCMERGELINEARS
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// Whether `value` reaches only matmuls, through reshapes and transposes:
/// such a result takes no epilogue (bias, activation, residual) that
/// merging would keep from fusing into its GEMM, and the code generator
/// reads its slice of the merged result in place.
bool feedsOnlyMatmuls(Value value) {
  for (Operation *user : value.getUsers()) {
    if (isa<ReshapeOp, TransposeOp>(user)) {
      if (!feedsOnlyMatmuls(user->getResult(0)))
        return false;
    } else if (!isa<MatmulOp>(user)) {
      return false;
    }
  }
  return true;
}

/// The shape a linear must have to join a merge: fp32, a constant 2-D
/// weight, a constant bias or none, and a result that feeds only matmuls.
bool mergeable(LinearOp linear) {
  auto weightType = cast<RankedTensorType>(linear.getWeight().getType());
  if (!weightType.getElementType().isF32() || weightType.getRank() != 2 ||
      !linear.getWeight().getDefiningOp<ConstantOp>())
    return false;
  if (Value bias = linear.getBias(); bias && !bias.getDefiningOp<ConstantOp>())
    return false;
  return feedsOnlyMatmuls(linear.getResult());
}

/// The key under which linears merge: same block and input (so the same
/// K), bias or not.
struct MergeKey {
  Block *block;
  Value input;
  bool hasBias;
  bool operator<(const MergeKey &o) const {
    if (block != o.block)
      return block < o.block;
    if (input != o.input)
      return input.getAsOpaquePointer() < o.input.getAsOpaquePointer();
    return hasBias < o.hasBias;
  }
};

void merge(ArrayRef<LinearOp> group) {
  LinearOp first = group.front();
  OpBuilder b(first);
  Location loc = first.getLoc();
  // A constant defined after `first` moves up to it (it takes no operands,
  // so its uses stay dominated); one defined earlier stays where it is.
  auto hoist = [&](Value constant) {
    Operation *op = constant.getDefiningOp();
    if (op->getBlock() == first->getBlock() && first->isBeforeInBlock(op))
      op->moveBefore(first);
    return constant;
  };
  SmallVector<Value> weights, biases;
  for (LinearOp linear : group) {
    weights.push_back(hoist(linear.getWeight()));
    if (Value bias = linear.getBias())
      biases.push_back(hoist(bias));
  }
  // tcc-fold-constants turns the concats into one weight and one bias.
  Value weight = b.create<ConcatOp>(loc, weights, b.getI64IntegerAttr(0));
  Value bias = biases.empty() ? Value()
                              : b.create<ConcatOp>(loc, biases,
                                                   b.getI64IntegerAttr(0))
                                    .getResult();
  // The merged GEMM reports every linear it computes (tcc inspect, bench).
  SmallVector<Location> locs;
  for (LinearOp linear : group)
    locs.push_back(linear.getLoc());
  auto merged = b.create<LinearOp>(b.getFusedLoc(locs), first.getInput(),
                                   weight, bias);
  auto mergedType = cast<RankedTensorType>(merged.getType());
  int64_t rank = mergedType.getRank(), column = 0;
  for (LinearOp linear : group) {
    auto type = cast<RankedTensorType>(linear.getType());
    SmallVector<int64_t> start(rank, 0), end(mergedType.getShape()),
        step(rank, 1);
    start.back() = column;
    column += type.getShape().back();
    end.back() = column;
    auto slice = b.create<SliceOp>(
        linear.getLoc(), ValueRange{merged.getResult()},
        ArrayRef<NamedAttribute>{
            b.getNamedAttr("start", b.getDenseI64ArrayAttr(start)),
            b.getNamedAttr("end", b.getDenseI64ArrayAttr(end)),
            b.getNamedAttr("step", b.getDenseI64ArrayAttr(step))});
    linear.getResult().replaceAllUsesWith(slice.getResult());
  }
  for (LinearOp linear : group) // after the slices: `b` inserts before first
    linear.erase();
}

struct MergeLinearsPass
    : public tcc::impl::TccMergeLinearsBase<MergeLinearsPass> {
  void runOnOperation() override {
    // Groups in program order, each in the order its linears appear.
    std::map<MergeKey, SmallVector<LinearOp>> groups;
    SmallVector<MergeKey> order;
    getOperation().walk([&](LinearOp linear) {
      if (!mergeable(linear))
        return;
      MergeKey key{linear->getBlock(), linear.getInput(),
                   bool(linear.getBias())};
      auto [it, inserted] = groups.try_emplace(key);
      if (inserted)
        order.push_back(key);
      it->second.push_back(linear);
    });
    for (const MergeKey &key : order)
      if (groups[key].size() > 1)
        merge(groups[key]);
  }
};

} // namespace
