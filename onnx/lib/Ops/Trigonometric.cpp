//===- Trigonometric.cpp - ONNX trigonometric and hyperbolic ops ----------===//
//
// Tan, Sinh, Cosh and the inverse functions, which tcc has no op for,
// composed from tcc ops. Atan is Cephes' rational approximation after
// reduction to [0, 0.66] (within an ulp of libm in f32 and f64); the other
// inverses are written through atan, log1p and sqrt in forms that keep
// relative accuracy near 0 and near the ends of their domains.
//
//===----------------------------------------------------------------------===//

#include "ComputeType.h"
#include "NodeContext.h"
#include "OpTable.h"

#include "tcc/IR/TccOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kLn2 = 0.69314718055994530942;
/// Above this, asinh(x) and acosh(x) are log(2x) to double precision, and
/// x * x may overflow.
constexpr double kLargeArgument = 268435456.0; // 2^28

/// Builds tcc ops on values of one float type.
struct Math {
  NodeContext &n;
  Type type;

  Value c(double v) { return n.scalar(v, type); }
  Value add(Value a, Value b) { return n.create<tcc::AddOp>({a, b}); }
  Value sub(Value a, Value b) { return n.create<tcc::SubOp>({a, b}); }
  Value mul(Value a, Value b) { return n.create<tcc::MulOp>({a, b}); }
  Value div(Value a, Value b) { return n.create<tcc::DivOp>({a, b}); }
  Value neg(Value a) { return n.create<tcc::NegOp>(a); }
  Value abs(Value a) { return n.create<tcc::AbsOp>(a); }
  Value sqrt(Value a) { return n.create<tcc::SqrtOp>(a); }
  Value exp(Value a) { return n.create<tcc::ExpOp>(a); }
  Value log(Value a) { return n.create<tcc::LogOp>(a); }
  Value log1p(Value a) { return n.create<tcc::Log1pOp>(a); }
  Value lt(Value a, Value b) { return n.create<tcc::LtOp>({a, b}); }
  Value gt(Value a, Value b) { return n.create<tcc::GtOp>({a, b}); }
  Value eq(Value a, Value b) { return n.create<tcc::EqOp>({a, b}); }
  Value select(Value cond, Value a, Value b) {
    return n.create<tcc::SelectOp>({cond, a, b});
  }
  /// c[0] z^k + ... + c[k], by Horner's rule.
  Value polynomial(Value z, std::initializer_list<double> coefficients) {
    Value acc;
    for (double k : coefficients)
      acc = acc ? add(mul(acc, z), c(k)) : c(k);
    return acc;
  }

  /// f(|x|) with x's sign; ±0 stays itself. For odd functions.
  template <class F> Value odd(Value x, F f) {
    Value zero = c(0.0);
    Value y = f(abs(x));
    return select(eq(x, zero), x, select(lt(x, zero), neg(y), y));
  }

