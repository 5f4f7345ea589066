//===- QgemmTest.cpp - tcc_qgemm bit for bit against an int reference -----===//
//
// Every case runs on every int8 variant this CPU can run (tcc_qgemm_on),
// whatever TCC_ISA says, and must give exactly the reference's bits
// (QuantReference.h). The binary prints which variants ran. Under QEMU
// (an AVX2-only Haswell, AArch64 with and without dotprod) the cases sized
// for emulation run.
//
//===----------------------------------------------------------------------===//

#include "KernelReference.h"
#include "QuantReference.h"
#include "tcc/runtime/ThreadPool.h"
#include "tcc/runtime/kernels_int8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace tcc_test;

namespace {

constexpr uint8_t kSentinel = 0xA5; // fills C's padding, which must survive

struct QCase {
  int64_t m, n, k;
  int output = TCC_QOUTPUT_INT32;
  bool a_signed = false;
  int32_t za = 0;
  bool bias = false, per_column = true, relu = false;
  bool residual = false, residual_in_place = false;
  bool qdq = false; // the residual add in QDQ form (residual_qdq)
  int32_t zo = 0, zr = 0;
  int64_t pad = 0; // extra elements per row of A, C and the residual
  bool trans_b = false;
  // Values of A (in its type) and B are drawn from these ranges.
  int a_lo = 0, a_hi = 255, b_lo = -128, b_hi = 127;

  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" +
           std::to_string(k) + " out " + std::to_string(output) +
           (a_signed ? " s8" : " u8") + " za " + std::to_string(za) +
           (relu ? " relu" : "") + (residual ? " residual" : "") +
           (residual_in_place ? " in place" : "") + (qdq ? " qdq" : "") +
           (per_column ? "" : " per-tensor") + (trans_b ? " Bt" : "");
  }
};

size_t out_size(int output) {
  return output == TCC_QOUTPUT_INT32 || output == TCC_QOUTPUT_F32 ? 4 : 1;
}

struct QRun {
  QCase cs;
  int64_t lda, ldc;
  std::vector<uint8_t> a;  // bytes of A's type
  std::vector<int8_t> b;   // k x n, or n x k when trans_b
  std::vector<int32_t> bias;
  std::vector<float> scale;
  std::vector<uint8_t> residual, c; // bytes of the output's type
  AlignedBuffer packed{0};
  tcc_qepilogue epilogue{};

  explicit QRun(const QCase &c_, unsigned seed = 1) : cs(c_) {
    lda = cs.k + cs.pad;
    ldc = cs.n + cs.pad;
    if (cs.a_signed)
      a = random_u8(size_t(cs.m * lda), seed, cs.a_lo + 128, cs.a_hi + 128);
    else
      a = random_u8(size_t(cs.m * lda), seed, cs.a_lo, cs.a_hi);
    if (cs.a_signed) // stored as int8: the bytes of value - 128
      for (uint8_t &x : a)
        x ^= 0x80;
    b = random_s8(size_t(cs.k * cs.n), seed + 1, cs.b_lo, cs.b_hi);
    std::mt19937 gen(seed + 2);
    std::uniform_int_distribution<int32_t> bias_dist(-100000, 100000);
    bias.resize(size_t(cs.n));
    for (int32_t &x : bias)
      x = bias_dist(gen);
    // Scales that bring typical sums (~ sqrt(k) * 128 * 74) into a few
    // dozen steps, so outputs spread over the range and some saturate.
    std::uniform_real_distribution<float> scale_dist(0.25f, 4.0f);
    const float base =
        cs.output == TCC_QOUTPUT_F32
            ? 1e-3f
            : 40.0f / float(std::sqrt(double(std::max<int64_t>(cs.k, 1))) *
                            128.0 * 74.0);
    scale.resize(size_t(std::max<int64_t>(cs.n, 1)));
    for (float &x : scale)
      x = base * scale_dist(gen);
    residual = random_u8(size_t(cs.m * ldc), seed + 3);
    packed = AlignedBuffer(tcc_qgemm_packed_b_size(cs.k, cs.n));
    EXPECT_EQ(tcc_qgemm_pack_b(cs.k, cs.n, b.data(), cs.trans_b ? cs.k : cs.n,
                               cs.trans_b, packed.get()),
              TCC_KERNEL_OK)
        << tcc_kernels_last_error();

    epilogue.output = cs.output;
    epilogue.bias = cs.bias ? bias.data() : nullptr;
    epilogue.scale = scale.data();
    epilogue.scale_per_column = cs.per_column;
    epilogue.output_zero_point = cs.zo;
    epilogue.relu = cs.relu;
    epilogue.ld_residual = ldc;
    epilogue.residual_zero_point = cs.zr;
    epilogue.residual_scale = 0.75f;
    epilogue.residual_qdq = cs.qdq;
    epilogue.product_zero_point = cs.output == TCC_QOUTPUT_U8 ? 111 : -9;
    epilogue.product_scale = 0.3f;
    epilogue.output_scale = 0.55f;
  }

