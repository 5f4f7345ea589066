//===- NN.cpp - Layers: linear, convolution, pooling, normalization, ... --===//
//
// Each runs the eager op of the frontend's NN family computing it: linear,
// conv2d, pooling, batch/layer norm, dropout (the identity: traced graphs
// are inference graphs), embedding, and the joining, indexing and padding
// ops (cat, gather, index_select, constant_pad_nd). Ops in NHWC layout (after
// tcc-convert-layout) run the NCHW eager op between permutes.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> a) { return a.vec(); }

/// Runs an NCHW eager op on an op whose layout may be NHWC.
template <class F>
Tensor inNchw(mlir::tcc::Layout layout, const Tensor &x, F &&run) {
  if (layout == mlir::tcc::Layout::NCHW)
    return run(x);
  return run(x.permute({0, 3, 1, 2})).permute({0, 2, 3, 1});
}

} // namespace

void registerNNInterpreters(InterpreterRegistry &r) {
  r.interpret<LinearOp>([](LinearOp op, const InterpretContext &v) {
    Tensor input = v(op.getInput()), weight = v(op.getWeight());
    Tensor bias = v(op.getBias());
    // tcc.linear also takes integers, which the eager op (as
    // torch.nn.functional.linear) refuses: x @ W^T (+ b), wrapping.
    if (!isFloatingType(input.scalar_type())) {
      Tensor out = tcc::matmul(input, weight.t());
      return bias.defined() ? out + bias : out;
    }
    return tcc::linear(input, weight,
                       bias.defined() ? std::optional<Tensor>(bias)
                                      : std::nullopt);
  });
  r.interpret<Conv2dOp>([](Conv2dOp op, const InterpretContext &v) {
    Tensor w = v(op.getWeight()), b = v(op.getBias());
    if (op.getLayout() == mlir::tcc::Layout::NHWC)
      w = w.permute({0, 3, 1, 2}); // OHWI -> OIHW
    return inNchw(op.getLayout(), v(op.getInput()), [&](const Tensor &x) {
      return tcc::conv2d(x, w,
                         b.defined() ? std::optional<Tensor>(b) : std::nullopt,
                         vec(op.getStride()), vec(op.getPadding()),
                         vec(op.getDilation()), int64_t(op.getGroups()));
    });
  });
  r.interpret<MaxPool2dOp>([](MaxPool2dOp op, const InterpretContext &v) {
    return inNchw(op.getLayout(), v(op.getInput()), [&](const Tensor &x) {
      return tcc::max_pool2d(x, vec(op.getKernelSize()), vec(op.getStride()),
                             vec(op.getPadding()), vec(op.getDilation()),
                             op.getCeilMode());
    });
  });
  r.interpret<AvgPool2dOp>([](AvgPool2dOp op, const InterpretContext &v) {
    std::optional<int64_t> divisor;
    if (auto d = op.getDivisorOverride())
      divisor = int64_t(*d);
    return inNchw(op.getLayout(), v(op.getInput()), [&](const Tensor &x) {
      return tcc::avg_pool2d(x, vec(op.getKernelSize()), vec(op.getStride()),
                             vec(op.getPadding()), op.getCeilMode(),
                             op.getCountIncludePad(), divisor);
    });
  });
  r.interpret<AdaptiveAvgPool2dOp>(
      [](AdaptiveAvgPool2dOp op, const InterpretContext &v) {
        return inNchw(op.getLayout(), v(op.getInput()), [&](const Tensor &x) {
          return tcc::adaptive_avg_pool2d(x, vec(op.getOutputSize()));
        });
      });
  r.interpret<BatchNormOp>([](BatchNormOp op, const InterpretContext &v) {
    return tcc::batch_norm(v(op.getInput()), v(op.getWeight()), v(op.getBias()),
                           v(op.getRunningMean()), v(op.getRunningVar()),
                           /*training=*/false,
                           /*momentum=*/0.1, op.getEps().convertToDouble());
  });
  r.interpret<LayerNormOp>([](LayerNormOp op, const InterpretContext &v) {
    Tensor w = v(op.getWeight()), b = v(op.getBias());
    return tcc::layer_norm(
        v(op.getInput()), vec(op.getNormalizedShape()),
        w.defined() ? std::optional<Tensor>(w) : std::nullopt,
        b.defined() ? std::optional<Tensor>(b) : std::nullopt,
        op.getEps().convertToDouble());
  });
  r.interpret<EmbeddingOp>([](EmbeddingOp op, const InterpretContext &v) {
    return tcc::embedding(v(op.getWeight()), v(op.getIndices()));
  });
  r.interpret<DropoutOp>([](DropoutOp op, const InterpretContext &v) {
    // Traced graphs are inference graphs: dropout is the identity.
    return v(op.getInput());
  });
  r.interpret<ConcatOp>([](ConcatOp op, const InterpretContext &v) {
    return tcc::cat(v(op.getInputs()), op.getDim());
  });
  r.interpret<GatherOp>([](GatherOp op, const InterpretContext &v) {
    // The eager op (as torch.gather) wants int64 indices; tcc.gather also
    // takes i32 ones, whose values are the same.
    Tensor index = v(op.getIndex());
    if (index.scalar_type() == kInt)
      index = index.to(kLong);
    return tcc::gather(v(op.getInput()), op.getDim(), index);
  });
  r.interpret<ScatterOp>([](ScatterOp op, const InterpretContext &v) {
    // Out-of-range and negative indices throw here (the eager check), as
    // the op's description says.
    Tensor index = v(op.getIndex());
    if (index.scalar_type() == kInt)
      index = index.to(kLong);
    Tensor input = v(op.getInput()), updates = v(op.getUpdates());
    int64_t dim = op.getDim();
    switch (op.getReduction()) {
    case ScatterReduction::none:
      return tcc::scatter(input, dim, index, updates);
    case ScatterReduction::add:
      return tcc::scatter_add(input, dim, index, updates);
    case ScatterReduction::mul:
      return tcc::scatter_reduce(input, dim, index, updates, "prod");
    case ScatterReduction::max:
      return tcc::scatter_reduce(input, dim, index, updates, "amax");
    case ScatterReduction::min:
      return tcc::scatter_reduce(input, dim, index, updates, "amin");
    }
    llvm_unreachable("unknown scatter reduction");
  });
  r.interpret<IndexSelectOp>([](IndexSelectOp op, const InterpretContext &v) {
    return tcc::index_select(v(op.getInput()), op.getDim(), v(op.getIndex()));
  });
  r.interpret<PadOp>([](PadOp op, const InterpretContext &v) {
    Tensor x = v(op.getInput());
    double value = op.getValue().convertToDouble();
    Scalar fill = x.is_floating_point() ? Scalar(value)
                  : x.dtype() == kBool  ? Scalar(value != 0)
                                        : Scalar(int64_t(value));
    return tcc::constant_pad_nd(x, vec(op.getPad()), fill);
  });
}

} // namespace jit
} // namespace tcc
