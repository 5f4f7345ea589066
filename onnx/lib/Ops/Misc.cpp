//===- Misc.cpp - ONNX's newer transformer building blocks ----------------===//
//
// RMSNormalization, RotaryEmbedding and CausalConvWithState, each
// composed from tcc ops as ONNX's definition of the op computes it.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <numeric>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// `v[..., begin:end:step]` on its last dim.
Value sliceLast(NodeContext &n, Value v, int64_t begin, int64_t end,
                int64_t step) {
  auto s = NodeContext::shapeOf(v);
  std::vector<int64_t> start(s.size(), 0), stop(s.begin(), s.end()),
      steps(s.size(), 1);
  start.back() = begin;
  stop.back() = end;
  steps.back() = step;
  return n.create<tcc::SliceOp>(v, {n.i64ArrayAttr("start", start),
                                    n.i64ArrayAttr("end", stop),
                                    n.i64ArrayAttr("step", steps)});
}

Value concatLast(NodeContext &n, ValueRange parts) {
  return n.create<tcc::ConcatOp>(
      parts, {n.i64Attr("dim", NodeContext::rankOf(parts[0]) - 1)});
}

void rmsNormalization(NodeContext &n) {
  n.checkAttrs({"axis", "epsilon", "stash_type"});
  Value x = n.input(0), scale = n.input(1);
  int64_t rank = NodeContext::rankOf(x);
  int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), rank, "axis");
  Type xType = NodeContext::elementTypeOf(x);
  Type stash = n.elementTypeFor(n.intAttr("stash_type", 1));
  if (!isa<FloatType>(xType) || !isa<FloatType>(stash))
    n.fail("X and stash_type must be float types");
  std::vector<int64_t> dims(rank - axis);
  std::iota(dims.begin(), dims.end(), axis);
  Value xs = n.cast(x, stash);
  Value meanSquare = n.create<tcc::ReduceMeanOp>(
      n.create<tcc::MulOp>({xs, xs}),
      {n.i64ArrayAttr("dims", dims), n.boolAttr("keepdim", true)});
  Value rms = n.create<tcc::SqrtOp>(n.create<tcc::AddOp>(
      {meanSquare, n.scalar(n.floatAttr("epsilon", 1e-5f), stash)}));
  Value normalized = n.cast(n.create<tcc::DivOp>({xs, rms}), xType);
  n.setOutput(0, n.create<tcc::MulOp>({normalized, n.cast(scale, xType)}));
}

void rotaryEmbedding(NodeContext &n) {
  n.checkAttrs({"interleaved", "num_heads", "rotary_embedding_dim"});
  Value x = n.input(0), cosCache = n.input(1), sinCache = n.input(2);
  Value positions = n.optionalInput(3);
  auto originalShape = NodeContext::shapeOf(x).vec();
  int64_t rank = originalShape.size();
  // To [batch, seq, heads, head_size].
  if (rank == 4) {
    x = n.create<tcc::TransposeOp>(
        x, {n.i64ArrayAttr("permutation", {0, 2, 1, 3})});
  } else if (rank == 3) {
    int64_t heads = n.intAttr("num_heads", 0);
    if (heads <= 0 || originalShape[2] % heads != 0)
      n.fail("a 3-D input needs num_heads dividing its hidden size");
    x = n.reshape(x, {originalShape[0], originalShape[1], heads,
                      originalShape[2] / heads});
  } else {
    n.fail("the input must have rank 3 or 4");
  }
  auto s = NodeContext::shapeOf(x).vec();
  int64_t batch = s[0], seq = s[1], headSize = s[3];
  int64_t rotaryDim = n.intAttr("rotary_embedding_dim", 0);
  if (rotaryDim == 0)
    rotaryDim = headSize;
  if (rotaryDim < 0 || rotaryDim > headSize || rotaryDim % 2 != 0)
    n.fail("rotary_embedding_dim must be even and at most the head size");
  int64_t half = rotaryDim / 2;

  auto lookUp = [&](Value cache, const char *what) {
    if (positions) {
      if (NodeContext::rankOf(cache) != 2)
        n.fail(std::string(what) + " must be 2-D with position_ids");
      Value flat = n.reshape(n.cast(positions, n.builder().getI64Type()),
                             {batch * seq});
      cache = n.create<tcc::IndexSelectOp>({cache, flat}, {n.i64Attr("dim", 0)});
    }
    if (NodeContext::typeOf(cache).getNumElements() != batch * seq * half)
      n.fail(std::string(what) + " does not hold [batch, seq, rotary_dim/2]");
    return n.reshape(cache, {batch, seq, 1, half});
  };
  Value cosV = lookUp(cosCache, "cos_cache"), sinV = lookUp(sinCache, "sin_cache");

  Value rotated = sliceLast(n, x, 0, rotaryDim, 1);
  bool interleaved = n.intAttr("interleaved", 0) != 0;
  Value x1 = interleaved ? sliceLast(n, rotated, 0, rotaryDim, 2)
                         : sliceLast(n, rotated, 0, half, 1);
  Value x2 = interleaved ? sliceLast(n, rotated, 1, rotaryDim, 2)
                         : sliceLast(n, rotated, half, rotaryDim, 1);
  Value real = n.create<tcc::SubOp>(
      {n.create<tcc::MulOp>({cosV, x1}), n.create<tcc::MulOp>({sinV, x2})});
  Value imag = n.create<tcc::AddOp>(
      {n.create<tcc::MulOp>({sinV, x1}), n.create<tcc::MulOp>({cosV, x2})});
  if (interleaved) {
    std::vector<int64_t> pairShape = {batch, seq, s[2], half, 1};
    rotated = n.reshape(
        concatLast(n, {n.reshape(real, pairShape), n.reshape(imag, pairShape)}),
        {batch, seq, s[2], rotaryDim});
  } else {
    rotated = concatLast(n, {real, imag});
  }
  Value y = rotaryDim == headSize
                ? rotated
                : concatLast(n, {rotated, sliceLast(n, x, rotaryDim, headSize, 1)});
  if (rank == 4)
    y = n.create<tcc::TransposeOp>(
        y, {n.i64ArrayAttr("permutation", {0, 2, 1, 3})});
  else
    y = n.reshape(y, originalShape);
  n.setOutput(0, y);
}

