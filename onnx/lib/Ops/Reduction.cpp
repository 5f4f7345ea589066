//===- Reduction.cpp - ONNX reductions ------------------------------------===//
//
// Reduce* over `axes` (an attribute, or from opset 18 (ReduceSum: 13) an
// input), with keepdims and noop_with_empty_axes; the L1/L2/log-sum
// variants composed from tcc ops as ONNX defines them; ArgMax/ArgMin;
// Hardmax, which is one-hot of ArgMax; CumProd, a scan of products.
//
//===----------------------------------------------------------------------===//

#include "IntegerMath.h"
#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// Where a reduction's axes come from at this opset.
enum class AxesFrom { Attribute, Input };

/// The normalized, sorted axes to reduce; empty with `*noop` set when the
/// node reduces nothing.
std::vector<int64_t> reductionAxes(NodeContext &n, AxesFrom from, bool *noop) {
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  std::vector<int64_t> axes;
  if (from == AxesFrom::Attribute) {
    n.checkAttrs({"axes", "keepdims"});
    axes = n.intsAttr("axes");
  } else {
    n.checkAttrs({"keepdims", "noop_with_empty_axes"});
    if (n.hasInput(1))
      axes = n.intsInput(1, "axes");
  }
  *noop = false;
  if (axes.empty()) {
    if (from == AxesFrom::Input && n.intAttr("noop_with_empty_axes", 0)) {
      *noop = true;
      return {};
    }
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  axes = n.normalizeAxes(std::move(axes), rank);
  *noop = axes.empty(); // a 0-dim input
  return axes;
}

template <class OpTy>
Value reduce(NodeContext &n, Value x, ArrayRef<int64_t> axes, bool keepdims) {
  return n.create<OpTy>(
      x, {n.i64ArrayAttr("dims", axes), n.boolAttr("keepdim", keepdims)});
}

/// The shape of reducing `shape` over the sorted `axes`.
std::vector<int64_t> reducedShape(ArrayRef<int64_t> shape,
                                  ArrayRef<int64_t> axes, bool keepdims) {
  std::vector<int64_t> out;
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    if (!std::binary_search(axes.begin(), axes.end(), d))
      out.push_back(shape[d]);
    else if (keepdims)
      out.push_back(1);
  }
  return out;
}

/// What each ReduceX computes: a pre-map, the tcc reduction, a post-map.
enum class Kind {
  Sum,
  Mean,
  Max,
  Min,
  Prod,
  L1,
  L2,
  LogSum,
  LogSumExp,
  SumSquare
};

/// ONNX's value of a reduction over no elements: 0 for sums, 1 for
/// products, -inf (max) and +inf (min), or the type's lowest and highest
/// values where it has no infinity; log of an empty sum is -inf. Mean
/// divides 0 by 0.
double emptyReductionValue(Kind k, Type t) {
  double inf = std::numeric_limits<double>::infinity();
  auto integer = dyn_cast<IntegerType>(t);
  auto lowest = [&] {
    if (!integer)
      return -inf;
    if (integer.isUnsigned() || integer.getWidth() == 1)
      return 0.0;
    return -std::ldexp(1.0, int(integer.getWidth()) - 1);
  };
  auto highest = [&] {
    if (!integer)
      return inf;
    if (integer.getWidth() == 1)
      return 1.0;
    unsigned bits = integer.getWidth() - (integer.isUnsigned() ? 0 : 1);
    return std::ldexp(1.0, int(bits)) - 1;
  };
  switch (k) {
  case Kind::Sum:
  case Kind::L1:
  case Kind::L2:
  case Kind::SumSquare:
    return 0.0;
  case Kind::Prod:
    return 1.0;
  case Kind::Max:
    return lowest();
  case Kind::Min:
    return highest();
  case Kind::LogSum:
  case Kind::LogSumExp:
    return -inf;
  case Kind::Mean:
    return std::numeric_limits<double>::quiet_NaN();
  }
  return 0.0;
}

