//===- ActivationSemanticsTest.cpp - Epilogues vs tcc/runtime/ScalarOps.h -===//
//
// The microkernels apply activations with their own vector code, which
// cannot call the scalar definition of each op (tcc/runtime/ScalarOps.h), so
// this test holds every activation of Activations.def to it at the edges of
// the float domain: NaN, +-inf, +-0, subnormals, the smallest normal and the
// largest finite value, through C = act(1 * x). relu and clamp must match
// exactly, the sign of zero included; the others within a few ulp (results
// that tiny may flush to zero).
//
//===----------------------------------------------------------------------===//

#include "../EdgeValues.h"
#include "KernelReference.h"

#include "tcc/runtime/ScalarOps.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>

using namespace tcc_test;
namespace ops = tcc::scalar;

namespace {

constexpr float kClampMin = -2.0f, kClampMax = 3.0f;

/// What activation `act` computes on x, by the scalar definition, in double.
double definition(int act, double x) {
  switch (act) {
  case TCC_ACTIVATION_NONE:
    return x;
  case TCC_ACTIVATION_RELU:
    return ops::relu(x);
  case TCC_ACTIVATION_CLAMP:
    return ops::clamp<double>(x, kClampMin, kClampMax);
  case TCC_ACTIVATION_GELU:
    return ops::gelu(x);
  case TCC_ACTIVATION_GELU_TANH:
    return ops::geluTanh(x);
  case TCC_ACTIVATION_SILU:
    return ops::silu(x);
  case TCC_ACTIVATION_SIGMOID:
    return ops::sigmoid(x);
  case TCC_ACTIVATION_TANH:
    return ops::tanh(x);
  }
  ADD_FAILURE() << "activation " << act << " has no definition here";
  return NAN;
}

TEST(ActivationSemantics, EveryActivationFollowsTheDefinitionAtTheEdges) {
  std::vector<float> xs = tcc::test::edgeValues<float>();
  const int64_t n = int64_t(xs.size());
  int checked = 0;
#define TCC_ACTIVATION(Name, NAME, value) {value, #Name},
  const std::pair<int, const char *> activations[] = {
#include "tcc/runtime/Activations.def"
  };
#undef TCC_ACTIVATION
  for (auto [act, name] : activations) {
    float one = 1.0f;
    std::vector<float> out(xs.size());
    tcc_epilogue e{};
    e.alpha = 1.0f;
    e.activation = act;
    e.clamp_min = kClampMin;
    e.clamp_max = kClampMax;
    tcc_sgemm_args p{};
    p.m = 1;
    p.n = n;
    p.k = 1;
    p.a = &one;
    p.lda = 1;
    p.b = xs.data();
    p.ldb = n;
    p.c = out.data();
    p.ldc = n;
    p.epilogue = &e;
    ASSERT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK) << name;
    bool exact = activation_relative_tolerance(act) == 0;
    for (int64_t j = 0; j < n; ++j) {
      // The GEMM accumulates 1 * x onto +0: x exactly, except that -0
      // becomes +0.
      float acc = 0.0f + xs[j];
      float want = float(definition(act, acc));
      float got = out[j];
      bool ok;
      if (std::isnan(want))
        ok = std::isnan(got);
      else if (std::isinf(want) || std::isinf(got))
        ok = got == want;
      else if (exact)
        ok = got == want && std::signbit(got) == std::signbit(want);
      else // 1e-12: the definition's 1 + erf(.) and 1 + tanh(.) in gelu
           // cancel for very negative x, even in double
        ok = std::fabs(double(got) - want) <=
             activation_relative_tolerance(act) * std::fabs(want) + 1e-12;
      EXPECT_TRUE(ok) << name << "(" << xs[j] << "): got " << got
                      << ", the definition gives " << want;
    }
    ++checked;
  }
  EXPECT_GT(checked, 1);
}

/// |got - want| in units of the float spacing at want (2^-149 below the
/// smallest normal).
double ulps(float got, double want) {
  int exponent = 0;
  std::frexp(want, &exponent);
  const double spacing = std::ldexp(1.0, std::max(exponent - 24, -149));
  return std::fabs(double(got) - want) / spacing;
}

/// act(x) for every 256th float bit pattern with |x| <= 100, through a
/// 1 x n x 1 GEMM's epilogue.
std::vector<std::pair<float, float>> sweep(int act) {
  std::vector<float> xs;
  for (uint32_t bits = 0; bits < 0x80000000u; bits += 256) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    if (x > 100.0f)
      break;
    xs.push_back(x);
    xs.push_back(-x);
  }
  std::vector<float> out(xs.size());
  float one = 1.0f;
  tcc_epilogue e{};
  e.alpha = 1.0f;
  e.activation = act;
  tcc_sgemm_args p{};
  p.m = 1;
  p.n = int64_t(xs.size());
  p.k = 1;
  p.a = &one;
  p.lda = 1;
  p.b = xs.data();
  p.ldb = p.n;
  p.c = out.data();
  p.ldc = p.n;
  p.epilogue = &e;
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);
  std::vector<std::pair<float, float>> result;
  for (size_t i = 0; i < xs.size(); ++i)
    result.push_back({xs[i], out[i]});
  return result;
}

// Sigmoid and silu are held to 4.5 ulp of float64 wherever the result is a
// normal float (see below), the bound of compiled exp (docs/reliability.md):
// the worst case, silu near x = -88.4, is exp's error just below its
// overflow, the same on every ISA. Past x = 18, where float64's result
// rounds to 1 or x, they must give exactly that.
TEST(ActivationSemantics, SigmoidAndSiluAgreeWithFloat64) {
  for (int act : {TCC_ACTIVATION_SIGMOID, TCC_ACTIVATION_SILU}) {
    double worst = 0;
    float worst_x = 0;
    for (auto [x, got] : sweep(act)) {
      const double want = definition(act, x);
      // Results below the smallest normal may flush to zero, and so does
      // sigmoid once exp(-x) overflows (x < -88.72), which leaves silu -0
      // down to -91.8, where float64's silu is still normal
      // (docs/reliability.md).
      if (std::fabs(want) < std::numeric_limits<float>::min() || x < -88.72f)
        continue;
      if (x > 18.0f) {
        ASSERT_EQ(got, float(want)) << act << " at x = " << x;
        continue;
      }
      const double err = ulps(got, want);
      if (err > worst) {
        worst = err;
        worst_x = x;
      }
    }
    if (std::getenv("TCC_PRINT_ERRORS"))
      std::printf("activation %d: %.3f ulp at x = %.9g\n", act, worst,
                  double(worst_x));
    EXPECT_LE(worst, 4.5) << "activation " << act << " at x = " << worst_x;
  }
}

} // namespace
