//===- Reduction.cpp - ONNX reductions ------------------------------------===//
//
// Reduce* over `axes` (an attribute, or from opset 18 (ReduceSum: 13) an
// input), with keepdims and noop_with_empty_axes; the L1/L2/log-sum
// variants composed from tcc ops as ONNX defines them; ArgMax/ArgMin.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <algorithm>

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
  for (int64_t &a : axes)
    a = n.normalizeAxis(a, rank, "axis");
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    n.fail("axes repeat a dim");
  *noop = axes.empty(); // a 0-dim input
  return axes;
}

template <class OpTy> Value reduce(NodeContext &n, Value x, ArrayRef<int64_t> axes) {
  return n.create<OpTy>(x, {n.i64ArrayAttr("dims", axes),
                            n.boolAttr("keepdim", n.intAttr("keepdims", 1) != 0)});
}

/// What each ReduceX computes: a pre-map, the tcc reduction, a post-map.
enum class Kind { Sum, Mean, Max, Min, Prod, L1, L2, LogSum, LogSumExp, SumSquare };

template <Kind K, AxesFrom From> void reduction(NodeContext &n) {
  bool noop;
  std::vector<int64_t> axes = reductionAxes(n, From, &noop);
  Value x = n.input(0);
  if (noop) {
    n.setOutput(0, x);
    return;
  }
  Type t = NodeContext::elementTypeOf(x);
  Value y;
  switch (K) {
  case Kind::Sum: y = reduce<tcc::ReduceSumOp>(n, x, axes); break;
  case Kind::Mean: y = reduce<tcc::ReduceMeanOp>(n, x, axes); break;
  case Kind::Max: y = reduce<tcc::ReduceMaxOp>(n, x, axes); break;
  case Kind::Min: y = reduce<tcc::ReduceMinOp>(n, x, axes); break;
  case Kind::Prod: y = reduce<tcc::ReduceProdOp>(n, x, axes); break;
  case Kind::L1: y = reduce<tcc::ReduceSumOp>(n, n.create<tcc::AbsOp>(x), axes); break;
  case Kind::SumSquare:
    y = reduce<tcc::ReduceSumOp>(n, n.create<tcc::MulOp>({x, x}), axes);
    break;
  case Kind::L2: {
    bool isInt = !isa<FloatType>(t);
    Value xf = isInt ? n.cast(x, n.builder().getF64Type()) : x;
    y = n.create<tcc::SqrtOp>(
        reduce<tcc::ReduceSumOp>(n, n.create<tcc::MulOp>({xf, xf}), axes));
    if (isInt)
      y = n.cast(n.create<tcc::RoundOp>(y), t);
    break;
  }
  case Kind::LogSum:
    y = n.create<tcc::LogOp>(reduce<tcc::ReduceSumOp>(n, x, axes));
    break;
  case Kind::LogSumExp: {
    // max + log(sum(exp(x - max))): finite for large inputs.
    NamedAttribute keep = n.boolAttr("keepdim", true);
    Value m = n.create<tcc::ReduceMaxOp>(x, {n.i64ArrayAttr("dims", axes), keep});
    Value s = n.create<tcc::ReduceSumOp>(
        n.create<tcc::ExpOp>(n.create<tcc::SubOp>({x, m})),
        {n.i64ArrayAttr("dims", axes), keep});
    y = n.create<tcc::AddOp>({n.create<tcc::LogOp>(s), m});
    if (!n.intAttr("keepdims", 1)) {
      std::vector<int64_t> shape;
      auto full = NodeContext::shapeOf(y);
      for (int64_t d = 0; d < static_cast<int64_t>(full.size()); ++d)
        if (!std::binary_search(axes.begin(), axes.end(), d))
          shape.push_back(full[d]);
      y = n.reshape(y, shape);
    }
    break;
  }
  }
  n.setOutput(0, y);
}

template <Kind K> void addReduction(OpTable &t, const char *name, int inputSince) {
  t.add(name, 1, reduction<K, AxesFrom::Attribute>);
  t.add(name, inputSince, reduction<K, AxesFrom::Input>);
}

template <class OpTy> void argReduce(NodeContext &n) {
  n.checkAttrs({"axis", "keepdims", "select_last_index"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), rank, "axis");
  bool keep = n.intAttr("keepdims", 1);
  if (n.intAttr("select_last_index", 0)) {
    // The last extreme index is size-1 minus the first one of the reversed
    // input; tcc has no reverse, so this waits for a gather-based one.
    n.fail("select_last_index=1 is not supported yet");
  }
  n.setOutput(0, n.create<OpTy>(x, {n.i64Attr("dim", axis), n.boolAttr("keepdim", keep)}));
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
}
