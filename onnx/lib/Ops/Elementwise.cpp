//===- Elementwise.cpp - ONNX pointwise ops -------------------------------===//
//
// Unary and binary math, comparisons, logic, activations, Clip, Where and
// Cast. ONNX's binary ops broadcast numpy-style, as tcc's do; ops tcc has no
// single op for are composed from tcc ops with the same formula as ONNX's
// definition (its function body, where it has one).
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

template <class OpTy> void unary(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.create<OpTy>(n.input(0)));
}

template <class OpTy> void binary(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.create<OpTy>({n.input(0), n.input(1)}));
}

/// Sum, Max, Min: folds the binary op over every input.
template <class OpTy> void variadic(NodeContext &n) {
  n.checkAttrs({});
  Value acc = n.input(0);
  for (size_t i = 1; i < n.numInputs(); ++i)
    acc = n.create<OpTy>({acc, n.input(i)});
  n.setOutput(0, acc);
}

void mean(NodeContext &n) {
  n.checkAttrs({});
  Value acc = n.input(0);
  for (size_t i = 1; i < n.numInputs(); ++i)
    acc = n.create<tcc::AddOp>({acc, n.input(i)});
  if (n.numInputs() > 1)
    acc = n.create<tcc::DivOp>(
        {acc, n.scalar(double(n.numInputs()), NodeContext::elementTypeOf(acc))});
  n.setOutput(0, acc);
}

Value scalarLike(NodeContext &n, Value like, double v) {
  return n.scalar(v, NodeContext::elementTypeOf(like));
}

void reciprocal(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  n.setOutput(0, n.create<tcc::DivOp>({scalarLike(n, x, 1.0), x}));
}

void identity(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.input(0));
}

void pow(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0), y = n.input(1);
  // ONNX allows the exponent's type to differ; tcc.pow takes one type.
  n.setOutput(0, n.create<tcc::PowOp>({x, n.cast(y, NodeContext::elementTypeOf(x))}));
}

void mod(NodeContext &n) {
  n.checkAttrs({"fmod"});
  Value a = n.input(0), b = n.input(1);
  if (n.intAttr("fmod", 0) == 0) { // Python's %: sign of the divisor
    n.setOutput(0, n.create<tcc::RemainderOp>({a, b}));
    return;
  }
  // C's fmod, sign of the dividend: a - trunc(a / b) * b.
  Type t = NodeContext::elementTypeOf(a);
  if (!isa<FloatType>(t))
    n.fail("fmod=1 on integers is not supported yet");
  Value q = n.create<tcc::DivOp>({a, b});
  Value zero = scalarLike(n, q, 0.0);
  Value truncated = n.create<tcc::SelectOp>(
      {n.create<tcc::LtOp>({q, zero}), n.create<tcc::CeilOp>(q),
       n.create<tcc::FloorOp>(q)});
  n.setOutput(0, n.create<tcc::SubOp>({a, n.create<tcc::MulOp>({truncated, b})}));
}

void clip(NodeContext &n) {
  std::optional<double> lo, hi;
  if (n.opset() < 11) {
    n.checkAttrs({"min", "max"});
    if (n.hasAttr("min")) lo = n.floatAttr("min", 0);
    if (n.hasAttr("max")) hi = n.floatAttr("max", 0);
  } else {
    n.checkAttrs({});
    if (n.hasInput(1)) lo = n.floatScalarInput(1, "min");
    if (n.hasInput(2)) hi = n.floatScalarInput(2, "max");
  }
  Value x = n.input(0);
  if (!lo && !hi) {
    n.setOutput(0, x);
    return;
  }
  llvm::SmallVector<NamedAttribute> attrs;
  if (lo) attrs.push_back(n.f64Attr("min", *lo));
  if (hi) attrs.push_back(n.f64Attr("max", *hi));
  n.setOutput(0, n.create<tcc::ClampOp>(x, attrs));
}

void where(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.create<tcc::SelectOp>({n.input(0), n.input(1), n.input(2)}));
}

