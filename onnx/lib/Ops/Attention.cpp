//===- Attention.cpp - ONNX Attention and LinearAttention -----------------===//
//
// ONNX's Attention (opsets 23-25) composed from tcc ops, step for step as
// ONNX's definition (onnx/reference/ops/op_attention.py) computes it: heads
// split from 3-D inputs, the past cache concatenated, GQA heads repeated,
// Q and K each scaled by sqrt(scale), softcap, one additive bias (the mask,
// the causal frontier, the sliding window, the padding of nonpad_kv_seqlen),
// a softmax whose fully-masked rows give zeros instead of NaN, and the
// product with V. LinearAttention is its recurrence unrolled over the
// static number of tokens, in f32 as ONNX's reference computes it.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

constexpr double kNegInf = -std::numeric_limits<double>::infinity();

Value transpose(NodeContext &n, Value v, ArrayRef<int64_t> permutation) {
  return n.create<tcc::TransposeOp>(
      v, {n.i64ArrayAttr("permutation", permutation)});
}

/// [B, S, H*D] -> [B, H, S, D].
Value splitHeads(NodeContext &n, Value v, int64_t heads, const char *what) {
  auto s = NodeContext::shapeOf(v);
  if (heads <= 0 || s[2] % heads != 0)
    n.fail(std::string(what) + "'s hidden size " + std::to_string(s[2]) +
           " is not a multiple of its number of heads " +
           std::to_string(heads));
  return transpose(n, n.reshape(v, {s[0], s[1], heads, s[2] / heads}),
                   {0, 2, 1, 3});
}

/// [B, H, T, D] with each head repeated `times` times in place
/// (numpy.repeat along dim 1), for grouped-query attention.
Value repeatHeads(NodeContext &n, Value v, int64_t times) {
  if (times == 1)
    return v;
  auto s = NodeContext::shapeOf(v);
  Value grouped = n.reshape(v, {s[0], s[1], 1, s[2], s[3]});
  grouped = n.broadcastTo(grouped, {s[0], s[1], times, s[2], s[3]});
  return n.reshape(grouped, {s[0], s[1] * times, s[2], s[3]});
}

/// An i1 constant of shape [rows, cols] holding `allowed(i, j)`.
template <class Fn>
Value boolMatrix(NodeContext &n, int64_t rows, int64_t cols, Fn allowed) {
  ConstantData data = ConstantData::zeros(RankedTensorType::get(
      {rows, cols}, IntegerType::get(n.context(), 1)));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      data.setInt(i * cols + j, allowed(i, j) ? 1 : 0);
  return n.constant(data);
}

/// An i64 constant of shape [1, 1, rows, cols] holding `f(i, j)`.
template <class Fn>
Value i64Matrix(NodeContext &n, int64_t rows, int64_t cols, Fn f) {
  ConstantData data = ConstantData::zeros(
      RankedTensorType::get({1, 1, rows, cols}, n.builder().getI64Type()));
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < cols; ++j)
      data.setInt(i * cols + j, f(i, j));
  return n.constant(data);
}

Value logicalAnd(NodeContext &n, Value a, Value b) {
  if (!a)
    return b;
  return n.create<tcc::LogicalAndOp>({a, b});
}

/// softmax along the last dim as ONNX's reference computes it: a row whose
/// maximum is -inf gives zeros instead of NaN.
Value guardedSoftmax(NodeContext &n, Value x) {
  Type et = NodeContext::elementTypeOf(x);
  int64_t last = NodeContext::rankOf(x) - 1;
  Value zero = n.scalar(0.0, et), one = n.scalar(1.0, et);
  Value max = n.create<tcc::ReduceMaxOp>(
      x, {n.i64ArrayAttr("dims", {last}), n.boolAttr("keepdim", true)});
  Value allMasked = n.create<tcc::EqOp>({max, n.scalar(kNegInf, et)});
  Value safeMax = n.create<tcc::SelectOp>({allMasked, zero, max});
  Value e = n.create<tcc::ExpOp>(n.create<tcc::SubOp>({x, safeMax}));
  Value sum = n.create<tcc::ReduceSumOp>(
      e, {n.i64ArrayAttr("dims", {last}), n.boolAttr("keepdim", true)});
  Value sumIsZero = n.create<tcc::EqOp>({sum, zero});
  sum = n.create<tcc::SelectOp>({sumIsZero, one, sum});
  return n.create<tcc::DivOp>({e, sum});
}

