//===- AffineGrid.cpp - ONNX AffineGrid -----------------------------------===//
//
// AffineGrid maps the positions of an evenly spaced grid over [-1, 1]
// (a constant [positions, dims + 1] table in homogeneous coordinates, x
// first) through each batch entry's affine matrix: one batched matmul.
//
//===----------------------------------------------------------------------===//

#include "Constants.h"
#include "NodeContext.h"
#include "OpTable.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// Position i of `size` along one axis of the grid.
double gridCoordinate(int64_t i, int64_t size, bool alignCorners) {
  if (alignCorners)
    return size == 1 ? -1.0 : -1.0 + 2.0 * double(i) / double(size - 1);
  return -1.0 + (2.0 * double(i) + 1.0) / double(size);
}

void affineGrid(NodeContext &n) {
  n.checkAttrs({"align_corners"});
  Value theta = n.input(0);
  std::vector<int64_t> size = n.intsInput(1, "size");
  auto ts = NodeContext::shapeOf(theta);
  if (size.size() != 4 && size.size() != 5)
    n.fail("size must have 4 (2-D) or 5 (3-D) entries");
  if (std::string problem = checkShape(size); !problem.empty())
    n.fail("size: " + problem);
  int64_t dims = size.size() - 2;
  if (ts.size() != 3 || ts[0] != size[0] || ts[1] != dims || ts[2] != dims + 1)
    n.fail("theta must be [N, " + std::to_string(dims) + ", " +
           std::to_string(dims + 1) + "] for size's N");
  bool alignCorners = n.intAttr("align_corners", 0);
  // Spatial sizes, outermost first; the table's columns run x (innermost)
  // first, then a 1.
  std::vector<int64_t> spatial(size.begin() + 2, size.end());
  int64_t positions = 1;
  for (int64_t s : spatial) {
    if (s < 1)
      n.fail("size has a spatial dim below 1");
    positions *= s;
  }
  checkTableSize(n, positions * (dims + 1), "the grid table");
  Type t = NodeContext::elementTypeOf(theta);
  ConstantData grid = ConstantData::zeros(
      RankedTensorType::get({positions, dims + 1}, t));
  for (int64_t p = 0; p < positions; ++p) {
    int64_t rest = p;
    for (int64_t d = dims - 1; d >= 0; --d) {
      int64_t column = dims - 1 - d;
      grid.setFloat(p * (dims + 1) + column,
                    gridCoordinate(rest % spatial[d], spatial[d], alignCorners));
      rest /= spatial[d];
    }
    grid.setFloat(p * (dims + 1) + dims, 1.0);
  }
  Value thetaT = n.create<tcc::TransposeOp>(
      theta, {n.i64ArrayAttr("permutation", {0, 2, 1})});
  Value y = n.create<tcc::MatmulOp>(
      {n.reshape(n.constant(grid), {1, positions, dims + 1}), thetaT});
  std::vector<int64_t> out{size[0]};
  out.insert(out.end(), spatial.begin(), spatial.end());
  out.push_back(dims);
  n.setOutput(0, n.reshape(y, out));
}

} // namespace

void mlir::tcc::onnx::registerAffineGridOps(OpTable &t) {
  t.add("AffineGrid", 20, affineGrid);
}
