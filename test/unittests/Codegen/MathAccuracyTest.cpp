//===- MathAccuracyTest.cpp - Compiled math in ulps over the whole domain -===//
//
// The compiled transcendentals (MLIR's f32 polynomials, tcc's expansions in
// ApproximateF64.cpp) against references computed in higher precision, over
// a sweep of the whole domain: every 4096th bit pattern of the positive
// finite floats, a sparser sample of the negative ones, and the edge values.
// The error is measured in ulps of the exact result (its float's spacing at
// that magnitude; a correctly rounded result is within 0.5). The bounds here
// are the ones docs/reliability.md promises; TCC_PRINT_ERRORS=1 prints the
// measured maxima.
//
//===----------------------------------------------------------------------===//

#include "../EdgeValues.h"
#include "KernelTestHarness.h"
#include "LoadedKernels.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>

using namespace tcc_test;

namespace {

/// Compiles `tcc.<op>` on a 1-D tensor of `T` and runs it on `xs`.
template <class T>
std::vector<T> runUnary(mlir::MLIRContext &context, const std::string &op,
                        const std::vector<T> &xs) {
  std::string type = "tensor<" + std::to_string(xs.size()) + "x" +
                     (sizeof(T) == 4 ? "f32" : "f64") + ">";
  std::string name = "accuracy_" + op;
  std::string source = "func.func @" + name + "(%a0: " + type + ") -> " + type +
                       " {\n  %r = tcc." + op + " %a0 : " + type +
                       "\n  return %r : " + type + "\n}\n";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &context);
  EXPECT_TRUE(module) << source;
  if (!module)
    return {};
  mlir::FailureOr<mlir::tcc::KernelObject> object =
      mlir::tcc::compileKernels(*module, mlir::tcc::CpuTarget::host());
  EXPECT_TRUE(mlir::succeeded(object)) << "compileKernels failed: " << op;
  if (mlir::failed(object))
    return {};
  LoadedKernels loaded(*object);
  KernelFn fn = loaded.get(name);
  if (!fn)
    return {};
  const mlir::tcc::CompiledKernel &kernel = object->kernels.front();
  std::vector<T> in = xs, out(xs.size());
  std::vector<std::vector<uint8_t>> scratch;
  std::vector<void *> bindings = {in.data(), out.data()};
  for (int64_t bytes : kernel.scratchBytes)
    bindings.push_back(
        scratch.emplace_back(std::max<int64_t>(bytes, 1)).data());
  fn(bindings.data(), 0, kernel.tiles);
  return out;
}

/// |got - want| in units of T's spacing at |want| (subnormal spacing below
/// the normal range); 0 when both are the same NaN or infinity, infinite
/// when only one is.
template <class T> double ulpError(T got, long double want) {
  using L = std::numeric_limits<T>;
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got) ? 0 : INFINITY;
  if (std::isinf(want) || std::isinf(got))
    return got == want ? 0 : INFINITY;
  int exponent = want == 0
                     ? L::min_exponent - 1
                     : std::max<int>(std::ilogb(want), L::min_exponent - 1);
  long double ulp = std::ldexp(1.0L, exponent - (L::digits - 1));
  return double(std::fabs((long double)got - want) / ulp);
}

/// The sweep: every `step`th bit pattern of the positive finite values of T,
/// every `negativeStep`th of the negative ones, and the edge values.
template <class T, class Bits>
std::vector<T> sweep(Bits step, Bits negativeStep) {
  Bits top;
  T largest = std::numeric_limits<T>::max();
  std::memcpy(&top, &largest, sizeof top);
  Bits sign = Bits(1) << (8 * sizeof(T) - 1);
  std::vector<T> xs;
  auto push = [&](Bits bits) {
    T x;
    std::memcpy(&x, &bits, sizeof x);
    xs.push_back(x);
  };
  for (Bits b = 0; b <= top - step; b += step)
    push(b);
  for (Bits b = 0; b <= top - negativeStep; b += negativeStep)
    push(b | sign);
  for (T x : tcc::test::edgeValues<T>())
    xs.push_back(x);
  return xs;
}

struct Accuracy {
  const char *op;
  long double (*ref)(long double);
  double maxUlp;
  /// Results below this magnitude may come out as zero (or off by up to
  /// it): MLIR's f32 polynomials build results from a normal-range exponent,
  /// so they flush subnormal ones, and ops built on exp(-x) lose the results
  /// past exp's overflow.
  double flushBelow = 0;
};

/// The magnitude from which results round to infinity: the largest finite
/// value plus half its ulp.
template <class T>
const long double
    kOverflow = std::ldexp(1.0L, std::numeric_limits<T>::max_exponent) -
                std::ldexp(1.0L, std::numeric_limits<T>::max_exponent -
                                     std::numeric_limits<T>::digits - 1);

template <class T>
void checkAccuracy(mlir::MLIRContext &context, const Accuracy &a,
                   const std::vector<T> &xs) {
  std::vector<T> got = runUnary<T>(context, a.op, xs);
  ASSERT_EQ(got.size(), xs.size());
  double worst = 0;
  T worstX = 0;
  int failures = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    long double want = a.ref(xs[i]);
    if (std::fabs(want) >= kOverflow<T>) // rounds to infinity
      want = std::copysign(INFINITY, want);
    double error = ulpError<T>(got[i], want);
    if (std::fabs(got[i] - want) <= a.flushBelow)
      error = 0;
    if (error > worst || std::isnan(error)) {
      worst = error;
      worstX = xs[i];
    }
    if (!(error <= a.maxUlp) && failures++ < 5)
      ADD_FAILURE() << a.op << "(" << std::hexfloat << xs[i] << ") = " << got[i]
                    << ", expected " << (double)want << std::defaultfloat
                    << " (" << error << " ulp)";
  }
  EXPECT_EQ(failures, 0) << a.op << ": " << failures << " of " << xs.size()
                         << " values beyond " << a.maxUlp << " ulp";
  if (std::getenv("TCC_PRINT_ERRORS"))
    std::printf("%-8s %s max error %.6g ulp at %a\n", a.op,
                sizeof(T) == 4 ? "f32" : "f64", worst, double(worstX));
}