  int32_t a_value(int64_t i, int64_t kk) const {
    uint8_t byte = a[size_t(i * lda + kk)];
    return cs.a_signed ? int32_t(int8_t(byte)) : int32_t(byte);
  }
  int32_t b_value(int64_t kk, int64_t j) const {
    return b[size_t(cs.trans_b ? j * cs.k + kk : kk * cs.n + j)];
  }
  int32_t residual_value(int64_t i, int64_t j) const {
    uint8_t byte = residual[size_t(i * ldc + j)];
    return cs.output == TCC_QOUTPUT_S8 ? int32_t(int8_t(byte))
                                       : int32_t(byte);
  }

  tcc_kernel_status run(const char *variant, const tcc_parallel *parallel) {
    const size_t size = out_size(cs.output);
    c.assign(size_t(cs.m * ldc) * size, kSentinel);
    if (cs.residual_in_place)
      for (int64_t i = 0; i < cs.m; ++i)
        std::memcpy(&c[size_t(i * ldc)], &residual[size_t(i * ldc)],
                    size_t(cs.n));
    epilogue.residual = !cs.residual           ? nullptr
                        : cs.residual_in_place ? static_cast<void *>(c.data())
                                               : residual.data();
    tcc_qgemm_args args{};
    args.m = cs.m;
    args.n = cs.n;
    args.k = cs.k;
    args.a = a.data();
    args.lda = lda;
    args.a_signed = cs.a_signed;
    args.a_zero_point = cs.za;
    args.packed_b = packed.get();
    args.c = c.data();
    args.ldc = ldc;
    args.epilogue = &epilogue;
    return tcc_qgemm_on(variant, &args, parallel);
  }

  // Compares C with the reference; returns the number of mismatches.
  int64_t check(const std::string &label) const {
    const size_t size = out_size(cs.output);
    int64_t bad = 0;
    for (int64_t i = 0; i < cs.m; ++i) {
      for (int64_t j = 0; j < ldc; ++j) {
        const uint8_t *got = &c[size_t(i * ldc + j) * size];
        if (j >= cs.n) { // padding
          for (size_t t = 0; t < size; ++t)
            bad += got[t] != kSentinel;
          continue;
        }
        int64_t sum = cs.bias ? bias[size_t(j)] : 0;
        for (int64_t kk = 0; kk < cs.k; ++kk)
          sum += int64_t(a_value(i, kk) - cs.za) * b_value(kk, j);
        QValue want = reference_epilogue(&epilogue, j, wrap32(sum),
                                         residual_value(i, j));
        bool same;
        int64_t got_int = 0;
        float got_float = 0;
        switch (cs.output) {
        case TCC_QOUTPUT_INT32: {
          int32_t v;
          std::memcpy(&v, got, 4);
          got_int = v;
          same = v == want.i;
          break;
        }
        case TCC_QOUTPUT_F32:
          std::memcpy(&got_float, got, 4);
          same = std::memcmp(&got_float, &want.f, 4) == 0;
          break;
        case TCC_QOUTPUT_U8:
          got_int = *got;
          same = got_int == want.i;
          break;
        default:
          got_int = int8_t(*got);
          same = got_int == want.i;
          break;
        }
        if (!same && ++bad <= 3)
          ADD_FAILURE() << label << " [" << i << "][" << j << "]: got "
                        << (cs.output == TCC_QOUTPUT_F32 ? got_float
                                                         : double(got_int))
                        << ", want "
                        << (cs.output == TCC_QOUTPUT_F32 ? want.f
                                                         : double(want.i))
                        << " (acc " << sum << ")";
      }
    }
    return bad;
  }
};

