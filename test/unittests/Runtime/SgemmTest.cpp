//===- SgemmTest.cpp - tcc_sgemm against a float64 reference --------------===//
//
// Runs on whichever ISA the kernels dispatch to; ctest runs this binary once
// per ISA (TCC_ISA) and, when QEMU is installed, on an emulated
// AVX2-only CPU.
//
//===----------------------------------------------------------------------===//

#include "KernelReference.h"
#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/kernels.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using namespace tcc_test;

namespace {

constexpr float kSentinel = 12345.0f; // fills C's padding, which must survive

enum class Bias { None, PerColumn, PerRow };

struct GemmCase {
  int64_t m, n, k;
  bool trans_a = false, trans_b = false;
  int64_t pad = 0; // extra elements per row of every operand
  float alpha = 1.0f;
  Bias bias = Bias::None;
  bool residual = false, residual_in_place = false;
  float beta = 0.0f;
  int activation = TCC_ACTIVATION_NONE;
  float clamp_min = 0.0f, clamp_max = 0.0f;
  bool packed = false;

  bool needs_epilogue() const {
    return alpha != 1.0f || bias != Bias::None || residual ||
           activation != TCC_ACTIVATION_NONE;
  }
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k) + (trans_a ? " At" : "") + (trans_b ? " Bt" : "") +
           (packed ? " packed" : "") + " act " + std::to_string(activation);
  }
};

struct GemmRun {
  GemmCase cs;
  int64_t lda, ldb, ldc, ldr;
  std::vector<float> a, b, c, bias, residual;
  tcc_epilogue epilogue{};
  AlignedBuffer packed{0};

  explicit GemmRun(const GemmCase &c_, unsigned seed = 1) : cs(c_) {
    lda = (cs.trans_a ? cs.m : cs.k) + cs.pad;
    ldb = (cs.trans_b ? cs.k : cs.n) + cs.pad;
    ldc = cs.n + cs.pad;
    ldr = cs.residual_in_place ? ldc : cs.n + cs.pad;
    a = random_floats(size_t((cs.trans_a ? cs.k : cs.m) * lda), seed);
    b = random_floats(size_t((cs.trans_b ? cs.n : cs.k) * ldb), seed + 1);
    c.assign(size_t(cs.m * ldc), kSentinel);
    bias = random_floats(size_t(std::max(cs.m, cs.n)), seed + 2);
    residual = random_floats(size_t(cs.m * ldr), seed + 3);
    if (cs.residual_in_place)
      for (int64_t i = 0; i < cs.m; ++i)
        std::copy_n(&residual[i * ldr], cs.n, &c[i * ldc]);
    epilogue.alpha = cs.alpha;
    epilogue.bias = cs.bias == Bias::None ? nullptr : bias.data();
    epilogue.bias_per_row = cs.bias == Bias::PerRow;
    epilogue.residual = !cs.residual           ? nullptr
                        : cs.residual_in_place ? c.data()
                                               : residual.data();
    epilogue.ld_residual = ldr;
    epilogue.beta = cs.beta;
    epilogue.activation = cs.activation;
    epilogue.clamp_min = cs.clamp_min;
    epilogue.clamp_max = cs.clamp_max;
  }

  tcc_sgemm_args args() {
    tcc_sgemm_args p{};
    p.m = cs.m;
    p.n = cs.n;
    p.k = cs.k;
    p.a = a.data();
    p.lda = lda;
    p.trans_a = cs.trans_a;
    p.b = b.data();
    p.ldb = ldb;
    p.trans_b = cs.trans_b;
    p.c = c.data();
    p.ldc = ldc;
    p.epilogue = cs.needs_epilogue() ? &epilogue : nullptr;
    if (cs.packed) {
      packed = AlignedBuffer(tcc_sgemm_packed_b_size(cs.k, cs.n));
      EXPECT_EQ(
          tcc_sgemm_pack_b(cs.k, cs.n, b.data(), ldb, cs.trans_b, packed.get()),
          TCC_KERNEL_OK);
      p.packed_b = packed.get();
      p.b = nullptr;
    }
    return p;
  }