void castOp(NodeContext &n) {
  n.checkAttrs({"to", "saturate", "round_mode"});
  int64_t to = n.intAttr("to");
  Type t = n.elementTypeFor(to);
  n.setOutput(0, n.cast(n.input(0), t));
}

void castLike(NodeContext &n) {
  n.checkAttrs({"saturate", "round_mode"});
  n.setOutput(0, n.cast(n.input(0), NodeContext::elementTypeOf(n.input(1))));
}

void notOp(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.create<tcc::LogicalNotOp>(n.input(0)));
}

// --- Activations --------------------------------------------------------------

void leakyRelu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  Value x = n.input(0);
  double alpha = n.floatAttr("alpha", 0.01f);
  Value zero = scalarLike(n, x, 0.0);
  n.setOutput(0, n.create<tcc::SelectOp>(
                     {n.create<tcc::LtOp>({x, zero}),
                      n.create<tcc::MulOp>({x, scalarLike(n, x, alpha)}), x}));
}

void prelu(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0), slope = n.input(1);
  Value zero = scalarLike(n, x, 0.0);
  n.setOutput(0, n.create<tcc::SelectOp>(
                     {n.create<tcc::LtOp>({x, zero}),
                      n.create<tcc::MulOp>({x, slope}), x}));
}

/// alpha * (exp(x) - 1) for x < 0, else x; Selu scales both by gamma.
Value eluLike(NodeContext &n, Value x, double alpha, double gamma) {
  Value zero = scalarLike(n, x, 0.0);
  Value neg = n.create<tcc::MulOp>(
      {n.create<tcc::SubOp>({n.create<tcc::ExpOp>(x), scalarLike(n, x, 1.0)}),
       scalarLike(n, x, alpha * gamma)});
  Value pos = gamma == 1.0 ? x : n.create<tcc::MulOp>({x, scalarLike(n, x, gamma)});
  return n.create<tcc::SelectOp>({n.create<tcc::LeOp>({x, zero}), neg, pos});
}

void elu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  n.setOutput(0, eluLike(n, n.input(0), n.floatAttr("alpha", 1.0f), 1.0));
}

void selu(NodeContext &n) {
  n.checkAttrs({"alpha", "gamma"});
  n.setOutput(0, eluLike(n, n.input(0), n.floatAttr("alpha", 1.67326319217681884765625f),
                         n.floatAttr("gamma", 1.05070102214813232421875f)));
}

void celu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  Value x = n.input(0);
  double alpha = n.floatAttr("alpha", 1.0f);
  Value zero = scalarLike(n, x, 0.0);
  Value e = n.create<tcc::SubOp>(
      {n.create<tcc::ExpOp>(n.create<tcc::DivOp>({x, scalarLike(n, x, alpha)})),
       scalarLike(n, x, 1.0)});
  Value neg = n.create<tcc::MinimumOp>(
      {zero, n.create<tcc::MulOp>({e, scalarLike(n, x, alpha)})});
  n.setOutput(0, n.create<tcc::AddOp>({n.create<tcc::MaximumOp>({zero, x}), neg}));
}

void hardSigmoid(NodeContext &n) {
  n.checkAttrs({"alpha", "beta"});
  Value x = n.input(0);
  Value y = n.create<tcc::AddOp>(
      {n.create<tcc::MulOp>({x, scalarLike(n, x, n.floatAttr("alpha", 0.2f))}),
       scalarLike(n, x, n.floatAttr("beta", 0.5f))});
  n.setOutput(0, n.create<tcc::ClampOp>(y, {n.f64Attr("min", 0.0), n.f64Attr("max", 1.0)}));
}

void hardSwish(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  Value y = n.create<tcc::AddOp>(
      {n.create<tcc::MulOp>({x, scalarLike(n, x, 1.0 / 6.0)}), scalarLike(n, x, 0.5)});
  y = n.create<tcc::ClampOp>(y, {n.f64Attr("min", 0.0), n.f64Attr("max", 1.0)});
  n.setOutput(0, n.create<tcc::MulOp>({x, y}));
}

