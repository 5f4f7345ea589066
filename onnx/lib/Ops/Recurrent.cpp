//===- Recurrent.cpp - ONNX RNN, GRU and LSTM -----------------------------===//
//
// The recurrent layers unrolled over their static sequence length: the input
// projection of every step is one matmul up front, then each step is a
// matmul with the recurrence weight and the gate activations. The reverse
// direction walks the steps backwards. With sequence_lens, a step past a
// batch entry's length leaves its state as it was and writes zeros to Y,
// which for the reverse direction also makes each entry start at its own
// last valid step, as ONNX defines.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

enum class Cell { RNN, GRU, LSTM };

int64_t gateCount(Cell cell) {
  return cell == Cell::RNN ? 1 : cell == Cell::GRU ? 3 : 4;
}

/// One activation function with its alpha and beta (NaN when not given).
struct Activation {
  std::string name;
  double alpha, beta;
};

Value apply(NodeContext &n, const Activation &act, Value x) {
  Type et = NodeContext::elementTypeOf(x);
  auto param = [&](double given, double dflt) {
    return n.scalar(std::isnan(given) ? dflt : given, et);
  };
  auto affine = [&](Value v, Value a, Value b) {
    return n.create<tcc::AddOp>({n.create<tcc::MulOp>({v, a}), b});
  };
  const std::string &f = act.name;
  if (f == "Sigmoid")
    return n.create<tcc::SigmoidOp>(x);
  if (f == "Tanh")
    return n.create<tcc::TanhOp>(x);
  if (f == "Relu")
    return n.create<tcc::ReluOp>(x);
  if (f == "Affine")
    return affine(x, param(act.alpha, 1.0), param(act.beta, 0.0));
  if (f == "LeakyRelu")
    return n.create<tcc::SelectOp>(
        {n.create<tcc::GeOp>({x, n.scalar(0.0, et)}), x,
         n.create<tcc::MulOp>({x, param(act.alpha, 0.01)})});
  if (f == "ThresholdedRelu")
    return n.create<tcc::SelectOp>(
        {n.create<tcc::GeOp>({x, param(act.alpha, 1.0)}), x,
         n.scalar(0.0, et)});
  if (f == "ScaledTanh")
    return n.create<tcc::MulOp>(
        {param(act.alpha, 1.0),
         n.create<tcc::TanhOp>(n.create<tcc::MulOp>({x, param(act.beta, 1.0)}))});
  if (f == "HardSigmoid")
    return n.create<tcc::ClampOp>(
        affine(x, param(act.alpha, 0.2), param(act.beta, 0.5)),
        {n.f64Attr("min", 0.0), n.f64Attr("max", 1.0)});
  if (f == "Elu")
    return n.create<tcc::SelectOp>(
        {n.create<tcc::GeOp>({x, n.scalar(0.0, et)}), x,
         n.create<tcc::MulOp>(
             {param(act.alpha, 1.0),
              n.create<tcc::SubOp>({n.create<tcc::ExpOp>(x), n.scalar(1.0, et)})})});
  if (f == "Softsign")
    return n.create<tcc::DivOp>(
        {x, n.create<tcc::AddOp>({n.create<tcc::AbsOp>(x), n.scalar(1.0, et)})});
  if (f == "Softplus")
    return n.create<tcc::Log1pOp>(n.create<tcc::ExpOp>(x));
  n.fail("activation '" + f + "' is not supported");
}

/// `v[begin:end]` along dim `dim`.
Value sliceDim(NodeContext &n, Value v, int64_t dim, int64_t begin,
               int64_t end) {
  auto s = NodeContext::shapeOf(v);
  std::vector<int64_t> start(s.size(), 0), stop(s.begin(), s.end()),
      step(s.size(), 1);
  start[dim] = begin;
  stop[dim] = end;
  return n.create<tcc::SliceOp>(v, {n.i64ArrayAttr("start", start),
                                    n.i64ArrayAttr("end", stop),
                                    n.i64ArrayAttr("step", step)});
}

/// Entry `index` of dim 0, without that dim.
Value take(NodeContext &n, Value v, int64_t index) {
  auto s = NodeContext::shapeOf(v);
  return n.reshape(sliceDim(n, v, 0, index, index + 1),
                   std::vector<int64_t>(s.begin() + 1, s.end()));
}