  tcc_kernel_status run(const tcc_parallel *parallel = nullptr) {
    tcc_sgemm_args p = args();
    return tcc_sgemm(&p, parallel);
  }

  double a_at(int64_t i, int64_t kk) const {
    return cs.trans_a ? a[kk * lda + i] : a[i * lda + kk];
  }
  double b_at(int64_t kk, int64_t j) const {
    return cs.trans_b ? b[j * ldb + kk] : b[kk * ldb + j];
  }

  // Every element within the bound of KernelReference.h; padding untouched.
  void expect_matches_reference() const {
    const double slope = cs.activation == TCC_ACTIVATION_NONE ? 1.0 : 1.2;
    const double act_rel = activation_relative_tolerance(cs.activation);
    int failures = 0;
    for (int64_t i = 0; i < cs.m; ++i)
      for (int64_t j = 0; j < ldc; ++j) {
        float got = c[i * ldc + j];
        if (j >= cs.n) {
          if (got != kSentinel && ++failures <= 5)
            ADD_FAILURE() << cs.name() << ": padding C(" << i << "," << j
                          << ") was overwritten";
          continue;
        }
        double acc = 0, magnitude = 0;
        for (int64_t kk = 0; kk < cs.k; ++kk) {
          acc += a_at(i, kk) * b_at(kk, j);
          magnitude += std::abs(a_at(i, kk) * b_at(kk, j));
        }
        double x = double(cs.alpha) * acc;
        double extra = std::abs(x);
        if (cs.bias != Bias::None) {
          double bv = bias[cs.bias == Bias::PerRow ? i : j];
          x += bv;
          extra += std::abs(bv);
        }
        if (cs.residual && cs.beta != 0.0f) {
          double rv = double(cs.beta) * residual[i * ldr + j];
          x += rv;
          extra += std::abs(rv);
        }
        double want = activate_reference(x, epilogue);
        double tol = slope * ((cs.k + 16) * kUnitRoundoff *
                                  std::abs(double(cs.alpha)) * magnitude +
                              4 * kUnitRoundoff * extra) +
                     act_rel * std::abs(want) + 1e-30;
        if (!(std::abs(got - want) <= tol) && ++failures <= 5)
          ADD_FAILURE() << cs.name() << ": C(" << i << "," << j << ") = " << got
                        << ", want " << want << " +- " << tol;
      }
  }
};

void check_case(const GemmCase &cs) {
  GemmRun run(cs);
  ASSERT_EQ(run.run(), TCC_KERNEL_OK) << tcc_kernels_last_error();
  run.expect_matches_reference();
}

TEST(Sgemm, ReportsTheIsaItRuns) {
  std::string isa = tcc_kernels_isa();
  EXPECT_TRUE(isa == "avx512" || isa == "avx2" || isa == "neon" ||
              isa == "portable")
      << isa;
  // Levels within a family (x86: 1-2, AArch64: 1); portable is 0.
  auto rank = [](const std::string &name) {
    return name == "avx512" ? 2 : name == "avx2" || name == "neon" ? 1 : 0;
  };
  // A forced ISA is an upper bound (the CPU may lack it); the QEMU run names
  // the exact ISA its emulated CPU must get.
  if (const char *forced = std::getenv("TCC_ISA")) {
    EXPECT_LE(rank(isa), rank(forced));
  }
  if (const char *expected = std::getenv("TCC_EXPECT_ISA")) {
    EXPECT_EQ(isa, expected);
  }
}

TEST(Sgemm, OddSizesAllTransposes) {
  const int64_t sizes[] = {1, 7, 17, 33, 129};
  for (int64_t m : sizes)
    for (int64_t n : sizes)
      for (int64_t k : sizes)
        for (int t = 0; t < 4; ++t) {
          GemmCase cs{m, n, k};
          cs.trans_a = t & 1;
          cs.trans_b = t & 2;
          check_case(cs);
        }
}

