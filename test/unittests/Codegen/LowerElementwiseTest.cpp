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
std::vector<int64_t> broadcastShape(std::vector<int64_t> a, std::vector<int64_t> b) {
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
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}
double reluRef(double x) { return std::isnan(x) || x > 0 ? x : 0.0; }
double signRef(double x) { return std::isnan(x) ? x : (x > 0) - (x < 0); }
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
      {"round", "tcc.round", [](double x) { return std::nearbyint(x); }, -10, 10,
       with({kInf, -kInf, 2.5, -2.5, 0.5, 1.5})},
      {"sqrt", "tcc.sqrt", [](double x) { return std::sqrt(x); }, 0, 100,
       with({kInf, -1.0})},
      // 1 / sqrt(x) rounds twice: 1.0e-7 / 0
      {"rsqrt", "tcc.rsqrt", rsqrtRef, 0.01, 100, with({kInf, -1.0}),
       {0, 1.2e-7}, {0, 2.3e-16}},
      // 9.3e-8 / 1.9e-16
      {"exp", "tcc.exp", [](double x) { return std::exp(x); }, -80, 80,
       with({kInf, -kInf, 100.0, -120.0}), f32Approx, f64Approx},
      // 0 / 0 on this sample (MLIR's f32 log; tcc's f64 log is <= 2 ulp)
      {"log", "tcc.log", [](double x) { return std::log(x); }, 0.001, 1000,
       with({kInf, -1.0, 1.0, 1e-30}), f32Approx, f64Approx},
      // 1.0e-7 / 2.8e-16
      {"log1p", "tcc.log1p", [](double x) { return std::log1p(x); }, -0.9, 10,
       with({kInf, -1.0, -2.0, 1e-10}), f32Approx, f64Approx},
      // 1.2e-7 / 2.2e-16
      {"tanh", "tcc.tanh", [](double x) { return std::tanh(x); }, -6, 6,
       with({kInf, -kInf, 30.0, 1e-5}), f32Approx, f64Approx},
      // 7.9e-8 / 1e-16
      {"sigmoid", "tcc.sigmoid", sigmoidRef, -20, 20,
       with({kInf, -kInf, -200.0}), f32Approx, f64Approx},
      // 1.1e-7 / 1.2e-16
      {"silu", "tcc.silu", siluRef, -20, 20, with({kInf, -kInf}), f32Approx,
       f64Approx},
      // 1.2e-7 / 3.4e-16
      {"erf", "tcc.erf", [](double x) { return std::erf(x); }, -4, 4,
       with({kInf, -kInf, 1e-8}), f32Approx, {0, 1e-15}},
      // f32 through f64: 6e-8 / 1.7e-16 (absolute near the zeros)
      {"sin", "tcc.sin", [](double x) { return std::sin(x); }, -10, 10,
       with({kInf, -kInf}), {1e-16, 6e-8}, {1e-16, 5e-16}},
      {"cos", "tcc.cos", [](double x) { return std::cos(x); }, -10, 10,
       with({kInf, -kInf}), {1e-16, 6e-8}, {1e-16, 5e-16}},
      // absolute 1.9e-7 / 1.5e-14 relative at tiny results
      {"gelu", "tcc.gelu", geluRef, -6, 6, with({kInf}), {5e-7, 2.4e-7},
       {1e-15, 5e-16}},
      {"gelu_tanh", "tcc.gelu", geluTanhRef, -6, 6, with({kInf}),
       {5e-7, 2.4e-7}, {1e-15, 5e-16}},
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
        Tensor x = withEdges(random(dtype, shape, u.lo, u.hi, cases.size()),
                             u.edges);
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

} // namespace