// Runs the case on every variant that runs here and checks it.
void check_case(const QCase &cs, const tcc_parallel *parallel = nullptr,
                unsigned seed = 1) {
  QRun run(cs, seed);
  for (const std::string &variant : runnable_int8_variants()) {
    const std::string label = variant + " " + cs.name();
    ASSERT_EQ(run.run(variant.c_str(), parallel), TCC_KERNEL_OK)
        << label << ": " << tcc_kernels_last_error();
    EXPECT_EQ(run.check(label), 0) << label;
  }
}

// The epilogue configurations each shape runs with.
std::vector<QCase> configurations(int64_t m, int64_t n, int64_t k) {
  std::vector<QCase> cases;
  QCase c{m, n, k};
  c.za = 131;
  c.bias = true;
  cases.push_back(c); // INT32 with bias
  c.output = TCC_QOUTPUT_U8;
  c.zo = 17;
  c.relu = true;
  c.pad = 3;
  cases.push_back(c); // U8, per-column scales, ReLU, padded rows
  c.output = TCC_QOUTPUT_S8;
  c.relu = false;
  c.zo = -5;
  c.zr = 3;
  c.per_column = false;
  c.residual = true;
  c.trans_b = true;
  cases.push_back(c); // S8, per-tensor scale, residual, transposed B
  c.output = TCC_QOUTPUT_F32;
  c.residual = false;
  c.relu = true;
  c.per_column = true;
  c.a_signed = true;
  c.za = -7;
  c.a_lo = -128;
  c.a_hi = 127;
  cases.push_back(c); // F32, signed A
  c.output = TCC_QOUTPUT_U8;
  c.relu = false;
  c.zo = 128;
  c.zr = 200;
  c.residual = true;
  c.residual_in_place = true;
  cases.push_back(c); // U8 with the residual in C, signed A
  c.qdq = true;
  c.relu = true;
  cases.push_back(c); // the same, the residual add in QDQ form, ReLU
  c.output = TCC_QOUTPUT_S8;
  c.zo = -20;
  c.zr = 7;
  c.relu = false;
  c.residual_in_place = false;
  c.per_column = false;
  cases.push_back(c); // S8, QDQ residual add, per-tensor scale
  return cases;
}

TEST(Qgemm, ReportsTheVariantsItRuns) {
  const std::vector<std::string> variants = runnable_int8_variants();
  ASSERT_FALSE(variants.empty());
  EXPECT_EQ(variants.back(), "portable"); // runs everywhere
  bool active_listed = false;
  for (const std::string &v : variants)
    active_listed |= v == tcc_int8_isa();
  EXPECT_TRUE(active_listed) << tcc_int8_isa();
  // Each variant needs the features of the fp32 level it belongs to.
  if (std::string(tcc_kernels_isa()) == "portable") {
    EXPECT_STREQ(tcc_int8_isa(), "portable");
  }
}

// Small shapes of every kind: odd sizes, K not a multiple of 4, partial
// tiles and panels, every output kind, and the worst case over a long K.
TEST(Qgemm, EmulationSizedCases) {
  const int64_t shapes[][3] = {{1, 1, 1},   {2, 3, 5},    {5, 7, 3},
                               {13, 33, 17}, {12, 32, 4}, {25, 65, 131},
                               {3, 40, 301}};
  for (const auto &s : shapes)
    for (const QCase &c : configurations(s[0], s[1], s[2]))
      check_case(c);
  // 255 x (+127 or -128) over K = 4096: 2 x 255 x 127 overflows int16.
  QCase worst{3, 37, 4096};
  worst.a_lo = 255;
  worst.b_lo = 127;
  check_case(worst);
  worst.b_lo = -128;
  worst.b_hi = -128;
  check_case(worst);
}