// Every path with few flops: each row count of the microkernels, partial
// column tiles, both transposes, packed / packed-on-the-fly B, the small-M
// paths, two K blocks, every activation.
void check_small_cases(std::initializer_list<int64_t> ms, int64_t deep_k) {
  int activation = TCC_ACTIVATION_NONE;
  for (int64_t m : ms)
    for (int64_t n : {3, 40})
      for (int64_t k : {int64_t(5), deep_k})
        for (int t = (m + n + k) % 2; t < 8; t += 2) { // half the variants
          GemmCase cs{m, n, k};
          cs.trans_a = t & 1;
          cs.trans_b = t & 2;
          cs.packed = t & 4;
          cs.pad = 1;
          cs.bias = m % 2 ? Bias::PerRow : Bias::PerColumn;
          cs.residual = n == 40;
          cs.beta = 0.5f;
          cs.activation = activation;
          cs.clamp_min = -0.1f;
          cs.clamp_max = 0.2f;
          activation = (activation + 1) % (TCC_ACTIVATION_TANH + 1);
          check_case(cs);
        }
}

TEST(Sgemm, SmallCasesOnEveryPath) {
  check_small_cases({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 25}, 400);
}

// The same for the AVX2 path under emulation (QEMU is ~200x slower): row
// counts 1-6 and 7, 13 of the 6x16 kernel, two K blocks of 150.
TEST(Sgemm, EmulationSizedCases) {
  check_small_cases({1, 3, 5, 6, 7, 13}, 300);
}

TEST(Sgemm, BlockedSizesWithStrides) {
  // Several K blocks, row blocks, column blocks and partial panels.
  const GemmCase cases[] = {{200, 50, 520},
                            {20, 1100, 280},
                            {1000, 40, 30},
                            {13, 515, 300},
                            {397, 33, 1}};
  for (GemmCase cs : cases)
    for (int t = 0; t < 4; ++t) {
      cs.trans_a = t & 1;
      cs.trans_b = t & 2;
      cs.pad = 5;
      check_case(cs);
    }
}

// GEMMs whose rows fit one block of A (96 rows on AVX-512 and AVX2) take
// deeper K blocks where the ISA says so (IsaKernels::few_rows_kc): row
// counts around the block, K over several deep blocks with an uneven tail,
// every B source and transpose, against float64; packed and plain B and
// every thread count give the same bits.
TEST(Sgemm, FewRowsDeepKBlocks) {
  for (int64_t m : {5, 49, 96, 97})
    for (int t = 0; t < 8; ++t) {
      GemmCase cs{m, 70, 2500};
      cs.trans_a = t & 1;
      cs.trans_b = t & 2;
      cs.packed = t & 4;
      cs.pad = 3;
      cs.bias = Bias::PerColumn;
      cs.activation = TCC_ACTIVATION_RELU;
      GemmRun serial(cs);
      ASSERT_EQ(serial.run(), TCC_KERNEL_OK) << tcc_kernels_last_error();
      serial.expect_matches_reference();
      cs.packed = !cs.packed;
      GemmRun other_b(cs);
      ASSERT_EQ(other_b.run(), TCC_KERNEL_OK);
      EXPECT_EQ(0, std::memcmp(serial.c.data(), other_b.c.data(),
                               serial.c.size() * sizeof(float)))
          << cs.name() << " against the other B source";
      tcc::runtime::ThreadPool pool(3);
      tcc_parallel parallel = pool.c_parallel();
      GemmRun threaded(cs);
      ASSERT_EQ(threaded.run(&parallel), TCC_KERNEL_OK);
      EXPECT_EQ(0, std::memcmp(serial.c.data(), threaded.c.data(),
                               serial.c.size() * sizeof(float)))
          << cs.name() << " on 3 threads";
    }
}

