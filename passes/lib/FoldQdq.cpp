//===- FoldQdq.cpp - dequantize -> matmul/conv2d -> quantize to integer ops
//-===//
//
// The QDQ form of a quantized layer (ONNX's, and what calibration writes)
// computes in float between explicit dequantize and quantize ops. When the
// float op is a matmul or an NCHW conv2d whose operands are dequantized
// 8-bit tensors, the same layer is an integer product and one
// requantization (a dequantized int32 bias of scale s_a * s_b and a ReLU
// before the quantize fold too):
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

#include "tcc/Passes/ConstantData.h"
#include "tcc/Passes/Passes.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>

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

/// The elements of a constant (`dense` or `dense_resource`), or nullopt.
std::optional<ConstantData> constantData(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  return readConstant(constant.getValue());
}

/// The f32 values of a constant, or nullopt.
std::optional<SmallVector<float>> constantFloats(Value v) {
  std::optional<ConstantData> data = constantData(v);
  if (!data || data->kind() != ElementKind::F32)
    return std::nullopt;
  SmallVector<float> out;
  for (int64_t i = 0; i < data->numElements(); ++i)
    out.push_back(static_cast<float>(data->getFloat(i)));
  return out;
}

/// The 1-D i32 tensor of a dequantized bias whose zero point is 0 and
/// whose scale is s_a * s_b (the f32 products of constants, as quantizers
/// write it: ONNX Runtime's quantize_static), so that it adds to the
/// integer sums exactly; null for any other value.
Value integerBias(Value bias, Value aScale, Value bScale) {
  auto dq = bias ? bias.getDefiningOp<DequantizeOp>() : nullptr;
  if (!dq || !typeOf(dq.getInput()).getElementType().isSignlessInteger(32) ||
      typeOf(dq.getInput()).getRank() != 1)
    return nullptr;
  std::optional<ConstantData> zp = constantData(dq.getZeroPoint());
  if (!zp)
    return nullptr;
  for (int64_t i = 0; i < zp->numElements(); ++i)
    if (zp->getInt(i) != 0)
      return nullptr;
  auto sa = constantFloats(aScale), sb = constantFloats(bScale),
       sBias = constantFloats(dq.getScale());
  if (!sa || !sb || !sBias || sa->size() != 1 ||
      (sb->size() != 1 && sb->size() != sBias->size()))
    return nullptr;
  for (size_t c = 0; c < sBias->size(); ++c)
    if ((*sBias)[c] != (*sa)[0] * (*sb)[sb->size() == 1 ? 0 : c])
      return nullptr;
  return dq.getInput();
}

/// The integer form of a float matmul or conv2d of dequantized operands:
/// its i32 sums, the operands' scales and the channel axis of the sums.
struct IntegerProduct {
  Value acc, aScale, bScale;
  int64_t channelAxis;
};

std::optional<IntegerProduct> integerMatmul(MatmulOp mm,
                                            RewriterBase &rewriter) {
  int64_t lastDim = typeOf(mm.getRhs()).getRank() - 1;
  DequantizeOp a = dequantized(mm.getLhs(), -1);
  DequantizeOp b = dequantized(mm.getRhs(), lastDim);
  if (!a || !b)
    return std::nullopt;
  Value acc = rewriter.create<MatmulIntegerOp>(
      mm.getLoc(), ValueRange{a.getInput(), b.getInput(), a.getZeroPoint(),
                              b.getZeroPoint()});
  return IntegerProduct{acc, a.getScale(), b.getScale(),
                        typeOf(acc).getRank() - 1};
}

