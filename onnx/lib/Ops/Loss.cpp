//===- Loss.cpp - ONNX loss ops -------------------------------------------===//
//
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (a log_softmax over
// the class dim followed by the same loss). The target picks one class per
// position with tcc.gather; positions whose target is ignore_index get
// weight 0 (their target is replaced by class 0 first, since ignore_index
// may lie outside [0, C)).
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

Value sumAll(NodeContext &n, Value v) {
  std::vector<int64_t> dims(NodeContext::rankOf(v));
  std::iota(dims.begin(), dims.end(), 0);
  return n.create<tcc::ReduceSumOp>(
      v, {n.i64ArrayAttr("dims", dims), n.boolAttr("keepdim", false)});
}

/// The loss of `logProb` ([N, C, d...]) at `target` ([N, d...]) with the
/// node's weight input `weightInput`, ignore_index and reduction.
Value nllLoss(NodeContext &n, Value logProb, Value target, Value weight) {
  auto ls = NodeContext::shapeOf(logProb);
  auto ts = NodeContext::shapeOf(target);
  if (ls.size() < 2)
    n.fail("the input must have shape [N, C, d1, ...]");
  std::vector<int64_t> expected(ls.begin(), ls.end());
  expected.erase(expected.begin() + 1);
  if (std::vector<int64_t>(ts.begin(), ts.end()) != expected)
    n.fail("the target's shape must be the input's without the class dim");
  if (!isa<IntegerType>(NodeContext::elementTypeOf(target)))
    n.fail("the target must be an integer tensor");
  int64_t classes = ls[1];
  if (weight && (NodeContext::rankOf(weight) != 1 ||
                 NodeContext::shapeOf(weight)[0] != classes))
    n.fail("the weight must have shape [C]");
  std::string reduction = n.stringAttr("reduction", "mean");
  if (reduction != "none" && reduction != "sum" && reduction != "mean")
    n.fail("reduction '" + reduction + "' is not none, sum or mean");

  Type et = NodeContext::elementTypeOf(logProb);
  Type i64 = n.builder().getI64Type();
  target = n.cast(target, i64);
  Value kept; // i1 [N, d...]: the target is not ignore_index
  if (n.hasAttr("ignore_index")) {
    Value ignored =
        n.create<tcc::EqOp>({target, n.scalar(n.intAttr("ignore_index"), i64)});
    target = n.create<tcc::SelectOp>({ignored, n.scalar(0, i64), target});
    kept = n.create<tcc::LogicalNotOp>(ignored);
  }
  std::vector<int64_t> indexShape(ts.begin(), ts.end());
  indexShape.insert(indexShape.begin() + 1, 1);
  Value picked = n.create<tcc::GatherOp>(
      {logProb, n.reshape(target, indexShape)}, {n.i64Attr("dim", 1)});
  picked = n.reshape(picked, ts);

  Value w; // the weight of each position, or null for all ones
  if (weight) {
    int64_t count = std::accumulate(ts.begin(), ts.end(), int64_t(1),
                                    std::multiplies<int64_t>());
    w = n.create<tcc::IndexSelectOp>(
        {n.cast(weight, et), n.reshape(target, {count})}, {n.i64Attr("dim", 0)});
    w = n.reshape(w, ts);
  }
  if (kept) {
    Value keptF = n.cast(kept, et);
    w = w ? n.create<tcc::MulOp>({w, keptF}) : keptF;
  }
  Value loss = n.create<tcc::NegOp>(picked);
  if (w)
    loss = n.create<tcc::MulOp>({loss, w});
  if (reduction == "none")
    return loss;
  Value total = sumAll(n, loss);
  if (reduction == "sum")
    return total;
  Value denominator =
      w ? sumAll(n, w)
        : n.scalar(double(std::accumulate(ts.begin(), ts.end(), int64_t(1),
                                          std::multiplies<int64_t>())),
                   et);
  return n.create<tcc::DivOp>({total, denominator});
}

void negativeLogLikelihoodLoss(NodeContext &n) {
  n.checkAttrs({"ignore_index", "reduction"});
  n.setOutput(0, nllLoss(n, n.input(0), n.input(1), n.optionalInput(2)));
}

void softmaxCrossEntropyLoss(NodeContext &n) {
  n.checkAttrs({"ignore_index", "reduction"});
  Value scores = n.input(0);
  if (NodeContext::rankOf(scores) < 2)
    n.fail("the scores must have shape [N, C, d1, ...]");
  Value logProb =
      n.create<tcc::LogSoftmaxOp>(scores, {n.i64Attr("dim", 1)});
  n.setOutput(0, nllLoss(n, logProb, n.input(1), n.optionalInput(2)));
  if (n.wantsOutput(1))
    n.setOutput(1, logProb);
}

} // namespace

void mlir::tcc::onnx::registerLossOps(OpTable &t) {
  t.add("NegativeLogLikelihoodLoss", 12, negativeLogLikelihoodLoss);
  t.add("SoftmaxCrossEntropyLoss", 12, softmaxCrossEntropyLoss);
}