TEST(Sgemm, EveryEpilogueOption) {
  const int activations[] = {TCC_ACTIVATION_NONE,      TCC_ACTIVATION_RELU,
                             TCC_ACTIVATION_CLAMP,     TCC_ACTIVATION_GELU,
                             TCC_ACTIVATION_GELU_TANH, TCC_ACTIVATION_SILU,
                             TCC_ACTIVATION_SIGMOID,   TCC_ACTIVATION_TANH};
  for (int64_t k : {45, 400}) // one K block, then several
    for (int act : activations)
      for (Bias bias : {Bias::None, Bias::PerColumn, Bias::PerRow})
        for (bool residual : {false, true}) {
          GemmCase cs{37, 45, k};
          cs.pad = 3;
          cs.alpha = 0.75f;
          cs.bias = bias;
          cs.residual = residual;
          cs.beta = -1.5f;
          cs.activation = act;
          cs.clamp_min = -0.5f;
          cs.clamp_max = 0.25f;
          check_case(cs);
        }
}

TEST(Sgemm, ResidualMayBeTheOutput) {
  for (int64_t k : {20, 700}) {
    GemmCase cs{50, 70, k};
    cs.residual = cs.residual_in_place = true;
    cs.beta = 1.0f;
    cs.bias = Bias::PerColumn;
    cs.activation = TCC_ACTIVATION_RELU;
    check_case(cs);
  }
}

TEST(Sgemm, BetaZeroIgnoresNaNResidual) {
  GemmCase cs{9, 10, 11};
  cs.residual = true;
  cs.beta = 0.0f;
  cs.alpha = 2.0f;
  GemmRun run(cs);
  std::fill(run.residual.begin(), run.residual.end(),
            std::numeric_limits<float>::quiet_NaN());
  ASSERT_EQ(run.run(), TCC_KERNEL_OK);
  run.expect_matches_reference();
}

TEST(Sgemm, EmptyKAppliesOnlyTheEpilogue) {
  GemmCase cs{5, 6, 0};
  cs.bias = Bias::PerRow;
  cs.residual = true;
  cs.beta = 0.5f;
  cs.activation = TCC_ACTIVATION_SIGMOID;
  check_case(cs);
}

TEST(Sgemm, EmptyOutputWritesNothing) {
  for (GemmCase cs : {GemmCase{0, 5, 3}, GemmCase{4, 0, 3}}) {
    GemmRun run(cs);
    tcc_sgemm_args p = run.args();
    p.c = nullptr; // never touched
    EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);
  }
}

// Compiled code passes pre-packed weights where eager code does not; both
// must agree to the bit (at most 4 rows stream the panels side by side: 300
// columns are two groups of 4 panels, one single and a partial one). (Except for at most 4 rows with B transposed:
// those take dot products along K, rounding differently.)
TEST(Sgemm, PackedBGivesTheSameBits) {
  for (GemmCase cs :
       {GemmCase{1, 45, 300}, GemmCase{3, 100, 900}, GemmCase{1, 300, 500},
        GemmCase{2, 200, 40}, GemmCase{40, 33, 17},
        GemmCase{200, 130, 520}, GemmCase{7, 1, 1}, GemmCase{4, 1, 1}})
    for (bool trans_b : {false, true}) {
      if (trans_b && cs.m <= 4)
        continue;
      cs.trans_b = trans_b;
      cs.bias = Bias::PerColumn;
      cs.activation = TCC_ACTIVATION_GELU;
      GemmRun plain(cs);
      ASSERT_EQ(plain.run(), TCC_KERNEL_OK);
      cs.packed = true;
      GemmRun packed(cs);
      ASSERT_EQ(packed.run(), TCC_KERNEL_OK) << tcc_kernels_last_error();
      packed.expect_matches_reference();
      EXPECT_EQ(0, std::memcmp(plain.c.data(), packed.c.data(),
                               plain.c.size() * sizeof(float)))
          << cs.name();
    }
}

