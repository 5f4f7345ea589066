//===- NN.cpp - Linear, convolution, pooling, normalization, dropout, ... ===//
//
// Modules in eval mode trace their inference form: dropout with
// train=false is the identity and batch_norm with training=false becomes
// tcc.batch_norm on the running statistics. Training-mode dropout and batch
// norm (random, or updating buffers) are refused with an error that says to
// call eval() first. Losses and backward ops are training-graph ops, which
// the dialect does not have yet.
//
// Unbatched inputs ([C, H, W]) are traced as a batch of one; conv1d traces
// to conv2d on a unit height, as the eager composite computes it. The
// family's joining, indexing and padding ops are in Indexing.cpp, as the
// frontend keeps them in their own files of its NN family.
//
//===----------------------------------------------------------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

/// in(0) with a batch dim of one added when it has rank `unbatchedRank`.
mlir::Value batched(TraceContext &c, int64_t unbatchedRank) {
  const Tensor &x = c.input(0);
  if (x.dim() != unbatchedRank)
    return c.in(0);
  std::vector<int64_t> shape = x.sizes().vec();
  shape.insert(shape.begin(), 1);
  return c.reshape(c.in(0), shape);
}

Values traceConv2d(TraceContext &c) {
  llvm::SmallVector<mlir::Value, 3> operands{batched(c, 3), c.in(1)};
  if (c.input(2).defined())
    operands.push_back(c.in(2));
  mlir::Value r = c.create<Conv2dOp>(
      operands, {c.i64ArrayAttr("stride", c.intsAttr("stride")),
                 c.i64ArrayAttr("padding", c.intsAttr("padding")),
                 c.i64ArrayAttr("dilation", c.intsAttr("dilation")),
                 c.i64Attr("groups", c.intAttr("groups"))});
  return {c.reshape(r, c.output().sizes())};
}

/// conv1d(x, w) = conv2d(x with a unit height, w with a unit height).
Values traceConv1d(TraceContext &c) {
  const Tensor &x = c.input(0), &w = c.input(1);
  std::vector<int64_t> xs = x.sizes().vec(), ws = w.sizes().vec();
  xs.insert(xs.end() - 1, 1);
  ws.insert(ws.begin() + 2, 1);
  if (xs.size() == 3)
    xs.insert(xs.begin(), 1);
  llvm::SmallVector<mlir::Value, 3> operands{c.reshape(c.in(0), xs),
                                             c.reshape(c.in(1), ws)};
  if (c.input(2).defined())
    operands.push_back(c.in(2));
  std::vector<int64_t> stride = c.intsAttr("stride"),
                       padding = c.intsAttr("padding"),
                       dilation = c.intsAttr("dilation");
  mlir::Value r = c.create<Conv2dOp>(
      operands, {c.i64ArrayAttr("stride", {1, stride[0]}),
                 c.i64ArrayAttr("padding", {0, padding[0]}),
                 c.i64ArrayAttr("dilation", {1, dilation[0]}),
                 c.i64Attr("groups", c.intAttr("groups"))});
  return {c.reshape(r, c.output().sizes())};
}

Values traceMaxPool(TraceContext &c) {
  mlir::Value r = c.create<MaxPool2dOp>(
      batched(c, 3), {c.i64ArrayAttr("kernel_size", c.intsAttr("kernel_size")),
                      c.i64ArrayAttr("stride", c.intsAttr("stride")),
                      c.i64ArrayAttr("padding", c.intsAttr("padding")),
                      c.i64ArrayAttr("dilation", c.intsAttr("dilation")),
                      c.boolAttr("ceil_mode", c.boolAttr("ceil_mode"))});
  return {c.reshape(r, c.output().sizes())};
}

Values traceAvgPool(TraceContext &c) {
  llvm::SmallVector<mlir::NamedAttribute> attrs{
      c.i64ArrayAttr("kernel_size", c.intsAttr("kernel_size")),
      c.i64ArrayAttr("stride", c.intsAttr("stride")),
      c.i64ArrayAttr("padding", c.intsAttr("padding")),
      c.boolAttr("ceil_mode", c.boolAttr("ceil_mode")),
      c.boolAttr("count_include_pad", c.boolAttr("count_include_pad"))};
  if (std::optional<int64_t> divisor = c.optIntAttr("divisor_override"))
    attrs.push_back(c.i64Attr("divisor_override", *divisor));
  mlir::Value r = c.create<AvgPool2dOp>(batched(c, 3), attrs);
  return {c.reshape(r, c.output().sizes())};
}

Values traceAdaptiveAvgPool(TraceContext &c) {
  mlir::Value r = c.create<AdaptiveAvgPool2dOp>(
      batched(c, 3),
      {c.i64ArrayAttr("output_size", c.intsAttr("output_size"))});
  return {c.reshape(r, c.output().sizes())};
}

