//===- GridSample.cpp - ONNX GridSample -----------------------------------===//
//
// GridSample reads the input at positions that are data (the grid), so its
// index and weight tables are computed by the graph, following ONNX's
// reference (onnx/reference/ops/op_grid_sample.py): per spatial dim, the
// grid coordinate is unnormalized, moved inside by the padding mode, and
// split into taps (1 nearest, 2 linear, 4 cubic) of index and weight; each
// combination of one tap per dim is a tcc.gather of the flattened input
// times the product of the taps' weights, and the output sums them.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// One tap of one spatial dim: an element index ([N, P], i64) and its
/// weight ([N, P], float).
struct Tap {
  Value index, weight;
};

class GridSampler {
public:
  GridSampler(NodeContext &n, Type t) : n(n), t(t) {}

  Value scalar(double v) { return n.scalar(v, t); }
  Value add(Value a, Value b) { return n.create<tcc::AddOp>({a, b}); }
  Value sub(Value a, Value b) { return n.create<tcc::SubOp>({a, b}); }
  Value mul(Value a, Value b) { return n.create<tcc::MulOp>({a, b}); }
  Value select(Value c, Value a, Value b) {
    return n.create<tcc::SelectOp>({c, a, b});
  }
  Value outside(Value v, double lo, double hi) {
    return n.create<tcc::LogicalOrOp>({n.create<tcc::LtOp>({v, scalar(lo)}),
                                       n.create<tcc::GtOp>({v, scalar(hi)})});
  }
  Value clamp(Value v, double lo, double hi) {
    return n.create<tcc::ClampOp>(
        v, {n.f64Attr("min", lo), n.f64Attr("max", hi)});
  }

  /// Reflects `v` at the borders until it lies within [lo, hi].
  Value reflect(Value v, double lo, double hi) {
    double range = hi - lo;
    auto fold = [&](Value distance, double from, double to) {
      // distance = k * range + r: an even k lands r inside `from`, an odd
      // one r inside `to`.
      Value k = n.create<tcc::FloorOp>(
          n.create<tcc::DivOp>({distance, scalar(range)}));
      Value r = sub(distance, mul(k, scalar(range)));
      Value odd = n.create<tcc::EqOp>(
          {n.create<tcc::RemainderOp>({k, scalar(2)}), scalar(1)});
      Value nearFrom = from < to ? add(scalar(from), r) : sub(scalar(from), r);
      Value nearTo = to < from ? add(scalar(to), r) : sub(scalar(to), r);
      return select(odd, nearTo, nearFrom);
    };
    Value below = fold(sub(scalar(lo), v), lo, hi);
    Value above = fold(sub(v, scalar(hi)), hi, lo);
    return select(n.create<tcc::LtOp>({v, scalar(lo)}), below,
                  select(n.create<tcc::GtOp>({v, scalar(hi)}), above, v));
  }

  /// The taps of coordinate `g` ([N, P], in [-1, 1] normally) over a dim of
  /// `size`.
  std::vector<Tap> taps(Value g, int64_t size, const std::string &mode,
                        const std::string &padding, bool alignCorners) {
    double lo = alignCorners ? 0.0 : -0.5;
    double hi = alignCorners ? double(size - 1) : double(size) - 0.5;
    Value x = alignCorners
                  ? mul(add(g, scalar(1)), scalar(double(size - 1) / 2))
                  : n.create<tcc::DivOp>(
                        {sub(mul(add(g, scalar(1)), scalar(double(size))),
                             scalar(1)),
                         scalar(2)});
    if (mode == "nearest")
      x = n.create<tcc::RoundOp>(x); // half to even, as np.rint
    if (padding == "border")
      x = select(outside(x, lo, hi), clamp(x, 0, double(size - 1)), x);
    else if (padding == "reflection")
      x = reflect(x, lo, hi);
    std::vector<std::pair<Value, Value>> points; // (position, weight)
    if (mode == "nearest") {
      points.push_back({x, scalar(1)});
    } else {
      Value x0 = n.create<tcc::FloorOp>(x);
      Value f = sub(x, x0);
      if (mode == "linear") {
        points.push_back({x0, sub(scalar(1), f)});
        points.push_back({add(x0, scalar(1)), f});
      } else { // cubic, Keys' kernel with a = -0.75
        double a = -0.75;
        auto near = [&](Value s) { // |s| <= 1
          return add(mul(mul(sub(mul(scalar(a + 2), s), scalar(a + 3)), s), s),
                     scalar(1));
        };
        auto far = [&](Value s) { // 1 < |s| < 2
          return sub(mul(add(mul(sub(mul(scalar(a), s), scalar(5 * a)), s),
                             scalar(8 * a)),
                         s),
                     scalar(4 * a));
        };
        Value g1 = sub(scalar(1), f);
        points.push_back({sub(x0, scalar(1)), far(add(f, scalar(1)))});
        points.push_back({x0, near(f)});
        points.push_back({add(x0, scalar(1)), near(g1)});
        points.push_back({add(x0, scalar(2)), far(add(g1, scalar(1)))});
      }
    }
    Type i64 = n.builder().getI64Type();
    std::vector<Tap> result;
    for (auto [p, w] : points) {
      if (padding == "zeros") {
        // Taps outside the input read 0.
        w = select(outside(p, 0, double(size - 1)), scalar(0), w);
        p = clamp(p, 0, double(size - 1));
      } else if (padding == "border") {
        p = clamp(p, 0, double(size - 1));
      } else {
        p = reflect(p, lo, hi);
      }
      result.push_back({n.cast(p, i64), w}); // the cast truncates, as int()
    }
    return result;
  }

private:
  NodeContext &n;
  Type t;
};