// A panel's last tile of at most one vector of columns (16 with AVX-512, 8
// with AVX2) runs a narrower microkernel (one vector wide, up to two
// micro-panels of rows) than the rest of C. With B's,
// the bias's and the residual's last columns copies of the first ones, those
// columns must come out with the first columns' bits: A read in place and
// packed, one and two K blocks, an odd last pair of micro-panels.
TEST(Sgemm, NarrowTilesGiveTheWideKernelsBits) {
  for (GemmCase cs : {GemmCase{49, 48, 300}, GemmCase{200, 176, 400},
                      GemmCase{200, 168, 400}, GemmCase{37, 40, 1100},
                      GemmCase{13, 80, 64}})
    for (int activation : {TCC_ACTIVATION_SILU, TCC_ACTIVATION_CLAMP})
      for (bool packed : {false, true}) {
        cs.bias = Bias::PerColumn;
        cs.residual = true;
        cs.beta = 0.5f;
        cs.activation = activation;
        cs.clamp_min = -0.5f;
        cs.clamp_max = 0.5f;
        cs.packed = packed;
        GemmRun run(cs);
        const int64_t tail = cs.n % 32, first = cs.n - tail;
        for (int64_t j = 0; j < tail; ++j) {
          for (int64_t kk = 0; kk < cs.k; ++kk)
            run.b[kk * run.ldb + first + j] = run.b[kk * run.ldb + j];
          for (int64_t i = 0; i < cs.m; ++i)
            run.residual[i * run.ldr + first + j] = run.residual[i * run.ldr + j];
          run.bias[first + j] = run.bias[j];
        }
        ASSERT_EQ(run.run(), TCC_KERNEL_OK) << tcc_kernels_last_error();
        run.expect_matches_reference();
        for (int64_t i = 0; i < cs.m; ++i)
          EXPECT_EQ(0, std::memcmp(&run.c[i * run.ldc],
                                   &run.c[i * run.ldc + first],
                                   tail * sizeof(float)))
              << cs.name() << ", row " << i;
      }
}

TEST(Sgemm, ThreadCountDoesNotChangeTheBits) {
  GemmCase small_transposed{3, 1500, 700};
  small_transposed.trans_b = true;
  // Streamed GEMMs split from 2^18 multiply-adds, blocked ones from 2^21:
  // a classifier's GEMV (ResNet-18's) and one with 4 rows between the two.
  GemmCase classifier{1, 1000, 512};
  classifier.trans_b = true;
  for (GemmCase cs : {GemmCase{300, 200, 400}, GemmCase{8, 900, 400},
                      GemmCase{700, 20, 400}, GemmCase{3, 1500, 700},
                      small_transposed, classifier, GemmCase{4, 700, 200}})
    for (bool packed : {false, true}) {
      cs.bias = Bias::PerRow;
      cs.activation = TCC_ACTIVATION_SILU;
      cs.packed = packed;
      GemmRun serial(cs);
      ASSERT_EQ(serial.run(), TCC_KERNEL_OK);
      serial.expect_matches_reference();
      for (int threads : {1, 2, 3}) {
        tcc::runtime::ThreadPool pool(threads);
        tcc_parallel parallel = pool.c_parallel();
        GemmRun run(cs);
        ASSERT_EQ(run.run(&parallel), TCC_KERNEL_OK);
        EXPECT_EQ(0, std::memcmp(serial.c.data(), run.c.data(),
                                 serial.c.size() * sizeof(float)))
            << cs.name() << " on " << threads << " threads";
      }
    }
}

// C = act(1 * x) over a sweep of x: each activation within its stated
// relative tolerance of float64 (tight enough to catch a bad polynomial).
/// C (m x n) = A (m x k) B (k x n), all row-major with no padding.
tcc_sgemm_args tightArgs(int64_t m, int64_t n, int64_t k, const float *a,
                         const float *b, float *c,
                         const tcc_epilogue *epilogue) {
  tcc_sgemm_args p{};
  p.m = m;
  p.n = n;
  p.k = k;
  p.a = a;
  p.lda = k;
  p.b = b;
  p.ldb = n;
  p.c = c;
  p.ldc = n;
  p.epilogue = epilogue;
  return p;
}

