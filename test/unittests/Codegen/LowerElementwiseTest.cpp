//===- LowerElementwiseTest.cpp - Elementwise kernels vs float64 ----------===//
//
// Each elementwise op is compiled, run on deterministic pseudo-random inputs
// (plus edge values where PyTorch defines the result) at several shapes and
// dtypes, and compared with a float64 reference rounded to the result's
// dtype.
//
// Tolerances (relative, |got - want| <= tol * |want|; measured maxima with
// TCC_PRINT_ERRORS=1 in the comments of each table):
// - exact: neg, abs, relu, sign, floor, ceil, round, sqrt, add, sub, mul,
//   div, maximum, minimum, remainder, floor_divide, comparisons, logical
//   ops, select, clamp, casts;
// - f32 transcendentals use MLIR's polynomial approximations, f64 ones
//   tcc's (ApproximateF64.cpp); f16/bf16 compute in f32 and round once, so
//   they are within one ulp of their dtype (2^-10, 2^-7).
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tcc_test;

namespace {

class LowerElementwiseTest : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
};

/// One ulp of a half dtype, the tolerance of ops that round an f32 result.
double halfUlp(DType dtype) { return dtype == DType::F16 ? 0x1p-10 : 0x1p-7; }

/// Replaces the first values of `t` with `edges` (rounded to its dtype).
Tensor withEdges(Tensor t, const std::vector<double> &edges) {
  for (size_t i = 0; i < edges.size() && i < t.values.size(); ++i)
    t.values[i] = roundTo(t.dtype, edges[i]);
  return t;
}

Tensor map(const Tensor &x, DType dtype, double (*fn)(double)) {
  Tensor out = zeros(dtype, x.shape);
  for (size_t i = 0; i < x.values.size(); ++i)
    out.values[i] = fn(x.values[i]);
  return out;
}

/// Broadcasts two shapes NumPy-style (the tests only use valid pairs).
std::vector<int64_t> broadcastShape(std::vector<int64_t> a,
                                    std::vector<int64_t> b) {
  if (a.size() < b.size())
    std::swap(a, b);
  std::vector<int64_t> out = a;
  for (size_t i = 0; i < b.size(); ++i) {
    int64_t &d = out[a.size() - b.size() + i];
    d = std::max(d, b[i]);
  }
  return out;
}

/// Reads `t` at a result index under broadcasting.
double broadcastAt(const Tensor &t, const std::vector<int64_t> &index) {
  std::vector<int64_t> at(t.shape.size());
  size_t offset = index.size() - t.shape.size();
  for (size_t d = 0; d < t.shape.size(); ++d)
    at[d] = t.shape[d] == 1 ? 0 : index[offset + d];
  return t.at(at);
}

Tensor binaryReference(const Tensor &a, const Tensor &b, DType dtype,
                       const std::function<double(double, double)> &fn) {
  return generate(dtype, broadcastShape(a.shape, b.shape),
                  [&](const std::vector<int64_t> &i) {
                    return fn(broadcastAt(a, i), broadcastAt(b, i));
                  });
}

std::string binaryOp(const std::string &op, const Tensor &a, const Tensor &b,
                     const Tensor &r) {
  return op + " %a0, %a1 : (" + a.type() + ", " + b.type() + ") -> " + r.type();
}

//===----------------------------------------------------------------------===//
// Unary float ops
//===----------------------------------------------------------------------===//