/// A tensor of `shape` holding `value` everywhere: a broadcast scalar,
/// or, with no elements, an empty constant (the code generator lowers no
/// empty op).
Value filled(NodeContext &n, ArrayRef<int64_t> shape, Type t, double value) {
  auto type = RankedTensorType::get(shape, t);
  if (type.getNumElements() == 0)
    return n.constant(ConstantData::zeros(type));
  if (std::isnan(value) && !isa<FloatType>(t))
    n.fail("the reduction is over no elements, which has no integer value");
  return n.broadcastTo(n.scalar(value, t), shape);
}

/// log(sum(exp(x))) as max + log(sum(exp(x - max))), finite for large
/// inputs; an infinite max is replaced by 0 so that all -inf gives -inf
/// (not inf - inf = NaN) and a +inf gives +inf.
Value logSumExp(NodeContext &n, Value x, ArrayRef<int64_t> axes,
                bool keepdims) {
  Type t = NodeContext::elementTypeOf(x);
  Value m = reduce<tcc::ReduceMaxOp>(n, x, axes, /*keepdims=*/true);
  Value zero = n.scalar(0.0, t);
  Value finite = n.create<tcc::EqOp>({n.create<tcc::SubOp>({m, m}), zero});
  m = n.create<tcc::SelectOp>({finite, m, zero});
  Value s = reduce<tcc::ReduceSumOp>(
      n, n.create<tcc::ExpOp>(n.create<tcc::SubOp>({x, m})), axes, true);
  Value y = n.create<tcc::AddOp>({n.create<tcc::LogOp>(s), m});
  return n.reshape(y, reducedShape(NodeContext::shapeOf(x), axes, keepdims));
}

template <Kind K, AxesFrom From> void reduction(NodeContext &n) {
  bool noop;
  std::vector<int64_t> axes = reductionAxes(n, From, &noop);
  Value x = n.input(0);
  if (noop) {
    n.setOutput(0, x);
    return;
  }
  bool keepdims = n.intAttr("keepdims", 1) != 0;
  Type t = NodeContext::elementTypeOf(x);
  ArrayRef<int64_t> shape = NodeContext::shapeOf(x);
  // Over no elements the result is a constant; so is an empty result,
  // which the code generator does not lower.
  std::vector<int64_t> outShape = reducedShape(shape, axes, keepdims);
  if (llvm::any_of(axes, [&](int64_t a) { return shape[a] == 0; }) ||
      llvm::is_contained(outShape, 0)) {
    n.setOutput(0, filled(n, outShape, t, emptyReductionValue(K, t)));
    return;
  }
  bool isBool = t.isInteger(1);
  if (isBool && K != Kind::Max && K != Kind::Min)
    n.fail("reducing booleans is defined for ReduceMax and ReduceMin only");
  Value y;
  switch (K) {
  case Kind::Sum:
    y = reduce<tcc::ReduceSumOp>(n, x, axes, keepdims);
    break;
  case Kind::Mean:
    if (isa<FloatType>(t)) {
      y = reduce<tcc::ReduceMeanOp>(n, x, axes, keepdims);
      break;
    }
    // Integers: the sum divided by the count, truncated (ONNX's reference
    // truncates the float mean).
    {
      int64_t count = 1;
      for (int64_t a : axes)
        count *= shape[a];
      y = truncatingDivide(n, reduce<tcc::ReduceSumOp>(n, x, axes, keepdims),
                           n.scalar(double(count), t));
    }
    break;
  case Kind::Max:
  case Kind::Min: {
    // tcc's reductions take numbers: booleans reduce as 0/1 bytes.
    Value v = isBool ? n.cast(x, n.builder().getI8Type()) : x;
    y = K == Kind::Max ? reduce<tcc::ReduceMaxOp>(n, v, axes, keepdims)
                       : reduce<tcc::ReduceMinOp>(n, v, axes, keepdims);
    y = n.cast(y, t);
    break;
  }
  case Kind::Prod:
    y = reduce<tcc::ReduceProdOp>(n, x, axes, keepdims);
    break;
  case Kind::L1:
    y = reduce<tcc::ReduceSumOp>(n, n.create<tcc::AbsOp>(x), axes, keepdims);
    break;
  case Kind::SumSquare:
    y = reduce<tcc::ReduceSumOp>(n, n.create<tcc::MulOp>({x, x}), axes,
                                 keepdims);
    break;
  case Kind::L2: {
    // Integers: the square root in f64, truncated back, as ONNX's
    // reference (sqrt(...).astype(dtype)).
    bool isInt = !isa<FloatType>(t);
    Value xf = isInt ? n.cast(x, n.builder().getF64Type()) : x;
    y = n.create<tcc::SqrtOp>(reduce<tcc::ReduceSumOp>(
        n, n.create<tcc::MulOp>({xf, xf}), axes, keepdims));
    y = n.cast(y, t);
    break;
  }
  // Integers: computed in f64 and truncated back, as ONNX's reference.
  case Kind::LogSum: {
    Value sum = reduce<tcc::ReduceSumOp>(n, x, axes, keepdims);
    Type f = isa<FloatType>(t) ? t : n.builder().getF64Type();
    y = n.cast(n.create<tcc::LogOp>(n.cast(sum, f)), t);
    break;
  }
  case Kind::LogSumExp: {
    Type f = isa<FloatType>(t) ? t : n.builder().getF64Type();
    y = n.cast(logSumExp(n, n.cast(x, f), axes, keepdims), t);
    break;
  }
  }
  n.setOutput(0, y);
}

