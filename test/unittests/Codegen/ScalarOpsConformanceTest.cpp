//===- ScalarOpsConformanceTest.cpp - Lowering vs tcc/runtime/ScalarOps.h -===//
//
// The lowering emits arith/math ops, which cannot call the C++ definition of
// each op's semantics (tcc/runtime/ScalarOps.h), so this test holds them to
// it: every float op that has an entry in the scalar semantics table is
// compiled for f32 and f64 and run on the special values of the type (NaN,
// +-inf, +-0, the smallest and largest subnormals, the smallest normal, the
// largest finite value) and a few ordinary ones; binary ops on every pair.
// The reference is ScalarOps.h in double, rounded to the dtype. Exact ops
// must match bit for bit up to NaN payloads, the sign of zero included.
// LowerElementwiseTest covers the ordinary range of each op with random
// values; this test covers the edges of the domain.
//
//===----------------------------------------------------------------------===//

#include "../EdgeValues.h"
#include "KernelTestHarness.h"

#include "tcc/runtime/ScalarOps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace tcc_test;
namespace ops = tcc::scalar;

namespace {

template <class T> std::vector<double> edgeValues() {
  return tcc::test::edgeValues<T, double>();
}

std::vector<double> edgeValues(DType dtype) {
  return dtype == DType::F64 ? edgeValues<double>() : edgeValues<float>();
}

struct UnaryCase {
  const char *name;
  std::string op; // the op's text before " %a0"
  double (*ref)(double);
  Tolerance f32 = {}, f64 = {}; // exact unless given
};

/// The transcendental functions: the lowering uses polynomial
/// approximations, so these are close, not exact (relative bounds as in
/// LowerElementwiseTest); NaN and infinities must still match exactly. The
/// f32 approximations, the eager kernels' (VecMath.h) and the compiled
/// code's alike, flush results below the smallest normal float to zero,
/// hence the absolute FLT_MIN.
const Tolerance kF32Approx = {0x1p-126, 2.4e-7}, kF64Approx = {0, 5e-16};

std::vector<UnaryCase> unaryCases() {
  return {
      {"neg", "tcc.neg", [](double x) { return ops::neg(x); }},
      {"abs", "tcc.abs", [](double x) { return ops::abs(x); }},
      {"relu", "tcc.relu", [](double x) { return ops::relu(x); }},
      {"sign", "tcc.sign", [](double x) { return ops::sign(x); }},
      {"floor", "tcc.floor", [](double x) { return ops::floor(x); }},
      {"ceil", "tcc.ceil", [](double x) { return ops::ceil(x); }},
      {"round", "tcc.round", [](double x) { return ops::round(x); }},
      {"sqrt", "tcc.sqrt", [](double x) { return ops::sqrt(x); }},
      {"rsqrt", "tcc.rsqrt", [](double x) { return ops::rsqrt(x); },
       {0, 1.2e-7}, {0, 2.3e-16}},
      {"clamp", "tcc.clamp", [](double x) {
         return ops::clamp<double>(x, -1.5, 2.5);
       }},
      {"exp", "tcc.exp", [](double x) { return ops::exp(x); }, kF32Approx,
       kF64Approx},
      {"log", "tcc.log", [](double x) { return ops::log(x); }, kF32Approx,
       kF64Approx},
      {"log1p", "tcc.log1p", [](double x) { return ops::log1p(x); },
       kF32Approx, kF64Approx},
      {"tanh", "tcc.tanh", [](double x) { return ops::tanh(x); }, kF32Approx,
       kF64Approx},
      {"sigmoid", "tcc.sigmoid", [](double x) { return ops::sigmoid(x); },
       kF32Approx, kF64Approx},
      {"silu", "tcc.silu", [](double x) { return ops::silu(x); }, kF32Approx,
       kF64Approx},
      {"erf", "tcc.erf", [](double x) { return ops::erf(x); }, kF32Approx,
       {0, 1e-15}},
      // 1 + erf(x / sqrt 2) and 1 + tanh(...) cancel for negative x, so gelu
      // is bounded absolutely, as float arithmetic in PyTorch is.
      {"gelu", "tcc.gelu", [](double x) { return ops::gelu(x); },
       {5e-7, 2.4e-7}, {1e-15, 5e-16}},
      {"gelu_tanh", "tcc.gelu", [](double x) { return ops::geluTanh(x); },
       {5e-7, 2.4e-7}, {1e-15, 5e-16}},
  };
}

/// Whether an op is exact: then the sign of a zero result counts too.
bool isExact(const Tolerance &t) { return t.abs == 0 && t.rel == 0; }

TEST(ScalarOpsConformance, FloatUnaryOpsAtTheEdgesOfTheDomain) {
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  std::vector<KernelCase> cases;
  for (const UnaryCase &u : unaryCases()) {
    for (DType dtype : {DType::F32, DType::F64}) {
      std::vector<double> values = edgeValues(dtype);
      Tensor x = zeros(dtype, {int64_t(values.size())});
      x.values = values;
      Tensor want = zeros(dtype, x.shape);
      for (size_t i = 0; i < values.size(); ++i)
        want.values[i] = u.ref(values[i]);
      std::string name = std::string("edges_") + u.name + "_" + mlirName(dtype);
      std::string attrs = std::string(u.name) == "gelu_tanh"
                              ? " approximate tanh"
                          : std::string(u.name) == "clamp" ? " min -1.5 max 2.5"
                                                           : "";
      KernelCase c{name,
                   singleOpFunction(name, {x}, want,
                                    u.op + " %a0" + attrs + " : " + x.type()),
                   {x},
                   {want},
                   dtype == DType::F64 ? u.f64 : u.f32};
      c.signedZeros = isExact(c.tolerance);
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

struct BinaryCase {
  const char *name;
  double (*ref)(double, double);
  bool compares = false; // an i1 result
};

std::vector<BinaryCase> binaryCases() {
  return {
      {"add", [](double a, double b) { return ops::add(a, b); }},
      {"sub", [](double a, double b) { return ops::sub(a, b); }},
      {"mul", [](double a, double b) { return ops::mul(a, b); }},
      {"div", [](double a, double b) { return ops::div(a, b); }},
      {"maximum", [](double a, double b) { return ops::maximum(a, b); }},
      {"minimum", [](double a, double b) { return ops::minimum(a, b); }},
      {"remainder", [](double a, double b) { return *ops::remainder(a, b); }},
      {"floor_divide",
       [](double a, double b) { return *ops::floorDivide(a, b); }},
      {"eq", [](double a, double b) { return double(ops::eq(a, b)); }, true},
      {"ne", [](double a, double b) { return double(ops::ne(a, b)); }, true},
      {"lt", [](double a, double b) { return double(ops::lt(a, b)); }, true},
      {"le", [](double a, double b) { return double(ops::le(a, b)); }, true},
      {"gt", [](double a, double b) { return double(ops::gt(a, b)); }, true},
      {"ge", [](double a, double b) { return double(ops::ge(a, b)); }, true},
  };
}

TEST(ScalarOpsConformance, FloatBinaryOpsOnEveryPairOfEdges) {
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  std::vector<KernelCase> cases;
  for (const BinaryCase &op : binaryCases()) {
    for (DType dtype : {DType::F32, DType::F64}) {
      std::vector<double> values = edgeValues(dtype);
      int64_t n = int64_t(values.size());
      // a is [n, 1] and b is [n]: the result [n, n] holds every pair.
      Tensor a = zeros(dtype, {n, 1}), b = zeros(dtype, {n});
      a.values = values;
      b.values = values;
      DType resultType = op.compares ? DType::Bool : dtype;
      Tensor want = zeros(resultType, {n, n});
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < n; ++j)
          want.values[i * n + j] = op.ref(values[i], values[j]);
      std::string name =
          std::string("edges_") + op.name + "_" + mlirName(dtype);
      std::string text = std::string("tcc.") + op.name + " %a0, %a1 : (" +
                         a.type() + ", " + b.type() + ") -> " + want.type();
      KernelCase c{name, singleOpFunction(name, {a, b}, want, text), {a, b},
                   {want}};
      c.signedZeros = true;
      cases.push_back(std::move(c));
    }
  }
  runCases(*context, cases);
}

} // namespace