TEST(Qgemm, LargerShapesAndThreads) {
  const int64_t shapes[][3] = {{64, 96, 576}, {97, 40, 301}, {7, 129, 2053},
                               {130, 70, 67}};
  for (const auto &s : shapes)
    for (const QCase &c : configurations(s[0], s[1], s[2]))
      check_case(c);
  tcc::runtime::ThreadPool pool(3);
  tcc_parallel parallel = pool.c_parallel();
  for (const QCase &c : configurations(150, 200, 300))
    check_case(c, &parallel);
  for (const QCase &c : configurations(5, 700, 1100))
    check_case(c, &parallel);
}

// Products at the ends of the range over long reductions, up to the
// longest K allowed, with zero points at the ends of theirs: every
// variant's sums must be exact (no int16 saturation, no lost carry).
TEST(Qgemm, WorstCaseLongK) {
  for (int64_t k : {int64_t(4096), int64_t(8191),
                    int64_t(TCC_INT8_MAX_K)}) {
    QCase c{2, 35, k};
    c.a_lo = c.a_hi = 255; // 255 x 127 and 255 x -128
    c.b_lo = 127;
    check_case(c);
    c.b_lo = c.b_hi = -128;
    check_case(c);
    c.a_lo = c.a_hi = 0; // (0 - 255) x -128
    c.za = 255;
    check_case(c);
    c.b_lo = -128; // random B, A and zero points at both ends
    c.b_hi = 127;
    c.a_lo = 0;
    c.a_hi = 255;
    check_case(c);
    c.a_signed = true;
    c.a_lo = c.a_hi = -128;
    c.za = 127;
    check_case(c);
    c.a_lo = c.a_hi = 127;
    c.za = -128;
    check_case(c);
  }
}

// One column per wanted accumulator: A is its zero point, so the sum is
// the bias, and the epilogue sees exactly `acc`.
std::vector<uint8_t> epilogue_of(int output, const std::vector<int32_t> &acc,
                                 float scale, int32_t zo, bool relu,
                                 const char *variant,
                                 const std::vector<uint8_t> *residual =
                                     nullptr,
                                 int32_t zr = 0, float rscale = 1.0f) {
  const int64_t n = int64_t(acc.size()), k = 3;
  std::vector<int8_t> b = random_s8(size_t(k * n), 9);
  AlignedBuffer packed(tcc_qgemm_packed_b_size(k, n));
  EXPECT_EQ(tcc_qgemm_pack_b(k, n, b.data(), n, 0, packed.get()),
            TCC_KERNEL_OK);
  std::vector<uint8_t> a(size_t(k), 77), c(size_t(n), kSentinel);
  tcc_qepilogue e{};
  e.output = output;
  e.bias = acc.data();
  e.scale = &scale;
  e.output_zero_point = zo;
  e.relu = relu;
  e.residual = residual ? residual->data() : nullptr;
  e.ld_residual = n;
  e.residual_zero_point = zr;
  e.residual_scale = rscale;
  tcc_qgemm_args args{};
  args.m = 1;
  args.n = n;
  args.k = k;
  args.a = a.data();
  args.lda = k;
  args.a_zero_point = 77;
  args.packed_b = packed.get();
  args.c = c.data();
  args.ldc = n;
  args.epilogue = &e;
  EXPECT_EQ(tcc_qgemm_on(variant, &args, nullptr), TCC_KERNEL_OK)
      << tcc_kernels_last_error();
  return c;
}

