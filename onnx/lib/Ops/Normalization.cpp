//===- Normalization.cpp - ONNX normalization ops -------------------------===//
//
// BatchNormalization, LayerNormalization, InstanceNormalization,
// GroupNormalization, LRN, MeanVarianceNormalization and LpNormalization.
// Instance and group normalization are tcc.layer_norm over a reshaped
// input, then a per-channel scale and shift; the rest are compositions of
// reductions and elementwise ops following ONNX's definitions.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"
#include "Spatial.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

std::vector<int64_t> range(int64_t from, int64_t to) {
  std::vector<int64_t> dims;
  for (int64_t d = from; d < to; ++d)
    dims.push_back(d);
  return dims;
}

Value mean(NodeContext &n, Value x, llvm::ArrayRef<int64_t> dims) {
  return n.create<tcc::ReduceMeanOp>(
      x, {n.i64ArrayAttr("dims", dims), n.boolAttr("keepdim", true)});
}

/// `v` [C] shaped to broadcast along dim 1 of a rank-`rank` tensor.
Value perChannel(NodeContext &n, Value v, int64_t rank) {
  std::vector<int64_t> shape(rank - 1, 1);
  shape[0] = NodeContext::shapeOf(v)[0];
  return n.reshape(v, shape);
}

/// tcc.layer_norm of `x` over its last dim, without scale or shift.
Value normalizeLastDim(NodeContext &n, Value x, double eps) {
  return n.create<tcc::LayerNormOp>(
      x, {n.i64ArrayAttr("normalized_shape", {NodeContext::shapeOf(x).back()}),
          n.f64Attr("eps", eps),
          n.namedAttr("operandSegmentSizes",
                      n.builder().getDenseI32ArrayAttr({1, 0, 0}))});
}

/// The batch's mean and (population) variance over every dim but 1, as in
/// training mode.
void batchNormTraining(NodeContext &n) {
  Value x = n.input(0), scale = n.input(1), bias = n.input(2),
        runningMean = n.input(3), runningVar = n.input(4);
  int64_t rank = NodeContext::rankOf(x);
  Type t = NodeContext::elementTypeOf(x);
  double eps = n.floatAttr("epsilon", 1e-5f);
  double momentum = n.floatAttr("momentum", 0.9f);
  std::vector<int64_t> dims = range(0, rank);
  dims.erase(dims.begin() + 1);
  Value mu = mean(n, x, dims);
  Value centered = n.create<tcc::SubOp>({x, mu});
  Value var = mean(n, n.create<tcc::MulOp>({centered, centered}), dims);
  Value y = n.create<tcc::MulOp>(
      {centered, n.create<tcc::RsqrtOp>(
                     n.create<tcc::AddOp>({var, n.scalar(eps, t)}))});
  y = n.create<tcc::AddOp>({n.create<tcc::MulOp>({y, perChannel(n, scale, rank)}),
                            perChannel(n, bias, rank)});
  n.setOutput(0, y);
  int64_t channels = NodeContext::shapeOf(x)[1];
  auto blend = [&](Value running, Value batch) {
    Value old = n.create<tcc::MulOp>({running, n.scalar(momentum, t)});
    Value now = n.create<tcc::MulOp>(
        {n.reshape(batch, {channels}), n.scalar(1.0 - momentum, t)});
    return n.create<tcc::AddOp>({old, now});
  };
  if (n.wantsOutput(1))
    n.setOutput(1, blend(runningMean, mu));
  if (n.wantsOutput(2))
    n.setOutput(2, blend(runningVar, var));
}

void batchNorm(NodeContext &n) {
  n.checkAttrs({"epsilon", "momentum", "training_mode", "spatial"});
  if (n.intAttr("spatial", 1) != 1)
    n.fail("spatial=0 is not supported");
  if (n.opset() >= 14 && n.intAttr("training_mode", 0) != 0)
    return batchNormTraining(n);
  if (n.wantsOutput(1) || n.wantsOutput(2) || n.wantsOutput(3) ||
      n.wantsOutput(4))
    n.fail("the running statistics outputs exist only in training mode "
           "(training_mode=1, opset 14 and up)");
  n.setOutput(0, n.create<tcc::BatchNormOp>(
                     {n.input(0), n.input(1), n.input(2), n.input(3), n.input(4)},
                     {n.f64Attr("eps", n.floatAttr("epsilon", 1e-5f))}));
}

/// The stash type's element type: statistics are computed in it.
Type stashType(NodeContext &n) {
  int64_t stash = n.intAttr("stash_type", 1);
  if (stash == 1)
    return n.builder().getF32Type();
  return n.elementTypeFor(stash);
}

