//===- ApproximateF64.cpp - f64 math without libm -------------------------===//
//
// MLIR's polynomial approximations cover f32 (and f16/bf16 through f32);
// an f64 math.exp would become a call of libm's `exp`, which kernels cannot
// import. These patterns expand the f64 transcendentals the lowering emits
// into arith ops: range reduction, then Taylor polynomials of high enough
// degree that truncation is below 1e-17, evaluated with Horner's rule.
//
// Measured against 40-digit references (mpmath) on random inputs:
//   exp  <= 1 ulp      (results below 2^-1022 lose precision gradually)
//   log  <= 2 ulp
//   erf  <= 5 ulp      (Maclaurin series below 2, Laplace's continued
//                       fraction for erfc up to 6, +-1 beyond)
//   log1p, tanh: a few ulp (built on log and expm1).
// sin and cos hold for every finite double: Cody-Waite reduction below 2^17,
// Payne-Hanek above (reduceLarge); MathAccuracyTest sweeps the whole domain
// for f64 and f32 (which uses the f64 expansion, see F32SinCosThroughF64)
// and docs/reliability.md states the bounds.
//
//===----------------------------------------------------------------------===//

#include "MathApproximations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/PatternMatch.h"

#include <cmath>
#include <iterator>

using namespace mlir;

namespace {

/// Scalar f64 arithmetic with short names.
struct F64 {
  OpBuilder &b;
  Location loc;

  Type f64() { return b.getF64Type(); }
  Type i64() { return b.getI64Type(); }
  Value c(double v) {
    return b.create<arith::ConstantOp>(loc, b.getF64FloatAttr(v));
  }
  Value ci(int64_t v) {
    return b.create<arith::ConstantOp>(loc, b.getI64IntegerAttr(v));
  }
  Value add(Value x, Value y) { return b.create<arith::AddFOp>(loc, x, y); }
  Value sub(Value x, Value y) { return b.create<arith::SubFOp>(loc, x, y); }
  Value mul(Value x, Value y) { return b.create<arith::MulFOp>(loc, x, y); }
  Value div(Value x, Value y) { return b.create<arith::DivFOp>(loc, x, y); }
  Value neg(Value x) { return b.create<arith::NegFOp>(loc, x); }
  Value abs(Value x) { return b.create<math::AbsFOp>(loc, x); }
  Value copysign(Value x, Value sign) {
    return b.create<math::CopySignOp>(loc, x, sign);
  }
  Value cmp(arith::CmpFPredicate p, Value x, Value y) {
    return b.create<arith::CmpFOp>(loc, p, x, y);
  }
  Value select(Value cond, Value x, Value y) {
    return b.create<arith::SelectOp>(loc, cond, x, y);
  }
  Value bits(Value x) { return b.create<arith::BitcastOp>(loc, i64(), x); }
  Value fromBits(Value x) { return b.create<arith::BitcastOp>(loc, f64(), x); }
  Value isNan(Value x) { return cmp(arith::CmpFPredicate::UNO, x, x); }

