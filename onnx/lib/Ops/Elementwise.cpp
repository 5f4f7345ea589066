//===- Elementwise.cpp - ONNX pointwise ops -------------------------------===//
//
// Unary and binary math, comparisons, logic, activations, Clip, Where and
// Cast. ONNX's binary ops broadcast numpy-style, as tcc's do; ops tcc has no
// single op for are composed from tcc ops with the same formula as ONNX's
// definition (its function body, where it has one).
//
//===----------------------------------------------------------------------===//

#include "ComputeType.h"
#include "IntegerMath.h"
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
    acc =
        n.create<tcc::DivOp>({acc, n.scalar(double(n.numInputs()),
                                            NodeContext::elementTypeOf(acc))});
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
  Type t = NodeContext::elementTypeOf(x), ty = NodeContext::elementTypeOf(y);
  // ONNX lets the exponent's type differ; tcc.pow takes one type. As ONNX's
  // reference (numpy's promotion, then the base's type): an integer base
  // with a float exponent is raised in f64 and truncated back; two float
  // types compute in the wider. An integer exponent takes the base's type.
  Type compute = t;
  if (!isa<FloatType>(t) && isa<FloatType>(ty))
    compute = n.builder().getF64Type();
  else if (isa<FloatType>(t) && isa<FloatType>(ty) &&
           ty.getIntOrFloatBitWidth() > t.getIntOrFloatBitWidth())
    compute = ty;
  Value z = n.create<tcc::PowOp>({n.cast(x, compute), n.cast(y, compute)});
  n.setOutput(0, n.cast(z, t));
}

/// (a < 0) xor (b < 0).
Value signsDiffer(NodeContext &n, Value a, Value b) {
  return n.create<tcc::LogicalXorOp>(
      {n.create<tcc::LtOp>({a, scalarLike(n, a, 0.0)}),
       n.create<tcc::LtOp>({b, scalarLike(n, b, 0.0)})});
}

void div(NodeContext &n) {
  n.checkAttrs({});
  Value a = n.input(0), b = n.input(1);
  if (isa<FloatType>(NodeContext::elementTypeOf(a)))
    n.setOutput(0, n.create<tcc::DivOp>({a, b}));
  else
    n.setOutput(0, truncatingDivide(n, a, b));
}

void mod(NodeContext &n) {
  n.checkAttrs({"fmod"});
  Value a = n.input(0), b = n.input(1);
  bool isFloat = isa<FloatType>(NodeContext::elementTypeOf(a));
  int64_t fmod = n.intAttr("fmod", 0);
  if (fmod != 0 && fmod != 1)
    n.fail("fmod " + std::to_string(fmod) + " is not 0 or 1");
  if (fmod == 0) {
    // Python's %, the sign of the divisor: tcc.remainder.
    if (isFloat && n.opset() < 28)
      n.fail("fmod=0 on floats is defined from opset 28 (before, floats "
             "require fmod=1)");
    Value r = n.create<tcc::RemainderOp>({a, b});
    if (isFloat) {
      // A zero result takes the divisor's sign (ONNX, as Python: -0.0 % 3
      // is 0.0), where tcc.remainder keeps fmod's, the dividend's.
      Value zero = scalarLike(n, r, 0.0);
      Value signedZero = n.create<tcc::SelectOp>(
          {n.create<tcc::LtOp>({b, zero}), scalarLike(n, r, -0.0), zero});
      r = n.create<tcc::SelectOp>(
          {n.create<tcc::EqOp>({r, zero}), signedZero, r});
    }
    n.setOutput(0, r);
    return;
  }
  // C's fmod, the sign of the dividend.
  if (isFloat) {
    // fmod(|a|, |b|) is tcc.remainder's (exact) fmod on non-negatives;
    // the dividend's sign is put back.
    Value r = n.create<tcc::RemainderOp>(
        {n.create<tcc::AbsOp>(a), n.create<tcc::AbsOp>(b)});
    n.setOutput(0, n.create<tcc::SelectOp>(
                       {n.create<tcc::LtOp>({a, scalarLike(n, a, 0.0)}),
                        n.create<tcc::NegOp>(r), r}));
    return;
  }
  // Integers: Python's remainder moved back by one divisor where the signs
  // differ (exact, and in range, since |r - b| < |b|).
  Value r = n.create<tcc::RemainderOp>({a, b});
  Value nonzero = n.create<tcc::NeOp>({r, scalarLike(n, r, 0.0)});
  Value moved = n.create<tcc::LogicalAndOp>({nonzero, signsDiffer(n, a, b)});
  n.setOutput(
      0, n.create<tcc::SelectOp>({moved, n.create<tcc::SubOp>({r, b}), r}));
}

