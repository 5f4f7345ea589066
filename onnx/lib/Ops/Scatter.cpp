//===- Scatter.cpp - ScatterElements, ScatterND, MaxUnpool, TensorScatter -===//
//
// All four are tcc.scatter (ScatterElements' semantics: one index per
// update, along one dim). tcc.scatter takes indices in [0, size): ONNX's
// negative indices count from the end, so the importer adds the size to
// them, at import when the indices are constants (and then refuses an
// index out of range, naming the node) or with arithmetic in the graph when
// the graph computes them (out of range, the interpreter then throws and
// compiled code skips the update; see tcc.scatter).
//
// ScatterND writes whole slices: data is viewed as rows [R, S] (R the
// product of the k indexed dims), each index tuple becomes a linear row
// number, and the rows scatter along dim 0. MaxUnpool's indices are
// MaxPool's flat indices into the whole output; TensorScatter writes
// updates at per-batch offsets along the sequence axis.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

ScatterReduction readReduction(NodeContext &n) {
  std::string reduction = n.stringAttr("reduction", "none");
  if (auto kind = symbolizeScatterReduction(reduction))
    return *kind;
  n.fail("reduction '" + reduction + "' is not none, add, mul, max or min");
}

/// Fails unless input `i` holds int32 or int64 values.
void checkIndexType(NodeContext &n, size_t i, const char *what) {
  Type t = NodeContext::elementTypeOf(n.input(i));
  if (!t.isInteger(64) && !t.isInteger(32)) {
    std::string name;
    llvm::raw_string_ostream os(name);
    os << t;
    n.fail(std::string(what) + " must be int32 or int64, got " + name);
  }
}

/// An i64 constant of `shape` holding `values`.
Value i64Constant(NodeContext &n, ArrayRef<int64_t> shape,
                  ArrayRef<int64_t> values) {
  ConstantData data = ConstantData::zeros(
      RankedTensorType::get(shape, n.builder().getI64Type()));
  for (size_t k = 0; k < values.size(); ++k)
    data.setInt(int64_t(k), values[k]);
  return n.constant(data);
}

/// Index `v` of a dim of `size`, negative ones counted from the end.
int64_t wrapIndex(NodeContext &n, int64_t v, int64_t size, const char *what) {
  if (v < -size || v >= size)
    n.fail(std::string(what) + " " + std::to_string(v) +
           " is out of range for a dim of size " + std::to_string(size));
  return v < 0 ? v + size : v;
}

/// `index` (i64) with `size` added where it is negative: ONNX's
/// from-the-end indices as tcc.scatter's. `size` broadcasts against index.
Value wrapNegative(NodeContext &n, Value index, Value size) {
  Value zero = n.scalar(0, n.builder().getI64Type());
  Value negative = n.create<tcc::LtOp>({index, zero});
  return n.create<tcc::SelectOp>(
      {negative, n.create<tcc::AddOp>({index, size}), index});
}

Value scatter(NodeContext &n, Value data, Value index, Value updates,
              int64_t dim, ScatterReduction reduction) {
  return n.create<tcc::ScatterOp>(
      {data, index, updates},
      {n.i64Attr("dim", dim),
       n.namedAttr("reduction",
                   ScatterReductionAttr::get(n.context(), reduction))});
}

void scatterElements(NodeContext &n) {
  n.checkAttrs({"axis", "reduction"});
  Value data = n.input(0), updates = n.input(2);
  auto ds = NodeContext::shapeOf(data);
  auto us = NodeContext::shapeOf(updates);
  int64_t rank = ds.size();
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), rank, "axis");
  ScatterReduction reduction = readReduction(n);
  checkIndexType(n, 1, "indices");
  if (NodeContext::shapeOf(n.input(1)) != us)
    n.fail("indices and updates must have one shape");
  if (int64_t(us.size()) != rank)
    n.fail("updates must have the data's rank");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && us[d] > ds[d])
      n.fail("updates are larger than the data in dim " + std::to_string(d));
  Value index;
  if (std::optional<ConstantData> known = n.constantInput(1)) {
    std::vector<int64_t> values(known->numElements());
    for (int64_t k = 0; k < known->numElements(); ++k)
      values[k] = wrapIndex(n, known->getInt(k), ds[axis], "index");
    index = i64Constant(n, us, values);
  } else {
    index = wrapNegative(n, n.cast(n.input(1), n.builder().getI64Type()),
                         n.scalar(ds[axis], n.builder().getI64Type()));
  }
  n.setOutput(0, scatter(n, data, index, updates, axis, reduction));
}