void attention(NodeContext &n) {
  n.checkAttrs({"is_causal", "kv_num_heads", "q_num_heads",
                "qk_matmul_output_mode", "scale", "softcap",
                "softmax_precision", "left_window_size", "right_window_size"});
  Value q = n.input(0), k = n.input(1), v = n.input(2);
  Value mask = n.optionalInput(3);
  Value pastKey = n.optionalInput(4), pastValue = n.optionalInput(5);
  Value nonpad = n.optionalInput(6);
  int64_t rank = NodeContext::rankOf(q);
  if (rank != 3 && rank != 4)
    n.fail("Q must have rank 3 or 4");
  if (NodeContext::rankOf(k) != rank || NodeContext::rankOf(v) != rank)
    n.fail("Q, K and V must have the same rank");
  if (!pastKey != !pastValue)
    n.fail("past_key and past_value must be given together");
  if (nonpad && pastKey)
    n.fail("nonpad_kv_seqlen cannot be combined with past_key/past_value");
  Type et = NodeContext::elementTypeOf(q);
  if (!isa<FloatType>(et))
    n.fail("Q must be a float tensor");

  if (rank == 3) {
    if (!n.hasAttr("q_num_heads") || !n.hasAttr("kv_num_heads"))
      n.fail("3-D inputs need q_num_heads and kv_num_heads");
    int64_t qHeads = n.intAttr("q_num_heads"),
            kvHeads = n.intAttr("kv_num_heads");
    q = splitHeads(n, q, qHeads, "Q");
    k = splitHeads(n, k, kvHeads, "K");
    v = splitHeads(n, v, kvHeads, "V");
  } else if (n.hasAttr("q_num_heads") || n.hasAttr("kv_num_heads")) {
    n.fail("q_num_heads and kv_num_heads are only for 3-D inputs");
  }
  if (pastKey) {
    if (NodeContext::rankOf(pastKey) != 4 ||
        NodeContext::rankOf(pastValue) != 4)
      n.fail("past_key and past_value must have rank 4");
    k = n.create<tcc::ConcatOp>({pastKey, k}, {n.i64Attr("dim", 2)});
    v = n.create<tcc::ConcatOp>({pastValue, v}, {n.i64Attr("dim", 2)});
  }
  if (n.wantsOutput(1))
    n.setOutput(1, k);
  if (n.wantsOutput(2))
    n.setOutput(2, v);

  auto qs = NodeContext::shapeOf(q), ks = NodeContext::shapeOf(k);
  int64_t batch = qs[0], qHeads = qs[1], qLen = qs[2], headSize = qs[3];
  int64_t kvHeads = ks[1], kvLen = ks[2];
  if (kvHeads <= 0 || qHeads % kvHeads != 0 ||
      NodeContext::shapeOf(v)[1] != kvHeads)
    n.fail("the number of query heads " + std::to_string(qHeads) +
           " is not a multiple of the key/value heads " +
           std::to_string(kvHeads));
  k = repeatHeads(n, k, qHeads / kvHeads);
  v = repeatHeads(n, v, qHeads / kvHeads);

  double scale = n.hasAttr("scale") ? n.floatAttr("scale", 0.0f)
                                    : 1.0 / std::sqrt(double(headSize));
  Value rootScale = n.scalar(std::sqrt(scale), et);
  Value scores = n.create<tcc::MatmulOp>(
      {n.create<tcc::MulOp>({q, rootScale}),
       transpose(n, n.create<tcc::MulOp>({k, rootScale}), {0, 1, 3, 2})});
  double cap = n.floatAttr("softcap", 0.0f);
  if (cap > 0) {
    Value capV = n.scalar(cap, et);
    scores = n.create<tcc::MulOp>(
        {n.create<tcc::TanhOp>(n.create<tcc::DivOp>({scores, capV})), capV});
  }
  // ONNX's text calls mode 0 the raw product, but its reference (which made
  // the expected outputs) takes modes 0 and 1 after softcap; so does this.
  Value qkOutput = scores;

  // The bias: a float mask added as is, and an i1 `allowed` for everything
  // that disallows positions (a bool mask, causal, window, padding).
  Value floatMask, allowed;
  if (mask) {
    if (NodeContext::rankOf(mask) < 1 || NodeContext::rankOf(mask) > 4)
      n.fail("attn_mask must have rank 1 to 4");
    int64_t padWidth = kvLen - NodeContext::shapeOf(mask).back();
    bool isBool = NodeContext::elementTypeOf(mask).isInteger(1);
    if (padWidth < 0)
      n.fail("attn_mask's last dim is longer than the key sequence");
    if (padWidth > 0)
      mask = n.create<tcc::PadOp>(
          mask, {n.i64ArrayAttr("pad", {0, padWidth}),
                 n.f64Attr("value", isBool ? 0.0 : kNegInf)});
    if (isBool)
      allowed = mask;
    else
      floatMask = n.cast(mask, et);
  }
  bool causal = n.intAttr("is_causal", 0) != 0;
  int64_t left = n.intAttr("left_window_size", -1),
          right = n.intAttr("right_window_size", -1);
  if (left < -1 || right < -1)
    n.fail("left_window_size and right_window_size must be -1 or at least 0");
  bool windowed = left >= 0 || right >= 0;
  if (nonpad) {
    // Per batch: offset = nonpad - qLen. With e(i, j) = j - i + qLen, query i
    // attends key j iff e <= nonpad (causal), nonpad <= e + left and
    // e - right <= nonpad (window), and j < nonpad (padding).
    if (NodeContext::rankOf(nonpad) != 1 ||
        NodeContext::shapeOf(nonpad)[0] != batch)
      n.fail("nonpad_kv_seqlen must have shape [batch]");
    Value lens = n.reshape(n.cast(nonpad, n.builder().getI64Type()),
                           {batch, 1, 1, 1});
    auto e = [&](int64_t i, int64_t j) { return j - i + qLen; };
    if (causal)
      allowed = logicalAnd(n, allowed,
                           n.create<tcc::LeOp>({i64Matrix(n, qLen, kvLen, e), lens}));
    if (left >= 0)
      allowed = logicalAnd(
          n, allowed,
          n.create<tcc::LeOp>(
              {lens, i64Matrix(n, qLen, kvLen, [&](int64_t i, int64_t j) {
                 return e(i, j) + left;
               })}));
    if (right >= 0)
      allowed = logicalAnd(
          n, allowed,
          n.create<tcc::LeOp>(
              {i64Matrix(n, qLen, kvLen,
                         [&](int64_t i, int64_t j) { return e(i, j) - right; }),
               lens}));
    allowed = logicalAnd(
        n, allowed,
        n.create<tcc::LtOp>(
            {i64Matrix(n, 1, kvLen, [](int64_t, int64_t j) { return j; }),
             lens}));
  } else if (causal || windowed) {
    int64_t offset = pastKey ? NodeContext::shapeOf(pastKey)[2] : 0;
    allowed = logicalAnd(
        n, allowed, boolMatrix(n, qLen, kvLen, [&](int64_t i, int64_t j) {
          int64_t diff = i + offset - j;
          return (!causal || diff >= 0) && (left < 0 || diff <= left) &&
                 (right < 0 || -diff <= right);
        }));
  }
  Value bias = floatMask;
  if (allowed) {
    Value structural = n.create<tcc::SelectOp>(
        {allowed, n.scalar(0.0, et), n.scalar(kNegInf, et)});
    bias = bias ? n.create<tcc::AddOp>({bias, structural}) : structural;
  }
  if (bias)
    scores = n.create<tcc::AddOp>({scores, bias});

  int64_t mode = n.intAttr("qk_matmul_output_mode", 0);
  if (mode < 0 || mode > 3)
    n.fail("qk_matmul_output_mode must be 0, 1, 2 or 3");
  if (mode == 2)
    qkOutput = scores;

  Value probs = scores;
  if (n.hasAttr("softmax_precision"))
    probs = n.cast(probs, n.elementTypeFor(n.intAttr("softmax_precision")));
  probs = guardedSoftmax(n, probs);
  if (bias) {
    // Rows the bias masks entirely are zero, whatever the scores.
    Value biasMax = n.create<tcc::ReduceMaxOp>(
        bias, {n.i64ArrayAttr("dims", {NodeContext::rankOf(bias) - 1}),
               n.boolAttr("keepdim", true)});
    Value rowMasked = n.create<tcc::EqOp>({biasMax, n.scalar(kNegInf, et)});
    probs = n.create<tcc::SelectOp>(
        {rowMasked, n.scalar(0.0, NodeContext::elementTypeOf(probs)), probs});
  }
  probs = n.cast(probs, et);
  if (mode == 3)
    qkOutput = probs;
  if (n.wantsOutput(3))
    n.setOutput(3, n.broadcastTo(qkOutput, {batch, qHeads, qLen, kvLen}));

  Value y = n.create<tcc::MatmulOp>({probs, v});
  if (rank == 3) {
    auto ys = NodeContext::shapeOf(y);
    y = n.reshape(transpose(n, y, {0, 2, 1, 3}),
                  {ys[0], ys[2], ys[1] * ys[3]});
  }
  n.setOutput(0, y);
}