TEST(Sgemm, ActivationsAreAccurate) {
  std::vector<float> xs;
  for (float x = -30.0f; x <= 30.0f; x += 0.00731f)
    xs.push_back(x);
  for (float x : {1e-30f, -1e-30f, 1e-6f, -1e-6f, 0.0f, 88.0f, -88.0f})
    xs.push_back(x);
  const int64_t n = int64_t(xs.size());
  for (int act = TCC_ACTIVATION_RELU; act <= TCC_ACTIVATION_TANH; ++act) {
    float one = 1.0f;
    std::vector<float> out(xs.size());
    tcc_epilogue e{};
    e.alpha = 1.0f;
    e.activation = act;
    e.clamp_min = -2.0f;
    e.clamp_max = 3.0f;
    tcc_sgemm_args p = tightArgs(1, n, 1, &one, xs.data(), out.data(), &e);
    ASSERT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);
    double worst = 0;
    for (int64_t j = 0; j < n; ++j) {
      double want = activate_reference(xs[j], e);
      double err = std::abs(out[j] - want);
      // A few ulp of the result, plus the result's change when x moves by
      // 4 ulp (activations that compute x*x or x^3 round those first);
      // results below FLT_MIN may flush to zero.
      double h = 1e-6 * std::max(1.0, std::abs(double(xs[j])));
      double slope = (activate_reference(xs[j] + h, e) -
                      activate_reference(xs[j] - h, e)) /
                     (2 * h);
      double tol = activation_relative_tolerance(act) * std::abs(want) +
                   4 * kUnitRoundoff * std::abs(xs[j] * slope) + 1e-37;
      EXPECT_LE(err, tol) << "activation " << act << " at x = " << xs[j]
                          << ": got " << out[j] << ", want " << want;
      if (std::abs(want) > 1e-30)
        worst = std::max(worst, err / std::abs(want));
    }
    std::printf("activation %d: worst relative error %.3g\n", act, worst);
  }
}

TEST(Sgemm, ActivationsOfInfinityAndNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  struct Expect {
    int act;
    float x, want;
  };
  const Expect cases[] = {
      {TCC_ACTIVATION_RELU, nan, nan},      {TCC_ACTIVATION_RELU, -inf, 0},
      {TCC_ACTIVATION_SIGMOID, inf, 1},     {TCC_ACTIVATION_SIGMOID, -inf, 0},
      {TCC_ACTIVATION_TANH, inf, 1},        {TCC_ACTIVATION_TANH, -inf, -1},
      {TCC_ACTIVATION_GELU, inf, inf},      {TCC_ACTIVATION_SILU, inf, inf},
      {TCC_ACTIVATION_GELU_TANH, inf, inf}, {TCC_ACTIVATION_TANH, nan, nan},
      {TCC_ACTIVATION_GELU, nan, nan},      {TCC_ACTIVATION_SIGMOID, nan, nan}};
  for (const Expect &c : cases) {
    float one = 1.0f, x = c.x, out = 0.0f;
    tcc_epilogue e{};
    e.alpha = 1.0f;
    e.activation = c.act;
    tcc_sgemm_args p = tightArgs(1, 1, 1, &one, &x, &out, &e);
    ASSERT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);
    if (std::isnan(c.want))
      EXPECT_TRUE(std::isnan(out)) << "activation " << c.act << " of " << c.x;
    else
      EXPECT_EQ(out, c.want) << "activation " << c.act << " of " << c.x;
  }
}