std::optional<IntegerProduct> integerConv2d(Conv2dOp conv,
                                            RewriterBase &rewriter) {
  if (conv.getLayout() != Layout::NCHW)
    return std::nullopt;
  DequantizeOp x = dequantized(conv.getInput(), -1);
  DequantizeOp w = dequantized(conv.getWeight(), 0);
  if (!x || !w)
    return std::nullopt;
  Value bias;
  if (conv.getBias()) {
    bias = integerBias(conv.getBias(), x.getScale(), w.getScale());
    if (!bias)
      return std::nullopt;
  }
  NamedAttribute attrs[] = {
      rewriter.getNamedAttr("stride",
                            rewriter.getDenseI64ArrayAttr(conv.getStride())),
      rewriter.getNamedAttr("padding",
                            rewriter.getDenseI64ArrayAttr(conv.getPadding())),
      rewriter.getNamedAttr("dilation",
                            rewriter.getDenseI64ArrayAttr(conv.getDilation())),
      rewriter.getNamedAttr("groups",
                            rewriter.getI64IntegerAttr(conv.getGroups()))};
  Location loc = conv.getLoc();
  Value acc = rewriter.create<Conv2dIntegerOp>(
      loc,
      ValueRange{x.getInput(), w.getInput(), x.getZeroPoint(),
                 w.getZeroPoint()},
      attrs);
  if (bias) {
    // [O] -> [O, 1, 1]: one value per channel of the NCHW sums.
    auto biasType = typeOf(bias);
    Value perChannel = rewriter.create<ReshapeOp>(
        loc, biasType.clone({biasType.getDimSize(0), 1, 1}), bias);
    acc = rewriter.create<AddOp>(loc, acc, perChannel);
  }
  return IntegerProduct{acc, x.getScale(), w.getScale(), 1};
}

/// Folds the layer that `q` quantizes: its matmul or conv2d, optionally
/// followed by a dequantized bias add (matmul; a conv2d's bias is its
/// operand) and a ReLU. ReLU becomes a maximum with the output zero point
/// after requantization: quantization is monotonic and maps 0 to the zero
/// point, so quantize(relu(y)) = max(quantize(y), zp) exactly. Returns the
/// float ops that are now unused, or nothing when the layer does not fold.
SmallVector<Operation *> foldLayer(QuantizeOp q, IRRewriter &rewriter) {
  Operation *producer = q.getInput().getDefiningOp();
  if (!foldableQuantize(q, producer))
    return {};
  SmallVector<Operation *> chain{producer};
  ReluOp relu = dyn_cast<ReluOp>(producer);
  if (relu) {
    producer = relu.getInput().getDefiningOp();
    if (!producer || !producer->hasOneUse())
      return {};
    chain.push_back(producer);
  }
  AddOp biasAdd = dyn_cast<AddOp>(producer);
  Operation *core = producer;
  if (biasAdd) {
    core = biasAdd.getLhs().getDefiningOp<MatmulOp>();
    if (!core || !core->hasOneUse())
      return {};
    chain.push_back(core);
  }
  if (!isa<MatmulOp, Conv2dOp>(core))
    return {};
  rewriter.setInsertionPoint(q);
  Location loc = q.getLoc();
  std::optional<IntegerProduct> product;
  if (auto mm = dyn_cast<MatmulOp>(core))
    product = integerMatmul(mm, rewriter);
  else
    product = integerConv2d(cast<Conv2dOp>(core), rewriter);
  if (!product)
    return {};
  Value acc = product->acc;
  if (biasAdd) {
    Value bias =
        integerBias(biasAdd.getRhs(), product->aScale, product->bScale);
    if (!bias || typeOf(bias).getDimSize(0) !=
                     typeOf(acc).getDimSize(typeOf(acc).getRank() - 1)) {
      rewriter.eraseOp(acc.getDefiningOp());
      return {};
    }
    acc = rewriter.create<AddOp>(loc, acc, bias);
  }
  auto [multiplier, zp] =
      requantizeParams(rewriter, loc, product->aScale, product->bScale, q);
  Value y = rewriter.create<RequantizeOp>(
      loc, acc, multiplier, zp,
      rewriter.getI64IntegerAttr(product->channelAxis));
  if (relu)
    y = rewriter.create<MaximumOp>(loc, y, q.getZeroPoint());
  rewriter.replaceOp(q, y);
  return chain;
}

/// A dequantize per tensor of an 8-bit tensor by a constant f32 scale that
/// is a positive normal float, whose zero point is a constant.
DequantizeOp orderPreservingDequantize(Value v) {
  auto dq = v.getDefiningOp<DequantizeOp>();
  if (!dq || !dq->hasOneUse() || !dequantized(v, -1) ||
      typeOf(dq.getScale()).getRank() != 0 || !constantData(dq.getZeroPoint()))
    return nullptr;
  std::optional<SmallVector<float>> scale = constantFloats(dq.getScale());
  return scale && std::isnormal((*scale)[0]) && (*scale)[0] > 0 ? dq : nullptr;
}

