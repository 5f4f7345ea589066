//===- ConvTranspose.cpp - ONNX ConvTranspose -----------------------------===//
//
// A transposed convolution is a convolution of the input with stride - 1
// zeros inserted between its elements, padded by (dilated kernel - 1 -
// pads) on each side (plus output_padding at the end), by the weight with
// its spatial dims flipped and its in/out channels swapped per group.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"
#include "Spatial.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - (a % b != 0 && (a < 0) != (b < 0));
}

/// [N, C, D1, ...] with stride[i] - 1 zeros after each element of D_i
/// except the last: reshape to [N, C, D1, 1, D2, 1, ...], pad the 1s, merge.
Value insertZeros(NodeContext &n, Value x, llvm::ArrayRef<int64_t> stride) {
  if (llvm::all_of(stride, [](int64_t s) { return s == 1; }))
    return x;
  auto shape = NodeContext::shapeOf(x);
  std::vector<int64_t> split{shape[0], shape[1]}, merged{shape[0], shape[1]},
      begin, end;
  for (size_t i = 0; i < stride.size(); ++i) {
    split.insert(split.end(), {shape[2 + i], 1});
    merged.push_back(shape[2 + i] * stride[i]);
    begin.insert(begin.end(), {0, 0});
    end.insert(end.end(), {0, stride[i] - 1});
  }
  Value y = padTrailing(n, n.reshape(x, split), begin, end, 0.0);
  y = n.reshape(y, merged);
  // Drop the zeros after the last element.
  std::vector<int64_t> none(stride.size(), 0), crop;
  for (int64_t s : stride)
    crop.push_back(1 - s);
  return padTrailing(n, y, none, crop, 0.0);
}

/// [Cin, Cout/g, K...] -> [Cout, Cin/g, K...], each K reversed.
Value convWeight(NodeContext &n, Value w, int64_t groups) {
  auto shape = NodeContext::shapeOf(w);
  int64_t rank = shape.size();
  std::vector<int64_t> kernel(shape.begin() + 2, shape.end());
  std::vector<int64_t> grouped{groups, shape[0] / groups, shape[1]};
  grouped.insert(grouped.end(), kernel.begin(), kernel.end());
  std::vector<int64_t> perm{0, 2, 1};
  for (int64_t d = 3; d < rank + 1; ++d)
    perm.push_back(d);
  Value v = n.create<tcc::TransposeOp>(n.reshape(w, grouped),
                                       {n.i64ArrayAttr("permutation", perm)});
  std::vector<int64_t> out{shape[1] * groups, shape[0] / groups};
  out.insert(out.end(), kernel.begin(), kernel.end());
  v = n.reshape(v, out);
  for (int64_t d = 2; d < rank; ++d) {
    checkTableSize(n, shape[d], "the kernel's reversed index vector");
    std::vector<int64_t> reversed;
    for (int64_t i = shape[d] - 1; i >= 0; --i)
      reversed.push_back(i);
    v = n.create<tcc::IndexSelectOp>({v, n.i64Vector(reversed)},
                                     {n.i64Attr("dim", d)});
  }
  return v;
}

void convTranspose(NodeContext &n) {
  n.checkAttrs({"auto_pad", "dilations", "group", "kernel_shape",
                "output_padding", "output_shape", "pads", "strides"});
  Value x = n.input(0), weight = n.input(1), bias = n.optionalInput(2);
  auto xs = NodeContext::shapeOf(x), ws = NodeContext::shapeOf(weight);
  if (ws.size() != xs.size() || xs.size() < 3 || xs.size() > 5)
    n.fail("the input and weight must have the same rank, 3 to 5");
  size_t spatial = xs.size() - 2;
  int64_t groups = n.intAttr("group", 1);
  if (groups < 1 || xs[1] != ws[0] || ws[0] % groups != 0)
    n.fail("the weight's first dim must be the input's " +
           std::to_string(xs[1]) + " channels, a multiple of group");
  std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
  if (n.hasAttr("kernel_shape") && n.intsAttr("kernel_shape") != kernel)
    n.fail("kernel_shape does not match the weight's shape");
  std::vector<int64_t> stride =
      n.intsAttr("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> dilation =
      n.intsAttr("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> outputPadding =
      n.intsAttr("output_padding", std::vector<int64_t>(spatial, 0));
  std::vector<int64_t> pads =
      n.intsAttr("pads", std::vector<int64_t>(2 * spatial, 0));
  if (stride.size() != spatial || dilation.size() != spatial ||
      outputPadding.size() != spatial || pads.size() != 2 * spatial)
    n.fail("strides, dilations, output_padding or pads do not match the " +
           std::to_string(spatial) + " spatial dims");
  for (size_t i = 0; i < spatial; ++i)
    if (stride[i] < 1 || dilation[i] < 1 || outputPadding[i] < 0)
      n.fail("strides and dilations must be at least 1, output_padding at "
             "least 0");
  std::string autoPad = n.stringAttr("auto_pad", "NOTSET");
  if (autoPad != "NOTSET" && autoPad != "SAME_UPPER" &&
      autoPad != "SAME_LOWER" && autoPad != "VALID")
    n.fail("auto_pad '" + autoPad + "' is not NOTSET, SAME_UPPER, "
           "SAME_LOWER or VALID");
  auto extent = [&](size_t i) { return (kernel[i] - 1) * dilation[i] + 1; };
  bool same = autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER";
  if (autoPad == "VALID")
    std::fill(pads.begin(), pads.end(), 0);
  if (n.hasAttr("output_shape") || same) {
    // The pads that give the output shape (ONNX's equations; a negative
    // total pads the output).
    std::vector<int64_t> outShape = n.intsAttr("output_shape");
    if (outShape.empty())
      for (size_t i = 0; i < spatial; ++i)
        outShape.push_back(xs[2 + i] * stride[i]);
    if (outShape.size() == spatial + 2)
      outShape.erase(outShape.begin(), outShape.begin() + 2);
    if (outShape.size() != spatial)
      n.fail("output_shape does not match the " + std::to_string(spatial) +
             " spatial dims");
    for (size_t i = 0; i < spatial; ++i) {
      int64_t total = stride[i] * (xs[2 + i] - 1) + outputPadding[i] +
                      extent(i) - outShape[i];
      int64_t half = floorDiv(total, 2);
      pads[i] = autoPad == "SAME_UPPER" ? half : total - half;
      pads[i + spatial] = autoPad == "SAME_UPPER" ? total - half : half;
    }
  }
  std::vector<int64_t> begin, end;
  for (size_t i = 0; i < spatial; ++i) {
    begin.push_back(extent(i) - 1 - pads[i]);
    end.push_back(extent(i) - 1 - pads[i + spatial] + outputPadding[i]);
    int64_t size = (xs[2 + i] - 1) * stride[i] + 1 + begin[i] + end[i];
    if (size < extent(i))
      n.fail("the pads leave no output in spatial dim " + std::to_string(i));
  }
  Value y = padTrailing(n, insertZeros(n, x, stride), begin, end, 0.0);
  std::vector<int64_t> ones(spatial, 1), zeros(spatial, 0);
  n.setOutput(0, convolve(n, y, convWeight(n, weight, groups), bias, ones,
                          dilation, zeros, groups));
}

} // namespace

void mlir::tcc::onnx::registerConvTransposeOps(OpTable &t) {
  t.add("ConvTranspose", 1, convTranspose);
}