void clip(NodeContext &n) {
  Value x = n.input(0);
  std::optional<double> lo, hi;
  if (n.opset() < 11) {
    n.checkAttrs({"min", "max"});
    if (n.hasAttr("min"))
      lo = n.floatAttr("min", 0);
    if (n.hasAttr("max"))
      hi = n.floatAttr("max", 0);
  } else {
    n.checkAttrs({});
    // Bounds known at import become tcc.clamp's attributes; bounds that
    // are graph inputs are applied with selects, with clamp's semantics
    // (NaN stays NaN; max wins over a greater min).
    Value lower = n.optionalInput(1), upper = n.optionalInput(2);
    for (auto [bound, index] : {std::pair(lower, 1), std::pair(upper, 2)})
      if (bound && NodeContext::rankOf(bound) != 0 &&
          NodeContext::typeOf(bound).getNumElements() != 1)
        n.fail("its " + std::string(index == 1 ? "min" : "max") + " (input " +
               std::to_string(index) + ") is not a scalar");
    if ((lower && !constantValueOf(lower)) ||
        (upper && !constantValueOf(upper))) {
      Type t = NodeContext::elementTypeOf(x);
      Value y = x;
      if (lower) {
        lower = n.reshape(n.cast(lower, t), {});
        y = n.create<tcc::SelectOp>(
            {n.create<tcc::LtOp>({y, lower}), lower, y});
      }
      if (upper) {
        upper = n.reshape(n.cast(upper, t), {});
        y = n.create<tcc::SelectOp>(
            {n.create<tcc::GtOp>({y, upper}), upper, y});
      }
      n.setOutput(0, y);
      return;
    }
    if (lower)
      lo = n.floatScalarInput(1, "min");
    if (upper)
      hi = n.floatScalarInput(2, "max");
  }
  if (!lo && !hi) {
    n.setOutput(0, x);
    return;
  }
  llvm::SmallVector<NamedAttribute> attrs;
  if (lo)
    attrs.push_back(n.f64Attr("min", *lo));
  if (hi)
    attrs.push_back(n.f64Attr("max", *hi));
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

/// Reinterprets bits between types of one width: tcc.bitcast when a float
/// type is either side. Between integer types, where bool counts as 8 bits
/// (its bytes being 0 or 1), it is tcc.cast's wrap-around, which covers bool
/// too (tcc.bitcast keeps i1 to itself).
void bitCast(NodeContext &n) {
  n.checkAttrs({"to"});
  Value x = n.input(0);
  Type from = NodeContext::elementTypeOf(x);
  Type to = n.elementTypeFor(n.intAttr("to"));
  auto bits = [](Type t) { return std::max(8u, t.getIntOrFloatBitWidth()); };
  if (bits(from) != bits(to))
    n.fail("'to' has a different width from the input");
  if (isa<FloatType>(from) || isa<FloatType>(to))
    n.setOutput(0,
                n.create<tcc::BitcastOp>(
                    x, {}, RankedTensorType::get(NodeContext::shapeOf(x), to)));
  else
    n.setOutput(0, n.cast(x, to));
}

void notOp(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.create<tcc::LogicalNotOp>(n.input(0)));
}

