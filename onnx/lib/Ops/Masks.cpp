//===- Masks.cpp - ONNX ops computed with constant masks ------------------===//
//
// Trilu (a select by a triangular mask), EyeLike, OneHot (compares with
// index vectors) and CumSum (a scan of shifted adds). Masks come from
// comparing small index vectors, never from tables the size of the output.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// [0, 1, ..., size - 1] as i64, shaped `shape` (one dim is `size`).
Value iota(NodeContext &n, int64_t size, llvm::ArrayRef<int64_t> shape) {
  checkTableSize(n, size, "an index vector");
  std::vector<int64_t> values;
  for (int64_t i = 0; i < size; ++i)
    values.push_back(i);
  return n.reshape(n.i64Vector(values), shape);
}

/// The i1 [rows, cols] mask of col - row >= k (or <= k when !atLeast),
/// by comparing two index vectors.
Value diagonalMask(NodeContext &n, int64_t rows, int64_t cols, int64_t k,
                   bool atLeast) {
  Type i64 = n.builder().getI64Type();
  Value row = n.create<tcc::AddOp>({iota(n, rows, {rows, 1}), n.scalar(double(k), i64)});
  Value col = iota(n, cols, {1, cols});
  return atLeast ? n.create<tcc::GeOp>({col, row}) : n.create<tcc::LeOp>({col, row});
}

/// A scalar integer input, or `dflt` when absent.
int64_t scalarIntInput(NodeContext &n, size_t i, const char *what,
                       int64_t dflt) {
  if (!n.hasInput(i))
    return dflt;
  std::vector<int64_t> v = n.intsInput(i, what);
  if (v.size() != 1)
    n.fail(std::string(what) + " must hold one value");
  return v[0];
}

void trilu(NodeContext &n) {
  n.checkAttrs({"upper"});
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  if (shape.size() < 2)
    n.fail("the input must have rank 2 or more");
  int64_t k = scalarIntInput(n, 1, "k", 0);
  bool upper = n.intAttr("upper", 1);
  int64_t rows = shape[shape.size() - 2], cols = shape.back();
  if (NodeContext::typeOf(x).getNumElements() == 0) {
    n.setOutput(0, x);
    return;
  }
  Value mask = diagonalMask(n, rows, cols, k, upper);
  Value zero = n.scalar(0.0, NodeContext::elementTypeOf(x));
  n.setOutput(0, n.create<tcc::SelectOp>({mask, x, zero}));
}

void eyeLike(NodeContext &n) {
  n.checkAttrs({"dtype", "k"});
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  if (shape.size() != 2)
    n.fail("the input must have rank 2");
  Type type = n.hasAttr("dtype") ? n.elementTypeFor(n.intAttr("dtype"))
                                 : NodeContext::elementTypeOf(x);
  int64_t k = n.intAttr("k", 0);
  Type i64 = n.builder().getI64Type();
  Value row = n.create<tcc::AddOp>(
      {iota(n, shape[0], {shape[0], 1}), n.scalar(double(k), i64)});
  Value ones = n.create<tcc::EqOp>({row, iota(n, shape[1], {1, shape[1]})});
  n.setOutput(0, n.cast(ones, type));
}

/// out[..., c, ...] = indices[...] == c ? on : off, c along `axis`;
/// negative indices count from depth, others out of range match nothing.
void oneHot(NodeContext &n) {
  n.checkAttrs({"axis"});
  Value indices = n.input(0), values = n.input(2);
  std::vector<double> depths = n.floatsInput(1, "depth");
  if (depths.size() != 1)
    n.fail("depth must hold one value");
  int64_t depth = static_cast<int64_t>(depths[0]);
  if (depth < 1)
    n.fail("depth must be at least 1");
  if (NodeContext::typeOf(values).getNumElements() != 2)
    n.fail("values must hold two elements, [off, on]");
  auto is = NodeContext::shapeOf(indices);
  int64_t rank = is.size() + 1;
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), rank, "axis");
  Type i64 = n.builder().getI64Type();
  // Float indices are truncated toward zero, as a cast to int64.
  Value idx = n.cast(indices, i64);
  idx = n.create<tcc::SelectOp>(
      {n.create<tcc::LtOp>({idx, n.scalar(0, i64)}),
       n.create<tcc::AddOp>({idx, n.scalar(double(depth), i64)}), idx});
  std::vector<int64_t> withAxis(is.begin(), is.end()), classShape(rank, 1);
  withAxis.insert(withAxis.begin() + axis, 1);
  classShape[axis] = depth;
  Value hit = n.create<tcc::EqOp>(
      {n.reshape(idx, withAxis), iota(n, depth, classShape)});
  Value flat = n.reshape(values, {2});
  auto pick = [&](int64_t i) {
    Value v = n.create<tcc::SliceOp>(
        flat, {n.i64ArrayAttr("start", {i}), n.i64ArrayAttr("end", {i + 1}),
               n.i64ArrayAttr("step", {1})});
    return n.reshape(v, {});
  };
  n.setOutput(0, n.create<tcc::SelectOp>({hit, pick(1), pick(0)}));
}

/// An inclusive scan by doubling shifts (Hillis-Steele): after combining
/// with itself shifted by 1, 2, 4, ... positions along `axis` (filling with
/// the identity), each element holds the combination of all before it:
/// log2(size) pads and adds, exact for integers. (CumProd, a scan with
/// Mul and identity 1, is Reduction.cpp's on main.)
/// Exclusive scans shift the input by one first; reverse ones shift the
/// other way.
template <class CombineOp> void scan(NodeContext &n, double identity) {
  n.checkAttrs({"exclusive", "reverse"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  if (rank < 1)
    n.fail("the input must have rank 1 or more");
  int64_t axis = n.normalizeAxis(scalarIntInput(n, 1, "axis", 0), rank, "axis");
  bool exclusive = n.intAttr("exclusive", 0), reverse = n.intAttr("reverse", 0);
  int64_t size = NodeContext::shapeOf(x)[axis];
  // Moves elements `by` positions along the axis (toward the end, or the
  // start when reverse).
  auto shift = [&](Value v, int64_t by) {
    std::vector<int64_t> pad(2 * rank, 0);
    int64_t slot = 2 * (rank - 1 - axis); // tcc.pad runs last dim first
    pad[slot] = reverse ? -by : by;
    pad[slot + 1] = reverse ? by : -by;
    return n.create<tcc::PadOp>(
        v, {n.i64ArrayAttr("pad", pad), n.f64Attr("value", identity)});
  };
  Value y = exclusive && size > 0 ? shift(x, 1) : x;
  for (int64_t by = 1; by < size; by *= 2)
    y = n.create<CombineOp>({y, shift(y, by)});
  n.setOutput(0, y);
}

} // namespace

void mlir::tcc::onnx::registerMaskOps(OpTable &t) {
  t.add("Trilu", 14, trilu);
  t.add("EyeLike", 1, eyeLike);
  t.add("OneHot", 1, oneHot);
  t.add("CumSum", 1, [](NodeContext &n) { scan<tcc::AddOp>(n, 0.0); });
}
