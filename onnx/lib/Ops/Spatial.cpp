//===- Spatial.cpp - Helpers for ops over the spatial dims ----------------===//

#include "Spatial.h"

#include "Constants.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

Window mlir::tcc::onnx::readWindow(NodeContext &n, ArrayRef<int64_t> inputShape,
                                   std::vector<int64_t> kernel) {
  if (inputShape.size() < 3 || inputShape.size() > 5)
    n.fail("only inputs with 1 to 3 spatial dims are supported (the input "
           "has rank " + std::to_string(inputShape.size()) + ")");
  size_t spatial = inputShape.size() - 2;
  if (kernel.size() != spatial)
    n.fail("the kernel has " + std::to_string(kernel.size()) +
           " dims for an input with " + std::to_string(spatial));
  Window w;
  w.kernel = kernel;
  w.stride = n.intsAttr("strides", std::vector<int64_t>(spatial, 1));
  w.dilation = n.intsAttr("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads =
      n.intsAttr("pads", std::vector<int64_t>(2 * spatial, 0));
  if (w.stride.size() != spatial || w.dilation.size() != spatial ||
      pads.size() != 2 * spatial)
    n.fail("strides, dilations or pads do not match the " +
           std::to_string(spatial) + " spatial dims");
  // The upper bound keeps the window arithmetic (and the ops' inference)
  // within int64.
  auto outside = [](int64_t v, int64_t lo) { return v < lo || v > kMaxElements; };
  for (size_t i = 0; i < spatial; ++i)
    if (outside(w.stride[i], 1) || outside(w.dilation[i], 1) ||
        outside(kernel[i], 1) || outside(pads[i], 0) ||
        outside(pads[i + spatial], 0))
      n.fail("strides, dilations and kernel sizes must be at least 1, pads "
             "at least 0, and all at most 2^40");
  for (size_t i = 0; i < spatial; ++i)
    if (kernel[i] - 1 > kMaxElements / w.dilation[i])
      n.fail("the dilated kernel spans more than 2^40 in spatial dim " +
             std::to_string(i));
  w.padBegin.assign(pads.begin(), pads.begin() + spatial);
  w.padEnd.assign(pads.begin() + spatial, pads.end());
  std::string autoPad = n.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < spatial; ++i) {
      int64_t in = inputShape[2 + i];
      int64_t out = (in + w.stride[i] - 1) / w.stride[i];
      int64_t total = std::max<int64_t>(
          0, (out - 1) * w.stride[i] + w.extent(i) - in);
      int64_t small = total / 2, large = total - small;
      w.padBegin[i] = autoPad == "SAME_UPPER" ? small : large;
      w.padEnd[i] = autoPad == "SAME_UPPER" ? large : small;
    }
  } else if (autoPad == "VALID") {
    std::fill(w.padBegin.begin(), w.padBegin.end(), 0);
    std::fill(w.padEnd.begin(), w.padEnd.end(), 0);
  } else if (autoPad != "NOTSET") {
    n.fail("auto_pad '" + autoPad + "' is not NOTSET, SAME_UPPER, "
           "SAME_LOWER or VALID");
  }
  return w;
}

Value mlir::tcc::onnx::padTrailing(NodeContext &n, Value x,
                                   ArrayRef<int64_t> begin,
                                   ArrayRef<int64_t> end, double value) {
  // tcc.pad's list runs last dim first.
  std::vector<int64_t> list;
  bool any = false;
  for (size_t i = begin.size(); i-- > 0;) {
    list.insert(list.end(), {begin[i], end[i]});
    any |= begin[i] != 0 || end[i] != 0;
  }
  if (!any)
    return x;
  return n.create<tcc::PadOp>(
      x, {n.i64ArrayAttr("pad", list), n.f64Attr("value", value)});
}

std::vector<int64_t> mlir::tcc::onnx::dimsFrom(Value v, int64_t from) {
  auto shape = NodeContext::shapeOf(v);
  return std::vector<int64_t>(shape.begin() + from, shape.end());
}