  /// atan(a) for a >= 0 (NaN stays NaN, +inf gives pi/2): Cephes' atan.c.
  Value atanNonNegative(Value a) {
    constexpr double kTan3PiOver8 = 2.41421356237309504880;
    Value big = gt(a, c(kTan3PiOver8));
    Value mid = gt(a, c(0.66));
    // Both branches are computed; the selects discard the division by
    // zero (and inf / inf) of the branch not taken.
    Value r = select(big, div(c(-1.0), a),
                     select(mid, div(sub(a, c(1.0)), add(a, c(1.0))), a));
    Value offset = select(big, c(kPi / 2), select(mid, c(kPi / 4), c(0.0)));
    Value z = mul(r, r);
    Value p =
        polynomial(z, {-8.750608600031904122785E-1, -1.615753718733365076637E1,
                       -7.500855792314704667340E1, -1.228866684490136173410E2,
                       -6.485021904942025371773E1});
    Value q =
        polynomial(z, {1.0, 2.485846490142306297962E1,
                       1.650270098316988542046E2, 4.328810604912902668951E2,
                       4.853903996359136964868E2, 1.945506571482613964425E2});
    return add(offset, add(mul(r, div(mul(z, p), q)), r));
  }
  Value atan(Value x) {
    return odd(x, [&](Value a) { return atanNonNegative(a); });
  }
  /// atan(x / sqrt(1 - x^2)), with 1 - x^2 as (1 - x)(1 + x) to keep its
  /// digits near |x| = 1; |x| > 1 gives NaN through the square root.
  Value asin(Value x) {
    return atan(div(x, sqrt(mul(sub(c(1.0), x), add(c(1.0), x)))));
  }
  /// 2 atan(sqrt((1 - x) / (1 + x))): accurate near x = 1, where acos is
  /// small (pi/2 - asin(x) would cancel).
  Value acos(Value x) {
    return mul(c(2.0),
               atanNonNegative(sqrt(div(sub(c(1.0), x), add(c(1.0), x)))));
  }
  /// log(a + sqrt(a^2 + 1)) as log1p(a + a^2 / (1 + sqrt(1 + a^2))), exact
  /// near 0; log(a) + log 2 for large a.
  Value asinh(Value x) {
    return odd(x, [&](Value a) {
      Value a2 = mul(a, a);
      Value small = log1p(add(a, div(a2, add(c(1.0), sqrt(add(c(1.0), a2))))));
      return select(gt(a, c(kLargeArgument)), add(log(a), c(kLn2)), small);
    });
  }
  /// log(x + sqrt(x^2 - 1)) as log1p(t + sqrt(t (x + 1))), t = x - 1,
  /// exact near 1; log(x) + log 2 for large x; NaN below 1 (where
  /// t (x + 1) is positive again for x < -1).
  Value acosh(Value x) {
    Value t = sub(x, c(1.0));
    Value near = log1p(add(t, sqrt(mul(t, add(x, c(1.0))))));
    Value y = select(gt(x, c(kLargeArgument)), add(log(x), c(kLn2)), near);
    return select(lt(x, c(1.0)), c(std::nan("")), y);
  }
  /// log((1 + a) / (1 - a)) / 2 as log1p(2a / (1 - a)) / 2.
  Value atanh(Value x) {
    return odd(x, [&](Value a) {
      return mul(c(0.5), log1p(div(mul(c(2.0), a), sub(c(1.0), a))));
    });
  }
  Value tan(Value x) {
    return div(n.create<tcc::SinOp>(x), n.create<tcc::CosOp>(x));
  }
  /// e^|x| / 2 for |x| > 20, where e^-|x| is below the last digit of
  /// e^|x| (f64 too): as (e^(|x|/2) / 2) e^(|x|/2), finite as long as
  /// the result is (e^|x| alone overflows first).
  Value halfExpAbs(Value x) {
    Value e = exp(mul(abs(x), c(0.5)));
    return mul(mul(e, c(0.5)), e);
  }
  Value cosh(Value x) {
    Value small = mul(c(0.5), add(exp(x), exp(neg(x))));
    return select(gt(abs(x), c(20.0)), halfExpAbs(x), small);
  }
  /// (e^x - e^-x) / 2 cancels for small |x|; there, 2t / (1 - t^2) with
  /// t = tanh(x / 2) keeps the digits.
  Value sinh(Value x) {
    Value t = n.create<tcc::TanhOp>(mul(x, c(0.5)));
    Value small = div(mul(c(2.0), t), sub(c(1.0), mul(t, t)));
    Value medium = mul(c(0.5), sub(exp(x), exp(neg(x))));
    Value large = halfExpAbs(x);
    large = select(lt(x, c(0.0)), neg(large), large);
    return select(lt(abs(x), c(1.0)), small,
                  select(gt(abs(x), c(20.0)), large, medium));
  }
};

/// Applies `Fn` to input 0, in f32 for f16 and bf16.
template <Value (Math::*Fn)(Value)> void unaryMath(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  Type t = NodeContext::elementTypeOf(x);
  if (!isa<FloatType>(t))
    n.fail("it takes floats");
  Math math{n, computeTypeFor(n, t)};
  n.setOutput(0, inComputeType(n, x, [&](Value v) { return (math.*Fn)(v); }));
}

} // namespace

void mlir::tcc::onnx::registerTrigonometricOps(OpTable &t) {
  t.add("Tan", 1, unaryMath<&Math::tan>);
  t.add("Sinh", 1, unaryMath<&Math::sinh>);
  t.add("Cosh", 1, unaryMath<&Math::cosh>);
  t.add("Atan", 1, unaryMath<&Math::atan>);
  t.add("Asin", 1, unaryMath<&Math::asin>);
  t.add("Acos", 1, unaryMath<&Math::acos>);
  t.add("Asinh", 1, unaryMath<&Math::asinh>);
  t.add("Acosh", 1, unaryMath<&Math::acosh>);
  t.add("Atanh", 1, unaryMath<&Math::atanh>);
}
