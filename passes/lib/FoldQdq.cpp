//===- FoldQdq.cpp - dequantize -> matmul/conv2d -> quantize to integer ops
//-===//
//
// The QDQ form of a quantized layer (ONNX's, and what calibration writes)
// computes in float between explicit dequantize and quantize ops. When the
// float op is a matmul or a bias-free NCHW conv2d whose operands are
// dequantized 8-bit tensors, the same layer is an integer product and one
// requantization:
//
//   quantize(dequantize(a) x dequantize(b), s_y, zp_y)
//     = requantize(matmul_integer(a, b, zp_a, zp_b), s_a * s_b / s_y, zp_y)
//
// exactly in real arithmetic. The float form rounds the products and sums
// to f32 and the integer form does not, so results may differ by one step
// of s_y where the float sum's rounding crosses a rounding boundary; the
// integer form is the exact one.
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/Passes.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFOLDQDQ
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

bool isInt8(Type t) { return t.isUnsignedInteger(8) || t.isSignlessInteger(8); }

/// A dequantize of an 8-bit tensor with f32 scales, quantized per tensor or
/// (when `channelDim` is not negative) per channel along that dim only.
DequantizeOp dequantized(Value v, int64_t channelDim) {
  auto dq = v.getDefiningOp<DequantizeOp>();
  if (!dq || !isInt8(typeOf(dq.getInput()).getElementType()) ||
      !typeOf(dq.getScale()).getElementType().isF32())
    return nullptr;
  if (typeOf(dq.getScale()).getRank() == 0)
    return dq;
  int64_t rank = typeOf(dq.getInput()).getRank();
  int64_t axis = static_cast<int64_t>(dq.getAxis());
  if (axis < 0)
    axis += rank;
  return channelDim >= 0 && axis == channelDim ? dq : nullptr;
}

/// s_a * s_b / s_y, and zp_y broadcast to its shape.
std::pair<Value, Value> requantizeParams(RewriterBase &rewriter, Location loc,
                                         Value aScale, Value bScale,
                                         QuantizeOp q) {
  Value product = rewriter.create<MulOp>(loc, aScale, bScale);
  Value multiplier = rewriter.create<DivOp>(loc, product, q.getScale());
  Value zp = q.getZeroPoint();
  auto shape = typeOf(multiplier).getShape();
  if (typeOf(zp).getShape() != shape)
    zp = rewriter.create<BroadcastToOp>(loc, typeOf(zp).clone(shape), zp);
  return {multiplier, zp};
}

/// The quantize to fold: 8-bit, per tensor, of a float op used only here.
bool foldableQuantize(QuantizeOp q, Operation *producer) {
  return producer && producer->hasOneUse() &&
         isInt8(q.getType().getElementType()) &&
         typeOf(q.getScale()).getRank() == 0 &&
         typeOf(q.getScale()).getElementType().isF32();
}

LogicalResult foldMatmul(QuantizeOp q, MatmulOp mm, RewriterBase &rewriter) {
  int64_t lastDim = typeOf(mm.getRhs()).getRank() - 1;
  DequantizeOp a = dequantized(mm.getLhs(), -1);
  DequantizeOp b = dequantized(mm.getRhs(), lastDim);
  if (!a || !b)
    return failure();
  rewriter.setInsertionPoint(q);
  Location loc = q.getLoc();
  Value acc = rewriter.create<MatmulIntegerOp>(
      loc, ValueRange{a.getInput(), b.getInput(), a.getZeroPoint(),
                      b.getZeroPoint()});
  auto [multiplier, zp] =
      requantizeParams(rewriter, loc, a.getScale(), b.getScale(), q);
  int64_t axis = typeOf(acc).getRank() - 1;
  rewriter.replaceOpWithNewOp<RequantizeOp>(q, acc, multiplier, zp,
                                            rewriter.getI64IntegerAttr(axis));
  return success();
}

LogicalResult foldConv2d(QuantizeOp q, Conv2dOp conv, RewriterBase &rewriter) {
  if (conv.getBias() || conv.getLayout() != Layout::NCHW)
    return failure();
  DequantizeOp x = dequantized(conv.getInput(), -1);
  DequantizeOp w = dequantized(conv.getWeight(), 0);
  if (!x || !w)
    return failure();
  rewriter.setInsertionPoint(q);
  Location loc = q.getLoc();
  NamedAttribute attrs[] = {
      rewriter.getNamedAttr("stride",
                            rewriter.getDenseI64ArrayAttr(conv.getStride())),
      rewriter.getNamedAttr("padding",
                            rewriter.getDenseI64ArrayAttr(conv.getPadding())),
      rewriter.getNamedAttr("dilation",
                            rewriter.getDenseI64ArrayAttr(conv.getDilation())),
      rewriter.getNamedAttr("groups",
                            rewriter.getI64IntegerAttr(conv.getGroups()))};
  Value acc = rewriter.create<Conv2dIntegerOp>(
      loc,
      ValueRange{x.getInput(), w.getInput(), x.getZeroPoint(),
                 w.getZeroPoint()},
      attrs);
  auto [multiplier, zp] =
      requantizeParams(rewriter, loc, x.getScale(), w.getScale(), q);
  rewriter.replaceOpWithNewOp<RequantizeOp>(q, acc, multiplier, zp,
                                            rewriter.getI64IntegerAttr(1));
  return success();
}

struct FoldQdqPass : tcc::impl::TccFoldQdqBase<FoldQdqPass> {
  void runOnOperation() override {
    SmallVector<QuantizeOp> quantizes;
    getOperation().walk([&](QuantizeOp q) { quantizes.push_back(q); });
    IRRewriter rewriter(&getContext());
    for (QuantizeOp q : quantizes) {
      Operation *producer = q.getInput().getDefiningOp();
      if (!foldableQuantize(q, producer))
        continue;
      SmallVector<Operation *> dequantizes;
      for (Value operand : producer->getOperands())
        if (Operation *def = operand.getDefiningOp<DequantizeOp>())
          dequantizes.push_back(def);
      LogicalResult folded = failure();
      if (auto mm = dyn_cast<MatmulOp>(producer))
        folded = foldMatmul(q, mm, rewriter);
      else if (auto conv = dyn_cast<Conv2dOp>(producer))
        folded = foldConv2d(q, conv, rewriter);
      if (failed(folded))
        continue;
      rewriter.eraseOp(producer);
      for (Operation *dq : dequantizes)
        if (dq->use_empty())
          rewriter.eraseOp(dq);
    }
  }
};

} // namespace