void softplus(NodeContext &n) {
  n.checkAttrs({});
  // log(1 + exp(x)), written to stay finite for large x:
  // max(x, 0) + log1p(exp(-|x|)).
  Value x = n.input(0);
  Value e = n.create<tcc::ExpOp>(n.create<tcc::NegOp>(n.create<tcc::AbsOp>(x)));
  n.setOutput(0, n.create<tcc::AddOp>(
                     {n.create<tcc::MaximumOp>({x, scalarLike(n, x, 0.0)}),
                      n.create<tcc::Log1pOp>(e)}));
}

void softsign(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  n.setOutput(0, n.create<tcc::DivOp>(
                     {x, n.create<tcc::AddOp>({n.create<tcc::AbsOp>(x),
                                               scalarLike(n, x, 1.0)})}));
}

void mish(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  Value e = n.create<tcc::ExpOp>(n.create<tcc::NegOp>(n.create<tcc::AbsOp>(x)));
  Value sp = n.create<tcc::AddOp>(
      {n.create<tcc::MaximumOp>({x, scalarLike(n, x, 0.0)}), n.create<tcc::Log1pOp>(e)});
  n.setOutput(0, n.create<tcc::MulOp>({x, n.create<tcc::TanhOp>(sp)}));
}

void gelu(NodeContext &n) {
  n.checkAttrs({"approximate"});
  std::string approx = n.stringAttr("approximate", "none");
  if (approx != "none" && approx != "tanh")
    n.fail("approximate '" + approx + "' is not 'none' or 'tanh'");
  n.setOutput(0, n.create<tcc::GeluOp>(
                     n.input(0),
                     {n.namedAttr("approximate",
                                  tcc::GeluApproximationAttr::get(
                                      n.context(), approx == "tanh"
                                                       ? tcc::GeluApproximation::tanh
                                                       : tcc::GeluApproximation::none))}));
}

void thresholdedRelu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  Value x = n.input(0);
  Value zero = scalarLike(n, x, 0.0);
  n.setOutput(0, n.create<tcc::SelectOp>(
                     {n.create<tcc::GtOp>({x, scalarLike(n, x, n.floatAttr("alpha", 1.0f))}),
                      x, zero}));
}

void shrink(NodeContext &n) {
  n.checkAttrs({"bias", "lambd"});
  Value x = n.input(0);
  double bias = n.floatAttr("bias", 0.0f), lambd = n.floatAttr("lambd", 0.5f);
  Value zero = scalarLike(n, x, 0.0);
  Value below = n.create<tcc::LtOp>({x, scalarLike(n, x, -lambd)});
  Value above = n.create<tcc::GtOp>({x, scalarLike(n, x, lambd)});
  Value y = n.create<tcc::SelectOp>(
      {above, n.create<tcc::SubOp>({x, scalarLike(n, x, bias)}), zero});
  n.setOutput(0, n.create<tcc::SelectOp>(
                     {below, n.create<tcc::AddOp>({x, scalarLike(n, x, bias)}), y}));
}

// --- Math composed from tcc ops ------------------------------------------------

void tan(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  n.setOutput(0, n.create<tcc::DivOp>({n.create<tcc::SinOp>(x), n.create<tcc::CosOp>(x)}));
}

/// (exp(x) + sign * exp(-x)) / 2: cosh with +1, sinh with -1.
template <int Sign> void hyperbolic(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  Value a = n.create<tcc::ExpOp>(x);
  Value b = n.create<tcc::ExpOp>(n.create<tcc::NegOp>(x));
  Value s = Sign > 0 ? n.create<tcc::AddOp>({a, b}) : n.create<tcc::SubOp>({a, b});
  n.setOutput(0, n.create<tcc::MulOp>({s, scalarLike(n, x, 0.5)}));
}

void isNaN(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  n.setOutput(0, n.create<tcc::NeOp>({x, x}));
}