// --- Bit ops composed exactly from integer arithmetic -----------------------

/// The element type of `x`, an operand of a bit op; fails unless it is an
/// integer type (not bool).
IntegerType integerTypeOf(NodeContext &n, Value x) {
  auto t = dyn_cast<IntegerType>(NodeContext::elementTypeOf(x));
  if (!t || t.getWidth() == 1)
    n.fail("it takes integers");
  return t;
}

/// ~x: -x - 1 in two's complement (wrapping), max - x unsigned.
void bitwiseNot(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  IntegerType t = integerTypeOf(n, x);
  if (t.isUnsigned()) {
    double max = std::ldexp(1.0, int(t.getWidth())) - 1;
    n.setOutput(0, n.create<tcc::SubOp>({scalarLike(n, x, max), x}));
    return;
  }
  n.setOutput(0, n.create<tcc::SubOp>(
                     {n.create<tcc::NegOp>(x), scalarLike(n, x, 1.0)}));
}

/// The two's complement bits of integer `x`, least significant first, as
/// 0/1 values of x's type: bit b is the remainder by 2 of x floor-divided
/// b times by 2 (floor division keeps the sign's ones coming for negative x).
std::vector<Value> bitsOf(NodeContext &n, Value x, int64_t width) {
  std::vector<Value> bits;
  Value two = scalarLike(n, x, 2.0);
  for (int64_t b = 0; b < width; ++b) {
    bits.push_back(n.create<tcc::RemainderOp>({x, two}));
    x = n.create<tcc::FloorDivideOp>({x, two});
  }
  return bits;
}

enum class BitOp { And, Or, Xor };

/// BitwiseAnd/Or/Xor bit by bit (tcc has no bitwise ops), reassembled by
/// Horner's rule, whose doubling wraps as two's complement. Exact, at some
/// seven ops per bit.
template <BitOp Op> void bitwise(NodeContext &n) {
  n.checkAttrs({});
  Value a = n.input(0), b = n.input(1);
  IntegerType t = integerTypeOf(n, a);
  int64_t width = t.getWidth();
  std::vector<Value> x = bitsOf(n, a, width), y = bitsOf(n, b, width);
  Value result;
  for (int64_t bit = width - 1; bit >= 0; --bit) {
    Value r;
    switch (Op) {
    case BitOp::And:
      r = n.create<tcc::MulOp>({x[bit], y[bit]});
      break;
    case BitOp::Or:
      r = n.create<tcc::MaximumOp>({x[bit], y[bit]});
      break;
    case BitOp::Xor:
      r = n.create<tcc::RemainderOp>(
          {n.create<tcc::AddOp>({x[bit], y[bit]}), scalarLike(n, a, 2.0)});
      break;
    }
    result =
        result ? n.create<tcc::AddOp>(
                     {n.create<tcc::MulOp>({result, scalarLike(n, a, 2.0)}), r})
               : r;
  }
  n.setOutput(0, result);
}