// The microkernels apply ReLU and clamp in registers before they store (the
// case above takes the small-M path): NaN must stay NaN there too. C is 13
// rows (a full and a partial microkernel tile) of B's first row.
TEST(Sgemm, MicrokernelReluAndClampOfInfinityAndNaN) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const int64_t m = 13, n = 40, k = 2;
  std::vector<float> a(m * k, 0.0f), b(k * n, 0.0f), c(m * n, -7.0f);
  for (int64_t r = 0; r < m; ++r)
    a[r * k] = 1.0f;
  const float row[] = {nan, inf, -inf, -2.0f, 0.5f, 9.0f};
  for (int64_t j = 0; j < n; ++j)
    b[j] = row[j % 6];
  for (int act : {TCC_ACTIVATION_RELU, TCC_ACTIVATION_CLAMP}) {
    tcc_epilogue e{};
    e.alpha = 1.0f;
    e.activation = act;
    e.clamp_min = -1.0f;
    e.clamp_max = 6.0f;
    tcc_sgemm_args p = tightArgs(m, n, k, a.data(), b.data(), c.data(), &e);
    ASSERT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);
    for (int64_t r = 0; r < m; ++r)
      for (int64_t j = 0; j < n; ++j) {
        float x = row[j % 6], got = c[r * n + j];
        if (std::isnan(x)) {
          EXPECT_TRUE(std::isnan(got)) << "activation " << act;
          continue;
        }
        float want = act == TCC_ACTIVATION_RELU
                         ? std::max(x, 0.0f)
                         : std::min(e.clamp_max, std::max(e.clamp_min, x));
        EXPECT_EQ(got, want) << "activation " << act << " of " << x;
      }
  }
}

// --- invalid arguments -----------------------------------------------------

struct BadCall {
  const char *what;
  void (*mutate)(tcc_sgemm_args &, tcc_epilogue &);
  tcc_kernel_status status;
  const char *message; // a substring of tcc_kernels_last_error()
};

