//===- ConvTranspose.cpp - ONNX ConvTranspose and Col2Im ------------------===//
//
// The ops that scatter windows back onto an image. A transposed
// convolution is a convolution of the input with stride - 1 zeros inserted
// between its elements, padded by (dilated kernel - 1 - pads) on each side
// (plus output_padding at the end), by the weight with its spatial dims
// flipped and its in/out channels swapped per group. Col2Im adds each
// block offset's column, spread out by stride the same way, into place.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"
#include "Spatial.h"
#include "TensorData.h"

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
  // The upper bound keeps the arithmetic below within int64.
  auto outside = [](int64_t v, int64_t lo) { return v < lo || v > kMaxElements; };
  for (size_t i = 0; i < spatial; ++i)
    if (outside(stride[i], 1) || outside(dilation[i], 1) ||
        outside(outputPadding[i], 0) || outside(pads[i], -kMaxElements) ||
        outside(pads[i + spatial], -kMaxElements))
      n.fail("strides and dilations must be at least 1, output_padding at "
             "least 0, and all at most 2^40 in size");
  for (size_t i = 0; i < spatial; ++i)
    if (kernel[i] - 1 > kMaxElements / dilation[i] ||
        xs[2 + i] > kMaxElements / stride[i])
      n.fail("spatial dim " + std::to_string(i) + " would exceed 2^40");
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
    if (std::string problem = checkShape(outShape); !problem.empty())
      n.fail("output_shape: " + problem);
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

/// out[n, c, p] sums data[n, c * blocks + b, l] over the block offsets b
/// and window positions l with p = l * stride - pad_begin + b * dilation:
/// per block offset, the columns spread out by stride, padded into place.
void col2Im(NodeContext &n) {
  n.checkAttrs({"dilations", "pads", "strides"});
  Value x = n.input(0);
  std::vector<int64_t> image = n.intsInput(1, "image_shape");
  std::vector<int64_t> block = n.intsInput(2, "block_shape");
  size_t spatial = image.size();
  auto xs = NodeContext::shapeOf(x);
  if (xs.size() != 3 || block.size() != spatial || spatial == 0)
    n.fail("the input must be [N, C * prod(block_shape), L] and image_shape "
           "and block_shape of one length");
  std::vector<int64_t> stride =
      n.intsAttr("strides", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> dilation =
      n.intsAttr("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads =
      n.intsAttr("pads", std::vector<int64_t>(2 * spatial, 0));
  if (stride.size() != spatial || dilation.size() != spatial ||
      pads.size() != 2 * spatial)
    n.fail("strides, dilations or pads do not match image_shape");
  if (std::string problem = checkShape(image); !problem.empty())
    n.fail("image_shape: " + problem);
  if (std::string problem = checkShape(block); !problem.empty())
    n.fail("block_shape: " + problem);
  for (int64_t v : stride) if (v > kMaxElements) n.fail("a stride is above 2^40");
  for (int64_t v : dilation) if (v > kMaxElements) n.fail("a dilation is above 2^40");
  for (int64_t v : pads) if (v > kMaxElements) n.fail("a pad is above 2^40");
  int64_t blocks = 1, positions = 1;
  std::vector<int64_t> windows;
  for (size_t d = 0; d < spatial; ++d) {
    if (block[d] < 1 || stride[d] < 1 || dilation[d] < 1 || image[d] < 1 ||
        pads[d] < 0 || pads[d + spatial] < 0)
      n.fail("image_shape, block_shape, strides and dilations must be at "
             "least 1, pads at least 0");
    if (block[d] - 1 > kMaxElements / dilation[d])
      n.fail("the dilated block spans more than 2^40");
    int64_t span = image[d] + pads[d] + pads[d + spatial] -
                   ((block[d] - 1) * dilation[d] + 1);
    if (span < 0)
      n.fail("the block does not fit image dim " + std::to_string(d));
    windows.push_back(span / stride[d] + 1);
    blocks *= block[d];
    positions *= windows.back();
  }
  if (xs[1] % blocks != 0 || xs[2] != positions)
    n.fail("the input's dims do not match block_shape and the window count " +
           std::to_string(positions));
  int64_t channels = xs[1] / blocks;
  std::vector<int64_t> split{xs[0], channels, blocks};
  split.insert(split.end(), windows.begin(), windows.end());
  Value columns = n.reshape(x, split);
  std::vector<int64_t> perBlock{xs[0], channels};
  perBlock.insert(perBlock.end(), windows.begin(), windows.end());
  Value sum;
  for (int64_t b = 0; b < blocks; ++b) {
    std::vector<int64_t> starts(split.size(), 0), ends(split), steps(split.size(), 1);
    starts[2] = b;
    ends[2] = b + 1;
    Value column = n.reshape(
        n.create<tcc::SliceOp>(columns, {n.i64ArrayAttr("start", starts),
                                         n.i64ArrayAttr("end", ends),
                                         n.i64ArrayAttr("step", steps)}),
        perBlock);
    std::vector<int64_t> begin(spatial), end(spatial);
    for (size_t d = spatial, rest = b; d-- > 0;) {
      int64_t offset = int64_t(rest % block[d]) * dilation[d] - pads[d];
      rest /= block[d];
      begin[d] = offset;
      end[d] = image[d] - offset - ((windows[d] - 1) * stride[d] + 1);
    }
    Value placed = padTrailing(n, insertZeros(n, column, stride), begin, end, 0.0);
    sum = sum ? n.create<tcc::AddOp>({sum, placed}) : placed;
  }
  n.setOutput(0, sum);
}

} // namespace

void mlir::tcc::onnx::registerConvTransposeOps(OpTable &t) {
  t.add("ConvTranspose", 1, convTranspose);
  t.add("Col2Im", 18, col2Im);
}
