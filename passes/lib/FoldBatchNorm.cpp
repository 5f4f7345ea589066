//===- FoldBatchNorm.cpp - Batch norm into the conv/linear before it ------===//
//
// Inference batch norm is a per-channel affine map y = x * s + t with
// s = gamma / sqrt(var + eps) and t = beta - mean * s. After a conv2d or
// linear whose weight and bias are constants it folds into them: the
// weight's output channel is dim 0 for OIHW, OHWI and [out, in] alike, so
// W'[o, ...] = W[o, ...] * s[o] and b'[o] = (b[o] - mean[o]) * s[o] + beta[o].
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/ConstantData.h"
#include "tcc/Passes/Passes.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/SetVector.h"

#include <cmath>

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFOLDBATCHNORM
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// The constant behind `value` and its data, or nothing.
struct ReadConstant {
  ElementsAttr attr;
  ConstantData data;
};
std::optional<ReadConstant> readConstantValue(Value value) {
  auto constant = value ? value.getDefiningOp<ConstantOp>() : ConstantOp();
  if (!constant)
    return std::nullopt;
  std::optional<ConstantData> data = readConstant(constant.getValue());
  if (!data)
    return std::nullopt;
  return ReadConstant{constant.getValue(), std::move(*data)};
}

/// The conv2d or linear whose result the batch norm normalizes, with the
/// conditions that make folding valid, or null.
Operation *findProducer(BatchNormOp bn) {
  Value input = bn.getInput();
  // An NHWC conv reaches an NCHW batch norm through one transpose.
  if (auto transpose = input.getDefiningOp<TransposeOp>()) {
    if (!llvm::equal(transpose.getPermutation(),
                     ArrayRef<int64_t>{0, 3, 1, 2}) ||
        !transpose->hasOneUse())
      return nullptr;
    auto conv = transpose.getInput().getDefiningOp<Conv2dOp>();
    if (!conv || conv.getLayout() != Layout::NHWC || !conv->hasOneUse())
      return nullptr;
    return conv;
  }
  Operation *producer = input.getDefiningOp();
  if (!producer || !producer->hasOneUse())
    return nullptr;
  if (auto conv = dyn_cast<Conv2dOp>(producer))
    return conv.getLayout() == Layout::NCHW ? producer : nullptr;
  // BatchNorm1d normalizes dim 1, the linear's output features only on
  // [N, out] results.
  if (auto linear = dyn_cast<LinearOp>(producer))
    return linear.getType().getRank() == 2 ? producer : nullptr;
  return nullptr;
}

/// Folds `bn` into its producer; the old constants are left for the caller
/// to erase once unused.
LogicalResult foldBatchNorm(BatchNormOp bn, RewriterBase &rewriter) {
  Operation *producer = findProducer(bn);
  if (!producer)
    return rewriter.notifyMatchFailure(bn, "no conv2d/linear used only here");
  Value weightValue = producer->getOperand(1);
  Value biasValue =
      producer->getNumOperands() > 2 ? producer->getOperand(2) : Value();
  std::optional<ReadConstant> weight = readConstantValue(weightValue);
  std::optional<ReadConstant> bias = readConstantValue(biasValue);
  std::optional<ReadConstant> gamma = readConstantValue(bn.getWeight());
  std::optional<ReadConstant> beta = readConstantValue(bn.getBias());
  std::optional<ReadConstant> mean = readConstantValue(bn.getRunningMean());
  std::optional<ReadConstant> var = readConstantValue(bn.getRunningVar());
  if (!weight || (biasValue && !bias) || !gamma || !beta || !mean || !var)
    return rewriter.notifyMatchFailure(bn, "a parameter is not constant");

  int64_t channels = weight->data.type.getDimSize(0);
  if (gamma->data.numElements() != channels)
    return rewriter.notifyMatchFailure(bn, "channel counts differ");
  int64_t perChannel =
      weight->data.numElements() / std::max<int64_t>(channels, 1);
  double eps = bn.getEps().convertToDouble();

  // A zero or negative var + eps makes the batch norm's output inf or NaN
  // in ways a scaled weight would not reproduce: leave it alone.
  SmallVector<double> scales;
  for (int64_t o = 0; o < channels; ++o) {
    double denominator = var->data.getFloat(o) + eps;
    double scale = gamma->data.getFloat(o) / std::sqrt(denominator);
    if (!(denominator > 0) || !std::isfinite(scale))
      return rewriter.notifyMatchFailure(bn, "var + eps is not positive");
    scales.push_back(scale);
  }

  ConstantData newWeight = weight->data;
  auto biasType =
      RankedTensorType::get({channels}, weight->data.type.getElementType());
  ConstantData newBias = ConstantData::zeros(biasType);
  for (int64_t o = 0; o < channels; ++o) {
    // float64 throughout, rounded once when stored.
    double scale = scales[o];
    for (int64_t i = o * perChannel; i < (o + 1) * perChannel; ++i)
      newWeight.setFloat(i, weight->data.getFloat(i) * scale);
    double b = bias ? bias->data.getFloat(o) : 0.0;
    newBias.setFloat(o, (b - mean->data.getFloat(o)) * scale +
                            beta->data.getFloat(o));
  }

  Location loc = bn.getLoc();
  rewriter.setInsertionPoint(producer);
  ElementsAttr weightAttr =
      makeConstantAttr(newWeight, deriveBlobName({weight->attr}, ".bn"));
  ElementsAttr biasAttr = makeConstantAttr(
      newBias, deriveBlobName({bias ? bias->attr : beta->attr}, ".bn"));
  Value w = rewriter.create<ConstantOp>(loc, weightAttr.getType(), weightAttr);
  Value b = rewriter.create<ConstantOp>(loc, biasAttr.getType(), biasAttr);
  rewriter.modifyOpInPlace(producer, [&] {
    producer->setOperands({producer->getOperand(0), w, b});
  });
  rewriter.replaceOp(bn, bn.getInput());
  return success();
}

struct FoldBatchNormPass : tcc::impl::TccFoldBatchNormBase<FoldBatchNormPass> {
  void runOnOperation() override {
    // A plain walk rather than the greedy driver: the pass folds batch norms
    // and nothing else (the driver would also run every op's folder).
    SmallVector<BatchNormOp> batchNorms;
    getOperation().walk([&](BatchNormOp bn) { batchNorms.push_back(bn); });
    IRRewriter rewriter(&getContext());
    for (BatchNormOp bn : batchNorms) {
      llvm::SetVector<Operation *> inputs;
      for (Value operand : bn->getOperands())
        inputs.insert(operand.getDefiningOp());
      Operation *producer = bn.getInput().getDefiningOp();
      if (auto t = dyn_cast_or_null<TransposeOp>(producer))
        producer = t.getInput().getDefiningOp();
      if (producer)
        for (Value operand : producer->getOperands().drop_front())
          inputs.insert(operand.getDefiningOp());
      if (failed(foldBatchNorm(bn, rewriter)))
        continue;
      // The old weights and parameters, unless something else uses them.
      for (Operation *op : inputs)
        if (op && isa<ConstantOp>(op) && op->use_empty())
          rewriter.eraseOp(op);
    }
  }
};

} // namespace