TEST(Sgemm, RejectsInvalidArguments) {
  const BadCall calls[] = {
      {"negative m", [](tcc_sgemm_args &p, tcc_epilogue &) { p.m = -1; },
       TCC_KERNEL_INVALID_ARGUMENT, "negative size"},
      {"null c", [](tcc_sgemm_args &p, tcc_epilogue &) { p.c = nullptr; },
       TCC_KERNEL_INVALID_ARGUMENT, "c is NULL"},
      {"null a", [](tcc_sgemm_args &p, tcc_epilogue &) { p.a = nullptr; },
       TCC_KERNEL_INVALID_ARGUMENT, "a is NULL"},
      {"null b", [](tcc_sgemm_args &p, tcc_epilogue &) { p.b = nullptr; },
       TCC_KERNEL_INVALID_ARGUMENT, "b is NULL"},
      {"small ldc", [](tcc_sgemm_args &p, tcc_epilogue &) { p.ldc = 3; },
       TCC_KERNEL_INVALID_ARGUMENT, "ldc (3)"},
      {"small lda", [](tcc_sgemm_args &p, tcc_epilogue &) { p.lda = 4; },
       TCC_KERNEL_INVALID_ARGUMENT, "lda (4)"},
      {"small lda, trans_a",
       [](tcc_sgemm_args &p, tcc_epilogue &) {
         p.trans_a = 1;
         p.lda = 5;
       },
       TCC_KERNEL_INVALID_ARGUMENT, "lda (5) must be >= 6"},
      {"small ldb", [](tcc_sgemm_args &p, tcc_epilogue &) { p.ldb = 2; },
       TCC_KERNEL_INVALID_ARGUMENT, "ldb (2)"},
      {"huge ldc",
       [](tcc_sgemm_args &p, tcc_epilogue &) { p.ldc = INT64_MAX / 2; },
       TCC_KERNEL_INVALID_ARGUMENT, "ldc"},
      {"bad activation",
       [](tcc_sgemm_args &p, tcc_epilogue &e) { e.activation = 99; },
       TCC_KERNEL_INVALID_ARGUMENT, "unknown activation 99"},
      {"clamp min > max",
       [](tcc_sgemm_args &p, tcc_epilogue &e) {
         e.activation = TCC_ACTIVATION_CLAMP;
         e.clamp_min = 1;
         e.clamp_max = 0;
       },
       TCC_KERNEL_INVALID_ARGUMENT, "clamp_min"},
      {"small ld_residual",
       [](tcc_sgemm_args &p, tcc_epilogue &e) { e.ld_residual = 1; },
       TCC_KERNEL_INVALID_ARGUMENT, "ld_residual"},
  };
  for (const BadCall &call : calls) {
    std::vector<float> a(6 * 7, 1.0f), b(7 * 8, 1.0f), c(6 * 8), r(6 * 8);
    tcc_epilogue e{};
    e.alpha = 1;
    e.residual = r.data();
    e.ld_residual = 8;
    e.beta = 1;
    tcc_sgemm_args p = tightArgs(6, 8, 7, a.data(), b.data(), c.data(), &e);
    call.mutate(p, e);
    EXPECT_EQ(tcc_sgemm(&p, nullptr), call.status) << call.what;
    EXPECT_NE(std::string(tcc_kernels_last_error()).find(call.message),
              std::string::npos)
        << call.what << ": message was '" << tcc_kernels_last_error() << "'";
  }
  EXPECT_EQ(tcc_sgemm(nullptr, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
}

TEST(Sgemm, RejectsABrokenParallel) {
  GemmRun run(GemmCase{4, 4, 4});
  tcc_parallel parallel{};
  parallel.num_threads = 2; // no parallel_for
  EXPECT_EQ(run.run(&parallel), TCC_KERNEL_INVALID_ARGUMENT);
  tcc::runtime::ThreadPool pool(2);
  parallel = pool.c_parallel();
  parallel.num_threads = 0;
  EXPECT_EQ(run.run(&parallel), TCC_KERNEL_INVALID_ARGUMENT);
}

TEST(Sgemm, PackedBHeaderIsChecked) {
  const int64_t k = 20, n = 40;
  std::vector<float> b = random_floats(size_t(k * n), 5);
  size_t size = tcc_sgemm_packed_b_size(k, n);
  EXPECT_EQ(size, 64 + sizeof(float) * size_t(k) * 64); // two 32-wide panels
  AlignedBuffer packed(size + 64);
  ASSERT_EQ(tcc_sgemm_pack_b(k, n, b.data(), n, 0, packed.get()),
            TCC_KERNEL_OK);

  std::vector<float> a = random_floats(size_t(3 * k), 6), c(size_t(3 * n));
  tcc_sgemm_args p{};
  p.m = 3;
  p.n = n;
  p.k = k;
  p.a = a.data();
  p.lda = k;
  p.packed_b = packed.get();
  p.c = c.data();
  p.ldc = n;
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);

  p.k = k - 1; // a different shape than was packed
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("20 x 40"),
            std::string::npos)
      << tcc_kernels_last_error();
  p.k = k;
  p.n = n - 1;
  p.ldc = n;
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
  p.n = n;

  auto *bytes = static_cast<unsigned char *>(packed.get());
  bytes[8] ^= 0xff; // the version field
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("version"),
            std::string::npos);
  bytes[8] ^= 0xff;
  bytes[0] ^= 0xff; // the magic
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_BAD_PACKED_DATA);
  bytes[0] ^= 0xff;
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_OK);

  p.packed_b = bytes + 4; // misaligned
  EXPECT_EQ(tcc_sgemm(&p, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
}

TEST(Sgemm, PackBRejectsInvalidArguments) {
  std::vector<float> b(100, 1.0f);
  AlignedBuffer packed(tcc_sgemm_packed_b_size(10, 10) + 64);
  EXPECT_EQ(tcc_sgemm_packed_b_size(-1, 3), 0u);
  EXPECT_EQ(tcc_sgemm_packed_b_size(INT64_MAX / 2, INT64_MAX / 2), 0u);
  EXPECT_EQ(tcc_sgemm_pack_b(-1, 10, b.data(), 10, 0, packed.get()),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_sgemm_pack_b(10, 10, nullptr, 10, 0, packed.get()),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_sgemm_pack_b(10, 10, b.data(), 9, 0, packed.get()),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_sgemm_pack_b(10, 10, b.data(), 10, 0, nullptr),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_sgemm_pack_b(10, 10, b.data(), 10, 0,
                             static_cast<char *>(packed.get()) + 16),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("aligned"),
            std::string::npos);
}

} // namespace