class MathAccuracyTest : public ::testing::Test {
protected:
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
};

// glibc's sin and cos reduce every double correctly (Payne-Hanek), so on a
// float input (exact in double) they are 2^29 times finer than a float ulp.
TEST_F(MathAccuracyTest, F32SinCosOverTheWholeDomain) {
  std::vector<float> xs = sweep<float, uint32_t>(4096, 65536);
  checkAccuracy<float>(
      *context,
      {"sin", [](long double x) -> long double { return std::sin(double(x)); },
       0.501},
      xs);
  checkAccuracy<float>(
      *context,
      {"cos", [](long double x) -> long double { return std::cos(double(x)); },
       0.501},
      xs);
}

// The other f32 transcendentals the lowering emits: MLIR's polynomial
// approximations (exp, log, log1p, tanh, erf, rsqrt) and the ops built on
// them (sigmoid, silu), against glibc in double.
TEST_F(MathAccuracyTest, F32TranscendentalsOverTheWholeDomain) {
  std::vector<float> xs = sweep<float, uint32_t>(4096, 65536);
  using LD = long double;
  const Accuracy ops[] = {
      {"exp", [](LD x) -> LD { return std::exp(double(x)); }, 4.5, 0x1p-126},
      {"log", [](LD x) -> LD { return std::log(double(x)); }, 1.0},
      {"log1p", [](LD x) -> LD { return std::log1p(double(x)); }, 2.0,
       0x1p-126},
      {"tanh", [](LD x) -> LD { return std::tanh(double(x)); }, 4.5, 0x1p-126},
      {"erf", [](LD x) -> LD { return std::erf(double(x)); }, 4.0, 0x1p-126},
      {"rsqrt", [](LD x) -> LD { return 1 / std::sqrt(x); }, 1.5},
      {"sigmoid", [](LD x) -> LD { return 1 / (1 + std::exp(-x)); }, 2.0,
       0x1p-126},
      {"silu", [](LD x) -> LD { return x / (1 + std::exp(-x)); }, 2.0,
       0x1p-121},
  };
  for (const Accuracy &a : ops)
    checkAccuracy<float>(*context, a, xs);
}

// glibc's sinl and cosl reduce correctly in extended precision (11 bits
// more than double on x86-64, 60 on AArch64).
TEST_F(MathAccuracyTest, F64SinCosOverTheWholeDomain) {
  std::vector<double> xs =
      sweep<double, uint64_t>(uint64_t(1) << 46, uint64_t(1) << 50);
  checkAccuracy<double>(
      *context, {"sin", [](long double x) { return std::sin(x); }, 3.0}, xs);
  checkAccuracy<double>(
      *context, {"cos", [](long double x) { return std::cos(x); }, 3.0}, xs);
}

// The f64 expansions of ApproximateF64.cpp other than sin and cos, against
// glibc's long double functions.
TEST_F(MathAccuracyTest, F64TranscendentalsOverTheWholeDomain) {
  std::vector<double> xs =
      sweep<double, uint64_t>(uint64_t(1) << 46, uint64_t(1) << 50);
  using LD = long double;
  const Accuracy ops[] = {
      {"exp", [](LD x) { return std::exp(x); }, 1.5},
      {"log", [](LD x) { return std::log(x); }, 1.5},
      {"log1p", [](LD x) { return std::log1p(x); }, 2.0},
      {"tanh", [](LD x) { return std::tanh(x); }, 2.5},
      {"erf", [](LD x) { return std::erf(x); }, 3.0},
      {"sigmoid", [](LD x) -> LD { return 1 / (1 + std::exp(-x)); }, 2.0},
  };
  for (const Accuracy &a : ops)
    checkAccuracy<double>(*context, a, xs);
}

// Values checked by hand with mpmath (40 digits) where the reduction used to
// fail: past 2^17 Cody-Waite's three-part pi/2 loses the remainder.
TEST_F(MathAccuracyTest, F32SinCosOfLargeArguments) {
  struct Case {
    float x;
    double sin, cos;
  };
  const Case cases[] = {
      {1e20f, 0.65657667785459029, 0.75425928307010552},
      {1e15f, 0.99443430708947633, 0.10535847798574674},
      {3e5f, 0.10706364941313236, -0.99425216870487232},
      {FLT_MAX, -0.52187652333365854, 0.85302103983030416},
      {-0.0f, -0.0, 1.0},
      {0x1p-149f, 0x1p-149, 1.0},
      {0x1.fffffcp-127f, 0x1.fffffcp-127, 1.0},
  };
  std::vector<float> xs;
  for (const Case &c : cases)
    xs.push_back(c.x);
  std::vector<float> sines = runUnary<float>(*context, "sin", xs);
  std::vector<float> cosines = runUnary<float>(*context, "cos", xs);
  ASSERT_EQ(sines.size(), xs.size());
  ASSERT_EQ(cosines.size(), xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    EXPECT_LE(ulpError<float>(sines[i], cases[i].sin), 1.0)
        << "sin(" << xs[i] << ") = " << sines[i];
    EXPECT_LE(ulpError<float>(cosines[i], cases[i].cos), 1.0)
        << "cos(" << xs[i] << ") = " << cosines[i];
    EXPECT_EQ(std::signbit(sines[i]), std::signbit(cases[i].sin))
        << "sin(" << xs[i] << ")";
  }
}

} // namespace
