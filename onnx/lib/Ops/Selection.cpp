//===- Selection.cpp - ONNX ops that pick, reorder or crop elements -------===//
//
// TopK, ReverseSequence and CenterCropPad, composed from tcc ops. TopK has no
// sort to build on: each element's rank along the axis is counted from a
// pairwise comparison (ties go to the lower index, as ONNX defines), and the
// k first ranks are picked with one-hot sums and tcc.gather.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// The permutation that moves dim `axis` of a rank-`rank` tensor last.
std::vector<int64_t> axisLast(int64_t axis, int64_t rank) {
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  return perm;
}

std::vector<int64_t> inverse(ArrayRef<int64_t> perm) {
  std::vector<int64_t> inv(perm.size());
  for (size_t i = 0; i < perm.size(); ++i)
    inv[perm[i]] = i;
  return inv;
}

Value permute(NodeContext &n, Value v, ArrayRef<int64_t> perm) {
  return n.create<tcc::TransposeOp>(v, {n.i64ArrayAttr("permutation", perm)});
}

Value sumOver(NodeContext &n, Value v, int64_t dim) {
  return n.create<tcc::ReduceSumOp>(
      v, {n.i64ArrayAttr("dims", {dim}), n.boolAttr("keepdim", false)});
}

/// An i64 constant of `shape` whose entry at flat position p is f(p).
template <class Fn>
Value i64Table(NodeContext &n, ArrayRef<int64_t> shape, Fn f) {
  ConstantData data = ConstantData::zeros(
      RankedTensorType::get(shape, n.builder().getI64Type()));
  for (int64_t p = 0; p < data.numElements(); ++p)
    data.setInt(p, f(p));
  return n.constant(data);
}

void topK(NodeContext &n) {
  n.checkAttrs({"axis", "largest", "sorted"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  if (rank == 0)
    n.fail("the input must have rank 1 or more");
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), rank, "axis");
  std::vector<int64_t> kValues = n.intsInput(1, "K");
  int64_t size = NodeContext::shapeOf(x)[axis];
  if (kValues.size() != 1 || kValues[0] < 1 || kValues[0] > size)
    n.fail("K must hold one value in [1, " + std::to_string(size) + "]");
  int64_t k = kValues[0];
  bool largest = n.intAttr("largest", 1) != 0;
  // "sorted = 0" leaves the order open; sorted order is one valid choice.

  std::vector<int64_t> perm = axisLast(axis, rank);
  Value xt = permute(n, x, perm);
  std::vector<int64_t> shape = NodeContext::shapeOf(xt).vec();
  std::vector<int64_t> column = shape, row = shape;
  column.push_back(1);                      // [..., n, 1]: element i
  row.insert(row.end() - 1, 1);             // [..., 1, n]: element j
  Value xi = n.reshape(xt, column), xj = n.reshape(xt, row);
  // j beats i when it is strictly better, or equal with a lower index.
  Value better = largest ? n.create<tcc::GtOp>({xj, xi})
                         : n.create<tcc::LtOp>({xj, xi});
  Value lowerIndex = n.create<tcc::LtOp>(
      {i64Table(n, {size}, [](int64_t j) { return j; }),
       i64Table(n, {size, 1}, [](int64_t i) { return i; })});
  Value tieWon = n.create<tcc::LogicalAndOp>(
      {n.create<tcc::EqOp>({xj, xi}), lowerIndex});
  Value beats = n.create<tcc::LogicalOrOp>({better, tieWon});
  Type i64 = n.builder().getI64Type();
  Value rankOfElement = sumOver(n, n.cast(beats, i64), rank); // [..., n]

  // indices[..., r] = the i whose rank is r.
  Value isRank = n.create<tcc::EqOp>(
      {n.reshape(rankOfElement, column),
       i64Table(n, {k}, [](int64_t r) { return r; })}); // [..., n, k]
  Value indices =
      sumOver(n, n.create<tcc::MulOp>(
                     {n.cast(isRank, i64),
                      i64Table(n, {size, 1}, [](int64_t i) { return i; })}),
              rank - 1); // [..., k]
  Value values = n.create<tcc::GatherOp>({xt, indices},
                                         {n.i64Attr("dim", rank - 1)});
  std::vector<int64_t> back = inverse(perm);
  n.setOutput(0, permute(n, values, back));
  if (n.wantsOutput(1))
    n.setOutput(1, permute(n, indices, back));
}

