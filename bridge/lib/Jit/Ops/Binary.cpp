//===- Binary.cpp - Arithmetic, comparison, logic, where ------------------===//
//
// The frontend's Binary family. How mappings promote and round: Elementwise.h.
//
//===----------------------------------------------------------------------===//

#include "Elementwise.h"
#include "TraceRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using namespace elementwise;

/// The compute dtype of a binary op: PyTorch's promotion of the inputs.
ScalarType computeType(TraceContext &c) {
  return c.resultType(c.input(0), c.input(1));
}

/// a + alpha * b (or a - alpha * b), as the eager kernel computes it:
/// one rounding from opmath (f32 for f16/bf16).
Values traceAddSub(TraceContext &c, bool subtract) {
  ScalarType t = computeType(c);
  Scalar alpha = c.scalarAttr("alpha");
  if (t == kBool) { // x || (y && alpha); eager rejects bool subtraction
    mlir::Value a = c.inAs(0, kBool);
    if (!alpha.toBool())
      return {c.broadcastTo(a, c.output().sizes())};
    return {binary<LogicalOrOp>(c, a, c.inAs(1, kBool))};
  }
  if (alpha.toDouble() == 1.0) {
    mlir::Value a = c.inAs(0, t), b = c.inAs(1, t);
    return {subtract ? binary<SubOp>(c, a, b) : binary<AddOp>(c, a, b)};
  }
  ScalarType m = isReducedFloat(t) ? kFloat : t;
  mlir::Value a = c.inAs(0, m), b = c.inAs(1, m);
  mlir::Value scaled = binary<MulOp>(c, b, c.scalar(alpha, m));
  mlir::Value r =
      subtract ? binary<SubOp>(c, a, scaled) : binary<AddOp>(c, a, scaled);
  return {c.cast(r, t)};
}

Values traceMul(TraceContext &c) {
  ScalarType t = computeType(c);
  mlir::Value a = c.inAs(0, t), b = c.inAs(1, t);
  if (t == kBool)
    return {binary<LogicalAndOp>(c, a, b)};
  return {binary<MulOp>(c, a, b)};
}

/// maximum/minimum; on bools they are or/and.
template <class OpTy, class BoolOpTy> Values traceMinMax(TraceContext &c) {
  ScalarType t = computeType(c);
  mlir::Value a = c.inAs(0, t), b = c.inAs(1, t);
  if (t == kBool)
    return {binary<BoolOpTy>(c, a, b)};
  return {binary<OpTy>(c, a, b)};
}

/// Ops computed in the output's dtype (div's true division, pow).
template <class OpTy> Values binaryInOutputType(TraceContext &c) {
  ScalarType t = c.output().dtype();
  return {binary<OpTy>(c, c.inAs(0, t), c.inAs(1, t))};
}

template <class OpTy> Values compareOp(TraceContext &c) {
  ScalarType t = computeType(c);
  return {binary<OpTy>(c, c.inAs(0, t), c.inAs(1, t))};
}

template <class OpTy> Values logicalOp(TraceContext &c) {
  return {binary<OpTy>(c, c.inAs(0, kBool), c.inAs(1, kBool))};
}

Values traceWhere(TraceContext &c) {
  ScalarType t = c.output().dtype();
  return {c.create<SelectOp>(
      mlir::ValueRange{c.inAs(0, kBool), c.inAs(1, t), c.inAs(2, t)})};
}

} // namespace

void registerBinaryTraces(TraceRegistry &r) {
  r.trace("add", [](TraceContext &c) { return traceAddSub(c, false); });
  r.trace("sub", [](TraceContext &c) { return traceAddSub(c, true); });
  r.trace("mul", traceMul);
  r.trace("div", binaryInOutputType<DivOp>);
  r.trace("pow", binaryInOutputType<PowOp>);
  r.trace("maximum", traceMinMax<MaximumOp, LogicalOrOp>);
  r.trace("minimum", traceMinMax<MinimumOp, LogicalAndOp>);
  r.trace("eq", compareOp<EqOp>);
  r.trace("ne", compareOp<NeOp>);
  r.trace("lt", compareOp<LtOp>);
  r.trace("le", compareOp<LeOp>);
  r.trace("gt", compareOp<GtOp>);
  r.trace("ge", compareOp<GeOp>);
  r.trace("logical_and", logicalOp<LogicalAndOp>);
  r.trace("logical_or", logicalOp<LogicalOrOp>);
  r.trace("logical_xor", logicalOp<LogicalXorOp>);
  r.trace("where", traceWhere);
}

} // namespace jit
} // namespace tcc