/// [B, T, H*D] -> [B, H, T, D] in f32.
Value headsF32(NodeContext &n, Value v, int64_t heads, const char *what) {
  if (NodeContext::rankOf(v) != 3)
    n.fail(std::string(what) + " must have shape [batch, tokens, heads*dim]");
  return n.cast(splitHeads(n, v, heads, what), Float32Type::get(n.context()));
}

/// Token `t` of [B, H, T, D], as [B, H, 1, D].
Value token(NodeContext &n, Value v, int64_t t) {
  auto s = NodeContext::shapeOf(v);
  return n.create<tcc::SliceOp>(
      v, {n.i64ArrayAttr("start", {0, 0, t, 0}),
          n.i64ArrayAttr("end", {s[0], s[1], t + 1, s[3]}),
          n.i64ArrayAttr("step", {1, 1, 1, 1})});
}

void linearAttention(NodeContext &n) {
  n.checkAttrs({"chunk_size", "kv_num_heads", "q_num_heads", "scale",
                "update_rule"});
  std::string rule = n.stringAttr("update_rule", "gated_delta");
  if (rule != "linear" && rule != "gated" && rule != "delta" &&
      rule != "gated_delta")
    n.fail("update_rule '" + rule + "' is not linear, gated, delta or "
           "gated_delta");
  bool gating = rule == "gated" || rule == "gated_delta";
  bool delta = rule == "delta" || rule == "gated_delta";
  Value decayIn = n.optionalInput(4), betaIn = n.optionalInput(5);
  if (gating != bool(decayIn))
    n.fail("update_rule '" + rule + "' " + (gating ? "needs" : "forbids") +
           " the decay input");
  if (delta != bool(betaIn))
    n.fail("update_rule '" + rule + "' " + (delta ? "needs" : "forbids") +
           " the beta input");
  int64_t qHeads = n.intAttr("q_num_heads"), kvHeads = n.intAttr("kv_num_heads");
  if (qHeads <= 0 || kvHeads <= 0 || qHeads % kvHeads != 0)
    n.fail("q_num_heads must be a positive multiple of kv_num_heads");
  Type outType = NodeContext::elementTypeOf(n.input(0));
  Value q = headsF32(n, n.input(0), qHeads, "query");
  Value k = headsF32(n, n.input(1), kvHeads, "key");
  Value v = headsF32(n, n.input(2), kvHeads, "value");
  auto qs = NodeContext::shapeOf(q), vs = NodeContext::shapeOf(v);
  int64_t batch = qs[0], tokens = qs[2], dk = qs[3], dv = vs[3];
  if (NodeContext::shapeOf(k)[3] != dk)
    n.fail("query and key must have the same head size");

  Value decay, beta; // [B, H_kv, T, 1 or d_k], [B, H_kv or 1, T, 1]
  if (decayIn) {
    int64_t last = NodeContext::shapeOf(decayIn).back();
    if (last != kvHeads && last != kvHeads * dk)
      n.fail("decay's last dim must be kv_num_heads or kv_num_heads * d_k");
    decay = headsF32(n, decayIn, kvHeads, "decay");
  }
  if (betaIn) {
    int64_t last = NodeContext::shapeOf(betaIn).back();
    if (last != kvHeads && last != 1)
      n.fail("beta's last dim must be kv_num_heads or 1");
    beta = headsF32(n, betaIn, last, "beta");
  }
  Type f32 = Float32Type::get(n.context());
  std::vector<int64_t> stateShape = {batch, kvHeads, dk, dv};
  Value past = n.optionalInput(3);
  Type stateType = past ? NodeContext::elementTypeOf(past) : outType;
  if (past && NodeContext::shapeOf(past).vec() != stateShape)
    n.fail("past_state must have shape [batch, kv_num_heads, d_k, d_v]");
  Value state = past ? n.cast(past, f32)
                     : n.broadcastTo(n.scalar(0.0, f32), stateShape);
  double scale = n.floatAttr("scale", 0.0f);
  if (scale == 0.0)
    scale = 1.0 / std::sqrt(double(dk));

  std::vector<Value> outputs;
  for (int64_t t = 0; t < tokens; ++t) {
    Value kT = token(n, k, t), vT = token(n, v, t);
    if (gating) {
      Value g = n.create<tcc::ExpOp>(token(n, decay, t)); // [B, H, 1, 1|dk]
      state = n.create<tcc::MulOp>({state, transpose(n, g, {0, 1, 3, 2})});
    }
    if (delta) {
      Value retrieved = n.create<tcc::MatmulOp>({kT, state}); // [B, H, 1, dv]
      vT = n.create<tcc::MulOp>(
          {token(n, beta, t), n.create<tcc::SubOp>({vT, retrieved})});
    }
    state = n.create<tcc::AddOp>(
        {state, n.create<tcc::MulOp>({transpose(n, kT, {0, 1, 3, 2}), vT})});
    Value read = repeatHeads(n, state, qHeads / kvHeads);
    outputs.push_back(n.create<tcc::MulOp>(
        {n.create<tcc::MatmulOp>({token(n, q, t), read}),
         n.scalar(scale, f32)}));
  }
  Value y = n.create<tcc::ConcatOp>(outputs, {n.i64Attr("dim", 2)});
  y = n.reshape(transpose(n, y, {0, 2, 1, 3}), {batch, tokens, qHeads * dv});
  n.setOutput(0, n.cast(y, outType));
  if (n.wantsOutput(1))
    n.setOutput(1, n.cast(state, stateType));
}

} // namespace

void mlir::tcc::onnx::registerAttentionOps(OpTable &t) {
  t.add("Attention", 23, attention);
  t.add("LinearAttention", 27, linearAttention);
}