Value transposed(NodeContext &n, Value matrix) {
  return n.create<tcc::TransposeOp>(
      matrix, {n.i64ArrayAttr("permutation", {1, 0})});
}

/// Gate `g` of `gates` ([batch, count*hidden]).
Value gate(NodeContext &n, Value gates, int64_t g, int64_t hidden) {
  return sliceDim(n, gates, 1, g * hidden, (g + 1) * hidden);
}

/// One direction's weights, running state and activations.
struct Direction {
  bool reverse;
  Value w, r;            // [gates*hidden, input], [gates*hidden, hidden]
  Value wb, rb;          // [gates*hidden] or null
  Value peephole;        // [3*hidden] or null (LSTM)
  Value h, c;            // [batch, hidden]
  std::vector<Activation> acts; // f (and g, h): the cell's own order
};

/// Runs one direction over all steps; returns each step's output
/// ([batch, hidden]) in time order, and leaves the final state in `dir`.
std::vector<Value> runDirection(NodeContext &n, Cell cell, Direction &dir,
                                Value x, Value validSteps, int64_t hidden,
                                double clip, bool linearBeforeReset) {
  auto xs = NodeContext::shapeOf(x);
  int64_t seq = xs[0], batch = xs[1];
  Type et = NodeContext::elementTypeOf(x);
  // Every step's input projection at once: [seq, batch, gates*hidden].
  Value projected = n.create<tcc::MatmulOp>({x, transposed(n, dir.w)});
  if (dir.wb)
    projected = n.create<tcc::AddOp>({projected, dir.wb});
  Value rT = transposed(n, dir.r);
  auto clipped = [&](Value v) {
    if (clip <= 0)
      return v;
    return n.create<tcc::ClampOp>(
        v, {n.f64Attr("min", -clip), n.f64Attr("max", clip)});
  };
  auto act = [&](int i, Value v) { return apply(n, dir.acts[i], clipped(v)); };
  auto add = [&](Value a, Value b) { return n.create<tcc::AddOp>({a, b}); };
  auto mul = [&](Value a, Value b) { return n.create<tcc::MulOp>({a, b}); };

  std::vector<Value> outputs(seq);
  for (int64_t step = 0; step < seq; ++step) {
    int64_t t = dir.reverse ? seq - 1 - step : step;
    Value xw = take(n, projected, t);
    Value hr = n.create<tcc::MatmulOp>({dir.h, rT});
    if (dir.rb)
      hr = add(hr, dir.rb);
    Value newH, newC;
    if (cell == Cell::RNN) {
      newH = act(0, add(xw, hr));
    } else if (cell == Cell::GRU) {
      // Gate order z, r, h.
      Value z = act(0, add(gate(n, xw, 0, hidden), gate(n, hr, 0, hidden)));
      Value rGate = act(0, add(gate(n, xw, 1, hidden), gate(n, hr, 1, hidden)));
      // h's recurrence: r (.) (H Rh^T + Rbh) when linear_before_reset,
      // else (r (.) H) Rh^T + Rbh.
      Value hPart;
      if (linearBeforeReset) {
        hPart = mul(rGate, gate(n, hr, 2, hidden));
      } else {
        hPart = n.create<tcc::MatmulOp>(
            {mul(rGate, dir.h), sliceDim(n, rT, 1, 2 * hidden, 3 * hidden)});
        if (dir.rb)
          hPart = add(hPart, sliceDim(n, dir.rb, 0, 2 * hidden, 3 * hidden));
      }
      Value candidate = act(1, add(gate(n, xw, 2, hidden), hPart));
      Value oneMinusZ = n.create<tcc::SubOp>({n.scalar(1.0, et), z});
      newH = add(mul(oneMinusZ, candidate), mul(z, dir.h));
    } else {
      // Gate order i, o, f, c; peepholes i, o, f.
      Value sum = add(xw, hr);
      auto peep = [&](int64_t p, Value state) -> Value {
        if (!dir.peephole)
          return {};
        return mul(sliceDim(n, dir.peephole, 0, p * hidden, (p + 1) * hidden),
                   state);
      };
      auto withPeep = [&](Value v, Value p) { return p ? add(v, p) : v; };
      Value i = act(0, withPeep(gate(n, sum, 0, hidden), peep(0, dir.c)));
      Value f = act(0, withPeep(gate(n, sum, 2, hidden), peep(2, dir.c)));
      Value g = act(1, gate(n, sum, 3, hidden));
      newC = add(mul(f, dir.c), mul(i, g));
      Value o = act(0, withPeep(gate(n, sum, 1, hidden), peep(1, newC)));
      newH = mul(o, apply(n, dir.acts[2], newC));
    }
    if (validSteps) {
      Value valid = n.reshape(take(n, validSteps, t), {batch, 1});
      Value zero = n.scalar(0.0, et);
      outputs[t] = n.create<tcc::SelectOp>({valid, newH, zero});
      newH = n.create<tcc::SelectOp>({valid, newH, dir.h});
      if (newC)
        newC = n.create<tcc::SelectOp>({valid, newC, dir.c});
    } else {
      outputs[t] = newH;
    }
    dir.h = newH;
    if (newC)
      dir.c = newC;
  }
  return outputs;
}