/// A causal depthwise 1-D convolution over [past_state, input] (zeros when
/// no past state), as a sum of kernel-size shifted slices times the weight.
void causalConvWithState(NodeContext &n) {
  n.checkAttrs({"activation"});
  Value x = n.input(0), weight = n.input(1), bias = n.optionalInput(2);
  Value past = n.optionalInput(3);
  std::string activation = n.stringAttr("activation", "none");
  if (activation != "none" && activation != "silu" && activation != "swish")
    n.fail("activation '" + activation + "' is not silu, swish or none");
  if (NodeContext::rankOf(x) != 3)
    n.fail("the input must have shape [batch, channels, length]");
  auto xs = NodeContext::shapeOf(x).vec();
  int64_t batch = xs[0], channels = xs[1], length = xs[2];
  auto ws = NodeContext::shapeOf(weight);
  if (ws.size() != 3 || ws[0] != channels || ws[1] != 1 || ws[2] < 1)
    n.fail("the weight must have shape [channels, 1, k]");
  int64_t kernel = ws[2];
  if (bias && NodeContext::shapeOf(bias).vec() != std::vector<int64_t>{channels})
    n.fail("the bias must have shape [channels]");
  std::vector<int64_t> stateShape = {batch, channels, kernel - 1};
  if (past && NodeContext::shapeOf(past).vec() != stateShape)
    n.fail("past_state must have shape [batch, channels, k - 1]");
  Type et = NodeContext::elementTypeOf(x);
  Value padded = x; // a kernel of size 1 has an empty state
  if (kernel > 1) {
    Value state = past ? past : n.broadcastTo(n.scalar(0.0, et), stateShape);
    padded = concatLast(n, {state, x});
  }
  // As ONNX's reference: the convolution rounded to the input's type, the
  // activation computed in f32 (both in f32 here).
  Type f32 = Float32Type::get(n.context());
  Value paddedF32 = n.cast(padded, f32), weightF32 = n.cast(weight, f32);
  Value y;
  for (int64_t j = 0; j < kernel; ++j) {
    Value tap =
        n.reshape(sliceLast(n, weightF32, j, j + 1, 1), {1, channels, 1});
    Value term =
        n.create<tcc::MulOp>({sliceLast(n, paddedF32, j, j + length, 1), tap});
    y = y ? n.create<tcc::AddOp>({y, term}) : term;
  }
  if (bias)
    y = n.create<tcc::AddOp>(
        {y, n.reshape(n.cast(bias, f32), {1, channels, 1})});
  y = n.cast(y, et);
  if (activation != "none")
    y = n.cast(n.create<tcc::SiluOp>(n.cast(y, f32)), et);
  n.setOutput(0, y);
  if (n.wantsOutput(1))
    n.setOutput(1, sliceLast(n, padded, length, length + kernel - 1, 1));
}

} // namespace

void mlir::tcc::onnx::registerMiscOps(OpTable &t) {
  t.add("RMSNormalization", 23, rmsNormalization);
  t.add("RotaryEmbedding", 23, rotaryEmbedding);
  t.add("CausalConvWithState", 27, causalConvWithState);
}
