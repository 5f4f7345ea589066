//===- Masks.cpp - ONNX ops computed with constant masks ------------------===//
//
// Trilu (a select by a triangular mask), EyeLike (a constant), OneHot (a
// compare with the class indices) and CumSum (a matmul by a triangular 0/1
// matrix, exact for integers).
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// A [rows, cols] constant of `type` holding `f(i, j)`.
template <class F>
ConstantData matrix(int64_t rows, int64_t cols, Type type, F f) {
  ConstantData m = ConstantData::zeros(RankedTensorType::get({rows, cols}, type));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      m.setInt(i * cols + j, f(i, j));
  return m;
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
  Value mask = n.constant(matrix(rows, cols, n.builder().getI1Type(),
                                 [&](int64_t i, int64_t j) {
                                   return upper ? j - i >= k : j - i <= k;
                                 }));
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
  ConstantData eye = ConstantData::zeros(RankedTensorType::get(shape, type));
  for (int64_t i = 0; i < shape[0]; ++i)
    if (i + k >= 0 && i + k < shape[1]) {
      if (isa<FloatType>(type))
        eye.setFloat(i * shape[1] + i + k, 1.0);
      else
        eye.setInt(i * shape[1] + i + k, 1);
    }
  n.setOutput(0, n.constant(eye));
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
  std::vector<int64_t> classes;
  for (int64_t c = 0; c < depth; ++c)
    classes.push_back(c);
  Value hit = n.create<tcc::EqOp>(
      {n.reshape(idx, withAxis), n.reshape(n.i64Vector(classes), classShape)});
  Value flat = n.reshape(values, {2});
  auto pick = [&](int64_t i) {
    Value v = n.create<tcc::SliceOp>(
        flat, {n.i64ArrayAttr("start", {i}), n.i64ArrayAttr("end", {i + 1}),
               n.i64ArrayAttr("step", {1})});
    return n.reshape(v, {});
  };
  n.setOutput(0, n.create<tcc::SelectOp>({hit, pick(1), pick(0)}));
}

/// Sums along `axis` as x' = x M with M[i][j] = 1 where element i adds to
/// output j, for x' with the axis moved last.
void cumSum(NodeContext &n) {
  n.checkAttrs({"exclusive", "reverse"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  if (rank < 1)
    n.fail("the input must have rank 1 or more");
  int64_t axis = n.normalizeAxis(scalarIntInput(n, 1, "axis", 0), rank, "axis");
  bool exclusive = n.intAttr("exclusive", 0), reverse = n.intAttr("reverse", 0);
  int64_t size = NodeContext::shapeOf(x)[axis];
  Type t = NodeContext::elementTypeOf(x);
  ConstantData m = matrix(size, size, n.builder().getI64Type(),
                          [&](int64_t i, int64_t j) {
                            if (i == j)
                              return !exclusive;
                            return reverse ? i > j : i < j;
                          });
  Value weights = n.cast(n.constant(m), t);
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis)
      perm.push_back(d);
  perm.push_back(axis);
  std::vector<int64_t> inverse(rank);
  for (int64_t d = 0; d < rank; ++d)
    inverse[perm[d]] = d;
  bool last = axis == rank - 1;
  Value moved = last ? x : n.create<tcc::TransposeOp>(
                               x, {n.i64ArrayAttr("permutation", perm)});
  auto ms = NodeContext::shapeOf(moved);
  Value y = n.create<tcc::MatmulOp>(
      {rank == 1 ? n.reshape(moved, {1, size}) : moved, weights});
  y = n.reshape(y, ms);
  n.setOutput(0, last ? y : n.create<tcc::TransposeOp>(
                                y, {n.i64ArrayAttr("permutation", inverse)}));
}

} // namespace

void mlir::tcc::onnx::registerMaskOps(OpTable &t) {
  t.add("Trilu", 1, trilu);
  t.add("EyeLike", 1, eyeLike);
  t.add("OneHot", 1, oneHot);
  t.add("CumSum", 1, cumSum);
}