void isInf(NodeContext &n) {
  n.checkAttrs({"detect_negative", "detect_positive"});
  Value x = n.input(0);
  bool neg = n.intAttr("detect_negative", 1), pos = n.intAttr("detect_positive", 1);
  double inf = std::numeric_limits<double>::infinity();
  Value isPos = n.create<tcc::EqOp>({x, scalarLike(n, x, inf)});
  Value isNeg = n.create<tcc::EqOp>({x, scalarLike(n, x, -inf)});
  if (pos && neg)
    n.setOutput(0, n.create<tcc::LogicalOrOp>({isPos, isNeg}));
  else if (pos)
    n.setOutput(0, isPos);
  else if (neg)
    n.setOutput(0, isNeg);
  else // detects nothing: all false
    n.setOutput(0, n.create<tcc::LogicalAndOp>({isPos, isNeg}));
}

} // namespace

void mlir::tcc::onnx::registerElementwiseOps(OpTable &t) {
  t.add("Abs", 1, unary<tcc::AbsOp>);
  t.add("Neg", 1, unary<tcc::NegOp>);
  t.add("Exp", 1, unary<tcc::ExpOp>);
  t.add("Log", 1, unary<tcc::LogOp>);
  t.add("Sqrt", 1, unary<tcc::SqrtOp>);
  t.add("Relu", 1, unary<tcc::ReluOp>);
  t.add("Sigmoid", 1, unary<tcc::SigmoidOp>);
  t.add("Tanh", 1, unary<tcc::TanhOp>);
  t.add("Erf", 1, unary<tcc::ErfOp>);
  t.add("Sin", 1, unary<tcc::SinOp>);
  t.add("Cos", 1, unary<tcc::CosOp>);
  t.add("Floor", 1, unary<tcc::FloorOp>);
  t.add("Ceil", 1, unary<tcc::CeilOp>);
  t.add("Round", 1, unary<tcc::RoundOp>);
  t.add("Sign", 1, unary<tcc::SignOp>);
  t.add("Not", 1, notOp);
  t.add("Reciprocal", 1, reciprocal);
  t.add("Identity", 1, identity);
  t.add("Tan", 1, tan);
  t.add("Cosh", 1, hyperbolic<1>);
  t.add("Sinh", 1, hyperbolic<-1>);
  t.add("IsNaN", 1, isNaN);
  t.add("IsInf", 1, isInf);

  t.add("Add", 1, binary<tcc::AddOp>);
  t.add("Sub", 1, binary<tcc::SubOp>);
  t.add("Mul", 1, binary<tcc::MulOp>);
  t.add("Div", 1, binary<tcc::DivOp>);
  t.add("Pow", 1, pow);
  t.add("Mod", 1, mod);
  t.add("Equal", 1, binary<tcc::EqOp>);
  t.add("Greater", 1, binary<tcc::GtOp>);
  t.add("Less", 1, binary<tcc::LtOp>);
  t.add("GreaterOrEqual", 1, binary<tcc::GeOp>);
  t.add("LessOrEqual", 1, binary<tcc::LeOp>);
  t.add("And", 1, binary<tcc::LogicalAndOp>);
  t.add("Or", 1, binary<tcc::LogicalOrOp>);
  t.add("Xor", 1, binary<tcc::LogicalXorOp>);
  t.add("Sum", 1, variadic<tcc::AddOp>);
  t.add("Max", 1, variadic<tcc::MaximumOp>);
  t.add("Min", 1, variadic<tcc::MinimumOp>);
  t.add("Mean", 1, mean);
  t.add("Where", 1, where);
  t.add("Clip", 1, clip);
  t.add("Cast", 1, castOp);
  t.add("CastLike", 1, castLike);

  t.add("LeakyRelu", 1, leakyRelu);
  t.add("PRelu", 1, prelu);
  t.add("Elu", 1, elu);
  t.add("Selu", 1, selu);
  t.add("Celu", 1, celu);
  t.add("HardSigmoid", 1, hardSigmoid);
  t.add("HardSwish", 1, hardSwish);
  t.add("Softplus", 1, softplus);
  t.add("Softsign", 1, softsign);
  t.add("Mish", 1, mish);
  t.add("Gelu", 1, gelu);
  t.add("ThresholdedRelu", 1, thresholdedRelu);
  t.add("Shrink", 1, shrink);
}