  /// Round to nearest even for |x| < 2^51 without SSE4.1's roundsd.
  Value roundEven(Value x) {
    Value magic = c(0x1.8p52);
    return sub(add(x, magic), magic);
  }
  /// Horner's rule: coeffs[0] + z * (coeffs[1] + z * (...)).
  Value polynomial(Value z, ArrayRef<double> coeffs) {
    Value p = c(coeffs.back());
    for (int64_t i = coeffs.size() - 2; i >= 0; --i)
      p = add(mul(p, z), c(coeffs[i]));
    return p;
  }
  /// 2^k for an integral f64 k in [-1022, 1023].
  Value exp2Int(Value k) {
    Value biased = b.create<arith::AddIOp>(
        loc, b.create<arith::FPToSIOp>(loc, i64(), k), ci(1023));
    return fromBits(b.create<arith::ShLIOp>(loc, biased, ci(52)));
  }
};

/// Taylor coefficients 1/i! for i in [0, n].
SmallVector<double> expCoefficients(int n) {
  SmallVector<double> coeffs;
  double factorial = 1;
  for (int i = 0; i <= n; ++i) {
    if (i > 0)
      factorial *= i;
    coeffs.push_back(1.0 / factorial);
  }
  return coeffs;
}

const double kLn2Hi = 0x1.62e42fee00000p-1; // low bits zero: k * hi is exact
const double kLn2Lo = 0x1.a39ef35793c76p-33;

/// exp(x) = 2^k * e^r with k = round(x / ln 2), |r| <= ln(2) / 2.
Value buildExp(F64 &f, Value x) {
  using P = arith::CmpFPredicate;
  Value clamped = f.select(f.cmp(P::OGT, x, f.c(710.0)), f.c(710.0), x);
  clamped = f.select(f.cmp(P::OLT, clamped, f.c(-746.0)), f.c(-746.0), clamped);
  Value k = f.roundEven(f.mul(clamped, f.c(1.4426950408889634)));
  Value r = f.sub(f.sub(clamped, f.mul(k, f.c(kLn2Hi))), f.mul(k, f.c(kLn2Lo)));
  Value p = f.polynomial(r, expCoefficients(13));
  // 2^k as two factors so that subnormal and overflowing results round once
  // the way a multiplication does.
  Value k1 = f.roundEven(f.mul(k, f.c(0.5)));
  Value k2 = f.sub(k, k1);
  Value result = f.mul(f.mul(p, f.exp2Int(k1)), f.exp2Int(k2));
  result =
      f.select(f.cmp(P::OGT, x, f.c(709.782712893384)), f.c(INFINITY), result);
  result =
      f.select(f.cmp(P::OLT, x, f.c(-745.1332191019412)), f.c(0.0), result);
  return f.select(f.isNan(x), x, result);
}

/// expm1(x): a Taylor polynomial for |x| < 0.5 (no cancellation), else
/// exp(x) - 1.
Value buildExpm1(F64 &f, Value x) {
  SmallVector<double> coeffs = expCoefficients(17);
  coeffs.erase(coeffs.begin()); // (e^x - 1) / x = sum x^(i-1) / i!
  Value small = f.mul(x, f.polynomial(x, coeffs));
  Value large = f.sub(buildExp(f, x), f.c(1.0));
  return f.select(f.cmp(arith::CmpFPredicate::OLT, f.abs(x), f.c(0.5)), small,
                  large);
}

/// log(x) = e * ln 2 + log(m), m in [sqrt(1/2), sqrt(2)), with
/// log(m) = 2 atanh(s), s = (m - 1) / (m + 1), |s| < 0.172.
Value buildLog(F64 &f, Value x) {
  using P = arith::CmpFPredicate;
  OpBuilder &b = f.b;
  Location loc = f.loc;
  // Subnormals: scale into the normal range first.
  Value subnormal = f.cmp(P::OLT, x, f.c(0x1p-1022));
  Value scaled = f.select(subnormal, f.mul(x, f.c(0x1p54)), x);
  Value bias = f.select(subnormal, f.c(-54.0 - 1023.0), f.c(-1023.0));
  Value bitsX = f.bits(scaled);
  Value exponentBits = b.create<arith::AndIOp>(
      loc, b.create<arith::ShRUIOp>(loc, bitsX, f.ci(52)), f.ci(0x7ff));
  Value e = f.add(b.create<arith::SIToFPOp>(loc, f.f64(), exponentBits), bias);
  Value m = f.fromBits(b.create<arith::OrIOp>(
      loc, b.create<arith::AndIOp>(loc, bitsX, f.ci((int64_t(1) << 52) - 1)),
      f.ci(int64_t(1023) << 52)));
  Value large = f.cmp(P::OGT, m, f.c(M_SQRT2));
  m = f.select(large, f.mul(m, f.c(0.5)), m);
  e = f.select(large, f.add(e, f.c(1.0)), e);
  Value g = f.sub(m, f.c(1.0));
  Value s = f.div(g, f.add(g, f.c(2.0)));
  Value z = f.mul(s, s);
  SmallVector<double> coeffs; // 2 / (2n + 1), n >= 1
  for (int n = 1; n <= 12; ++n)
    coeffs.push_back(2.0 / (2 * n + 1));
  Value logM =
      f.add(f.mul(s, f.c(2.0)), f.mul(f.mul(s, z), f.polynomial(z, coeffs)));
  Value result =
      f.add(f.mul(e, f.c(kLn2Hi)), f.add(logM, f.mul(e, f.c(kLn2Lo))));
  result = f.select(f.cmp(P::OEQ, x, f.c(INFINITY)), x, result);
  result = f.select(f.cmp(P::OEQ, x, f.c(0.0)), f.c(-INFINITY), result);
  return f.select(f.cmp(P::ULT, x, f.c(0.0)), f.c(NAN), result); // NaN too
}

/// log1p(x) = log(u) * x / (u - 1) with u = 1 + x (Goldberg): the rounding
/// error of u cancels.
Value buildLog1p(F64 &f, Value x) {
  using P = arith::CmpFPredicate;
  Value u = f.add(x, f.c(1.0));
  Value corrected = f.mul(buildLog(f, u), f.div(x, f.sub(u, f.c(1.0))));
  Value result = f.select(f.cmp(P::OEQ, u, f.c(1.0)), x, corrected);
  return f.select(f.cmp(P::OEQ, x, f.c(INFINITY)), x, result);
}

/// tanh(x) = -t / (2 + t) with t = expm1(-2|x|), signed like x; +-1 past 22.
Value buildTanh(F64 &f, Value x) {
  Value a = f.abs(x);
  Value t = buildExpm1(f, f.mul(a, f.c(-2.0)));
  Value magnitude = f.div(f.neg(t), f.add(t, f.c(2.0)));
  magnitude = f.select(f.cmp(arith::CmpFPredicate::OGT, a, f.c(22.0)), f.c(1.0),
                       magnitude);
  return f.copysign(magnitude, x); // NaN stays NaN
}

/// erf: 2/sqrt(pi) * sum (-1)^n x^(2n+1) / (n! (2n+1)) below 2; above,
/// 1 - erfc with erfc(x) = exp(-x^2) / sqrt(pi) / K, where K is Laplace's
/// continued fraction x + (1/2) / (x + 1 / (x + (3/2) / (x + ...))) cut
/// after 50 terms; +-1 from 6 on (erfc(6) < 2^-54).
Value buildErf(F64 &f, Value x) {
  using P = arith::CmpFPredicate;
  Value a = f.abs(x);
  SmallVector<double> coeffs;
  double factorial = 1;
  for (int n = 0; n <= 34; ++n) {
    if (n > 0)
      factorial *= n;
    coeffs.push_back(2.0 / std::sqrt(M_PI) * (n % 2 ? -1.0 : 1.0) /
                     (factorial * (2 * n + 1)));
  }
  Value series = f.mul(a, f.polynomial(f.mul(a, a), coeffs));
  // The fraction on [2, 6] (a clamped there so it stays finite).
  Value t = f.select(f.cmp(P::OLT, a, f.c(2.0)), f.c(2.0), a);
  t = f.select(f.cmp(P::OGT, t, f.c(6.0)), f.c(6.0), t);
  Value k = t;
  for (int n = 50; n >= 1; --n)
    k = f.add(t, f.div(f.c(n / 2.0), k));
  Value erfc =
      f.div(buildExp(f, f.neg(f.mul(t, t))), f.mul(k, f.c(std::sqrt(M_PI))));
  Value tail = f.sub(f.c(1.0), erfc);
  Value magnitude = f.select(f.cmp(P::OLT, a, f.c(2.0)), series, tail);
  magnitude = f.select(f.cmp(P::OGE, a, f.c(6.0)), f.c(1.0), magnitude);
  magnitude = f.select(f.isNan(x), x, magnitude);
  return f.copysign(magnitude, x);
}

/// The first 1216 bits of 2/pi after the binary point, 32 to a word, most
/// significant first (computed with integer arithmetic from Machin's formula
/// for pi): the largest double's window in reduceLarge ends at bit 1161.
const uint32_t kTwoOverPiBits[] = {
    0xA2F9836E, 0x4E441529, 0xFC2757D1, 0xF534DDC0, 0xDB629599, 0x3C439041,
    0xFE5163AB, 0xDEBBC561, 0xB7246E3A, 0x424DD2E0, 0x06492EEA, 0x09D1921C,
    0xFE1DEB1C, 0xB129A73E, 0xE88235F5, 0x2EBB4484, 0xE99C7026, 0xB45F7E41,
    0x3991D639, 0x835339F4, 0x9C845F8B, 0xBDF9283B, 0x1FF897FF, 0xDE05980F,
    0xEF2F118B, 0x5A0A6D1F, 0x6D367ECF, 0x27CB09B7, 0x4F463F66, 0x9E5FEA2D,
    0x7527BAC7, 0xEBE5F17B, 0x3D0739F7, 0x8A5292EA, 0x6BFB5FB1, 0x1F8D5D08,
    0x56033046, 0xFC7B6BAB,
};

/// 64 bits of the table from word j on, with two zero words in front (the
/// bits of weight 2^0 and above that a small exponent would ask for).
uint64_t twoOverPiPair(int64_t j) {
  auto word = [](int64_t w) -> uint64_t {
    int64_t n = std::size(kTwoOverPiBits);
    return w < 2 || w - 2 >= n ? 0 : kTwoOverPiBits[w - 2];
  };
  return word(j) << 32 | word(j + 1);
}

/// Payne-Hanek reduction of a finite a = |x| >= 2^17: a * 2/pi = k + f with
/// k an integer taken mod 4 and |f| <= 1/2, returned as (k mod 4, f * pi/2).
/// a = m * 2^(e - 1075) with a 53-bit integer m; the bits of 2/pi of weight
/// above 2^(e - 1077) only add multiples of 4, so m is multiplied by a
/// 192-bit window W1:W2:W3 of 2/pi chosen by e, and the top 128 bits of the
/// product, mod 2^128, are a * 2/pi mod 4 in units of 2^-126. The dropped
/// low word and table tail are below 2^-125, so f keeps at least 60 bits
/// even where a is closest to a multiple of pi/2 (about 2^-61 for doubles).
/// Integer multiplies of 32-bit halves and selects; no tables in memory.
std::pair<Value, Value> reduceLarge(F64 &f, Value a) {
  OpBuilder &b = f.b;
  Location loc = f.loc;
  auto shl = [&](Value x, Value n) {
    return b.create<arith::ShLIOp>(loc, x, n).getResult();
  };
  auto shr = [&](Value x, Value n) {
    return b.create<arith::ShRUIOp>(loc, x, n).getResult();
  };
  auto band = [&](Value x, Value y) {
    return b.create<arith::AndIOp>(loc, x, y).getResult();
  };
  auto bor = [&](Value x, Value y) {
    return b.create<arith::OrIOp>(loc, x, y).getResult();
  };
  auto add = [&](Value x, Value y) {
    return b.create<arith::AddIOp>(loc, x, y).getResult();
  };
  auto sub = [&](Value x, Value y) {
    return b.create<arith::SubIOp>(loc, x, y).getResult();
  };
  auto mul = [&](Value x, Value y) {
    return b.create<arith::MulIOp>(loc, x, y).getResult();
  };
  auto c = [&](uint64_t v) { return f.ci(static_cast<int64_t>(v)); };

  Value bits = f.bits(a);
  Value e = shr(bits, c(52));
  Value m = bor(band(bits, c((uint64_t(1) << 52) - 1)), c(uint64_t(1) << 52));
  // Bit i of 2/pi (weight 2^-i) lands at weight 2^(e - 1075 - i) in a * 2/pi;
  // the window starts at i = e - 1076 (weight 2^1), which is table bit
  // p = i + 63 counting the two zero words (bit 1 is the first one stored).
  Value p = sub(e, c(1013));
  Value j = shr(p, c(5));
  Value s = band(p, c(31));
  Value w0 = c(0), w2 = c(0), w4 = c(0), w6 = c(0);
  int64_t last = (2047 - 1013) >> 5; // past it, a is infinite or NaN
  for (int64_t word = 0; word <= last; ++word) {
    Value here =
        b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, j, f.ci(word));
    w0 = f.select(here, c(twoOverPiPair(word)), w0);
    w2 = f.select(here, c(twoOverPiPair(word + 2)), w2);
    w4 = f.select(here, c(twoOverPiPair(word + 4)), w4);
    w6 = f.select(here, c(twoOverPiPair(word + 6)), w6);
  }
  // 64 bits from bit s of a word pair, the rest from the next pair (shifted
  // in two steps so that s = 0 does not shift by 64).
  Value rest = sub(c(63), s);
  auto window = [&](Value first, Value next) {
    return bor(shl(first, s), shr(shr(next, c(1)), rest));
  };
  Value window1 = window(w0, w2), window2 = window(w2, w4),
        window3 = window(w4, w6);
  // The high 64 bits of m * w, from 32-bit halves (m < 2^53, so no partial
  // sum overflows).
  Value low32 = c(0xffffffff), thirtyTwo = c(32);
  Value mHi = shr(m, thirtyTwo), mLo = band(m, low32);
  auto mulHigh = [&](Value w) {
    Value wHi = shr(w, thirtyTwo), wLo = band(w, low32);
    Value lh = mul(mLo, wHi), hl = mul(mHi, wLo);
    Value middle = add(shr(mul(mLo, wLo), thirtyTwo),
                       add(band(lh, low32), band(hl, low32)));
    return add(add(mul(mHi, wHi), shr(middle, thirtyTwo)),
               add(shr(lh, thirtyTwo), shr(hl, thirtyTwo)));
  };
  Value low = mul(m, window2);
  Value lower = add(low, mulHigh(window3));
  Value carry = b.create<arith::ExtUIOp>(
      loc, f.i64(),
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ult, lower, low));
  Value upper = add(add(mul(m, window1), mulHigh(window2)), carry);
  // Round to the nearest quadrant: k = top two bits of upper + 1/2; the
  // fraction upper:lower is then signed, |f| <= 2^61 units of 2^-62.
  Value half = c(uint64_t(1) << 61);
  Value shifted = add(upper, half);
  Value k = shr(shifted, c(62));
  Value fraction = sub(band(shifted, c((uint64_t(1) << 62) - 1)), half);
  Value wide = f.add(
      b.create<arith::SIToFPOp>(loc, f.f64(), fraction),
      f.mul(b.create<arith::UIToFPOp>(loc, f.f64(), lower), f.c(0x1p-64)));
  Value r = f.mul(wide, f.c(M_PI_2 * 0x1p-62));
  return {k, r};
}