template <Cell cell>
void recurrent(NodeContext &n) {
  if (cell == Cell::LSTM)
    n.checkAttrs({"activation_alpha", "activation_beta", "activations", "clip",
                  "direction", "hidden_size", "input_forget", "layout"});
  else if (cell == Cell::GRU)
    n.checkAttrs({"activation_alpha", "activation_beta", "activations", "clip",
                  "direction", "hidden_size", "layout", "linear_before_reset"});
  else
    n.checkAttrs({"activation_alpha", "activation_beta", "activations", "clip",
                  "direction", "hidden_size", "layout"});
  Value x = n.input(0), w = n.input(1), r = n.input(2);
  Value bias = n.optionalInput(3), lens = n.optionalInput(4);
  Value initialH = n.optionalInput(5);
  Value initialC = cell == Cell::LSTM ? n.optionalInput(6) : Value();
  Value peepholes = cell == Cell::LSTM ? n.optionalInput(7) : Value();
  if (cell == Cell::LSTM && n.intAttr("input_forget", 0) != 0)
    n.fail("input_forget = 1 is not supported");

  std::string direction = n.stringAttr("direction", "forward");
  if (direction != "forward" && direction != "reverse" &&
      direction != "bidirectional")
    n.fail("direction '" + direction + "' is not forward, reverse or "
           "bidirectional");
  int64_t numDirections = direction == "bidirectional" ? 2 : 1;
  bool batchFirst = n.intAttr("layout", 0) != 0;
  if (NodeContext::rankOf(x) != 3)
    n.fail("X must have rank 3");
  if (batchFirst)
    x = n.create<tcc::TransposeOp>(
        x, {n.i64ArrayAttr("permutation", {1, 0, 2})});
  auto xs = NodeContext::shapeOf(x);
  int64_t seq = xs[0], batch = xs[1];
  int64_t hidden = n.intAttr("hidden_size");
  int64_t gates = gateCount(cell);
  Type et = NodeContext::elementTypeOf(x);
  auto expectShape = [&](Value v, std::vector<int64_t> shape,
                         const char *what) {
    if (v && NodeContext::shapeOf(v).vec() != shape)
      n.fail(std::string(what) + " has the wrong shape");
  };
  expectShape(w, {numDirections, gates * hidden, xs[2]}, "W");
  expectShape(r, {numDirections, gates * hidden, hidden}, "R");
  expectShape(bias, {numDirections, 2 * gates * hidden}, "B");
  expectShape(lens, {batch}, "sequence_lens");
  expectShape(peepholes, {numDirections, 3 * hidden}, "P");
  // The initial states in [num_directions, batch, hidden] order.
  auto stateInput = [&](Value v, const char *what) -> Value {
    if (!v)
      return v;
    if (batchFirst)
      v = n.create<tcc::TransposeOp>(
          v, {n.i64ArrayAttr("permutation", {1, 0, 2})});
    expectShape(v, {numDirections, batch, hidden}, what);
    return v;
  };
  initialH = stateInput(initialH, "initial_h");
  initialC = stateInput(initialC, "initial_c");

  // Activations: f (and g, h) per direction, with their alphas and betas.
  std::vector<std::string> defaults =
      cell == Cell::RNN   ? std::vector<std::string>{"Tanh"}
      : cell == Cell::GRU ? std::vector<std::string>{"Sigmoid", "Tanh"}
                          : std::vector<std::string>{"Sigmoid", "Tanh", "Tanh"};
  std::vector<std::string> names;
  if (const auto *a = n.attr("activations"))
    for (const auto &s : a->strings())
      names.push_back(s);
  if (names.empty())
    for (int64_t d = 0; d < numDirections; ++d)
      names.insert(names.end(), defaults.begin(), defaults.end());
  if (names.size() != defaults.size() * numDirections)
    n.fail("activations must list " +
           std::to_string(defaults.size() * numDirections) + " functions");
  std::vector<float> alphas = n.floatsAttr("activation_alpha"),
                     betas = n.floatsAttr("activation_beta");

  // Step t is valid for batch entry b when t < sequence_lens[b]: [seq, batch].
  Value validSteps;
  if (lens) {
    std::optional<ConstantData> constLens = n.constantInput(4);
    bool allFull = constLens.has_value();
    for (int64_t b = 0; allFull && b < batch; ++b)
      allFull = constLens->getInt(b) == seq;
    if (!allFull) {
      ConstantData steps = ConstantData::zeros(
          RankedTensorType::get({seq, 1}, n.builder().getI64Type()));
      for (int64_t t = 0; t < seq; ++t)
        steps.setInt(t, t);
      validSteps = n.create<tcc::LtOp>(
          {n.constant(steps), n.cast(lens, n.builder().getI64Type())});
    }
  }

  double clip = n.hasAttr("clip") ? n.floatAttr("clip", 0.0f) : 0.0;
  bool linearBeforeReset = n.intAttr("linear_before_reset", 0) != 0;
  Value zeroState = n.broadcastTo(n.scalar(0.0, et), {batch, hidden});
  std::vector<Value> ys, hs, cs;
  for (int64_t d = 0; d < numDirections; ++d) {
    Direction dir;
    dir.reverse = direction == "reverse" || d == 1;
    dir.w = take(n, w, d);
    dir.r = take(n, r, d);
    if (bias) {
      Value b = take(n, bias, d);
      dir.wb = sliceDim(n, b, 0, 0, gates * hidden);
      dir.rb = sliceDim(n, b, 0, gates * hidden, 2 * gates * hidden);
    }
    if (peepholes)
      dir.peephole = take(n, peepholes, d);
    dir.h = initialH ? take(n, initialH, d) : zeroState;
    dir.c = initialC ? take(n, initialC, d) : zeroState;
    for (size_t i = 0; i < defaults.size(); ++i) {
      size_t k = d * defaults.size() + i;
      double nan = std::nan("");
      dir.acts.push_back({names[k], k < alphas.size() ? alphas[k] : nan,
                          k < betas.size() ? betas[k] : nan});
    }
    std::vector<Value> steps =
        runDirection(n, cell, dir, x, validSteps, hidden, clip,
                     linearBeforeReset);
    for (Value &s : steps)
      s = n.reshape(s, {1, 1, batch, hidden});
    ys.push_back(n.create<tcc::ConcatOp>(steps, {n.i64Attr("dim", 0)}));
    hs.push_back(n.reshape(dir.h, {1, batch, hidden}));
    cs.push_back(n.reshape(dir.c, {1, batch, hidden}));
  }
  auto join = [&](ArrayRef<Value> parts, int64_t dim) {
    return n.create<tcc::ConcatOp>(parts, {n.i64Attr("dim", dim)});
  };
  // Y: [seq, dirs, batch, hidden] (layout 1: [batch, seq, dirs, hidden]);
  // Y_h, Y_c: [dirs, batch, hidden] (layout 1: [batch, dirs, hidden]).
  if (n.wantsOutput(0)) {
    Value y = join(ys, 1);
    if (batchFirst)
      y = n.create<tcc::TransposeOp>(
          y, {n.i64ArrayAttr("permutation", {2, 0, 1, 3})});
    n.setOutput(0, y);
  }
  auto finalState = [&](ArrayRef<Value> parts) {
    Value s = join(parts, 0);
    if (batchFirst)
      s = n.create<tcc::TransposeOp>(
          s, {n.i64ArrayAttr("permutation", {1, 0, 2})});
    return s;
  };
  if (n.wantsOutput(1))
    n.setOutput(1, finalState(hs));
  if (cell == Cell::LSTM && n.wantsOutput(2))
    n.setOutput(2, finalState(cs));
}

} // namespace

void mlir::tcc::onnx::registerRecurrentOps(OpTable &t) {
  t.add("RNN", 7, recurrent<Cell::RNN>);
  t.add("GRU", 7, recurrent<Cell::GRU>);
  t.add("LSTM", 7, recurrent<Cell::LSTM>);
}