template <Kind K>
void addReduction(OpTable &t, const char *name, int inputSince) {
  t.add(name, 1, reduction<K, AxesFrom::Attribute>);
  t.add(name, inputSince, reduction<K, AxesFrom::Input>);
}

/// 0, 1, ..., size-1 laid along `axis` of a rank-`rank` i64 tensor whose
/// other dims are 1.
Value iotaAlong(NodeContext &n, int64_t axis, int64_t rank, int64_t size,
                bool descending = false) {
  std::vector<int64_t> shape(rank, 1);
  shape[axis] = size;
  ConstantData data = ConstantData::zeros(
      RankedTensorType::get(shape, n.builder().getI64Type()));
  for (int64_t i = 0; i < size; ++i)
    data.setInt(i, descending ? size - 1 - i : i);
  return n.constant(data);
}

template <class OpTy> void argReduce(NodeContext &n) {
  n.checkAttrs({"axis", "keepdims", "select_last_index"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), rank, "axis");
  bool keep = n.intAttr("keepdims", 1);
  auto attrs = [&] {
    return std::vector<NamedAttribute>{n.i64Attr("dim", axis),
                                       n.boolAttr("keepdim", keep)};
  };
  if (!n.intAttr("select_last_index", 0)) {
    n.setOutput(0, n.create<OpTy>(x, attrs()));
    return;
  }
  // The last extreme index is size-1 minus the first one of the input
  // reversed along the axis.
  int64_t size = NodeContext::shapeOf(x)[axis];
  Value reversed = n.create<tcc::IndexSelectOp>(
      {x, iotaAlong(n, 0, 1, size, /*descending=*/true)},
      {n.i64Attr("dim", axis)});
  Value first = n.create<OpTy>(reversed, attrs());
  n.setOutput(
      0, n.create<tcc::SubOp>(
             {n.scalar(double(size - 1), n.builder().getI64Type()), first}));
}

/// `y` moved `s` places up along `axis`: the first `s` entries are
/// `fill`, the last `s` drop out.
Value shiftAlong(NodeContext &n, Value y, int64_t axis, int64_t s,
                 double fill) {
  std::vector<int64_t> shape(NodeContext::shapeOf(y).begin(),
                             NodeContext::shapeOf(y).end());
  std::vector<int64_t> fillShape = shape;
  fillShape[axis] = std::min(s, shape[axis]);
  Value head = filled(n, fillShape, NodeContext::elementTypeOf(y), fill);
  if (s >= shape[axis])
    return head;
  std::vector<int64_t> start(shape.size(), 0), end = shape,
                                               step(shape.size(), 1);
  end[axis] = shape[axis] - s;
  Value kept = n.create<tcc::SliceOp>(y, {n.i64ArrayAttr("start", start),
                                          n.i64ArrayAttr("end", end),
                                          n.i64ArrayAttr("step", step)});
  return n.create<tcc::ConcatOp>({head, kept}, {n.i64Attr("dim", axis)});
}