/// Scatters rows [U, S] of `updates` into `data` viewed as [R, S] at row
/// numbers `rows` ([U], i64).
Value scatterRows(NodeContext &n, Value data, Value rows, Value updates,
                  int64_t rowCount, int64_t rowSize,
                  ScatterReduction reduction) {
  auto shape = NodeContext::shapeOf(data);
  int64_t u = NodeContext::shapeOf(rows)[0];
  Value index = n.broadcastTo(n.reshape(rows, {u, 1}), {u, rowSize});
  Value y = scatter(n, n.reshape(data, {rowCount, rowSize}), index,
                    n.reshape(updates, {u, rowSize}), 0, reduction);
  return n.reshape(y, shape);
}

void scatterND(NodeContext &n) {
  n.checkAttrs({"reduction"});
  Value data = n.input(0), updates = n.input(2);
  auto ds = NodeContext::shapeOf(data);
  auto is = NodeContext::shapeOf(n.input(1));
  ScatterReduction reduction = readReduction(n);
  checkIndexType(n, 1, "indices");
  if (is.empty())
    n.fail("indices must have rank 1 or more");
  int64_t k = is.back();
  if (k < 1 || k > int64_t(ds.size()))
    n.fail("the index tuples have " + std::to_string(k) +
           " entries for data of rank " + std::to_string(ds.size()));
  std::vector<int64_t> expected(is.begin(), is.end() - 1);
  expected.insert(expected.end(), ds.begin() + k, ds.end());
  if (NodeContext::shapeOf(updates) != llvm::ArrayRef<int64_t>(expected))
    n.fail("updates must have shape indices.shape[:-1] + data.shape[k:]");
  int64_t rowCount = 1, rowSize = 1, tuples = 1;
  for (int64_t d = 0; d < k; ++d)
    rowCount *= ds[d];
  for (size_t d = k; d < ds.size(); ++d)
    rowSize *= ds[d];
  for (size_t d = 0; d + 1 < is.size(); ++d)
    tuples *= is[d];
  if (tuples == 0 || rowSize == 0) {
    n.setOutput(0, data);
    return;
  }
  std::vector<int64_t> stride(k, 1);
  for (int64_t d = k - 1; d > 0; --d)
    stride[d - 1] = stride[d] * ds[d];
  Value rows;
  if (std::optional<ConstantData> known = n.constantInput(1)) {
    std::vector<int64_t> values;
    for (int64_t t = 0; t < tuples; ++t) {
      int64_t row = 0;
      for (int64_t d = 0; d < k; ++d)
        row += wrapIndex(n, known->getInt(t * k + d), ds[d], "index") *
               stride[d];
      values.push_back(row);
    }
    rows = i64Constant(n, {tuples}, values);
  } else {
    // Row number = sum of wrapped components times the row strides; a tuple
    // with a component out of range gets row R (out of range as a whole),
    // so that it cannot land on another row.
    Type i64 = n.builder().getI64Type();
    Value tupleIndex =
        n.reshape(n.cast(n.input(1), i64), {tuples, k});
    Value valid;
    for (int64_t d = 0; d < k; ++d) {
      Value c = n.reshape(
          n.create<tcc::SliceOp>(
              tupleIndex, {n.i64ArrayAttr("start", {0, d}),
                           n.i64ArrayAttr("end", {tuples, d + 1}),
                           n.i64ArrayAttr("step", {1, 1})}),
          {tuples});
      c = wrapNegative(n, c, n.scalar(ds[d], i64));
      Value inRange = n.create<tcc::LogicalAndOp>(
          {n.create<tcc::GeOp>({c, n.scalar(0, i64)}),
           n.create<tcc::LtOp>({c, n.scalar(ds[d], i64)})});
      valid = valid ? n.create<tcc::LogicalAndOp>({valid, inRange}) : inRange;
      Value term = n.create<tcc::MulOp>({c, n.scalar(stride[d], i64)});
      rows = rows ? n.create<tcc::AddOp>({rows, term}) : term;
    }
    rows = n.create<tcc::SelectOp>({valid, rows, n.scalar(rowCount, i64)});
  }
  n.setOutput(0, scatterRows(n, data, rows, updates, rowCount, rowSize,
                             reduction));
}