void reverseSequence(NodeContext &n) {
  n.checkAttrs({"batch_axis", "time_axis"});
  Value x = n.input(0), lens = n.input(1);
  int64_t rank = NodeContext::rankOf(x);
  int64_t batchAxis = n.intAttr("batch_axis", 1),
          timeAxis = n.intAttr("time_axis", 0);
  if (rank < 2 || !((batchAxis == 0 && timeAxis == 1) ||
                    (batchAxis == 1 && timeAxis == 0)))
    n.fail("the input must have rank 2 or more, with batch_axis and "
           "time_axis 0 and 1 in some order");
  auto shape = NodeContext::shapeOf(x);
  int64_t batch = shape[batchAxis], time = shape[timeAxis];
  if (NodeContext::rankOf(lens) != 1 || NodeContext::shapeOf(lens)[0] != batch)
    n.fail("sequence_lens must have shape [batch]");
  Type i64 = n.builder().getI64Type();
  // Index along the time axis: len - 1 - t for t < len, else t.
  std::vector<int64_t> lensShape(rank, 1), timeShape(rank, 1);
  lensShape[batchAxis] = batch;
  timeShape[timeAxis] = time;
  Value len = n.reshape(n.cast(lens, i64), lensShape);
  Value t = i64Table(n, timeShape, [](int64_t p) { return p; });
  Value reversed = n.create<tcc::SubOp>(
      {n.create<tcc::SubOp>({len, n.scalar(1, i64)}), t});
  Value index = n.create<tcc::SelectOp>(
      {n.create<tcc::LtOp>({t, len}), reversed, t});
  index = n.broadcastTo(index, shape);
  n.setOutput(0, n.create<tcc::GatherOp>({x, index},
                                         {n.i64Attr("dim", timeAxis)}));
}

void centerCropPad(NodeContext &n) {
  n.checkAttrs({"axes"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  std::vector<int64_t> target = n.intsInput(1, "shape");
  std::vector<int64_t> axes(rank);
  std::iota(axes.begin(), axes.end(), 0);
  if (n.hasAttr("axes"))
    axes = n.intsAttr("axes");
  if (axes.size() != target.size())
    n.fail("shape has " + std::to_string(target.size()) +
           " entries for " + std::to_string(axes.size()) + " axes");
  auto shape = NodeContext::shapeOf(x).vec();
  std::vector<int64_t> start(rank, 0), end = shape, step(rank, 1);
  std::vector<int64_t> pad(2 * rank, 0); // tcc.pad's order: last dim first
  for (size_t i = 0; i < axes.size(); ++i) {
    int64_t axis = n.normalizeAxis(axes[i], rank, "axes");
    if (target[i] < 0)
      n.fail("shape must not be negative");
    int64_t diff = shape[axis] - target[i];
    if (diff > 0) {
      start[axis] = diff / 2;
      end[axis] = start[axis] + target[i];
    } else {
      pad[2 * (rank - 1 - axis)] = -diff / 2;
      pad[2 * (rank - 1 - axis) + 1] = -diff - -diff / 2;
    }
  }
  Value y = n.create<tcc::SliceOp>(x, {n.i64ArrayAttr("start", start),
                                       n.i64ArrayAttr("end", end),
                                       n.i64ArrayAttr("step", step)});
  if (llvm::any_of(pad, [](int64_t p) { return p != 0; }))
    y = n.create<tcc::PadOp>(y, {n.i64ArrayAttr("pad", pad)});
  n.setOutput(0, y);
}

} // namespace

void mlir::tcc::onnx::registerSelectionOps(OpTable &t) {
  t.add("TopK", 10, topK);
  t.add("ReverseSequence", 10, reverseSequence);
  t.add("CenterCropPad", 18, centerCropPad);
}