namespace {

Value conv2d(NodeContext &n, Value x, Value weight, Value bias,
             ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation,
             ArrayRef<int64_t> padding, int64_t groups) {
  llvm::SmallVector<Value> operands{x, weight};
  if (bias)
    operands.push_back(bias);
  return n.create<tcc::Conv2dOp>(
      operands, {n.i64ArrayAttr("stride", stride),
                 n.i64ArrayAttr("padding", padding),
                 n.i64ArrayAttr("dilation", dilation),
                 n.i64Attr("groups", groups)});
}

/// `x` [A, B, L] as [A, B, 1, L].
Value addHeight(NodeContext &n, Value x) {
  auto s = NodeContext::shapeOf(x);
  return n.reshape(x, {s[0], s[1], 1, s[2]});
}

Value dropHeight(NodeContext &n, Value y) {
  auto s = NodeContext::shapeOf(y);
  return n.reshape(y, {s[0], s[1], s[3]});
}

/// Dim `dim` of `x` from `start` in `count` steps of `step`.
Value strided(NodeContext &n, Value x, int64_t dim, int64_t start,
              int64_t count, int64_t step) {
  auto shape = NodeContext::shapeOf(x);
  std::vector<int64_t> starts(shape.size(), 0), ends(shape),
      steps(shape.size(), 1);
  starts[dim] = start;
  ends[dim] = count == 0 ? start : start + (count - 1) * step + 1;
  steps[dim] = step;
  return n.create<tcc::SliceOp>(x, {n.i64ArrayAttr("start", starts),
                                    n.i64ArrayAttr("end", ends),
                                    n.i64ArrayAttr("step", steps)});
}

/// A 2-D window reduction without padding.
Value reduce2d(NodeContext &n, Value x, WindowReduction kind,
               ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
               ArrayRef<int64_t> dilation) {
  if (kind == WindowReduction::Max)
    return n.create<tcc::MaxPool2dOp>(
        x, {n.i64ArrayAttr("kernel_size", kernel),
            n.i64ArrayAttr("stride", stride), n.i64ArrayAttr("padding", {0, 0}),
            n.i64ArrayAttr("dilation", dilation),
            n.boolAttr("ceil_mode", false)});
  // A sum is a depthwise convolution by ones.
  int64_t channels = NodeContext::shapeOf(x)[1];
  ConstantData one = ConstantData::zeros(
      RankedTensorType::get({}, NodeContext::elementTypeOf(x)));
  one.setFloat(0, 1.0);
  Value ones = splatConstant(n, one, {channels, 1, kernel[0], kernel[1]});
  return conv2d(n, x, ones, {}, stride, dilation, {0, 0}, channels);
}

} // namespace

Value mlir::tcc::onnx::convolve(NodeContext &n, Value x, Value weight,
                                Value bias, ArrayRef<int64_t> stride,
                                ArrayRef<int64_t> dilation,
                                ArrayRef<int64_t> padding, int64_t groups) {
  size_t spatial = NodeContext::rankOf(x) - 2;
  if (spatial == 1)
    return dropHeight(n, conv2d(n, addHeight(n, x), addHeight(n, weight), bias,
                                {1, stride[0]}, {1, dilation[0]},
                                {0, padding[0]}, groups));
  if (spatial == 2)
    return conv2d(n, x, weight, bias, stride, dilation, padding, groups);
  x = padTrailing(n, x, padding, padding, 0.0);
  // 3-D: output depth o sums, over the kernel's depth taps k, the 2-D
  // convolution of input depth o * stride + k * dilation by weight[:, :, k].
  auto xs = NodeContext::shapeOf(x);
  auto ws = NodeContext::shapeOf(weight);
  int64_t batch = xs[0], channels = xs[1];
  int64_t outDepth = (xs[2] - ((ws[2] - 1) * dilation[0] + 1)) / stride[0] + 1;
  Value sum;
  for (int64_t k = 0; k < ws[2]; ++k) {
    Value planes = strided(n, x, 2, k * dilation[0], outDepth, stride[0]);
    planes = n.create<tcc::TransposeOp>(
        planes, {n.i64ArrayAttr("permutation", {0, 2, 1, 3, 4})});
    planes = n.reshape(planes, {batch * outDepth, channels, xs[3], xs[4]});
    Value tap = n.reshape(strided(n, weight, 2, k, 1, 1),
                          {ws[0], ws[1], ws[3], ws[4]});
    Value y = conv2d(n, planes, tap, k == 0 ? bias : Value(),
                     stride.drop_front(), dilation.drop_front(), {0, 0}, groups);
    sum = sum ? n.create<tcc::AddOp>({sum, y}) : y;
  }
  auto ys = NodeContext::shapeOf(sum);
  Value y = n.reshape(sum, {batch, outDepth, ys[1], ys[2], ys[3]});
  return n.create<tcc::TransposeOp>(
      y, {n.i64ArrayAttr("permutation", {0, 2, 1, 3, 4})});
}

Value mlir::tcc::onnx::windowReduce(NodeContext &n, Value x,
                                    WindowReduction kind,
                                    ArrayRef<int64_t> kernel,
                                    ArrayRef<int64_t> stride,
                                    ArrayRef<int64_t> dilation) {
  size_t spatial = NodeContext::rankOf(x) - 2;
  if (spatial == 1)
    return dropHeight(n, reduce2d(n, addHeight(n, x), kind, {1, kernel[0]},
                                  {1, stride[0]}, {1, dilation[0]}));
  if (spatial == 2)
    return reduce2d(n, x, kind, kernel, stride, dilation);
  // 3-D windows are boxes: reduce each depth plane over height and width,
  // then over the depth with a (k, 1) window.
  auto s = NodeContext::shapeOf(x);
  Value planes = n.reshape(x, {s[0], s[1] * s[2], s[3], s[4]});
  Value y = reduce2d(n, planes, kind, kernel.drop_front(), stride.drop_front(),
                     dilation.drop_front());
  auto ys = NodeContext::shapeOf(y);
  y = n.reshape(y, {s[0], s[1], s[2], ys[2] * ys[3]});
  y = reduce2d(n, y, kind, {kernel[0], 1}, {stride[0], 1}, {dilation[0], 1});
  return n.reshape(y, {s[0], s[1], NodeContext::shapeOf(y)[2], ys[2], ys[3]});
}
