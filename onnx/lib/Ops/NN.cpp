//===- NN.cpp - ONNX neural-network ops -----------------------------------===//
//
// Convolution, pooling, normalization, softmax and the matrix products.
// tcc's 2-D ops take symmetric padding; ONNX's asymmetric `pads` and
// `auto_pad` become an explicit tcc.pad in front. 1-D convolutions and pools
// run as 2-D ones on a height-1 image.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// The spatial geometry of a conv or pool node, resolved to 2-D.
struct Window {
  std::vector<int64_t> kernel, stride, dilation;
  std::vector<int64_t> padBegin, padEnd;
  bool oneD = false; // the node is 1-D; the image got a height-1 dim
};

/// Reads kernel/strides/dilations/pads/auto_pad for an input of `spatial`
/// dims (1 or 2), with `kernel` from the weight or kernel_shape.
Window readWindow(NodeContext &n, ArrayRef<int64_t> inputShape,
                  std::vector<int64_t> kernel) {
  size_t spatial = inputShape.size() - 2;
  if (spatial != 1 && spatial != 2)
    n.fail("only 1-D and 2-D inputs are supported (the input has " +
           std::to_string(spatial) + " spatial dims)");
  if (kernel.size() != spatial)
    n.fail("the kernel has " + std::to_string(kernel.size()) +
           " dims for an input with " + std::to_string(spatial));
  Window w;
  w.kernel = kernel;
  w.stride = n.intsAttr("strides", std::vector<int64_t>(spatial, 1));
  w.dilation = n.intsAttr("dilations", std::vector<int64_t>(spatial, 1));
  std::vector<int64_t> pads = n.intsAttr("pads", std::vector<int64_t>(2 * spatial, 0));
  if (w.stride.size() != spatial || w.dilation.size() != spatial ||
      pads.size() != 2 * spatial)
    n.fail("strides, dilations or pads do not match the " +
           std::to_string(spatial) + " spatial dims");
  // The upper bound keeps the arithmetic below (and the ops' inference)
  // within int64.
  auto outside = [](int64_t v, int64_t lo) { return v < lo || v > kMaxElements; };
  for (size_t i = 0; i < spatial; ++i)
    if (outside(w.stride[i], 1) || outside(w.dilation[i], 1) ||
        outside(kernel[i], 1) || outside(pads[i], 0) ||
        outside(pads[i + spatial], 0))
      n.fail("strides, dilations and kernel sizes must be at least 1, pads "
             "at least 0, and all at most 2^40");
  w.padBegin.assign(pads.begin(), pads.begin() + spatial);
  w.padEnd.assign(pads.begin() + spatial, pads.end());
  std::string autoPad = n.stringAttr("auto_pad", "NOTSET");
  if (autoPad == "SAME_UPPER" || autoPad == "SAME_LOWER") {
    for (size_t i = 0; i < spatial; ++i) {
      int64_t in = inputShape[2 + i];
      int64_t out = (in + w.stride[i] - 1) / w.stride[i];
      int64_t total = std::max<int64_t>(
          0, (out - 1) * w.stride[i] + (kernel[i] - 1) * w.dilation[i] + 1 - in);
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
  if (spatial == 1) {
    w.oneD = true;
    w.kernel.insert(w.kernel.begin(), 1);
    w.stride.insert(w.stride.begin(), 1);
    w.dilation.insert(w.dilation.begin(), 1);
    w.padBegin.insert(w.padBegin.begin(), 0);
    w.padEnd.insert(w.padEnd.begin(), 0);
  }
  return w;
}

/// `x` ([N, C, L]) as [N, C, 1, L].
Value to2d(NodeContext &n, Value x) {
  auto s = NodeContext::shapeOf(x);
  return n.reshape(x, {s[0], s[1], 1, s[2]});
}
/// A 2-D result back to [N, C, L].
Value from2d(NodeContext &n, Value y) {
  auto s = NodeContext::shapeOf(y);
  return n.reshape(y, {s[0], s[1], s[3]});
}

/// Pads the spatial dims of `x` explicitly where the op's symmetric padding
/// cannot express `w` (or `always`), leaving in `w` what the op still pads.
/// `value` fills new positions.
Value padExplicitly(NodeContext &n, Value x, Window &w, double value,
                    bool always) {
  bool symmetric = w.padBegin == w.padEnd;
  if (symmetric && !always)
    return x;
  // tcc.pad's list runs last dim first.
  std::vector<int64_t> pad = {w.padBegin[1], w.padEnd[1], w.padBegin[0],
                              w.padEnd[0]};
  std::fill(w.padBegin.begin(), w.padBegin.end(), 0);
  std::fill(w.padEnd.begin(), w.padEnd.end(), 0);
  return n.create<tcc::PadOp>(
      x, {n.i64ArrayAttr("pad", pad), n.f64Attr("value", value)});
}

void conv(NodeContext &n) {
  n.checkAttrs({"auto_pad", "dilations", "group", "kernel_shape", "pads",
                "strides"});
  Value x = n.input(0), weight = n.input(1), bias = n.optionalInput(2);
  if (NodeContext::rankOf(x) < 3 || NodeContext::rankOf(weight) != NodeContext::rankOf(x))
    n.fail("the input and weight must have the same rank, 3 or 4");
  auto ws = NodeContext::shapeOf(weight);
  std::vector<int64_t> kernel(ws.begin() + 2, ws.end());
  if (n.hasAttr("kernel_shape") && n.intsAttr("kernel_shape") != kernel)
    n.fail("kernel_shape does not match the weight's shape");
  Window w = readWindow(n, NodeContext::shapeOf(x), kernel);
  if (w.oneD) {
    x = to2d(n, x);
    weight = to2d(n, weight);
  }
  x = padExplicitly(n, x, w, 0.0, false);
  llvm::SmallVector<Value> operands{x, weight};
  if (bias)
    operands.push_back(bias);
  llvm::SmallVector<NamedAttribute> attrs{
      n.i64ArrayAttr("stride", w.stride), n.i64ArrayAttr("padding", w.padBegin),
      n.i64ArrayAttr("dilation", w.dilation),
      n.i64Attr("groups", n.intAttr("group", 1))};
  Value y = n.create<tcc::Conv2dOp>(operands, attrs);
  n.setOutput(0, w.oneD ? from2d(n, y) : y);
}

/// Whether tcc's pool can take the padding itself: symmetric, and at most
/// half the kernel (PyTorch's rule).
bool poolPadsFit(const Window &w) {
  if (w.padBegin != w.padEnd)
    return false;
  for (size_t i = 0; i < w.kernel.size(); ++i)
    if (w.padBegin[i] > w.kernel[i] / 2)
      return false;
  return true;
}

void maxPool(NodeContext &n) {
  n.checkAttrs({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads",
                "storage_order", "strides"});
  if (n.wantsOutput(1))
    n.fail("the Indices output is not supported");
  Value x = n.input(0);
  if (NodeContext::rankOf(x) < 3)
    n.fail("the input must have rank 3 or 4");
  Window w = readWindow(n, NodeContext::shapeOf(x), n.intsAttr("kernel_shape"));
  bool ceil = n.intAttr("ceil_mode", 0);
  if (w.oneD)
    x = to2d(n, x);
  if (!poolPadsFit(w)) {
    if (ceil)
      n.fail("asymmetric or large pads with ceil_mode are not supported");
    x = padExplicitly(n, x, w, -std::numeric_limits<double>::infinity(), true);
  }
  Value y = n.create<tcc::MaxPool2dOp>(
      x, {n.i64ArrayAttr("kernel_size", w.kernel),
          n.i64ArrayAttr("stride", w.stride),
          n.i64ArrayAttr("padding", w.padBegin),
          n.i64ArrayAttr("dilation", w.dilation), n.boolAttr("ceil_mode", ceil)});
  n.setOutput(0, w.oneD ? from2d(n, y) : y);
}

void averagePool(NodeContext &n) {
  n.checkAttrs({"auto_pad", "ceil_mode", "count_include_pad", "dilations",
                "kernel_shape", "pads", "strides"});
  Value x = n.input(0);
  if (NodeContext::rankOf(x) < 3)
    n.fail("the input must have rank 3 or 4");
  Window w = readWindow(n, NodeContext::shapeOf(x), n.intsAttr("kernel_shape"));
  for (int64_t d : w.dilation)
    if (d != 1)
      n.fail("dilations other than 1 are not supported");
  bool ceil = n.intAttr("ceil_mode", 0);
  bool includePad = n.intAttr("count_include_pad", 0);
  if (w.oneD)
    x = to2d(n, x);
  if (!poolPadsFit(w)) {
    if (!includePad || ceil)
      n.fail("asymmetric or large pads are supported only with "
             "count_include_pad=1 and ceil_mode=0");
    x = padExplicitly(n, x, w, 0.0, true);
  }
  Value y = n.create<tcc::AvgPool2dOp>(
      x, {n.i64ArrayAttr("kernel_size", w.kernel),
          n.i64ArrayAttr("stride", w.stride),
          n.i64ArrayAttr("padding", w.padBegin), n.boolAttr("ceil_mode", ceil),
          n.boolAttr("count_include_pad", includePad)});
  n.setOutput(0, w.oneD ? from2d(n, y) : y);
}

/// GlobalAveragePool / GlobalMaxPool: a keepdim reduction over the spatial
/// dims.
template <class ReduceOp> void globalPool(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  if (rank < 3)
    n.fail("the input must have rank 3 or more");
  std::vector<int64_t> dims;
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  n.setOutput(0, n.create<ReduceOp>(
                     x, {n.i64ArrayAttr("dims", dims), n.boolAttr("keepdim", true)}));
}

void batchNorm(NodeContext &n) {
  n.checkAttrs({"epsilon", "momentum", "training_mode", "spatial"});
  if (n.intAttr("training_mode", 0) != 0 || n.wantsOutput(1) || n.wantsOutput(2))
    n.fail("training mode is not supported (tcc imports inference graphs)");
  if (n.intAttr("spatial", 1) != 1)
    n.fail("spatial=0 is not supported");
  n.setOutput(0, n.create<tcc::BatchNormOp>(
                     {n.input(0), n.input(1), n.input(2), n.input(3), n.input(4)},
                     {n.f64Attr("eps", n.floatAttr("epsilon", 1e-5f))}));
}

void layerNorm(NodeContext &n) {
  n.checkAttrs({"axis", "epsilon", "stash_type"});
  if (n.wantsOutput(1) || n.wantsOutput(2))
    n.fail("the Mean and InvStdDev outputs are not supported");
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), shape.size(), "axis");
  std::vector<int64_t> normalized(shape.begin() + axis, shape.end());
  Value scale = n.optionalInput(1), bias = n.optionalInput(2);
  // ONNX broadcasts scale and bias to the normalized shape; tcc wants them
  // in it.
  if (scale)
    scale = n.broadcastTo(scale, normalized);
  if (bias)
    bias = n.broadcastTo(bias, normalized);
  llvm::SmallVector<Value> operands{x};
  if (scale) operands.push_back(scale);
  if (bias) operands.push_back(bias);
  n.setOutput(0, n.create<tcc::LayerNormOp>(
                     operands,
                     {n.i64ArrayAttr("normalized_shape", normalized),
                      n.f64Attr("eps", n.floatAttr("epsilon", 1e-5f)),
                      n.namedAttr("operandSegmentSizes",
                                  n.builder().getDenseI32ArrayAttr(
                                      {1, scale ? 1 : 0, bias ? 1 : 0}))}));
}