/// Running products along an axis by doubling (Hillis and Steele): after
/// the step of shift s every entry holds the product of the 2s entries
/// ending at it, so log2(size) steps of one multiply each. `reverse` runs
/// on the flipped axis; `exclusive` shifts the input by one first.
void cumProd(NodeContext &n) {
  n.checkAttrs({"exclusive", "reverse"});
  Value x = n.input(0);
  std::vector<int64_t> axisValues = n.intsInput(1, "axis");
  if (axisValues.size() != 1)
    n.fail("its axis (input 1) is not one value");
  int64_t rank = NodeContext::rankOf(x);
  int64_t axis = n.normalizeAxis(axisValues[0], rank, "axis");
  int64_t size = NodeContext::shapeOf(x)[axis];
  if (size == 0 || llvm::is_contained(NodeContext::shapeOf(x), 0)) {
    n.setOutput(0, x);
    return;
  }
  bool reverse = n.intAttr("reverse", 0), exclusive = n.intAttr("exclusive", 0);
  auto flip = [&](Value v) {
    return n.create<tcc::IndexSelectOp>(
        {v, iotaAlong(n, 0, 1, size, /*descending=*/true)},
        {n.i64Attr("dim", axis)});
  };
  Value y = reverse ? flip(x) : x;
  if (exclusive)
    y = shiftAlong(n, y, axis, 1, 1.0);
  for (int64_t s = 1; s < size; s *= 2)
    y = n.create<tcc::MulOp>({y, shiftAlong(n, y, axis, s, 1.0)});
  n.setOutput(0, reverse ? flip(y) : y);
}

/// One-hot of the first maximum along `axis`, in x's type.
Value hardmaxAlong(NodeContext &n, Value x, int64_t axis) {
  int64_t rank = NodeContext::rankOf(x);
  Value index = n.create<tcc::ArgmaxOp>(
      x, {n.i64Attr("dim", axis), n.boolAttr("keepdim", true)});
  Value hot = n.create<tcc::EqOp>(
      {iotaAlong(n, axis, rank, NodeContext::shapeOf(x)[axis]), index});
  return n.cast(hot, NodeContext::elementTypeOf(x));
}

void hardmax(NodeContext &n) {
  n.checkAttrs({"axis"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  if (NodeContext::typeOf(x).getNumElements() == 0) { // nothing to mark
    n.setOutput(0, x);
    return;
  }
  if (n.opset() >= 13) {
    int64_t axis = n.normalizeAxis(n.intAttr("axis", -1), rank, "axis");
    n.setOutput(0, hardmaxAlong(n, x, axis));
    return;
  }
  // Before opset 13 the input is seen as 2-D: dims before `axis` by the
  // rest, and the one-hot runs over the whole second dim.
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 1), rank, "axis");
  ArrayRef<int64_t> shape = NodeContext::shapeOf(x);
  int64_t rows = 1, cols = 1;
  for (int64_t d = 0; d < rank; ++d)
    (d < axis ? rows : cols) *= shape[d];
  Value y = hardmaxAlong(n, n.reshape(x, {rows, cols}), 1);
  n.setOutput(0, n.reshape(y, shape));
}

} // namespace

void mlir::tcc::onnx::registerReductionOps(OpTable &t) {
  addReduction<Kind::Sum>(t, "ReduceSum", 13);
  addReduction<Kind::Mean>(t, "ReduceMean", 18);
  addReduction<Kind::Max>(t, "ReduceMax", 18);
  addReduction<Kind::Min>(t, "ReduceMin", 18);
  addReduction<Kind::Prod>(t, "ReduceProd", 18);
  addReduction<Kind::L1>(t, "ReduceL1", 18);
  addReduction<Kind::L2>(t, "ReduceL2", 18);
  addReduction<Kind::LogSum>(t, "ReduceLogSum", 18);
  addReduction<Kind::LogSumExp>(t, "ReduceLogSumExp", 18);
  addReduction<Kind::SumSquare>(t, "ReduceSumSquare", 18);
  t.add("ArgMax", 1, argReduce<tcc::ArgmaxOp>);
  t.add("ArgMin", 1, argReduce<tcc::ArgminOp>);
  t.add("Hardmax", 1, hardmax);
  t.add("CumProd", 1, cumProd);
}