/// max_pool2d(dequantize(q)) -> dequantize(max_pool2d(q)), and the same for
/// reshape: a positive scale preserves order, so the maximum of the
/// dequantized values is the dequantized maximum, and a per-tensor scale
/// does not care where an element moves. Exact; the dequantize moves on
/// to where a quantize may cancel it.
bool sinkDequantize(Operation *op, IRRewriter &rewriter) {
  if (!isa<MaxPool2dOp, ReshapeOp>(op))
    return false;
  DequantizeOp dq = orderPreservingDequantize(op->getOperand(0));
  if (!dq)
    return false;
  rewriter.setInsertionPoint(op);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  Value q = dq.getInput();
  Operation *integer = rewriter.clone(*op);
  integer->setOperand(0, q);
  integer->getResult(0).setType(
      resultType.clone(typeOf(q).getElementType()));
  Value y = rewriter.create<DequantizeOp>(
      dq.getLoc(), resultType, integer->getResult(0), dq.getScale(),
      dq.getZeroPoint(), dq.getAxisAttr());
  rewriter.replaceOp(op, y);
  rewriter.eraseOp(dq);
  return true;
}

/// quantize(dequantize(q, s, zp), s, zp) -> q, for 8-bit q and one
/// constant positive normal f32 s: |q - zp| <= 255, so (q - zp) * s / s
/// rounded twice in f32 stays within 255 * 2^-23 of q - zp, and rounds
/// back to it.
bool foldRoundTrip(QuantizeOp q, IRRewriter &rewriter) {
  DequantizeOp dq = orderPreservingDequantize(q.getInput());
  if (!dq || dq.getInput().getType() != q.getType() ||
      typeOf(q.getScale()).getRank() != 0 ||
      typeOf(q.getZeroPoint()).getRank() != 0)
    return false;
  std::optional<SmallVector<float>> s = constantFloats(q.getScale()),
                                    sDq = constantFloats(dq.getScale());
  std::optional<ConstantData> zp = constantData(q.getZeroPoint()),
                              zpDq = constantData(dq.getZeroPoint());
  if (!s || !sDq || (*s)[0] != (*sDq)[0] || (*s)[0] > 1e30f || !zp || !zpDq ||
      zp->getInt(0) != zpDq->getInt(0))
    return false;
  rewriter.replaceOp(q, dq.getInput());
  rewriter.eraseOp(dq);
  return true;
}

struct FoldQdqPass : tcc::impl::TccFoldQdqBase<FoldQdqPass> {
  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    // Max-pools and reshapes of int8 tensors stay int8, and quantizing
    // what was just dequantized with the same parameters is a no-op.
    SmallVector<Operation *> movable;
    getOperation().walk([&](Operation *op) {
      if (isa<MaxPool2dOp, ReshapeOp>(op))
        movable.push_back(op);
    });
    for (Operation *op : movable)
      sinkDequantize(op, rewriter);
    SmallVector<QuantizeOp> roundTrips;
    getOperation().walk([&](QuantizeOp q) { roundTrips.push_back(q); });
    for (QuantizeOp q : roundTrips)
      foldRoundTrip(q, rewriter);

    SmallVector<QuantizeOp> quantizes;
    getOperation().walk([&](QuantizeOp q) { quantizes.push_back(q); });
    for (QuantizeOp q : quantizes) {
      // The float ops from the quantize up, then the dequantizes they read.
      SmallVector<Operation *> dequantizes;
      for (Operation *op : foldLayer(q, rewriter)) {
        for (Value operand : op->getOperands())
          if (Operation *def = operand.getDefiningOp<DequantizeOp>())
            dequantizes.push_back(def);
        rewriter.eraseOp(op);
      }
      for (Operation *dq : dequantizes)
        if (dq->use_empty())
          rewriter.eraseOp(dq);
    }
  }
};

} // namespace