TEST(Qgemm, RequantizationRoundsHalfToEven) {
  // acc * 0.5 = 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 1, -4.5
  const std::vector<int32_t> acc = {1, 3, 5, -1, -3, -5, 7, 2, -9};
  const std::vector<uint8_t> want_u8 = {10, 12, 12, 10, 8, 8, 14, 11, 6};
  const std::vector<int8_t> want_s8 = {-3, -1, -1, -3, -5, -5, 1, -2, -7};
  for (const std::string &v : runnable_int8_variants()) {
    EXPECT_EQ(epilogue_of(TCC_QOUTPUT_U8, acc, 0.5f, 10, false, v.c_str()),
              want_u8)
        << v;
    std::vector<uint8_t> s8 =
        epilogue_of(TCC_QOUTPUT_S8, acc, 0.5f, -3, false, v.c_str());
    EXPECT_EQ(std::vector<int8_t>(s8.begin(), s8.end()), want_s8) << v;
    // With a residual: acc * 0.5 + (r - 4) * 0.25 = 0.5 + 1 = 1.5 -> 2,
    // 1.5 + 1 = 2.5 -> 2, 2.5 - 0.25 * 4 = 1.5 -> 2.
    const std::vector<int32_t> racc = {1, 3, 5};
    const std::vector<uint8_t> residual = {8, 8, 0};
    EXPECT_EQ(epilogue_of(TCC_QOUTPUT_U8, racc, 0.5f, 0, false, v.c_str(),
                          &residual, 4, 0.25f),
              (std::vector<uint8_t>{2, 2, 2}))
        << v;
  }
}

TEST(Qgemm, RequantizationSaturatesAtBothEnds) {
  // acc * 0.5 = 254.5 -> 254, 255.5 -> 256 -> 255, huge, -huge, -0.5 -> 0.
  const std::vector<int32_t> acc = {509, 511, 2000000000, -2000000000, -1};
  for (const std::string &v : runnable_int8_variants()) {
    EXPECT_EQ(epilogue_of(TCC_QOUTPUT_U8, acc, 0.5f, 0, false, v.c_str()),
              (std::vector<uint8_t>{254, 255, 255, 0, 0}))
        << v;
    // S8 with zero point -1: 253, 254, 126 -> 127 cap; -128 floor.
    const std::vector<int32_t> sacc = {255, 257, -253, -255, -257, 1 << 30};
    // 127.5 -> 128 - 1 = 127; 128.5 -> 128 - 1 = 127; -126.5 -> -126 - 1;
    // -127.5 -> -128 - 1 -> -128; -128.5 -> -128 - 1 -> -128; huge -> 127.
    std::vector<uint8_t> s8 =
        epilogue_of(TCC_QOUTPUT_S8, sacc, 0.5f, -1, false, v.c_str());
    EXPECT_EQ(std::vector<int8_t>(s8.begin(), s8.end()),
              (std::vector<int8_t>{127, 127, -127, -128, -128, 127}))
        << v;
    // ReLU clamps at the zero point (the real 0).
    EXPECT_EQ(epilogue_of(TCC_QOUTPUT_U8, {-40, -1, 0, 3, 1000}, 1.0f, 20,
                          true, v.c_str()),
              (std::vector<uint8_t>{20, 20, 20, 23, 255}))
        << v;
    // The extreme zero points: 0 and 255 for U8, -128 and 127 for S8.
    EXPECT_EQ(epilogue_of(TCC_QOUTPUT_U8, {-3, 3, 300}, 1.0f, 255, false,
                          v.c_str()),
              (std::vector<uint8_t>{252, 255, 255}))
        << v;
    s8 = epilogue_of(TCC_QOUTPUT_S8, {-3, 3, 300}, 1.0f, -128, false,
                     v.c_str());
    EXPECT_EQ(std::vector<int8_t>(s8.begin(), s8.end()),
              (std::vector<int8_t>{-128, -125, 127}))
        << v;
  }
}

TEST(Qgemm, EmptyKIsBiasAlone) {
  QCase c{5, 9, 0};
  c.bias = true;
  check_case(c);
  c.output = TCC_QOUTPUT_U8;
  c.zo = 100;
  check_case(c);
}

