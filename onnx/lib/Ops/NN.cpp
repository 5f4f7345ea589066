//===- NN.cpp - ONNX convolution, softmax and matrix products -------------===//
//
// Conv (1-D to 3-D, see Spatial.h), Softmax/LogSoftmax, MatMul, Gemm and
// inference-mode Dropout. tcc's convolution pads symmetrically; ONNX's
// asymmetric `pads` and `auto_pad` become an explicit tcc.pad in front.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"
#include "Spatial.h"

#include "tcc/IR/TccOps.h"

#include <type_traits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

void conv(NodeContext &n) {
  n.checkAttrs({"auto_pad", "dilations", "group", "kernel_shape", "pads",
                "strides"});
  Value x = n.input(0), weight = n.input(1), bias = n.optionalInput(2);
  if (NodeContext::rankOf(weight) != NodeContext::rankOf(x))
    n.fail("the input and weight must have the same rank");
  std::vector<int64_t> kernel = dimsFrom(weight, 2);
  if (n.hasAttr("kernel_shape") && n.intsAttr("kernel_shape") != kernel)
    n.fail("kernel_shape does not match the weight's shape");
  Window w = readWindow(n, NodeContext::shapeOf(x), kernel);
  int64_t groups = n.intAttr("group", 1);
  int64_t channels = NodeContext::shapeOf(x)[1];
  if (groups < 1 || channels % groups != 0 ||
      NodeContext::shapeOf(weight)[1] * groups != channels)
    n.fail("group " + std::to_string(groups) + " does not fit " +
           std::to_string(channels) + " input channels and a weight of " +
           std::to_string(NodeContext::shapeOf(weight)[1]) +
           " channels per group");
  std::vector<int64_t> padding = w.padBegin;
  if (w.padBegin != w.padEnd) {
    x = padTrailing(n, x, w.padBegin, w.padEnd, 0.0);
    std::fill(padding.begin(), padding.end(), 0);
  }
  n.setOutput(0, convolve(n, x, weight, bias, w.stride, w.dilation, padding,
                          groups));
}

template <class ReduceOp>
Value reduceKeepingDim(NodeContext &n, Value v, int64_t axis) {
  return n.create<ReduceOp>(
      v, {n.i64ArrayAttr("dims", {axis}), n.boolAttr("keepdim", true)});
}

/// Softmax-13's function body, each step's result in x's type:
/// Div(Exp(Sub(x, ReduceMax(x))), ReduceSum(...)).
Value softmaxBody(NodeContext &n, Value x, int64_t axis) {
  Value max = reduceKeepingDim<tcc::ReduceMaxOp>(n, x, axis);
  Value e = n.create<tcc::ExpOp>(n.create<tcc::SubOp>({x, max}));
  return n.create<tcc::DivOp>(
      {e, reduceKeepingDim<tcc::ReduceSumOp>(n, e, axis)});
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
    // ONNX defines Softmax-13 by its function body, every step rounded to
    // x's type; tcc.softmax rounds once, which differs below f32 (an f16
    // softmax is then an ulp away from ONNX's).
    if (std::is_same_v<OpTy, tcc::SoftmaxOp> &&
        NodeContext::elementTypeOf(x).getIntOrFloatBitWidth() < 32) {
      n.setOutput(0, softmaxBody(n, x, axis));
      return;
    }
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
  t.add("Softmax", 1, softmax<tcc::SoftmaxOp>);
  t.add("LogSoftmax", 1, softmax<tcc::LogSoftmaxOp>);
  t.add("MatMul", 1, matmulOp);
  t.add("Gemm", 1, gemm);
  t.add("Dropout", 1, dropout);
}