/// x << y as x * 2^y and x >> y as floor(x / 2^y) (arithmetic for signed
/// types, logical for unsigned), wrapping as two's complement. 2^y is
/// applied in stages of 2^(2^b), one per bit b of y, so every factor fits
/// the type. A shift below 0 or of the type's width or more leaves only the
/// sign fill, as ONNX defines: -1 for a right shift of a negative x, else 0.
void bitShift(NodeContext &n) {
  n.checkAttrs({"direction"});
  std::string direction = n.stringAttr("direction", "");
  if (direction != "LEFT" && direction != "RIGHT")
    n.fail("direction '" + direction + "' is not LEFT or RIGHT");
  bool left = direction == "LEFT";
  Value x = n.input(0), y = n.input(1);
  IntegerType t = integerTypeOf(n, x);
  int64_t width = t.getWidth();
  Value zero = scalarLike(n, y, 0.0);
  Value inRange = n.create<tcc::LogicalAndOp>(
      {n.create<tcc::GeOp>({y, zero}),
       n.create<tcc::LtOp>({y, scalarLike(n, y, double(width))})});
  Value shift = n.create<tcc::SelectOp>({inRange, y, zero});
  // Shapes broadcast once here so the staged selects keep one shape.
  std::vector<int64_t> shape =
      n.broadcastShapes(NodeContext::shapeOf(x), NodeContext::shapeOf(y));
  Value v = n.broadcastTo(x, shape);
  for (int64_t bit = 1; bit < width; bit *= 2) {
    Value isSet =
        n.create<tcc::NeOp>({n.create<tcc::RemainderOp>(
                                 {n.create<tcc::FloorDivideOp>(
                                      {shift, scalarLike(n, y, double(bit))}),
                                  scalarLike(n, y, 2.0)}),
                             zero});
    Value factor = scalarLike(n, x, std::ldexp(1.0, int(bit)));
    Value shifted = left ? n.create<tcc::MulOp>({v, factor})
                         : n.create<tcc::FloorDivideOp>({v, factor});
    v = n.create<tcc::SelectOp>({isSet, shifted, v});
  }
  Value fill = scalarLike(n, x, 0.0);
  if (!left && !t.isUnsigned())
    fill = n.create<tcc::SelectOp>(
        {n.create<tcc::LtOp>({x, fill}), scalarLike(n, x, -1.0), fill});
  n.setOutput(0, n.create<tcc::SelectOp>({inRange, v, fill}));
}

// --- Activations -------------------------------------------------------------
//
// Each is built in x's compute type (ComputeType.h), so f16 and bf16 round
// once, and so do the attribute constants.

/// Sets output 0 to `build(x)` for input 0 in its compute type.
template <class Build> void setActivation(NodeContext &n, Build build) {
  n.setOutput(0, inComputeType(n, n.input(0), build));
}

void leakyRelu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  double alpha = n.floatAttr("alpha", 0.01f);
  setActivation(n, [&](Value x) {
    return n.create<tcc::SelectOp>(
        {n.create<tcc::LtOp>({x, scalarLike(n, x, 0.0)}),
         n.create<tcc::MulOp>({x, scalarLike(n, x, alpha)}), x});
  });
}

void prelu(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0), slope = n.input(1);
  Value zero = scalarLike(n, x, 0.0);
  n.setOutput(0,
              n.create<tcc::SelectOp>({n.create<tcc::LtOp>({x, zero}),
                                       n.create<tcc::MulOp>({x, slope}), x}));
}

/// alpha * (exp(x) - 1) for x <= 0, else x; Selu scales both by gamma.
Value eluLike(NodeContext &n, Value x, double alpha, double gamma) {
  Value zero = scalarLike(n, x, 0.0);
  Value neg = n.create<tcc::MulOp>(
      {n.create<tcc::SubOp>({n.create<tcc::ExpOp>(x), scalarLike(n, x, 1.0)}),
       scalarLike(n, x, alpha * gamma)});
  Value pos =
      gamma == 1.0 ? x : n.create<tcc::MulOp>({x, scalarLike(n, x, gamma)});
  return n.create<tcc::SelectOp>({n.create<tcc::LeOp>({x, zero}), neg, pos});
}

void elu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  double alpha = n.floatAttr("alpha", 1.0f);
  setActivation(n, [&](Value x) { return eluLike(n, x, alpha, 1.0); });
}

void selu(NodeContext &n) {
  n.checkAttrs({"alpha", "gamma"});
  double alpha = n.floatAttr("alpha", 1.67326319217681884765625f);
  double gamma = n.floatAttr("gamma", 1.05070102214813232421875f);
  setActivation(n, [&](Value x) { return eluLike(n, x, alpha, gamma); });
}