/// sin or cos: x = k * pi/2 + r, then the Taylor series of sin or cos on
/// |r| <= pi/4 chosen by the quadrant k mod 4. Below 2^17, Cody-Waite: pi/2
/// in three parts, the first two short enough that k * part is exact for
/// |k| < 2^20. From 2^17 on, reduceLarge, selected (both are computed, so
/// that the code stays straight-line and vectorizes).
Value buildSinCos(F64 &f, Value x, bool isCos) {
  using P = arith::CmpFPredicate;
  OpBuilder &b = f.b;
  Location loc = f.loc;
  Value a = f.abs(x);
  Value finite = f.cmp(P::OLT, a, f.c(INFINITY));
  Value small = f.cmp(P::OLT, a, f.c(0x1p17));
  Value safe = f.select(small, x, f.c(0.0));
  Value k = f.roundEven(f.mul(safe, f.c(0.63661977236758134308)));
  Value r = f.sub(f.sub(f.sub(safe, f.mul(k, f.c(1.57079632673412561417e+00))),
                        f.mul(k, f.c(6.07710050630396597660e-11))),
                  f.mul(k, f.c(2.02226624871116645580e-21)));
  Value kSmall = b.create<arith::FPToSIOp>(loc, f.i64(), k);
  auto [kLarge, rLarge] = reduceLarge(f, a);
  // sin(-a) = -sin(a): quadrant -k, remainder -r.
  Value negative = f.cmp(P::OLT, x, f.c(0.0));
  kLarge =
      f.select(negative, b.create<arith::SubIOp>(loc, f.ci(0), kLarge), kLarge);
  rLarge = f.select(negative, f.neg(rLarge), rLarge);
  r = f.select(small, r, rLarge);
  Value z = f.mul(r, r);
  SmallVector<double> sinCoeffs, cosCoeffs;
  double factorial = 1;
  for (int i = 1; i <= 21; ++i) {
    factorial *= i;
    double term = ((i / 2) % 2 ? -1.0 : 1.0) / factorial;
    (i % 2 ? sinCoeffs : cosCoeffs).push_back(term);
  }
  cosCoeffs.insert(cosCoeffs.begin(), 1.0);
  Value sinR = f.mul(r, f.polynomial(z, sinCoeffs));
  Value cosR = f.polynomial(z, cosCoeffs);
  Value quadrant =
      b.create<arith::AndIOp>(loc, f.select(small, kSmall, kLarge), f.ci(3));
  if (isCos) // cos(x) = sin(x + pi/2)
    quadrant = b.create<arith::AndIOp>(
        loc, b.create<arith::AddIOp>(loc, quadrant, f.ci(1)), f.ci(3));
  auto is = [&](int64_t q) {
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, quadrant,
                                   f.ci(q));
  };
  Value result = f.select(
      is(0), sinR,
      f.select(is(1), cosR, f.select(is(2), f.neg(sinR), f.neg(cosR))));
  return f.select(finite, result, f.c(NAN));
}