TEST(Qgemm, PackedBFormat) {
  const int64_t k = 10, n = 40; // 2 panels, 3 groups of K
  EXPECT_EQ(tcc_qgemm_packed_b_size(k, n), size_t(64 + 2 * 128 + 2 * 3 * 128));
  std::vector<int8_t> b = random_s8(size_t(k * n), 3), bt(size_t(k * n));
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t j = 0; j < n; ++j)
      bt[size_t(j * k + kk)] = b[size_t(kk * n + j)];
  const size_t size = tcc_qgemm_packed_b_size(k, n);
  AlignedBuffer p1(size), p2(size);
  ASSERT_EQ(tcc_qgemm_pack_b(k, n, b.data(), n, 0, p1.get()), TCC_KERNEL_OK);
  ASSERT_EQ(tcc_qgemm_pack_b(k, n, bt.data(), k, 1, p2.get()), TCC_KERNEL_OK);
  EXPECT_EQ(std::memcmp(p1.get(), p2.get(), size), 0);
  const char *bytes = static_cast<const char *>(p1.get());
  EXPECT_EQ(std::string(bytes, 8), "TCCPACKQ");
  uint32_t version;
  std::memcpy(&version, bytes + 8, 4);
  EXPECT_EQ(version, uint32_t(TCC_PACKED_QB_VERSION));
  // Column sums, then B(kk, j) at panel j / 32, byte
  // ((kk / 4) * 32 + j % 32) * 4 + kk % 4.
  for (int64_t j = 0; j < 64; ++j) {
    int32_t sum = 0, want = 0;
    std::memcpy(&sum, bytes + 64 + 4 * j, 4);
    for (int64_t kk = 0; j < n && kk < k; ++kk)
      want += b[size_t(kk * n + j)];
    EXPECT_EQ(sum, want) << "column " << j;
  }
  const int8_t *panels =
      reinterpret_cast<const int8_t *>(bytes + 64 + 2 * 128);
  for (int64_t kk = 0; kk < 12; ++kk)
    for (int64_t j = 0; j < 64; ++j) {
      int8_t want = kk < k && j < n ? b[size_t(kk * n + j)] : 0;
      EXPECT_EQ(panels[(j / 32) * 3 * 128 + ((kk / 4) * 32 + j % 32) * 4 +
                       kk % 4],
                want)
          << kk << ", " << j;
    }
  EXPECT_EQ(tcc_qgemm_packed_b_size(TCC_INT8_MAX_K + 1, 1), 0u);
  EXPECT_EQ(tcc_qgemm_packed_b_size(-1, 1), 0u);
  EXPECT_EQ(tcc_qgemm_packed_b_size(1, INT64_MAX), 0u);
}