/// Softmax and LogSoftmax. Before opset 13 the input is flattened to 2-D at
/// `axis` (default 1) and normalized over the second dim.
template <class OpTy> void softmax(NodeContext &n) {
  n.checkAttrs({"axis"});
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  int64_t rank = shape.size();
  if (n.opset() >= 13) {
    int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), rank, "axis");
    n.setOutput(0, n.create<OpTy>(x, {n.i64Attr("dim", axis)}));
    return;
  }
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 1), rank, "axis");
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? outer : inner) *= shape[i];
  Value y = n.create<OpTy>(n.reshape(x, {outer, inner}), {n.i64Attr("dim", 1)});
  n.setOutput(0, n.reshape(y, shape));
}

/// ONNX MatMul (numpy.matmul): 1-D operands gain a dim, removed afterwards.
Value matmul(NodeContext &n, Value a, Value b) {
  auto as = NodeContext::shapeOf(a), bs = NodeContext::shapeOf(b);
  if (as.empty() || bs.empty())
    n.fail("MatMul operands must have rank 1 or more");
  bool aVec = as.size() == 1, bVec = bs.size() == 1;
  if (aVec)
    a = n.reshape(a, {1, as[0]});
  if (bVec)
    b = n.reshape(b, {bs[0], 1});
  Value y = n.create<tcc::MatmulOp>({a, b});
  if (aVec || bVec) {
    std::vector<int64_t> shape(NodeContext::shapeOf(y));
    if (bVec)
      shape.pop_back();
    if (aVec)
      shape.erase(shape.end() - (bVec ? 1 : 2));
    y = n.reshape(y, shape);
  }
  return y;
}