/// Opset 16 names the modes bilinear and bicubic (the default bilinear),
/// opset 20 linear and cubic.
template <bool opset16Names> void gridSample(NodeContext &n) {
  n.checkAttrs({"align_corners", "mode", "padding_mode"});
  Value x = n.input(0), grid = n.input(1);
  auto xs = NodeContext::shapeOf(x), gs = NodeContext::shapeOf(grid);
  int64_t dims = int64_t(xs.size()) - 2;
  if (dims < 1 || dims > 3)
    n.fail("the input must have 1 to 3 spatial dims");
  if (int64_t(gs.size()) != dims + 2 || gs[0] != xs[0] || gs.back() != dims)
    n.fail("the grid must be [N, out..., " + std::to_string(dims) + "]");
  std::string mode = n.stringAttr("mode", opset16Names ? "bilinear" : "linear");
  if (opset16Names && mode == "bilinear")
    mode = "linear";
  else if (opset16Names && mode == "bicubic")
    mode = "cubic";
  else if (opset16Names && mode != "nearest")
    n.fail("mode '" + mode + "' is not bilinear, nearest or bicubic");
  if (mode != "nearest" && mode != "linear" && mode != "cubic")
    n.fail("mode '" + mode + "' is not nearest, linear or cubic");
  std::string padding = n.stringAttr("padding_mode", "zeros");
  if (padding != "zeros" && padding != "border" && padding != "reflection")
    n.fail("padding_mode '" + padding + "' is not zeros, border or reflection");
  bool alignCorners = n.intAttr("align_corners", 0);
  Type t = NodeContext::elementTypeOf(grid);
  if (!isa<FloatType>(t) || !isa<FloatType>(NodeContext::elementTypeOf(x)))
    n.fail("the input and grid must be floating-point");
  for (int64_t d = 2; d < int64_t(xs.size()); ++d)
    if (xs[d] < 1)
      n.fail("the input has an empty spatial dim");

  int64_t batch = xs[0], channels = xs[1], positions = 1, elements = 1;
  for (int64_t d = 1; d <= dims; ++d)
    positions *= gs[d];
  for (int64_t d = 0; d < dims; ++d)
    elements *= xs[2 + d];
  Value flatGrid = n.reshape(grid, {batch, positions, dims});
  GridSampler s(n, t);
  // Taps per spatial dim, outermost first; the grid's last dim runs x
  // (innermost) first.
  std::vector<std::vector<Tap>> taps;
  for (int64_t d = 0; d < dims; ++d) {
    int64_t column = dims - 1 - d;
    Value g = n.create<tcc::SliceOp>(
        flatGrid, {n.i64ArrayAttr("start", {0, 0, column}),
                   n.i64ArrayAttr("end", {batch, positions, column + 1}),
                   n.i64ArrayAttr("step", {1, 1, 1})});
    taps.push_back(s.taps(n.reshape(g, {batch, positions}), xs[2 + d], mode,
                          padding, alignCorners));
  }
  Type i64 = n.builder().getI64Type();
  Type xt = NodeContext::elementTypeOf(x);
  Value flatX = n.reshape(x, {batch, channels, elements});
  Value sum;
  std::vector<size_t> pick(dims, 0);
  while (true) {
    Value index, weight;
    int64_t stride = 1;
    for (int64_t d = dims - 1; d >= 0; --d) {
      const Tap &tap = taps[d][pick[d]];
      Value term = n.create<tcc::MulOp>({tap.index, n.scalar(double(stride), i64)});
      index = index ? n.create<tcc::AddOp>({index, term}) : term;
      weight = weight ? s.mul(weight, tap.weight) : tap.weight;
      stride *= xs[2 + d];
    }
    index = n.broadcastTo(n.reshape(index, {batch, 1, positions}),
                          {batch, channels, positions});
    Value values = n.create<tcc::GatherOp>({flatX, index}, {n.i64Attr("dim", 2)});
    Value term = n.create<tcc::MulOp>(
        {values, n.cast(n.reshape(weight, {batch, 1, positions}), xt)});
    sum = sum ? n.create<tcc::AddOp>({sum, term}) : term;
    int64_t d = dims - 1;
    while (d >= 0 && ++pick[d] == taps[d].size())
      pick[d--] = 0;
    if (d < 0)
      break;
  }
  std::vector<int64_t> out{batch, channels};
  out.insert(out.end(), gs.begin() + 1, gs.end() - 1);
  n.setOutput(0, n.reshape(sum, out));
}

} // namespace

void mlir::tcc::onnx::registerGridSampleOps(OpTable &t) {
  t.add("GridSample", 16, gridSample<true>);
  t.add("GridSample", 20, gridSample<false>);
}