/// f32 sin and cos through the f64 expansion, then rounded: MLIR's f32
/// approximation errs by up to 7e-6 (relative) on [-10, 10]. Takes
/// precedence over it by benefit.
template <bool isCos>
struct F32SinCosThroughF64
    : OpRewritePattern<std::conditional_t<isCos, math::CosOp, math::SinOp>> {
  using Op = std::conditional_t<isCos, math::CosOp, math::SinOp>;
  explicit F32SinCosThroughF64(MLIRContext *ctx)
      : OpRewritePattern<Op>(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(Op op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "not a scalar f32");
    F64 f{rewriter, op.getLoc()};
    Value wide =
        rewriter.create<arith::ExtFOp>(op.getLoc(), f.f64(), op.getOperand());
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(op, op.getType(),
                                                 buildSinCos(f, wide, isCos));
    return success();
  }
};

template <typename MathOp> struct F64Expansion : OpRewritePattern<MathOp> {
  using Builder = Value (*)(F64 &, Value);
  F64Expansion(MLIRContext *ctx, Builder build)
      : OpRewritePattern<MathOp>(ctx), build(build) {}

  LogicalResult matchAndRewrite(MathOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF64())
      return rewriter.notifyMatchFailure(op, "not a scalar f64");
    F64 f{rewriter, op.getLoc()};
    rewriter.replaceOp(op, build(f, op.getOperand()));
    return success();
  }
  Builder build;
};

} // namespace

void mlir::tcc::populateF64MathExpansionPatterns(RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<F64Expansion<math::ExpOp>>(ctx, buildExp);
  patterns.add<F64Expansion<math::ExpM1Op>>(ctx, buildExpm1);
  patterns.add<F64Expansion<math::LogOp>>(ctx, buildLog);
  patterns.add<F64Expansion<math::Log1pOp>>(ctx, buildLog1p);
  patterns.add<F64Expansion<math::TanhOp>>(ctx, buildTanh);
  patterns.add<F64Expansion<math::ErfOp>>(ctx, buildErf);
  patterns.add<F64Expansion<math::SinOp>>(
      ctx, [](F64 &f, Value x) { return buildSinCos(f, x, false); });
  patterns.add<F64Expansion<math::CosOp>>(
      ctx, [](F64 &f, Value x) { return buildSinCos(f, x, true); });
  patterns.add<F32SinCosThroughF64<false>, F32SinCosThroughF64<true>>(ctx);
}