void layerNorm(NodeContext &n) {
  n.checkAttrs({"axis", "epsilon", "stash_type"});
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  int64_t rank = shape.size();
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), rank, "axis");
  double eps = n.floatAttr("epsilon", 1e-5f);
  std::vector<int64_t> normalized(shape.begin() + axis, shape.end());
  Value scale = n.optionalInput(1), bias = n.optionalInput(2);
  Type t = NodeContext::elementTypeOf(x);
  if (!n.wantsOutput(1) && !n.wantsOutput(2) && stashType(n) == t) {
    // ONNX broadcasts scale and bias to the normalized shape; tcc wants
    // them in it.
    llvm::SmallVector<Value> operands{x};
    if (scale)
      operands.push_back(n.broadcastTo(scale, normalized));
    if (bias)
      operands.push_back(n.broadcastTo(bias, normalized));
    n.setOutput(0, n.create<tcc::LayerNormOp>(
                       operands,
                       {n.i64ArrayAttr("normalized_shape", normalized),
                        n.f64Attr("eps", eps),
                        n.namedAttr("operandSegmentSizes",
                                    n.builder().getDenseI32ArrayAttr(
                                        {1, scale ? 1 : 0, bias ? 1 : 0}))}));
    return;
  }
  // The Mean and InvStdDev outputs, or statistics in another type: ONNX's
  // function body.
  Type stash = stashType(n);
  Value xs = n.cast(x, stash);
  std::vector<int64_t> dims = range(axis, rank);
  Value mu = mean(n, xs, dims);
  Value centered = n.create<tcc::SubOp>({xs, mu});
  Value var = mean(n, n.create<tcc::MulOp>({centered, centered}), dims);
  Value invStdDev = n.create<tcc::RsqrtOp>(
      n.create<tcc::AddOp>({var, n.scalar(eps, stash)}));
  Value y = n.cast(n.create<tcc::MulOp>({centered, invStdDev}), t);
  if (scale)
    y = n.create<tcc::MulOp>({y, scale});
  if (bias)
    y = n.create<tcc::AddOp>({y, bias});
  n.setOutput(0, y);
  n.setOutput(1, mu);
  n.setOutput(2, invStdDev);
}

void instanceNorm(NodeContext &n) {
  n.checkAttrs({"epsilon"});
  Value x = n.input(0), scale = n.input(1), bias = n.input(2);
  auto shape = NodeContext::shapeOf(x);
  int64_t rank = shape.size();
  if (rank < 3)
    n.fail("the input must have rank 3 or more");
  int64_t spatial = NodeContext::typeOf(x).getNumElements() / (shape[0] * shape[1]);
  Value y = normalizeLastDim(n, n.reshape(x, {shape[0], shape[1], spatial}),
                             n.floatAttr("epsilon", 1e-5f));
  y = n.create<tcc::MulOp>({n.reshape(y, shape), perChannel(n, scale, rank)});
  n.setOutput(0, n.create<tcc::AddOp>({y, perChannel(n, bias, rank)}));
}

/// Opset 18 scales and shifts per group, 21 per channel.
template <bool scalePerChannel> void groupNorm(NodeContext &n) {
  n.checkAttrs({"epsilon", "num_groups", "stash_type"});
  Value x = n.input(0), scale = n.input(1), bias = n.input(2);
  auto shape = NodeContext::shapeOf(x);
  int64_t rank = shape.size();
  int64_t groups = n.intAttr("num_groups");
  if (rank < 3)
    n.fail("the input must have rank 3 or more");
  if (groups < 1 || shape[1] % groups != 0)
    n.fail("num_groups " + std::to_string(groups) + " does not divide the " +
           std::to_string(shape[1]) + " channels");
  Type t = NodeContext::elementTypeOf(x);
  int64_t perGroup = NodeContext::typeOf(x).getNumElements() / (shape[0] * groups);
  Value y = n.reshape(n.cast(x, stashType(n)), {shape[0], groups, perGroup});
  y = n.cast(normalizeLastDim(n, y, n.floatAttr("epsilon", 1e-5f)), t);
  y = n.reshape(y, shape);
  auto channelwise = [&](Value v) {
    if (!scalePerChannel) { // [G] -> [C]
      if (NodeContext::shapeOf(v) != llvm::ArrayRef<int64_t>{groups})
        n.fail("scale and bias must have num_groups entries before opset 21");
      v = n.broadcastTo(n.reshape(v, {groups, 1}), {groups, shape[1] / groups});
      v = n.reshape(v, {shape[1]});
    }
    return perChannel(n, v, rank);
  };
  y = n.create<tcc::MulOp>({y, channelwise(scale)});
  n.setOutput(0, n.create<tcc::AddOp>({y, channelwise(bias)}));
}