/// MaxUnpool: zeros of the inferred shape with X written at the flat
/// positions MaxPool's Indices name; a larger output_shape pads zeros after
/// (ONNX's reference places the inferred block at the start of each dim).
void maxUnpool(NodeContext &n) {
  n.checkAttrs({"kernel_shape", "pads", "strides"});
  Value x = n.input(0);
  auto xs = NodeContext::shapeOf(x);
  if (xs.size() < 3)
    n.fail("X must be [N, C, D1, ...], got rank " + std::to_string(xs.size()));
  size_t spatial = xs.size() - 2;
  checkIndexType(n, 1, "I");
  if (NodeContext::shapeOf(n.input(1)) != xs)
    n.fail("I must have the shape of X");
  std::vector<int64_t> kernel = n.intsAttr("kernel_shape", {});
  std::vector<int64_t> strides =
      n.intsAttr("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads =
      n.intsAttr("pads", std::vector<int64_t>(2 * spatial, 0));
  if (kernel.size() != spatial || strides.size() != spatial ||
      pads.size() != 2 * spatial)
    n.fail("kernel_shape and strides need one entry per spatial dim, pads "
           "two");
  std::vector<int64_t> inferred(xs.begin(), xs.begin() + 2);
  for (size_t d = 0; d < spatial; ++d) {
    if (kernel[d] < 1 || strides[d] < 1 || pads[d] < 0 || pads[d + spatial] < 0)
      n.fail("kernel_shape and strides must be positive, pads non-negative");
    int64_t size = (xs[2 + d] - 1) * strides[d] + kernel[d] - pads[d] -
                   pads[d + spatial];
    if (size < 0)
      n.fail("the pads leave spatial dim " + std::to_string(d) +
             " a negative size");
    inferred.push_back(size);
  }
  std::vector<int64_t> outShape = inferred;
  if (n.hasInput(2)) {
    outShape = n.intsInput(2, "output_shape");
    if (outShape.size() != xs.size())
      n.fail("output_shape must have X's rank " + std::to_string(xs.size()));
    for (size_t d = 0; d < outShape.size(); ++d)
      if (outShape[d] < inferred[d] || (d < 2 && outShape[d] != xs[d]))
        n.fail("output_shape must keep X's N and C and be no smaller than "
               "the unpooled shape in any dim");
  }
  int64_t total = 1, count = 1;
  for (int64_t s : inferred)
    total *= s;
  for (int64_t s : xs)
    count *= s;
  Type element = NodeContext::elementTypeOf(x);
  Value y = n.splat(n.zeros({}, element), {total});
  if (count > 0 && total > 0)
    y = scatter(n, y,
                n.reshape(n.cast(n.input(1), n.builder().getI64Type()),
                          {count}),
                n.reshape(x, {count}), 0, ScatterReduction::none);
  y = n.reshape(y, inferred);
  if (outShape != inferred) {
    std::vector<int64_t> pad; // last dim first: (before, after) pairs
    for (size_t d = outShape.size(); d-- > 0;) {
      pad.push_back(0);
      pad.push_back(outShape[d] - inferred[d]);
    }
    y = n.create<tcc::PadOp>(y, {n.i64ArrayAttr("pad", pad)});
  }
  n.setOutput(0, y);
}

/// TensorScatter: update's positions along `axis` shifted by the batch's
/// write index (modulo the cache length in circular mode).
void tensorScatter(NodeContext &n) {
  n.checkAttrs({"axis", "mode"});
  Value past = n.input(0), update = n.input(1);
  auto ps = NodeContext::shapeOf(past);
  auto us = NodeContext::shapeOf(update);
  int64_t rank = ps.size();
  if (rank < 2)
    n.fail("past_cache must have rank 2 or more");
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -2), rank, "axis");
  if (axis == 0)
    n.fail("axis must not be the batch dim 0");
  std::string mode = n.stringAttr("mode", "linear");
  if (mode != "linear" && mode != "circular")
    n.fail("mode '" + mode + "' is not linear or circular");
  if (int64_t(us.size()) != rank)
    n.fail("update must have past_cache's rank");
  for (int64_t d = 0; d < rank; ++d)
    if (d == axis ? us[d] > ps[d] : us[d] != ps[d])
      n.fail("update must have past_cache's shape, with no more entries "
             "along axis " + std::to_string(axis));
  Type i64 = n.builder().getI64Type();
  Value writeAt;
  if (n.hasInput(2)) {
    checkIndexType(n, 2, "write_indices");
    if (NodeContext::shapeOf(n.input(2)) != llvm::ArrayRef<int64_t>{ps[0]})
      n.fail("write_indices must be [batch_size]");
    std::vector<int64_t> shape(rank, 1);
    shape[0] = ps[0];
    writeAt = n.reshape(n.cast(n.input(2), i64), shape);
  } else {
    writeAt = n.scalar(0, i64);
  }
  checkTableSize(n, us[axis], "the table of sequence steps");
  std::vector<int64_t> steps(us[axis]), stepShape(rank, 1);
  for (int64_t s = 0; s < us[axis]; ++s)
    steps[s] = s;
  stepShape[axis] = us[axis];
  Value index = n.create<tcc::AddOp>({writeAt, i64Constant(n, stepShape, steps)});
  if (mode == "circular")
    index = n.create<tcc::RemainderOp>({index, n.scalar(ps[axis], i64)});
  index = n.broadcastTo(index, us);
  n.setOutput(0, NodeContext::typeOf(update).getNumElements() == 0
                     ? past
                     : scatter(n, past, index, update, axis,
                               ScatterReduction::none));
}

} // namespace

void mlir::tcc::onnx::registerScatterOps(OpTable &t) {
  t.add("ScatterElements", 11, scatterElements);
  t.add("ScatterND", 11, scatterND);
  t.add("MaxUnpool", 9, maxUnpool);
  t.add("TensorScatter", 24, tensorScatter);
}
