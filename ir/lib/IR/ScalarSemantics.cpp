//===- ScalarSemantics.cpp - Pointwise tcc ops as scalar functions --------===//

#include "tcc/IR/ScalarSemantics.h"

#include "tcc/IR/TccOps.h"
#include "tcc/runtime/ScalarOps.h"

#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <type_traits>

using namespace mlir;
using namespace mlir::tcc;
namespace ops = ::tcc::scalar;

std::optional<IntElement> mlir::tcc::intElementOf(Type type) {
  auto integer = dyn_cast<IntegerType>(type);
  if (!integer || integer.getWidth() > 64 ||
      (integer.isUnsigned() && integer.getWidth() == 64))
    return std::nullopt;
  return IntElement{integer.getWidth(),
                    integer.isUnsigned() || integer.getWidth() == 1};
}

namespace {

using Factory = std::function<ScalarFunctions(Operation *)>;
using IntResult = std::optional<int64_t>;

/// Runs a generic integer function on the signed or unsigned 64-bit form.
template <class Fn> IntResult onInt(int64_t x, IntElement e, Fn fn) {
  if (e.isUnsigned)
    return IntResult(int64_t(fn(uint64_t(x))));
  return IntResult(int64_t(fn(x)));
}
template <class Fn>
IntResult onInts(int64_t a, int64_t b, IntElement e, Fn fn) {
  if (e.isUnsigned) {
    auto r = fn(uint64_t(a), uint64_t(b));
    if constexpr (std::is_same_v<decltype(r), std::optional<uint64_t>>)
      return r ? IntResult(int64_t(*r)) : std::nullopt;
    else
      return int64_t(r);
  }
  auto r = fn(a, b);
  if constexpr (std::is_same_v<decltype(r), std::optional<int64_t>>)
    return r;
  else
    return int64_t(r);
}

// The entries: one generic lambda per op names the function of ScalarOps.h
// for floats and integers alike.
#define TCC_FLOAT_UNARY(FN)                                                    \
  [](double x) { return ops::FN<double>(x); }
#define TCC_INT_UNARY(FN)                                                      \
  [](int64_t x, IntElement e) {                                                \
    return onInt(x, e, [](auto v) { return ops::FN(v); });                     \
  }
// Float remainder and floor division return an optional that always holds
// a value (only integer division by zero has none); comparisons give bool.
#define TCC_FLOAT_BINARY(FN)                                                   \
  [](double a, double b) { return double(*std::optional(ops::FN(a, b))); }
#define TCC_INT_BINARY(FN)                                                     \
  [](int64_t a, int64_t b, IntElement e) {                                     \
    return onInts(a, b, e, [](auto x, auto y) { return ops::FN(x, y); });      \
  }

ScalarFunctions floatUnary(std::function<double(double)> fn) {
  return {std::move(fn), nullptr, nullptr, nullptr};
}

/// clamp's bounds come from its attributes; an integer result outside the
/// type (a bound beyond its range) has no exact meaning.
ScalarFunctions clampFunctions(ClampOp clamp) {
  std::optional<double> lo, hi;
  if (clamp.getMin())
    lo = clamp.getMin()->convertToDouble();
  if (clamp.getMax())
    hi = clamp.getMax()->convertToDouble();
  auto onFloat = [lo, hi](double x) { return ops::clamp(x, lo, hi); };
  auto onInt = [onFloat](int64_t x, IntElement e) -> IntResult {
    double v = e.isUnsigned ? double(uint64_t(x)) : double(x);
    if (std::fabs(v) >= 0x1p53) // exact in double only below 2^53
      return std::nullopt;
    double r = onFloat(v);
    double limit = std::ldexp(1.0, int(e.width) - (e.isUnsigned ? 0 : 1));
    if (!(r >= (e.isUnsigned ? 0.0 : -limit) && r < limit))
      return std::nullopt;
    return int64_t(r);
  };
  return {onFloat, onInt, nullptr, nullptr};
}

const llvm::DenseMap<TypeID, Factory> &table() {
  static const llvm::DenseMap<TypeID, Factory> entries = [] {
    llvm::DenseMap<TypeID, Factory> t;
    auto fixed = [&](TypeID id, ScalarFunctions fns) {
      t[id] = [fns](Operation *) { return fns; };
    };
    auto numericUnary = [](auto floatFn, auto intFn) {
      return ScalarFunctions{floatFn, intFn, nullptr, nullptr};
    };
    auto numericBinary = [](auto floatFn, auto intFn) {
      return ScalarFunctions{nullptr, nullptr, floatFn, intFn};
    };
    auto floatBinary = [](auto floatFn) {
      return ScalarFunctions{nullptr, nullptr, floatFn, nullptr};
    };
    auto intBinary = [](auto intFn) {
      return ScalarFunctions{nullptr, nullptr, nullptr, intFn};
    };

    // Unary
    fixed(TypeID::get<NegOp>(),
          numericUnary(TCC_FLOAT_UNARY(neg), TCC_INT_UNARY(neg)));
    fixed(TypeID::get<AbsOp>(),
          numericUnary(TCC_FLOAT_UNARY(abs), TCC_INT_UNARY(abs)));
    fixed(TypeID::get<ReluOp>(),
          numericUnary(TCC_FLOAT_UNARY(relu), TCC_INT_UNARY(relu)));
    fixed(TypeID::get<SignOp>(),
          numericUnary(TCC_FLOAT_UNARY(sign), TCC_INT_UNARY(sign)));
    fixed(TypeID::get<LogicalNotOp>(),
          ScalarFunctions{nullptr, TCC_INT_UNARY(logicalNot), nullptr,
                          nullptr});
    fixed(TypeID::get<ExpOp>(), floatUnary(TCC_FLOAT_UNARY(exp)));
    fixed(TypeID::get<LogOp>(), floatUnary(TCC_FLOAT_UNARY(log)));
    fixed(TypeID::get<Log1pOp>(), floatUnary(TCC_FLOAT_UNARY(log1p)));
    fixed(TypeID::get<SqrtOp>(), floatUnary(TCC_FLOAT_UNARY(sqrt)));
    fixed(TypeID::get<RsqrtOp>(), floatUnary(TCC_FLOAT_UNARY(rsqrt)));
    fixed(TypeID::get<TanhOp>(), floatUnary(TCC_FLOAT_UNARY(tanh)));
    fixed(TypeID::get<SigmoidOp>(), floatUnary(TCC_FLOAT_UNARY(sigmoid)));
    fixed(TypeID::get<SiluOp>(), floatUnary(TCC_FLOAT_UNARY(silu)));
    fixed(TypeID::get<ErfOp>(), floatUnary(TCC_FLOAT_UNARY(erf)));
    fixed(TypeID::get<SinOp>(), floatUnary(TCC_FLOAT_UNARY(sin)));
    fixed(TypeID::get<CosOp>(), floatUnary(TCC_FLOAT_UNARY(cos)));
    fixed(TypeID::get<FloorOp>(), floatUnary(TCC_FLOAT_UNARY(floor)));
    fixed(TypeID::get<CeilOp>(), floatUnary(TCC_FLOAT_UNARY(ceil)));
    fixed(TypeID::get<RoundOp>(), floatUnary(TCC_FLOAT_UNARY(round)));
    fixed(TypeID::get<DropoutOp>(), // the identity at inference
          numericUnary([](double x) { return x; },
                       [](int64_t x, IntElement) { return IntResult(x); }));
    t[TypeID::get<GeluOp>()] = [](Operation *op) {
      if (cast<GeluOp>(op).getApproximate() == GeluApproximation::tanh)
        return floatUnary(TCC_FLOAT_UNARY(geluTanh));
      return floatUnary(TCC_FLOAT_UNARY(gelu));
    };
    t[TypeID::get<ClampOp>()] = [](Operation *op) {
      return clampFunctions(cast<ClampOp>(op));
    };

    // Binary
    fixed(TypeID::get<AddOp>(),
          numericBinary(TCC_FLOAT_BINARY(add), TCC_INT_BINARY(add)));
    fixed(TypeID::get<SubOp>(),
          numericBinary(TCC_FLOAT_BINARY(sub), TCC_INT_BINARY(sub)));
    fixed(TypeID::get<MulOp>(),
          numericBinary(TCC_FLOAT_BINARY(mul), TCC_INT_BINARY(mul)));
    fixed(TypeID::get<DivOp>(), floatBinary(TCC_FLOAT_BINARY(div)));
    // Integer pow is left to the kernels: PyTorch raises for negative
    // exponents, which no folded constant can do.
    fixed(TypeID::get<PowOp>(), floatBinary(TCC_FLOAT_BINARY(pow)));
    fixed(TypeID::get<MaximumOp>(),
          numericBinary(TCC_FLOAT_BINARY(maximum), TCC_INT_BINARY(maximum)));
    fixed(TypeID::get<MinimumOp>(),
          numericBinary(TCC_FLOAT_BINARY(minimum), TCC_INT_BINARY(minimum)));
    fixed(TypeID::get<RemainderOp>(),
          numericBinary(TCC_FLOAT_BINARY(remainder),
                        TCC_INT_BINARY(remainder)));
    fixed(TypeID::get<FloorDivideOp>(),
          numericBinary(TCC_FLOAT_BINARY(floorDivide),
                        TCC_INT_BINARY(floorDivide)));
    fixed(TypeID::get<EqOp>(),
          numericBinary(TCC_FLOAT_BINARY(eq), TCC_INT_BINARY(eq)));
    fixed(TypeID::get<NeOp>(),
          numericBinary(TCC_FLOAT_BINARY(ne), TCC_INT_BINARY(ne)));
    fixed(TypeID::get<LtOp>(),
          numericBinary(TCC_FLOAT_BINARY(lt), TCC_INT_BINARY(lt)));
    fixed(TypeID::get<LeOp>(),
          numericBinary(TCC_FLOAT_BINARY(le), TCC_INT_BINARY(le)));
    fixed(TypeID::get<GtOp>(),
          numericBinary(TCC_FLOAT_BINARY(gt), TCC_INT_BINARY(gt)));
    fixed(TypeID::get<GeOp>(),
          numericBinary(TCC_FLOAT_BINARY(ge), TCC_INT_BINARY(ge)));
    fixed(TypeID::get<LogicalAndOp>(), intBinary(TCC_INT_BINARY(logicalAnd)));
    fixed(TypeID::get<LogicalOrOp>(), intBinary(TCC_INT_BINARY(logicalOr)));
    fixed(TypeID::get<LogicalXorOp>(), intBinary(TCC_INT_BINARY(logicalXor)));
    return t;
  }();
  return entries;
}

#undef TCC_FLOAT_UNARY
#undef TCC_INT_UNARY
#undef TCC_FLOAT_BINARY
#undef TCC_INT_BINARY

} // namespace

std::optional<ScalarFunctions> mlir::tcc::scalarFunctions(Operation *op) {
  auto it = table().find(op->getName().getTypeID());
  if (it == table().end())
    return std::nullopt;
  return it->second(op);
}

bool mlir::tcc::hasScalarFunctions(OperationName name) {
  return table().count(name.getTypeID()) != 0;
}

ArrayRef<NonScalarPointwiseOp> mlir::tcc::nonScalarPointwiseOps() {
  static const NonScalarPointwiseOp ops[] = {
      {"tcc.select", "chooses one of two operands by a condition: it moves "
                     "values and computes none"},
      {"tcc.cast", "converts between two element types, so it is no function "
                   "on one type; ScalarOps.h's toBool and floatToInteger "
                   "define its rules and the folders call them"},
      {"tcc.bitcast", "reads each element's bits as another type of one "
                      "width, so it is no function on one type; the folder "
                      "and arith.bitcast keep the bits"},
  };
  return ops;
}