/// y = x / (bias + alpha / size * (sum of x^2 over `size` neighbouring
/// channels))^beta.
void lrn(NodeContext &n) {
  n.checkAttrs({"alpha", "beta", "bias", "size"});
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  if (shape.size() < 3)
    n.fail("the input must have rank 3 or more");
  int64_t size = n.intAttr("size");
  if (size < 1)
    n.fail("size must be at least 1");
  double alpha = n.floatAttr("alpha", 1e-4f), beta = n.floatAttr("beta", 0.75f),
         bias = n.floatAttr("bias", 1.0f);
  Type t = NodeContext::elementTypeOf(x);
  int64_t spatial = NodeContext::typeOf(x).getNumElements() / (shape[0] * shape[1]);
  // The channel window as a (size, 1) window over [N, 1, C, spatial].
  Value squares = n.reshape(n.create<tcc::MulOp>({x, x}),
                            {shape[0], 1, shape[1], spatial});
  squares = padTrailing(n, squares, {(size - 1) / 2, 0}, {size / 2, 0}, 0.0);
  Value sums = windowReduce(n, squares, WindowReduction::Sum, {size, 1}, {1, 1},
                            {1, 1});
  Value base = n.create<tcc::AddOp>(
      {n.scalar(bias, t),
       n.create<tcc::MulOp>({n.reshape(sums, shape), n.scalar(alpha / size, t)})});
  n.setOutput(0, n.create<tcc::DivOp>(
                     {x, n.create<tcc::PowOp>({base, n.scalar(beta, t)})}));
}

/// (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9) over `axes`.
void meanVarianceNorm(NodeContext &n) {
  n.checkAttrs({"axes"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  std::vector<int64_t> axes = n.intsAttr("axes", {0, 2, 3});
  for (int64_t &a : axes)
    a = n.normalizeAxis(a, rank, "axis");
  std::sort(axes.begin(), axes.end());
  Type t = NodeContext::elementTypeOf(x);
  Value mu = mean(n, x, axes);
  Value meanOfSquares = mean(n, n.create<tcc::MulOp>({x, x}), axes);
  Value var = n.create<tcc::SubOp>({meanOfSquares, n.create<tcc::MulOp>({mu, mu})});
  Value stdDev = n.create<tcc::AddOp>({n.create<tcc::SqrtOp>(var), n.scalar(1e-9, t)});
  n.setOutput(0, n.create<tcc::DivOp>({n.create<tcc::SubOp>({x, mu}), stdDev}));
}

/// x / ||x||_p along `axis`; 0 where the norm is 0.
void lpNorm(NodeContext &n) {
  n.checkAttrs({"axis", "p"});
  Value x = n.input(0);
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), NodeContext::rankOf(x), "axis");
  int64_t p = n.intAttr("p", 2);
  if (p != 1 && p != 2)
    n.fail("p must be 1 or 2");
  Type t = NodeContext::elementTypeOf(x);
  Value terms = p == 1 ? n.create<tcc::AbsOp>(x) : n.create<tcc::MulOp>({x, x});
  Value norm = n.create<tcc::ReduceSumOp>(
      terms, {n.i64ArrayAttr("dims", {axis}), n.boolAttr("keepdim", true)});
  if (p == 2)
    norm = n.create<tcc::SqrtOp>(norm);
  Value zero = n.scalar(0.0, t);
  Value isZero = n.create<tcc::EqOp>({norm, zero});
  Value safe = n.create<tcc::SelectOp>({isZero, n.scalar(1.0, t), norm});
  n.setOutput(0, n.create<tcc::SelectOp>(
                     {isZero, zero, n.create<tcc::DivOp>({x, safe})}));
}

} // namespace

void mlir::tcc::onnx::registerNormalizationOps(OpTable &t) {
  t.add("BatchNormalization", 1, batchNorm);
  t.add("LayerNormalization", 17, layerNorm);
  t.add("InstanceNormalization", 1, instanceNorm);
  t.add("GroupNormalization", 18, groupNorm<false>);
  t.add("GroupNormalization", 21, groupNorm<true>);
  t.add("LRN", 1, lrn);
  t.add("MeanVarianceNormalization", 1, meanVarianceNorm);
  t.add("LpNormalization", 1, lpNorm);
}