void celu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  double alpha = n.floatAttr("alpha", 1.0f);
  // max(0, x) + min(0, alpha * (exp(x / alpha) - 1))
  setActivation(n, [&](Value x) {
    Value zero = scalarLike(n, x, 0.0);
    Value e = n.create<tcc::SubOp>({n.create<tcc::ExpOp>(n.create<tcc::DivOp>(
                                        {x, scalarLike(n, x, alpha)})),
                                    scalarLike(n, x, 1.0)});
    Value neg = n.create<tcc::MinimumOp>(
        {zero, n.create<tcc::MulOp>({e, scalarLike(n, x, alpha)})});
    return n.create<tcc::AddOp>({n.create<tcc::MaximumOp>({zero, x}), neg});
  });
}

/// clamp(alpha * x + beta, 0, 1).
Value hardSigmoidOf(NodeContext &n, Value x, double alpha, double beta) {
  Value y =
      n.create<tcc::AddOp>({n.create<tcc::MulOp>({x, scalarLike(n, x, alpha)}),
                            scalarLike(n, x, beta)});
  return n.create<tcc::ClampOp>(y,
                                {n.f64Attr("min", 0.0), n.f64Attr("max", 1.0)});
}

void hardSigmoid(NodeContext &n) {
  n.checkAttrs({"alpha", "beta"});
  double alpha = n.floatAttr("alpha", 0.2f), beta = n.floatAttr("beta", 0.5f);
  setActivation(n, [&](Value x) { return hardSigmoidOf(n, x, alpha, beta); });
}

void hardSwish(NodeContext &n) {
  n.checkAttrs({});
  setActivation(n, [&](Value x) {
    return n.create<tcc::MulOp>({x, hardSigmoidOf(n, x, 1.0 / 6.0, 0.5)});
  });
}

/// log(1 + exp(x)), written to stay finite for large x:
/// max(x, 0) + log1p(exp(-|x|)).
Value softplusOf(NodeContext &n, Value x) {
  Value e = n.create<tcc::ExpOp>(n.create<tcc::NegOp>(n.create<tcc::AbsOp>(x)));
  return n.create<tcc::AddOp>(
      {n.create<tcc::MaximumOp>({x, scalarLike(n, x, 0.0)}),
       n.create<tcc::Log1pOp>(e)});
}

void softplus(NodeContext &n) {
  n.checkAttrs({});
  setActivation(n, [&](Value x) { return softplusOf(n, x); });
}

void softsign(NodeContext &n) {
  n.checkAttrs({});
  setActivation(n, [&](Value x) {
    return n.create<tcc::DivOp>(
        {x, n.create<tcc::AddOp>(
                {n.create<tcc::AbsOp>(x), scalarLike(n, x, 1.0)})});
  });
}

void mish(NodeContext &n) {
  n.checkAttrs({});
  setActivation(n, [&](Value x) {
    return n.create<tcc::MulOp>({x, n.create<tcc::TanhOp>(softplusOf(n, x))});
  });
}

/// x * sigmoid(alpha * x).
Value swishOf(NodeContext &n, Value x, double alpha) {
  Value scaled = n.create<tcc::MulOp>({x, scalarLike(n, x, alpha)});
  return n.create<tcc::MulOp>({x, n.create<tcc::SigmoidOp>(scaled)});
}

void swish(NodeContext &n) {
  n.checkAttrs({"alpha"});
  double alpha = n.floatAttr("alpha", 1.0f);
  setActivation(n, [&](Value x) { return swishOf(n, x, alpha); });
}

/// Swish(A) * B, where A and B have one shape (no broadcasting).
void swiGLU(NodeContext &n) {
  n.checkAttrs({"alpha"});
  double alpha = n.floatAttr("alpha", 1.0f);
  Value gate = n.input(0), linear = n.input(1);
  if (NodeContext::typeOf(gate) != NodeContext::typeOf(linear))
    n.fail("its inputs A and B differ in shape or type (SwiGLU does not "
           "broadcast)");
  Type t = computeTypeFor(n, NodeContext::elementTypeOf(gate));
  n.setOutput(
      0, inComputeType(n, gate, [&](Value a) {
        return n.create<tcc::MulOp>({swishOf(n, a, alpha), n.cast(linear, t)});
      }));
}

