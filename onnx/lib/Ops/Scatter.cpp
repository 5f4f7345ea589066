//===- Scatter.cpp - ONNX ScatterElements and ScatterND -------------------===//
//
// tcc has no scatter, but with constant indices a scatter is a gather: both
// ops write rows of updates [U, S] into rows of data [R, S] (ScatterND's
// slices; single elements for ScatterElements), and the importer works out
// which updates land on each row. The j-th update to reach each row is one
// index_select of the updates with a constant table, combined into the
// data where a constant mask says that row has a j-th update (for
// reduction 'none', only the last writer is taken). Indices computed by the
// graph are refused.
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

/// Writes update rows into `data` viewed as [rows, rowSize]; `targets[u]`
/// is the row update u writes.
Value scatterRows(NodeContext &n, Value data, Value updates, int64_t rows,
                  int64_t rowSize, const std::vector<int64_t> &targets,
                  const std::string &reduction) {
  checkTableSize(n, rows, "the scatter's row table");
  std::vector<std::vector<int64_t>> writers(rows);
  for (size_t u = 0; u < targets.size(); ++u)
    writers[targets[u]].push_back(u);
  if (reduction == "none")
    for (auto &w : writers)
      if (w.size() > 1)
        w.erase(w.begin(), w.end() - 1); // the last write wins
  size_t rounds = 0;
  for (const auto &w : writers)
    rounds = std::max(rounds, w.size());
  auto shape = NodeContext::shapeOf(data);
  Type i1 = n.builder().getI1Type();
  Value y = n.reshape(data, {rows, rowSize});
  Value source = n.reshape(updates, {int64_t(targets.size()), rowSize});
  for (size_t j = 0; j < rounds; ++j) {
    std::vector<int64_t> table;
    ConstantData mask = ConstantData::zeros(RankedTensorType::get({rows, 1}, i1));
    for (int64_t r = 0; r < rows; ++r) {
      bool has = j < writers[r].size();
      table.push_back(has ? writers[r][j] : 0);
      mask.setInt(r, has);
    }
    Value v = n.create<tcc::IndexSelectOp>({source, n.i64Vector(table)},
                                           {n.i64Attr("dim", 0)});
    if (reduction == "add")
      v = n.create<tcc::AddOp>({y, v});
    else if (reduction == "mul")
      v = n.create<tcc::MulOp>({y, v});
    else if (reduction == "max")
      v = n.create<tcc::MaximumOp>({y, v});
    else if (reduction == "min")
      v = n.create<tcc::MinimumOp>({y, v});
    y = n.create<tcc::SelectOp>({n.constant(mask), v, y});
  }
  return n.reshape(y, shape);
}

std::string readReduction(NodeContext &n) {
  std::string reduction = n.stringAttr("reduction", "none");
  if (reduction != "none" && reduction != "add" && reduction != "mul" &&
      reduction != "max" && reduction != "min")
    n.fail("reduction '" + reduction + "' is not none, add, mul, max or min");
  return reduction;
}

/// Index `v` of a dim of `size`, negative ones counted from the end.
int64_t wrapIndex(NodeContext &n, int64_t v, int64_t size) {
  if (v < -size || v >= size)
    n.fail("index " + std::to_string(v) + " is out of range for a dim of size " +
           std::to_string(size));
  return v < 0 ? v + size : v;
}

void scatterElements(NodeContext &n) {
  n.checkAttrs({"axis", "reduction"});
  Value data = n.input(0), updates = n.input(2);
  auto ds = NodeContext::shapeOf(data);
  auto us = NodeContext::shapeOf(updates);
  int64_t rank = ds.size();
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), rank, "axis");
  std::string reduction = readReduction(n);
  std::vector<int64_t> indices = n.intsInput(1, "indices");
  if (NodeContext::shapeOf(n.input(1)) != us)
    n.fail("indices and updates must have one shape");
  if (int64_t(us.size()) != rank)
    n.fail("updates must have the data's rank");
  for (int64_t d = 0; d < rank; ++d)
    if (d != axis && us[d] > ds[d])
      n.fail("updates are larger than the data in dim " + std::to_string(d));
  std::vector<int64_t> targets;
  for (size_t u = 0; u < indices.size(); ++u) {
    // The data position of update u: its own, with the axis from indices.
    int64_t rest = u, flat = 0, stride = 1;
    std::vector<int64_t> position(rank);
    for (int64_t d = rank - 1; d >= 0; --d) {
      position[d] = rest % us[d];
      rest /= us[d];
    }
    position[axis] = wrapIndex(n, indices[u], ds[axis]);
    for (int64_t d = rank - 1; d >= 0; --d) {
      flat += position[d] * stride;
      stride *= ds[d];
    }
    targets.push_back(flat);
  }
  int64_t elements = NodeContext::typeOf(data).getNumElements();
  n.setOutput(0, scatterRows(n, data, updates, elements, 1, targets, reduction));
}

void scatterND(NodeContext &n) {
  n.checkAttrs({"reduction"});
  Value data = n.input(0), updates = n.input(2);
  auto ds = NodeContext::shapeOf(data);
  auto is = NodeContext::shapeOf(n.input(1));
  std::string reduction = readReduction(n);
  std::vector<int64_t> indices = n.intsInput(1, "indices");
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
  int64_t rows = 1, rowSize = 1;
  for (int64_t d = 0; d < k; ++d)
    rows *= ds[d];
  for (size_t d = k; d < ds.size(); ++d)
    rowSize *= ds[d];
  std::vector<int64_t> targets;
  for (size_t t = 0; t < indices.size(); t += k) {
    int64_t row = 0;
    for (int64_t d = 0; d < k; ++d)
      row = row * ds[d] + wrapIndex(n, indices[t + d], ds[d]);
    targets.push_back(row);
  }
  n.setOutput(0, scatterRows(n, data, updates, rows, rowSize, targets, reduction));
}

} // namespace

void mlir::tcc::onnx::registerScatterOps(OpTable &t) {
  t.add("ScatterElements", 11, scatterElements);
  t.add("ScatterND", 11, scatterND);
}
