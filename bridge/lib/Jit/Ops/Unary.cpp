//===- Unary.cpp - Unary elementwise ops, pow(x, scalar), clamp -----------===//
//
// The frontend's Unary family. How mappings promote and round: Elementwise.h.
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

/// A unary op computed in the output's dtype (integers become floats for
/// the float-only ops, as in eager).
template <class OpTy> Values unaryOp(TraceContext &c) {
  return {unary<OpTy>(c, c.inAs(0, c.output().dtype()))};
}

/// floor/ceil/round leave integers unchanged.
template <class OpTy> Values roundingOp(TraceContext &c) {
  if (!c.input(0).is_floating_point())
    return {c.in(0)};
  return unaryOp<OpTy>(c);
}

/// The exponent as the eager kernel holds it: converted to opmath (float
/// for f32/f16/bf16, double for f64).
double opmathExponent(const Scalar &e, ScalarType t) {
  return t == kDouble ? e.toDouble() : double(float(e.toDouble()));
}

/// pow(x, scalar): the eager kernel's special cases become the ops they
/// compute (x*x, sqrt, 1/x); the rest is tcc.pow with a splat exponent, in
/// f32 for f16/bf16 so that the exponent is not rounded to 16 bits.
Values tracePowScalar(TraceContext &c) {
  ScalarType t = c.output().dtype();
  Scalar e = c.scalarAttr("exponent");
  mlir::Value x = c.inAs(0, t);
  if (!isFloatingType(t))
    return {binary<PowOp>(c, x, c.scalar(e, t))};
  double ev = opmathExponent(e, t);
  if (ev == 2)
    return {binary<MulOp>(c, x, x)};
  if (ev == 0.5)
    return {unary<SqrtOp>(c, x)};
  if (ev == 1)
    return {x};
  if (ev == -1)
    return {binary<DivOp>(c, c.scalar(1, t), x)};
  ScalarType m = isReducedFloat(t) ? kFloat : t;
  return {c.cast(binary<PowOp>(c, c.cast(x, m), c.scalar(ev, m)), t)};
}

Values traceClamp(TraceContext &c) {
  ScalarType t = c.output().dtype();
  llvm::SmallVector<mlir::NamedAttribute, 2> attrs;
  if (!c.isNone("min"))
    attrs.push_back(c.f64Attr("min", c.doubleAttr("min")));
  if (!c.isNone("max"))
    attrs.push_back(c.f64Attr("max", c.doubleAttr("max")));
  mlir::Value x = c.inAs(0, t);
  return {c.create<ClampOp>(x, attrs, x.getType())};
}

Values traceGelu(TraceContext &c) {
  std::string approximate = c.stringAttr("approximate");
  mlir::Value x = c.inAs(0, c.output().dtype());
  auto mode =
      approximate == "tanh" ? GeluApproximation::tanh : GeluApproximation::none;
  return {c.create<GeluOp>(
      x, {c.attr("approximate", GeluApproximationAttr::get(c.context(), mode))},
      x.getType())};
}

} // namespace

void registerUnaryTraces(TraceRegistry &r) {
  r.trace("neg", unaryOp<NegOp>);
  r.trace("abs", unaryOp<AbsOp>);
  r.trace("exp", unaryOp<ExpOp>);
  r.trace("log", unaryOp<LogOp>);
  r.trace("log1p", unaryOp<Log1pOp>);
  r.trace("sqrt", unaryOp<SqrtOp>);
  r.trace("rsqrt", unaryOp<RsqrtOp>);
  r.trace("sin", unaryOp<SinOp>);
  r.trace("cos", unaryOp<CosOp>);
  r.trace("tanh", unaryOp<TanhOp>);
  r.trace("sigmoid", unaryOp<SigmoidOp>);
  r.trace("relu", unaryOp<ReluOp>);
  r.trace("silu", unaryOp<SiluOp>);
  r.trace("erf", unaryOp<ErfOp>);
  r.trace("gelu", traceGelu);
  r.trace("sign", [](TraceContext &c) -> Values {
    if (c.input(0).dtype() == kBool)
      return {c.in(0)};
    return unaryOp<SignOp>(c);
  });
  r.trace("floor", roundingOp<FloorOp>);
  r.trace("ceil", roundingOp<CeilOp>);
  r.trace("round", roundingOp<RoundOp>);
  r.trace("reciprocal", [](TraceContext &c) -> Values {
    ScalarType t = c.output().dtype();
    return {binary<DivOp>(c, c.scalar(1, t), c.inAs(0, t))};
  });
  r.trace("logical_not", [](TraceContext &c) -> Values {
    return {unary<LogicalNotOp>(c, c.inAs(0, kBool))};
  });
  r.trace("isnan", [](TraceContext &c) -> Values {
    mlir::Value x = c.in(0);
    return {binary<NeOp>(c, x, x)};
  });
  r.trace("pow.scalar", tracePowScalar);
  r.trace("clamp", traceClamp);
}

} // namespace jit
} // namespace tcc