double sigmoidRef(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double siluRef(double x) { return x / (1.0 + std::exp(-x)); }
double geluRef(double x) { return x * 0.5 * (1.0 + std::erf(x * M_SQRT1_2)); }
double geluTanhRef(double x) {
  return 0.5 * x *
         (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
// libtorch's: relu is clamp_min(x, 0) (NaN and -0 stay), sign is
// (0 < x) - (x < 0) (NaN gives 0).
double reluRef(double x) { return x < 0 ? 0.0 : x; }
double signRef(double x) { return (x > 0) - (x < 0); }
double rsqrtRef(double x) { return 1.0 / std::sqrt(x); }
double negRef(double x) { return -x; }

struct UnaryOp {
  const char *name;
  std::string op; // the op's text before " %a0"
  double (*ref)(double);
  double lo, hi;
  std::vector<double> edges;
  Tolerance f32 = {}, f64 = {}; // exact unless given
};

const double kInf = INFINITY, kNan = NAN;

/// Measured maximum relative errors (TCC_PRINT_ERRORS=1) are in comments as
/// f32 / f64. gelu's 1 + erf(x / sqrt 2) and 1 + tanh(...) cancel for
/// negative x, so it is bounded absolutely, as float arithmetic in PyTorch is.
std::vector<UnaryOp> unaryOps() {
  std::vector<double> common = {kNan, 0.0, -0.0};
  auto with = [&](std::vector<double> extra) {
    std::vector<double> all = common;
    all.insert(all.end(), extra.begin(), extra.end());
    return all;
  };
  Tolerance f32Approx = {0, 2.4e-7}, f64Approx = {0, 5e-16};
  return {
      {"neg", "tcc.neg", negRef, -10, 10, with({kInf, -kInf})},
      {"abs", "tcc.abs", [](double x) { return std::fabs(x); }, -10, 10,
       with({kInf, -kInf})},
      {"relu", "tcc.relu", reluRef, -10, 10, with({kInf, -kInf})},
      {"sign", "tcc.sign", signRef, -10, 10, with({kInf, -kInf})},
      {"floor", "tcc.floor", [](double x) { return std::floor(x); }, -10, 10,
       with({kInf, -kInf, 2.5, -2.5})},
      {"ceil", "tcc.ceil", [](double x) { return std::ceil(x); }, -10, 10,
       with({kInf, -kInf, 2.5, -2.5})},
      {"round", "tcc.round", [](double x) { return std::nearbyint(x); }, -10,
       10, with({kInf, -kInf, 2.5, -2.5, 0.5, 1.5})},
      {"sqrt", "tcc.sqrt", [](double x) { return std::sqrt(x); }, 0, 100,
       with({kInf, -1.0})},
      // 1 / sqrt(x) rounds twice: 9.1e-8 / 0
      {"rsqrt",
       "tcc.rsqrt",
       rsqrtRef,
       0.01,
       100,
       with({kInf, -1.0}),
       {0, 1.2e-7},
       {0, 2.3e-16}},
      // 8.1e-8 / 1.5e-16
      {"exp", "tcc.exp", [](double x) { return std::exp(x); }, -80, 80,
       with({kInf, -kInf, 100.0, -120.0}), f32Approx, f64Approx},
      // 0 / 0 on this sample (MLIR's f32 log; tcc's f64 log is <= 2 ulp)
      {"log", "tcc.log", [](double x) { return std::log(x); }, 0.001, 1000,
       with({kInf, -1.0, 1.0, 1e-30}), f32Approx, f64Approx},
      // 1.2e-7 / 2.8e-16
      {"log1p", "tcc.log1p", [](double x) { return std::log1p(x); }, -0.9, 10,
       with({kInf, -1.0, -2.0, 1e-10}), f32Approx, f64Approx},
      // 1.8e-7 / 1.4e-16
      {"tanh", "tcc.tanh", [](double x) { return std::tanh(x); }, -6, 6,
       with({kInf, -kInf, 30.0, 1e-5}), f32Approx, f64Approx},
      // 1.2e-7 / below 1e-16
      {"sigmoid", "tcc.sigmoid", sigmoidRef, -20, 20,
       with({kInf, -kInf, -200.0}), f32Approx, f64Approx},
      // 8.3e-8 / 0
      {"silu", "tcc.silu", siluRef, -20, 20, with({kInf, -kInf}), f32Approx,
       f64Approx},
      // 1.3e-7 / 0 (tcc's f64 erf: <= 5 ulp on 20000 samples)
      {"erf",
       "tcc.erf",
       [](double x) { return std::erf(x); },
       -4,
       4,
       with({kInf, -kInf, 1e-8}),
       f32Approx,
       {0, 1e-15}},
      // f32 through f64: 0 (correctly rounded here) / 2.2e-16
      {"sin",
       "tcc.sin",
       [](double x) { return std::sin(x); },
       -10,
       10,
       with({kInf, -kInf}),
       {1e-16, 6e-8},
       {1e-16, 5e-16}},
      {"cos",
       "tcc.cos",
       [](double x) { return std::cos(x); },
       -10,
       10,
       with({kInf, -kInf}),
       {1e-16, 6e-8},
       {1e-16, 5e-16}},
      // absolute 4.8e-7 / relative 7.6e-15 at tiny results
      {"gelu",
       "tcc.gelu",
       geluRef,
       -6,
       6,
       with({kInf}),
       {5e-7, 2.4e-7},
       {1e-15, 5e-16}},
      {"gelu_tanh",
       "tcc.gelu",
       geluTanhRef,
       -6,
       6,
       with({kInf}),
       {5e-7, 2.4e-7},
       {1e-15, 5e-16}},
  };
}

TEST_F(LowerElementwiseTest, FloatUnaryOpsMatchFloat64) {
  std::vector<KernelCase> cases;
  for (const UnaryOp &u : unaryOps()) {
    for (DType dtype : {DType::F32, DType::F64, DType::F16, DType::BF16}) {
      // Size 1, and an odd 2-D shape whose first values are the edges.
      std::vector<std::vector<int64_t>> shapes = {{3, 7}};
      if (!isHalf(dtype))
        shapes.push_back({1});
      for (const auto &shape : shapes) {
        Tensor x =
            withEdges(random(dtype, shape, u.lo, u.hi, cases.size()), u.edges);
        Tensor want = map(x, dtype, u.ref);
        std::string name = std::string(u.name) + "_" + mlirName(dtype) + "_" +
                           std::to_string(x.numel());
        std::string attr =
            std::string(u.name) == "gelu_tanh" ? " approximate tanh" : "";
        KernelCase c{name,
                     singleOpFunction(name, {x}, want,
                                      u.op + " %a0" + attr + " : " + x.type()),
                     {x},
                     {want},
                     dtype == DType::F64 ? u.f64 : u.f32};
        // f16/bf16 compute in f32 and round once: one more ulp of theirs.
        if (isHalf(dtype))
          c.tolerance.rel += halfUlp(dtype);
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// Integer unary ops
//===----------------------------------------------------------------------===//

TEST_F(LowerElementwiseTest, IntegerUnaryOpsWrapLikePyTorch) {
  std::vector<KernelCase> cases;
  struct Op {
    const char *name;
    double (*ref)(double);
  };
  const Op ops[] = {{"neg", negRef},
                    {"abs", [](double x) { return std::fabs(x); }},
                    {"relu", reluRef},
                    {"sign", signRef}};
  for (const Op &op : ops) {
    for (DType dtype : {DType::I64, DType::I32, DType::I8, DType::UI8}) {
      // The type's minimum (abs and neg wrap to it) and maximum.
      Tensor x =
          withEdges(random(dtype, {2, 5}, std::max(minValue(dtype), -100.0),
                           std::min(maxValue(dtype), 100.0), cases.size()),
                    {minValue(dtype), maxValue(dtype), 0});
      Tensor want = map(x, dtype, op.ref);
      std::string name = std::string("int_") + op.name + "_" + mlirName(dtype);
      cases.push_back({name,
                       singleOpFunction(name, {x}, want,
                                        std::string("tcc.") + op.name +
                                            " %a0 : " + x.type()),
                       {x},
                       {want}});
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// Binary arithmetic
//===----------------------------------------------------------------------===//

/// ATen's remainder: fmod, moved into the divisor's sign.
double remainderRef(double x, double y) {
  double r = std::fmod(x, y);
  if (r != 0 && ((y < 0) != (r < 0)))
    r += y;
  return r;
}

/// ATen's div_floor_floating.
double floorDivideRef(double x, double y) {
  if (y == 0)
    return x / y;
  double r = std::fmod(x, y);
  double div = (x - r) / y;
  if (r != 0 && ((y < 0) != (r < 0)))
    div -= 1;
  if (div == 0)
    return std::copysign(0.0, x / y);
  double floor = std::floor(div);
  if (div - floor > 0.5)
    floor += 1;
  return floor;
}

/// Integer floor division and Python-style remainder in int64; the lowering
/// defines a zero divisor to give 0.
double intFloorDivideRef(double x, double y) {
  int64_t a = static_cast<int64_t>(x), b = static_cast<int64_t>(y);
  if (b == 0)
    return 0;
  if (b == -1)
    return -static_cast<double>(a); // wraps to the minimum when rounded
  int64_t q = a / b, r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    --q;
  return static_cast<double>(q);
}

double intRemainderRef(double x, double y) {
  int64_t a = static_cast<int64_t>(x), b = static_cast<int64_t>(y);
  if (b == 0 || b == -1)
    return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0)))
    r += b;
  return static_cast<double>(r);
}

/// x^n by repeated multiplication in int64 (wrapping when rounded to the
/// dtype); a negative n gives trunc(1 / x^|n|).
double intPowRef(double x, double n) {
  int64_t base = static_cast<int64_t>(x), e = static_cast<int64_t>(n);
  if (e < 0)
    return base == 1 ? 1 : base == -1 ? (e % 2 ? -1 : 1) : 0;
  uint64_t result = 1;
  for (int64_t i = 0; i < e; ++i)
    result *= static_cast<uint64_t>(base);
  return static_cast<double>(static_cast<int64_t>(result));
}

double floatPowRef(double x, double y) { return std::pow(x, y); }

/// NaN-propagating maximum/minimum.
double maximumRef(double x, double y) {
  return std::isnan(x) || std::isnan(y) ? NAN : std::max(x, y);
}
double minimumRef(double x, double y) {
  return std::isnan(x) || std::isnan(y) ? NAN : std::min(x, y);
}

struct BinaryOp {
  const char *name;
  double (*floatRef)(double, double);
  double (*intRef)(double, double); // null: float only
  Tolerance f32 = {}, f64 = {};
};

std::vector<BinaryOp> binaryOps() {
  return {
      {"add", [](double x, double y) { return x + y; },
       [](double x, double y) { return x + y; }},
      {"sub", [](double x, double y) { return x - y; },
       [](double x, double y) { return x - y; }},
      {"mul", [](double x, double y) { return x * y; },
       [](double x, double y) { return x * y; }},
      {"div", [](double x, double y) { return x / y; }, nullptr},
      {"maximum", maximumRef, maximumRef},
      {"minimum", minimumRef, minimumRef},
      {"remainder", remainderRef, intRemainderRef},
      {"floor_divide", floorDivideRef, intFloorDivideRef},
      // f32 computes in f64 (0 on this sample); f64 is bounded by
      // |y log x| * 1e-16 (2e-16 measured).
      {"pow", floatPowRef, intPowRef, {0, 1.2e-7}, {0, 2e-15}},
  };
}

TEST_F(LowerElementwiseTest, BinaryOpsBroadcastAndMatchFloat64) {
  std::vector<KernelCase> cases;
  const std::pair<std::vector<int64_t>, std::vector<int64_t>> shapes[] = {
      {{3, 5}, {5}}, {{2, 1, 3}, {4, 1}}, {{1}, {1}}};
  for (const BinaryOp &op : binaryOps()) {
    bool isPow = std::string(op.name) == "pow";
    bool isDivision = std::string(op.name) == "remainder" ||
                      std::string(op.name) == "floor_divide";
    for (DType dtype : {DType::F32, DType::F64, DType::BF16, DType::I64,
                        DType::I32, DType::I8, DType::UI8}) {
      if (!isFloat(dtype) && !op.intRef)
        continue;
      for (const auto &[shapeA, shapeB] : shapes) {
        // Every shape pair for f32 and i32; the 3-D broadcast for the others
        // (compile time).
        if (dtype != DType::F32 && dtype != DType::I32 && shapeA.size() != 3)
          continue;
        uint64_t seed = cases.size() * 2;
        Tensor a, b;
        if (isFloat(dtype)) {
          a = random(dtype, shapeA, isPow ? -3 : -10, isPow ? 3 : 10, seed);
          b = random(dtype, shapeB, -3, 3, seed + 1);
          // Whole exponents (negative bases have real powers) and divisors
          // that are whole numbers too.
          if (isPow || isDivision)
            for (size_t i = 0; i < b.values.size(); i += 2)
              b.values[i] = std::round(b.values[i]);
          // Edge values against the first divisors: NaN, infinities, zero.
          a = withEdges(a, {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0});
        } else {
          double lo = std::max(minValue(dtype), -20.0);
          a = random(dtype, shapeA, lo, 20, seed);
          b = random(dtype, shapeB, isPow ? std::max(lo, -2.0) : lo,
                     isPow ? 5 : 20, seed + 1);
          // INT_MIN / -1 wraps (i64's minimum has no exact float64 reference).
          if (isDivision && (dtype == DType::I32 || dtype == DType::I8))
            a = withEdges(a, {minValue(dtype)});
          if (!isPow)
            b = withEdges(b, {-1, 0});
        }
        Tensor want = binaryReference(a, b, dtype,
                                      isFloat(dtype) ? op.floatRef : op.intRef);
        std::string name = std::string(op.name) + "_" + mlirName(dtype) + "_" +
                           std::to_string(a.numel()) + "_" +
                           std::to_string(b.numel());
        KernelCase c{name,
                     singleOpFunction(
                         name, {a, b}, want,
                         binaryOp(std::string("tcc.") + op.name, a, b, want)),
                     {a, b},
                     {want},
                     dtype == DType::F64 ? op.f64
                     : isFloat(dtype)    ? op.f32
                                         : Tolerance{}};
        if (isHalf(dtype))
          c.tolerance.rel += halfUlp(dtype);
        cases.push_back(std::move(c));
      }
    }
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// Comparisons, logical ops, select
//===----------------------------------------------------------------------===//

TEST_F(LowerElementwiseTest, ComparisonsOfEveryDtype) {
  std::vector<KernelCase> cases;
  struct Op {
    const char *name;
    bool (*ref)(double, double);
  };
  const Op ops[] = {{"eq", [](double x, double y) { return x == y; }},
                    {"ne", [](double x, double y) { return x != y; }},
                    {"lt", [](double x, double y) { return x < y; }},
                    {"le", [](double x, double y) { return x <= y; }},
                    {"gt", [](double x, double y) { return x > y; }},
                    {"ge", [](double x, double y) { return x >= y; }}};
  for (const Op &op : ops) {
    for (DType dtype :
         {DType::F32, DType::F64, DType::F16, DType::BF16, DType::I64,
          DType::I32, DType::I8, DType::UI8, DType::Bool}) {
      // Few distinct values so that ties happen; ui8 values above 127 and
      // true > false check unsigned comparison.
      double lo = isUnsigned(dtype) ? 0 : -3, hi = dtype == DType::Bool ? 1 : 3;
      Tensor a = random(dtype, {3, 4}, lo, hi, cases.size());
      Tensor b = random(dtype, {4}, lo, hi, cases.size() + 100);
      if (dtype == DType::UI8)
        a = withEdges(a, {200, 255, 1});
      if (isFloat(dtype))
        a = withEdges(a, {NAN, INFINITY, -0.0});
      Tensor want = binaryReference(a, b, DType::Bool, [&](double x, double y) {
        return op.ref(x, y) ? 1.0 : 0.0;
      });
      std::string name = std::string("cmp_") + op.name + "_" + mlirName(dtype);
      cases.push_back({name,
                       singleOpFunction(
                           name, {a, b}, want,
                           binaryOp(std::string("tcc.") + op.name, a, b, want)),
                       {a, b},
                       {want}});
    }
  }
  // Logical ops and not, on i1.
  Tensor p = random(DType::Bool, {2, 3}, 0, 1, 7),
         q = random(DType::Bool, {3}, 0, 1, 8);
  const std::pair<const char *, double (*)(double, double)> logical[] = {
      {"logical_and", [](double x, double y) { return double(x && y); }},
      {"logical_or", [](double x, double y) { return double(x || y); }},
      {"logical_xor",
       [](double x, double y) { return double((x != 0) != (y != 0)); }}};
  for (const auto &[opName, ref] : logical) {
    Tensor want = binaryReference(p, q, DType::Bool, ref);
    cases.push_back(
        {opName,
         singleOpFunction(opName, {p, q}, want,
                          binaryOp(std::string("tcc.") + opName, p, q, want)),
         {p, q},
         {want}});
  }
  Tensor notWant = map(p, DType::Bool, [](double x) { return x ? 0.0 : 1.0; });
  cases.push_back({"logical_not",
                   singleOpFunction("logical_not", {p}, notWant,
                                    "tcc.logical_not %a0 : " + p.type()),
                   {p},
                   {notWant}});
  runCases(*context, cases);
}

TEST_F(LowerElementwiseTest, SelectBroadcastsAllThreeOperands) {
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::BF16, DType::F64, DType::I64,
                      DType::I8, DType::UI8, DType::Bool}) {
    Tensor c = random(DType::Bool, {3, 1}, 0, 1, cases.size());
    Tensor t =
        random(dtype, {4}, isUnsigned(dtype) ? 0 : -5, 5, cases.size() + 1);
    Tensor f =
        random(dtype, {3, 4}, isUnsigned(dtype) ? 0 : -5, 5, cases.size() + 2);
    Tensor want = generate(dtype, {3, 4}, [&](const std::vector<int64_t> &i) {
      return c.at({i[0], 0}) ? t.at({i[1]}) : f.at(i);
    });
    std::string name = std::string("select_") + mlirName(dtype);
    cases.push_back({name,
                     singleOpFunction(name, {c, t, f}, want,
                                      "tcc.select %a0, %a1, %a2 : (" +
                                          c.type() + ", " + t.type() + ", " +
                                          f.type() + ") -> " + want.type()),
                     {c, t, f},
                     {want}});
  }
  runCases(*context, cases);
}

//===----------------------------------------------------------------------===//
// Cast, clamp, dropout
//===----------------------------------------------------------------------===//

TEST_F(LowerElementwiseTest, CastBetweenEveryPairOfDtypes) {
  const DType all[] = {DType::F32,  DType::F64, DType::F16,
                       DType::BF16, DType::I64, DType::I32,
                       DType::I8,   DType::UI8, DType::Bool};
  std::vector<KernelCase> cases;
  for (DType from : all) {
    for (DType to : all) {
      if (from == to)
        continue;
      // Values representable in both (overflowing casts are not defined).
      double lo = std::max({minValue(from), minValue(to), -100.0});
      double hi = std::min({maxValue(from), maxValue(to), 100.0});
      if (isFloat(from) && isFloat(to))
        lo = -100;
      if (isFloat(from) && !isFloat(to))
        hi += 0.99; // fractions truncate toward zero
      Tensor x = random(from, {9}, lo, hi, cases.size());
      std::vector<double> edges = {0, 1};
      if (isFloat(from) && (to == DType::Bool || isFloat(to)))
        edges = {0, -0.0, NAN, INFINITY, -INFINITY, 0.25};
      if (isFloat(from) && !isFloat(to) && !isUnsigned(to))
        edges.push_back(-2.75);
      x = withEdges(x, edges);
      Tensor want = map(x, to, [](double v) { return v; });
      for (double &v : want.values)
        if (!isFloat(to) && to != DType::Bool && !std::isnan(v))
          v = std::trunc(v);
      std::string name =
          std::string("cast_") + mlirName(from) + "_" + mlirName(to);
      cases.push_back({name,
                       singleOpFunction(name, {x}, want,
                                        "tcc.cast %a0 : " + x.type() + " to " +
                                            want.type()),
                       {x},
                       {want}});
    }
  }
  runCases(*context, cases);
}

TEST_F(LowerElementwiseTest, ClampFollowsPyTorchBoundOrder) {
  struct Bounds {
    const char *name, *attrs;
    double lo, hi; // NaN: absent
  };
  const Bounds bounds[] = {{"both", "min -2.0 max 3.0", -2, 3},
                           {"min", "min 1.0", 1, NAN},
                           {"max", "max -1.0", NAN, -1},
                           {"crossed", "min 4.0 max 1.0", 4, 1},
                           {"wide", "min -1000.0 max 1000.0", -1000, 1000}};
  std::vector<KernelCase> cases;
  for (DType dtype : {DType::F32, DType::F64, DType::BF16, DType::I64,
                      DType::I32, DType::I8, DType::UI8}) {
    for (const Bounds &bound : bounds) {
      Tensor x =
          random(dtype, {2, 7}, isUnsigned(dtype) ? 0 : -6, 6, cases.size());
      if (isFloat(dtype))
        x = withEdges(x, {NAN, INFINITY, -INFINITY});
      Tensor want = map(x, dtype, [](double v) { return v; });
      for (double &v : want.values) {
        if (std::isnan(v))
          continue;
        // Integer bounds saturate into the dtype's range.
        auto saturate = [&](double b) {
          return std::min(std::max(b, minValue(dtype)), maxValue(dtype));
        };
        if (!std::isnan(bound.lo))
          v = std::max(v, saturate(bound.lo));
        if (!std::isnan(bound.hi))
          v = std::min(v, saturate(bound.hi));
      }
      std::string name =
          std::string("clamp_") + bound.name + "_" + mlirName(dtype);
      cases.push_back({name,
                       singleOpFunction(name, {x}, want,
                                        std::string("tcc.clamp %a0 ") +
                                            bound.attrs + " : " + x.type()),
                       {x},
                       {want}});
    }
  }
  Tensor x = random(DType::F32, {5}, -1, 1, 99);
  cases.push_back(
      {"dropout",
       singleOpFunction("dropout", {x}, x,
                        "tcc.dropout %a0 {p = 5.000000e-01 : f64} : " +
                            x.type()),
       {x},
       {x}});
  runCases(*context, cases);
}

TEST_F(LowerElementwiseTest, RankZeroTensors) {
  Tensor a{DType::F32, {}, {0.5}};
  Tensor b = random(DType::F32, {3}, -1, 1, 3);
  Tensor e{DType::F32, {}, {std::exp(0.5)}};
  Tensor sum = map(b, DType::F32, [](double v) { return v + 0.5; });
  std::vector<KernelCase> cases;
  cases.push_back(
      {"scalar_exp",
       singleOpFunction("scalar_exp", {a}, e, "tcc.exp %a0 : " + a.type()),
       {a},
       {e},
       {0, 2.4e-7}});
  cases.push_back({"scalar_broadcast",
                   singleOpFunction("scalar_broadcast", {a, b}, sum,
                                    binaryOp("tcc.add", a, b, sum)),
                   {a, b},
                   {sum}});
  runCases(*context, cases);
}

} // namespace