TEST(Qgemm, RejectsBadArguments) {
  const int64_t m = 2, n = 3, k = 5;
  std::vector<int8_t> b(size_t(k * n), 1);
  AlignedBuffer packed(tcc_qgemm_packed_b_size(k, n) + 64);
  ASSERT_EQ(tcc_qgemm_pack_b(k, n, b.data(), n, 0, packed.get()),
            TCC_KERNEL_OK);
  std::vector<uint8_t> a(size_t(m * k), 1);
  std::vector<int32_t> c(size_t(m * n));
  float scale = 0.1f;
  tcc_qepilogue e{};
  e.output = TCC_QOUTPUT_U8;
  e.scale = &scale;
  tcc_qgemm_args good{};
  good.m = m;
  good.n = n;
  good.k = k;
  good.a = a.data();
  good.lda = k;
  good.packed_b = packed.get();
  good.c = c.data();
  good.ldc = n;
  good.epilogue = &e;
  ASSERT_EQ(tcc_qgemm(&good, nullptr), TCC_KERNEL_OK);

  auto expect_error = [&](tcc_qgemm_args args, tcc_kernel_status status,
                          const char *message) {
    EXPECT_EQ(tcc_qgemm(&args, nullptr), status) << message;
    EXPECT_NE(std::string(tcc_kernels_last_error()).find(message),
              std::string::npos)
        << tcc_kernels_last_error();
  };
  EXPECT_EQ(tcc_qgemm(nullptr, nullptr), TCC_KERNEL_INVALID_ARGUMENT);
  tcc_qgemm_args bad = good;
  bad.k = TCC_INT8_MAX_K + 1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "exceeds");
  bad = good;
  bad.n = -1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "negative size");
  bad = good;
  bad.a_zero_point = 256;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "a_zero_point (256)");
  bad.a_signed = 1;
  bad.a_zero_point = 128;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "int8 range");
  bad = good;
  bad.lda = k - 1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "lda (4)");
  bad = good;
  bad.ldc = n - 1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "ldc (2)");
  bad = good;
  bad.a = nullptr;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "a is NULL");
  bad = good;
  bad.c = nullptr;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "c is NULL");
  bad = good;
  bad.packed_b = nullptr;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "packed_b is NULL");
  bad = good;
  bad.packed_b = static_cast<char *>(packed.get()) + 1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "aligned");
  bad = good;
  bad.k = k + 1; // the packed matrix is another shape
  expect_error(bad, TCC_KERNEL_BAD_PACKED_DATA, "5 x 3");
  AlignedBuffer other(tcc_qgemm_packed_b_size(k, n));
  std::memcpy(other.get(), packed.get(), tcc_qgemm_packed_b_size(k, n));
  uint32_t version = TCC_PACKED_QB_VERSION + 1;
  std::memcpy(static_cast<char *>(other.get()) + 8, &version, 4);
  bad = good;
  bad.packed_b = other.get();
  expect_error(bad, TCC_KERNEL_BAD_PACKED_DATA, "format version 2");
  std::memset(other.get(), 0, 8);
  expect_error(bad, TCC_KERNEL_BAD_PACKED_DATA, "header");

  tcc_qepilogue be = e;
  bad = good;
  bad.epilogue = &be;
  for (float s : {0.0f, -1.0f, INFINITY, NAN}) {
    scale = s;
    expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "finite and positive");
  }
  scale = 0.1f;
  be.output = 7;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "unknown output kind 7");
  be = e;
  be.output_zero_point = -1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "output_zero_point (-1)");
  be = e;
  be.scale = nullptr;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "needs a scale");
  be = e;
  be.output = TCC_QOUTPUT_INT32;
  be.relu = 1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "INT32 output");
  be = e;
  be.output = TCC_QOUTPUT_F32;
  be.residual = a.data();
  be.ld_residual = n;
  be.residual_scale = 1.0f;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "not F32");
  be.output = TCC_QOUTPUT_U8;
  be.residual_scale = 0.0f;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "residual_scale");
  be.residual_scale = 1.0f;
  be.ld_residual = n - 1;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "ld_residual (2)");
  be.ld_residual = n;
  be.residual_zero_point = 300;
  expect_error(bad, TCC_KERNEL_INVALID_ARGUMENT, "residual_zero_point (300)");

  EXPECT_EQ(tcc_qgemm_on("no-such-isa", &good, nullptr),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("no-such-isa"),
            std::string::npos);
  EXPECT_EQ(tcc_qgemm_pack_b(TCC_INT8_MAX_K + 1, 1, b.data(), 1, 0,
                             packed.get()),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_EQ(tcc_qgemm_pack_b(k, n, b.data(), n - 1, 0, packed.get()),
            TCC_KERNEL_INVALID_ARGUMENT);
  EXPECT_NE(std::string(tcc_kernels_last_error()).find("ldb (2)"),
            std::string::npos);
}

TEST(Qgemm, RequantScaleIsOnnxRuntimes) {
  // (0.02 * 0.003) / 0.05, each step in float.
  const float product = 0.02f * 0.003f;
  EXPECT_EQ(tcc_int8_requant_scale(0.02f, 0.003f, 0.05f), product / 0.05f);
}

} // namespace