void matmulOp(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, matmul(n, n.input(0), n.input(1)));
}

Value transpose2d(NodeContext &n, Value v) {
  return n.create<tcc::TransposeOp>(v, {n.i64ArrayAttr("permutation", {1, 0})});
}

void gemm(NodeContext &n) {
  n.checkAttrs({"alpha", "beta", "transA", "transB", "broadcast"});
  Value a = n.input(0), b = n.input(1), c = n.optionalInput(2);
  if (NodeContext::rankOf(a) != 2 || NodeContext::rankOf(b) != 2)
    n.fail("A and B must be matrices");
  double alpha = n.floatAttr("alpha", 1.0f), beta = n.floatAttr("beta", 1.0f);
  bool transA = n.intAttr("transA", 0), transB = n.intAttr("transB", 0);
  if (transA)
    a = transpose2d(n, a);
  Type t = NodeContext::elementTypeOf(a);
  Value y;
  // The common case, a linear layer: Y = A B^T + c with c of shape [N].
  if (transB && alpha == 1.0 && beta == 1.0 &&
      (!c || NodeContext::rankOf(c) == 1) &&
      (!c || NodeContext::shapeOf(c)[0] == NodeContext::shapeOf(b)[0])) {
    llvm::SmallVector<Value> operands{a, b};
    if (c)
      operands.push_back(c);
    n.setOutput(0, n.create<tcc::LinearOp>(operands));
    return;
  }
  y = n.create<tcc::MatmulOp>({a, transB ? transpose2d(n, b) : b});
  if (alpha != 1.0)
    y = n.create<tcc::MulOp>({y, n.scalar(alpha, t)});
  if (c && beta != 0.0) {
    if (beta != 1.0)
      c = n.create<tcc::MulOp>({c, n.scalar(beta, t)});
    y = n.create<tcc::AddOp>({y, c});
  }
  n.setOutput(0, y);
}