void gelu(NodeContext &n) {
  n.checkAttrs({"approximate"});
  std::string approx = n.stringAttr("approximate", "none");
  if (approx != "none" && approx != "tanh")
    n.fail("approximate '" + approx + "' is not 'none' or 'tanh'");
  n.setOutput(
      0,
      n.create<tcc::GeluOp>(
          n.input(0),
          {n.namedAttr("approximate",
                       tcc::GeluApproximationAttr::get(
                           n.context(), approx == "tanh"
                                            ? tcc::GeluApproximation::tanh
                                            : tcc::GeluApproximation::none))}));
}

void thresholdedRelu(NodeContext &n) {
  n.checkAttrs({"alpha"});
  double alpha = n.floatAttr("alpha", 1.0f);
  setActivation(n, [&](Value x) {
    return n.create<tcc::SelectOp>(
        {n.create<tcc::GtOp>({x, scalarLike(n, x, alpha)}), x,
         scalarLike(n, x, 0.0)});
  });
}

void shrink(NodeContext &n) {
  n.checkAttrs({"bias", "lambd"});
  double bias = n.floatAttr("bias", 0.0f), lambd = n.floatAttr("lambd", 0.5f);
  setActivation(n, [&](Value x) {
    Value below = n.create<tcc::LtOp>({x, scalarLike(n, x, -lambd)});
    Value above = n.create<tcc::GtOp>({x, scalarLike(n, x, lambd)});
    Value y = n.create<tcc::SelectOp>(
        {above, n.create<tcc::SubOp>({x, scalarLike(n, x, bias)}),
         scalarLike(n, x, 0.0)});
    return n.create<tcc::SelectOp>(
        {below, n.create<tcc::AddOp>({x, scalarLike(n, x, bias)}), y});
  });
}

// --- Float classes -----------------------------------------------------------

void isNaN(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  n.setOutput(0, n.create<tcc::NeOp>({x, x}));
}

void isInf(NodeContext &n) {
  n.checkAttrs({"detect_negative", "detect_positive"});
  Value x = n.input(0);
  bool neg = n.intAttr("detect_negative", 1),
       pos = n.intAttr("detect_positive", 1);
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

/// Floor division moved up by one where it rounded a negative inexact
/// quotient down.
Value mlir::tcc::onnx::truncatingDivide(NodeContext &n, Value a, Value b) {
  Value q = n.create<tcc::FloorDivideOp>({a, b});
  if (cast<IntegerType>(NodeContext::elementTypeOf(a)).isUnsigned())
    return q;
  Value inexact = n.create<tcc::NeOp>(
      {n.create<tcc::RemainderOp>({a, b}), scalarLike(n, a, 0.0)});
  Value up = n.create<tcc::LogicalAndOp>({inexact, signsDiffer(n, a, b)});
  return n.create<tcc::SelectOp>(
      {up, n.create<tcc::AddOp>({q, scalarLike(n, q, 1.0)}), q});
}

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
  t.add("IsNaN", 1, isNaN);
  t.add("IsInf", 1, isInf);

  t.add("Add", 1, binary<tcc::AddOp>);
  t.add("Sub", 1, binary<tcc::SubOp>);
  t.add("Mul", 1, binary<tcc::MulOp>);
  t.add("Div", 1, div);
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
  t.add("BitCast", 1, bitCast);

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
  t.add("Swish", 1, swish);
  t.add("SwiGLU", 1, swiGLU);

  t.add("BitwiseNot", 1, bitwiseNot);
  t.add("BitwiseAnd", 1, bitwise<BitOp::And>);
  t.add("BitwiseOr", 1, bitwise<BitOp::Or>);
  t.add("BitwiseXor", 1, bitwise<BitOp::Xor>);
  t.add("BitShift", 1, bitShift);
}