Values traceDropout(TraceContext &c) {
  if (c.boolAttr("train") && c.doubleAttr("p") != 0)
    c.fail("dropout in training mode is random and cannot be traced: call "
           "eval() on the module (or pass train=false) before tracing");
  return {c.in(0)};
}

Values traceBatchNorm(TraceContext &c) {
  if (c.boolAttr("training"))
    c.fail("batch_norm in training mode uses batch statistics and updates "
           "the running ones: call eval() on the module before tracing");
  const Tensor &x = c.input(0);
  ScalarType t = x.dtype();
  std::vector<int64_t> channel{x.size(1)};
  auto operandOr = [&](size_t i, double fill) {
    return c.input(i).defined() ? c.in(i) : c.splat(fill, t, channel);
  };
  mlir::Value weight = operandOr(1, 1.0), bias = operandOr(2, 0.0);
  return {c.create<BatchNormOp>(
      mlir::ValueRange{c.in(0), weight, bias, c.in(3), c.in(4)},
      {c.f64Attr("eps", c.doubleAttr("eps"))})};
}

Values traceLayerNorm(TraceContext &c) {
  llvm::SmallVector<mlir::Value, 3> operands{c.in(0)};
  int32_t hasWeight = c.input(1).defined(), hasBias = c.input(2).defined();
  if (hasWeight)
    operands.push_back(c.in(1));
  if (hasBias)
    operands.push_back(c.in(2));
  return {c.create<LayerNormOp>(
      operands,
      {c.i64ArrayAttr("normalized_shape", c.intsAttr("normalized_shape")),
       c.f64Attr("eps", c.doubleAttr("eps")),
       c.attr("operandSegmentSizes",
              c.builder().getDenseI32ArrayAttr({1, hasWeight, hasBias}))})};
}

/// one_hot(x, C) = (x[..., None] == arange(C)) as int64.
Values traceOneHot(TraceContext &c) {
  const Tensor &x = c.input(0);
  int64_t classes = c.output().sizes().back();
  std::vector<int64_t> shape = x.sizes().vec();
  shape.push_back(1);
  Tensor range;
  {
    tcc::detail::RecordPauseGuard pause;
    range = arange(classes, TensorOptions().dtype(x.dtype()));
  }
  mlir::Value eq = c.create<EqOp>(
      mlir::ValueRange{c.reshape(c.in(0), shape), c.value(range)});
  return {c.cast(eq, kLong)};
}

} // namespace

void registerNNTraces(TraceRegistry &r) {
  r.trace("linear", [](TraceContext &c) -> Values {
    llvm::SmallVector<mlir::Value, 3> operands{c.in(0), c.in(1)};
    if (c.input(2).defined())
      operands.push_back(c.in(2));
    return {c.create<LinearOp>(operands)};
  });
  r.trace("conv2d", traceConv2d);
  r.trace("conv1d", traceConv1d);
  r.untraceable("conv_transpose2d",
                "the tcc dialect has no transposed convolution yet");
  r.trace("max_pool2d", traceMaxPool);
  r.untraceable("max_pool2d_with_indices",
                "tcc.max_pool2d has no indices result; use max_pool2d");
  r.trace("avg_pool2d", traceAvgPool);
  r.trace("adaptive_avg_pool2d", traceAdaptiveAvgPool);
  for (const char *op :
       {"avg_pool2d_backward", "adaptive_avg_pool2d_backward",
        "max_pool2d_backward", "conv2d_weight_grad"})
    r.untraceable(op, "a backward op: the tcc dialect has no backward ops "
                      "yet (trace the forward computation)");
  r.trace("dropout", traceDropout);
  r.trace("feature_dropout", traceDropout);
  r.trace("batch_norm", traceBatchNorm);
  r.trace("layer_norm", traceLayerNorm);
  // batch_norm and layer_norm record themselves and pause the tracer, so
  // their fused kernels are only seen when called directly.
  r.untraceable("native_batch_norm",
                "an internal op of batch_norm that also returns statistics "
                "(call batch_norm)");
  r.untraceable("native_layer_norm",
                "an internal op of layer_norm that also returns statistics "
                "(call layer_norm)");
  r.trace("embedding", [](TraceContext &c) -> Values {
    return {c.create<EmbeddingOp>(mlir::ValueRange{c.in(1), c.in(0)})};
  });
  r.trace("one_hot", traceOneHot);
  for (const char *op : {"mse_loss", "l1_loss", "smooth_l1_loss", "nll_loss",
                         "cross_entropy_loss", "binary_cross_entropy",
                         "binary_cross_entropy_with_logits"})
    r.untraceable(op, "a loss: training graphs are not traced yet (compute "
                      "the loss outside the traced function)");
  registerIndexingTraces(r);
}

} // namespace jit
} // namespace tcc
