//===- Elementwise.cpp - Unary, binary, comparison, logic, where, clamp ---===//
//
// The eager ops promote types before computing (PyTorch's rules); a trace
// mapping converts its operands to the dtype the eager kernel computed in
// (tcc.cast) and emits the same-typed tcc op, so the interpreter's eager
// call sees the operands the original call's kernel saw. Where an eager
// kernel computes in float for float16/bfloat16 (opmath) and rounds once,
// the mapping computes in f32 too, so the results stay bit-identical.
//
//===----------------------------------------------------------------------===//

#include "../Bridge.h"
#include "../ModuleState.h"
#include "../TraceContext.h"
#include "../Types.h"

#include "tcc/IR/TccOps.h"

#include <cmath>

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

bool isReducedFloat(ScalarType t) { return t == kHalf || t == kBFloat16; }

template <class OpTy> mlir::Value unary(TraceContext &c, mlir::Value v) {
  return c.create<OpTy>(v, {}, v.getType());
}

template <class OpTy>
mlir::Value binary(TraceContext &c, mlir::Value a, mlir::Value b) {
  return c.create<OpTy>(mlir::ValueRange{a, b});
}

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

Values traceWhere(TraceContext &c) {
  ScalarType t = c.output().dtype();
  return {c.create<SelectOp>(
      mlir::ValueRange{c.inAs(0, kBool), c.inAs(1, t), c.inAs(2, t)})};
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

// --- Interpreter helpers
// -------------------------------------------------------

std::optional<Scalar> boundOf(std::optional<llvm::APFloat> bound,
                              const Tensor &x) {
  if (!bound)
    return std::nullopt;
  double v = bound->convertToDouble();
  if (x.is_floating_point())
    return Scalar(v);
  return Scalar(int64_t(v));
}

/// Python's floor division and remainder, elementwise in the operands'
/// dtype (opmath f32 for f16/bf16), as PyTorch defines them. The eager
/// library has no op for them yet, so the interpreter computes them here.
template <class T> T floorDivide(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    if (b == 0)
      return a / b;
    T mod = std::fmod(a, b);
    T div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
      div -= T(1);
    if (div == 0)
      return std::copysign(T(0), a / b);
    T floored = std::floor(div);
    if (div - floored > T(0.5))
      floored += T(1);
    return floored;
  } else {
    if (b == 0)
      throw Error("ZeroDivisionError");
    if (b == -1) // min / -1 wraps, as two's complement arithmetic does
      return T(uint64_t(0) - uint64_t(a));
    T q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0)))
      --q;
    return q;
  }
}

template <class T> T remainderOf(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    T mod = std::fmod(a, b);
    if (mod != 0 && ((b < 0) != (mod < 0)))
      mod += b;
    return mod;
  } else {
    if (b == 0)
      throw Error("ZeroDivisionError");
    if (b == -1)
      return T(0);
    T mod = a % b;
    if (mod != 0 && ((b < 0) != (mod < 0)))
      mod += b;
    return mod;
  }
}

/// Runs `f` over a and b broadcast to `shape`, in compute type C (double for
/// f64, float for other floats, int64 for integers), giving `dtype`.
template <bool Remainder>
Tensor floorDivOrRemainder(const Tensor &a, const Tensor &b,
                           llvm::ArrayRef<int64_t> shapeRef, ScalarType dtype) {
  std::vector<int64_t> shape = shapeRef.vec();
  ScalarType compute = dtype == kDouble        ? kDouble
                       : isFloatingType(dtype) ? kFloat
                                               : kLong;
  Tensor x = a.to(compute).expand(shape).contiguous();
  Tensor y = b.to(compute).expand(shape).contiguous();
  Tensor out = empty(shape, TensorOptions().dtype(compute));
  int64_t n = out.numel();
  auto run = [&](auto tag) {
    using T = decltype(tag);
    const T *px = static_cast<const T *>(x.unsafeGetTensorImpl()->data());
    const T *py = static_cast<const T *>(y.unsafeGetTensorImpl()->data());
    T *po = static_cast<T *>(out.unsafeGetTensorImpl()->data());
    for (int64_t i = 0; i < n; ++i)
      po[i] = Remainder ? remainderOf<T>(px[i], py[i])
                        : floorDivide<T>(px[i], py[i]);
  };
  if (compute == kDouble)
    run(double());
  else if (compute == kFloat)
    run(float());
  else
    run(int64_t());
  return out.to(dtype);
}