void dropout(NodeContext &n) {
  n.checkAttrs({"seed", "ratio", "is_test"});
  if (n.hasInput(2)) {
    std::optional<ConstantData> training = n.constantInput(2);
    if (!training || training->numElements() != 1 || training->getInt(0) != 0)
      n.fail("training mode is not supported (tcc imports inference graphs)");
  }
  Value x = n.input(0);
  n.setOutput(0, x);
  if (n.wantsOutput(1)) { // the mask: all true at inference
    ConstantData one = ConstantData::zeros(
        RankedTensorType::get({}, n.builder().getI1Type()));
    one.setInt(0, 1);
    n.setOutput(1, n.splat(one, NodeContext::shapeOf(x)));
  }
}

} // namespace

void mlir::tcc::onnx::registerNNOps(OpTable &t) {
  t.add("Conv", 1, conv);
  t.add("MaxPool", 1, maxPool);
  t.add("AveragePool", 1, averagePool);
  t.add("GlobalAveragePool", 1, globalPool<tcc::ReduceMeanOp>);
  t.add("GlobalMaxPool", 1, globalPool<tcc::ReduceMaxOp>);
  t.add("BatchNormalization", 1, batchNorm);
  t.add("LayerNormalization", 17, layerNorm);
  t.add("Softmax", 1, softmax<tcc::SoftmaxOp>);
  t.add("LogSoftmax", 1, softmax<tcc::LogSoftmaxOp>);
  t.add("MatMul", 1, matmulOp);
  t.add("Gemm", 1, gemm);
  t.add("Dropout", 1, dropout);
}