ScalarType elementDtype(mlir::Value v) { return TraceContext::dtypeOf(v); }

} // namespace

void registerElementwiseBridge(BridgeRegistry &r) {
  // --- Unary ----------------------------------------------------------------
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

  // --- Binary ---------------------------------------------------------------
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

  // --- Interpreter
  // --------------------------------------------------------------
#define TCC_UNARY(OP, CALL)                                                    \
  r.interpret<OP>([](OP op, const InterpretContext &v) {                       \
    return CALL(v(op.getInput()));                                             \
  });
  TCC_UNARY(NegOp, tcc::neg)
  TCC_UNARY(AbsOp, tcc::abs)
  TCC_UNARY(ReluOp, tcc::relu)
  TCC_UNARY(SignOp, tcc::sign)
  TCC_UNARY(ExpOp, tcc::exp)
  TCC_UNARY(LogOp, tcc::log)
  TCC_UNARY(Log1pOp, tcc::log1p)
  TCC_UNARY(SqrtOp, tcc::sqrt)
  TCC_UNARY(RsqrtOp, tcc::rsqrt)
  TCC_UNARY(TanhOp, tcc::tanh)
  TCC_UNARY(SigmoidOp, tcc::sigmoid)
  TCC_UNARY(SiluOp, tcc::silu)
  TCC_UNARY(ErfOp, tcc::erf)
  TCC_UNARY(SinOp, tcc::sin)
  TCC_UNARY(CosOp, tcc::cos)
  TCC_UNARY(FloorOp, tcc::floor)
  TCC_UNARY(CeilOp, tcc::ceil)
  TCC_UNARY(RoundOp, tcc::round)
  TCC_UNARY(LogicalNotOp, tcc::logical_not)
#undef TCC_UNARY
  r.interpret<GeluOp>([](GeluOp op, const InterpretContext &v) {
    return tcc::gelu(v(op.getInput()),
                     op.getApproximate() == GeluApproximation::tanh ? "tanh"
                                                                    : "none");
  });
  r.interpret<ClampOp>([](ClampOp op, const InterpretContext &v) {
    Tensor x = v(op.getInput());
    return tcc::clamp(x, boundOf(op.getMin(), x), boundOf(op.getMax(), x));
  });
  r.interpret<DropoutOp>([](DropoutOp op, const InterpretContext &v) {
    // Traced graphs are inference graphs: dropout is the identity.
    return v(op.getInput());
  });

#define TCC_BINARY(OP, CALL)                                                   \
  r.interpret<OP>([](OP op, const InterpretContext &v) {                       \
    return CALL(v(op.getLhs()), v(op.getRhs()));                               \
  });
  TCC_BINARY(AddOp, tcc::add)
  TCC_BINARY(SubOp, tcc::sub)
  TCC_BINARY(MulOp, tcc::mul)
  TCC_BINARY(DivOp, tcc::div)
  TCC_BINARY(PowOp, tcc::pow)
  TCC_BINARY(MaximumOp, tcc::maximum)
  TCC_BINARY(MinimumOp, tcc::minimum)
  TCC_BINARY(EqOp, tcc::eq)
  TCC_BINARY(NeOp, tcc::ne)
  TCC_BINARY(LtOp, tcc::lt)
  TCC_BINARY(LeOp, tcc::le)
  TCC_BINARY(GtOp, tcc::gt)
  TCC_BINARY(GeOp, tcc::ge)
  TCC_BINARY(LogicalAndOp, tcc::logical_and)
  TCC_BINARY(LogicalOrOp, tcc::logical_or)
  TCC_BINARY(LogicalXorOp, tcc::logical_xor)
#undef TCC_BINARY
  r.interpret<FloorDivideOp>([](FloorDivideOp op, const InterpretContext &v) {
    return floorDivOrRemainder<false>(v(op.getLhs()), v(op.getRhs()),
                                      op.getType().getShape(),
                                      elementDtype(op.getResult()));
  });
  r.interpret<RemainderOp>([](RemainderOp op, const InterpretContext &v) {
    return floorDivOrRemainder<true>(v(op.getLhs()), v(op.getRhs()),
                                     op.getType().getShape(),
                                     elementDtype(op.getResult()));
  });
  r.interpret<SelectOp>([](SelectOp op, const InterpretContext &v) {
    return tcc::where(v(op.getCondition()), v(op.getTrueValue()),
                      v(op.getFalseValue()));
  });
}

} // namespace jit
} // namespace tcc
