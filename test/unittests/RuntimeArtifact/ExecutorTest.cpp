//===- ExecutorTest.cpp - running plans: kernels, tiles, threads ----------===//

#include "ReferenceKernels.h"
#include "ModelTestSupport.h"
#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <thread>

using namespace tcc::runtime;
using namespace tcc::test;
using tcc::artifact::Activation;
using tcc::artifact::Conv2dT;
using tcc::artifact::DType;
using tcc::artifact::EpilogueT;
using tcc::artifact::OpUnion;
using tcc::artifact::SgemmT;

namespace {

TEST(Executor, RunsKernelCallsThroughArenaAndConstants) {
  Model model = loadModel(addMulModel(5).finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> x = {1, 2, 3, 4, 5}, y = {0.5f, -2, 0, 10, 1};
  ASSERT_TCC_OK(session.bindInput(0, x.data(), x.size() * 4));
  ASSERT_TCC_OK(session.bindInput("y", y.data(), y.size() * 4));
  ASSERT_TCC_OK(session.run());
  const float *z = nullptr;
  ASSERT_TCC_OK(session.output(0, &z));
  // z = (x + y) * [1, 2, 3, 4, 5]
  const float expected[5] = {1.5f, 0.0f, 9.0f, 56.0f, 30.0f};
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(z[i], expected[i]) << i;

  // Inputs are read in place: changing them changes the next run.
  x[0] = 100;
  ASSERT_TCC_OK(session.run());
  ASSERT_TCC_OK(session.output(0, &z));
  EXPECT_EQ(z[0], 100.5f);
}

TEST(Executor, WritesIntoCallerOutputBuffers) {
  Model model = loadModel(addMulModel(3).finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> x = {1, 1, 1}, y = {2, 2, 2}, z(3, -1.0f);
  ASSERT_TCC_OK(session.bindInput("x", x.data(), 12));
  ASSERT_TCC_OK(session.bindInput("y", y.data(), 12));
  ASSERT_TCC_OK(session.bindOutput("z", z.data(), 12));
  ASSERT_TCC_OK(session.run());
  EXPECT_EQ(z, (std::vector<float>{3, 6, 9}));
  const float *where = nullptr;
  ASSERT_TCC_OK(session.output(0, &where));
  EXPECT_EQ(where, z.data());
  // Unbinding returns to the session's own buffer.
  ASSERT_TCC_OK(session.bindOutput(0, nullptr, 0));
  ASSERT_TCC_OK(session.run());
  ASSERT_TCC_OK(session.output(0, &where));
  EXPECT_NE(where, z.data());
  EXPECT_EQ(where[2], 9.0f);
}

TEST(Executor, CallsImportedRuntimeFunctions) {
  Model model = loadModel(expModel(4).finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> in = {0.0f, 1.0f, -2.5f, 3.25f};
  ASSERT_TCC_OK(session.bindInput(0, in.data(), 16));
  ASSERT_TCC_OK(session.run());
  const float *out = nullptr;
  ASSERT_TCC_OK(session.output(0, &out));
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(out[i], std::exp(in[i])) << i;
}

// Every tile runs exactly once, whatever the split over threads.
TEST(Executor, SplitsTilesOverThePool) {
  for (int threads : {1, 2, 3, 8}) {
    Pool pool;
    ASSERT_TCC_OK(Pool::create(threads, &pool));
    for (int64_t tiles : {1, 2, 7, 100, 1001}) {
      Model model = loadModel(countTilesModel(tiles).finish());
      Session session;
      ASSERT_TCC_OK(model.createSession(pool.parallel(), &session));
      std::vector<int32_t> zeros(size_t(tiles), 0);
      ASSERT_TCC_OK(session.bindInput(0, zeros.data(), zeros.size() * 4));
      ASSERT_TCC_OK(session.run());
      const int32_t *counts = nullptr;
      ASSERT_TCC_OK(session.output(0, &counts));
      for (int64_t i = 0; i < tiles; ++i)
        ASSERT_EQ(counts[i], 1)
            << "tile " << i << " of " << tiles << ", " << threads << " threads";
    }
  }
}

// Many threads, one model, a session each: the same bits as one thread.
TEST(Executor, ConcurrentSessionsGiveBitwiseIdenticalResults) {
  const int64_t n = 4096;
  Model model = loadModel(addMulModel(n).finish());
  Pool pool;
  ASSERT_TCC_OK(Pool::create(2, &pool));

  const int kThreads = 8;
  std::vector<std::vector<float>> xs, ys, expected;
  for (int t = 0; t < kThreads; ++t) {
    xs.push_back(randomFloats(n, 2 * t));
    ys.push_back(randomFloats(n, 2 * t + 1));
    Session session;
    ASSERT_TCC_OK(model.createSession(pool.parallel(), &session));
    ASSERT_TCC_OK(session.bindInput(0, xs[t].data(), n * 4));
    ASSERT_TCC_OK(session.bindInput(1, ys[t].data(), n * 4));
    ASSERT_TCC_OK(session.run());
    const float *z = nullptr;
    ASSERT_TCC_OK(session.output(0, &z));
    expected.emplace_back(z, z + n);
  }

  std::vector<int> mismatches(kThreads, 0);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      Session session;
      if (!model.createSession(pool.parallel(), &session).ok() ||
          !session.bindInput(0, xs[t].data(), n * 4).ok() ||
          !session.bindInput(1, ys[t].data(), n * 4).ok()) {
        mismatches[t] = -1;
        return;
      }
      for (int run = 0; run < 25; ++run) {
        const float *z = nullptr;
        if (!session.run().ok() || !session.output(0, &z).ok() ||
            std::memcmp(z, expected[t].data(), n * 4) != 0)
          ++mismatches[t];
      }
    });
  for (std::thread &t : threads)
    t.join();
  for (int t = 0; t < kThreads; ++t)
    EXPECT_EQ(mismatches[t], 0) << "thread " << t;
}

// --- Library steps against the float64 references ---------------------------

void expectNear(const float *actual, const std::vector<float> &expected,
                float tolerance) {
  for (size_t i = 0; i < expected.size(); ++i)
    ASSERT_NEAR(actual[i], expected[i],
                tolerance * (1 + std::fabs(expected[i])))
        << "element " << i;
}

struct GemmCase {
  int64_t batch, m, n, k;
  bool transA, transB, packed;
  Activation activation;
};

// c[batch] = act(a[batch] * w + bias + 0.5 * r[batch]), w and bias constants,
// r an input, a with a padded leading dimension.
void checkSgemm(const GemmCase &gc, const tcc_parallel *parallel) {
  SCOPED_TRACE(testing::Message()
               << "batch " << gc.batch << " m " << gc.m << " n " << gc.n
               << " k " << gc.k << " transA " << gc.transA << " transB "
               << gc.transB << " packed " << gc.packed);
  const int64_t aRows = gc.transA ? gc.k : gc.m,
                aCols = gc.transA ? gc.m : gc.k;
  const int64_t lda = aCols + 3, aStride = aRows * lda;
  const int64_t bRows = gc.transB ? gc.n : gc.k,
                bCols = gc.transB ? gc.k : gc.n;
  std::vector<float> a = randomFloats(size_t(gc.batch * aStride), 1);
  std::vector<float> w = randomFloats(size_t(bRows * bCols), 2);
  std::vector<float> bias = randomFloats(size_t(gc.n), 3);
  std::vector<float> r = randomFloats(size_t(gc.batch * gc.m * gc.n), 4);

  ArtifactBuilder b;
  uint32_t aBuf = b.addInput("a", DType::F32, {gc.batch * aStride});
  uint32_t rBuf = b.addInput("r", DType::F32, {gc.batch, gc.m, gc.n});
  uint32_t cBuf = b.addOutput("c", DType::F32, {gc.batch, gc.m, gc.n});
  uint32_t biasBuf = b.addConstantBuffer(DType::F32, {gc.n}, bias.data());
  uint32_t wBuf;
  if (gc.packed) {
    std::vector<uint8_t> packed(tcc_sgemm_packed_b_size(gc.k, gc.n));
    std::vector<uint8_t> aligned(packed.size() + 64);
    void *p = aligned.data() + (64 - uintptr_t(aligned.data()) % 64) % 64;
    ASSERT_EQ(tcc_sgemm_pack_b(gc.k, gc.n, w.data(), bCols, gc.transB, p),
              TCC_KERNEL_OK);
    wBuf = b.addConstantBuffer(DType::U8, {int64_t(packed.size())}, p);
  } else {
    wBuf = b.addConstantBuffer(DType::F32, {bRows, bCols}, w.data());
  }
  SgemmT g;
  g.a = aBuf;
  g.b = wBuf;
  g.c = cBuf;
  g.m = gc.m;
  g.n = gc.n;
  g.k = gc.k;
  g.lda = lda;
  g.ldb = bCols;
  g.ldc = gc.n;
  g.trans_a = gc.transA;
  g.trans_b = gc.transB;
  g.b_packed = gc.packed;
  g.batch = gc.batch;
  g.a_batch_stride = aStride;
  g.c_batch_stride = gc.m * gc.n;
  g.epilogue = std::make_unique<EpilogueT>();
  g.epilogue->bias = int32_t(biasBuf);
  g.epilogue->residual = int32_t(rBuf);
  g.epilogue->beta = 0.5f;
  g.epilogue->activation = gc.activation;
  OpUnion op;
  op.Set(std::move(g));
  b.addStep(std::move(op));

  Model model = loadModel(b.finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(parallel, &session));
  ASSERT_TCC_OK(session.bindInput("a", a.data(), a.size() * 4));
  ASSERT_TCC_OK(session.bindInput("r", r.data(), r.size() * 4));
  ASSERT_TCC_OK(session.run());
  const float *c = nullptr;
  ASSERT_TCC_OK(session.output(0, &c));

  std::vector<float> expected(size_t(gc.batch * gc.m * gc.n));
  for (int64_t i = 0; i < gc.batch; ++i) {
    tcc_epilogue e{};
    e.alpha = 1;
    e.bias = bias.data();
    e.residual = r.data() + i * gc.m * gc.n;
    e.ld_residual = gc.n;
    e.beta = 0.5f;
    e.activation = int32_t(gc.activation);
    tcc_sgemm_args args{};
    args.m = gc.m;
    args.n = gc.n;
    args.k = gc.k;
    args.a = a.data() + i * aStride;
    args.lda = lda;
    args.trans_a = gc.transA;
    args.b = w.data();
    args.ldb = bCols;
    args.trans_b = gc.transB;
    args.c = expected.data() + i * gc.m * gc.n;
    args.ldc = gc.n;
    args.epilogue = &e;
    referenceSgemm(args);
  }
  expectNear(c, expected, 1e-4f);
}

TEST(Executor, SgemmStepsMatchTheReference) {
  Pool pool;
  ASSERT_TCC_OK(Pool::create(2, &pool));
  const GemmCase cases[] = {
      {1, 7, 5, 3, false, false, false, Activation::None},
      {3, 17, 9, 33, true, false, false, Activation::Relu},
      {2, 4, 33, 8, false, true, false, Activation::Gelu},
      {2, 9, 17, 7, true, true, true, Activation::Tanh},
      {1, 1, 1, 1, false, false, true, Activation::Sigmoid},
  };
  for (const GemmCase &gc : cases) {
    checkSgemm(gc, nullptr);
    checkSgemm(gc, pool.parallel());
  }
}

struct ConvCase {
  int64_t batch, inC, h, w, outC, kh, kw, stride, pad, dilation, groups;
  bool nhwc, arenaWorkspace;
  bool packedWeight = false; // packed into the artifact (NHWC only)
};

void checkConv2d(const ConvCase &cc, const tcc_parallel *parallel) {
  SCOPED_TRACE(testing::Message()
               << "conv " << cc.inC << "->" << cc.outC << " " << cc.kh << "x"
               << cc.kw << " stride " << cc.stride << " pad " << cc.pad
               << " groups " << cc.groups << " nhwc " << cc.nhwc);
  int64_t oh =
      (cc.h + 2 * cc.pad - cc.dilation * (cc.kh - 1) - 1) / cc.stride + 1;
  int64_t ow =
      (cc.w + 2 * cc.pad - cc.dilation * (cc.kw - 1) - 1) / cc.stride + 1;
  std::vector<int64_t> inShape =
      cc.nhwc ? std::vector<int64_t>{cc.batch, cc.h, cc.w, cc.inC}
              : std::vector<int64_t>{cc.batch, cc.inC, cc.h, cc.w};
  std::vector<int64_t> outShape =
      cc.nhwc ? std::vector<int64_t>{cc.batch, oh, ow, cc.outC}
              : std::vector<int64_t>{cc.batch, cc.outC, oh, ow};
  int64_t icg = cc.inC / cc.groups;
  std::vector<int64_t> wShape =
      cc.nhwc ? std::vector<int64_t>{cc.outC, cc.kh, cc.kw, icg}
              : std::vector<int64_t>{cc.outC, icg, cc.kh, cc.kw};
  std::vector<float> in =
      randomFloats(size_t(cc.batch * cc.inC * cc.h * cc.w), 5);
  std::vector<float> w = randomFloats(size_t(cc.outC * icg * cc.kh * cc.kw), 6);
  std::vector<float> bias = randomFloats(size_t(cc.outC), 7);
  std::vector<float> r = randomFloats(size_t(cc.batch * cc.outC * oh * ow), 8);

  ArtifactBuilder b;
  uint32_t inBuf = b.addInput("in", DType::F32, inShape);
  uint32_t rBuf = b.addInput("r", DType::F32, outShape);
  uint32_t outBuf = b.addOutput("out", DType::F32, outShape);
  uint32_t wBuf = b.addConstantBuffer(DType::F32, wShape, w.data());
  uint32_t biasBuf = b.addConstantBuffer(DType::F32, {cc.outC}, bias.data());
  Conv2dT c;
  c.input = inBuf;
  c.weight = wBuf;
  c.output = outBuf;
  c.batch = cc.batch;
  c.in_channels = cc.inC;
  c.in_height = cc.h;
  c.in_width = cc.w;
  c.out_channels = cc.outC;
  c.kernel_height = cc.kh;
  c.kernel_width = cc.kw;
  c.stride_h = c.stride_w = cc.stride;
  c.pad_h = c.pad_w = cc.pad;
  c.dilation_h = c.dilation_w = cc.dilation;
  c.groups = cc.groups;
  c.nhwc = cc.nhwc;
  tcc_conv2d_args args{};
  args.batch = cc.batch;
  args.in_channels = cc.inC;
  args.in_height = cc.h;
  args.in_width = cc.w;
  args.out_channels = cc.outC;
  args.kernel_height = cc.kh;
  args.kernel_width = cc.kw;
  args.stride_h = args.stride_w = cc.stride;
  args.pad_h = args.pad_w = cc.pad;
  args.dilation_h = args.dilation_w = cc.dilation;
  args.groups = cc.groups;
  args.layout = cc.nhwc ? TCC_LAYOUT_NHWC : TCC_LAYOUT_NCHW;
  std::vector<uint8_t> packed;
  if (cc.packedWeight) {
    // The weight constant holds tcc_conv2d_pack_weight's bytes instead.
    packed.resize(tcc_conv2d_packed_weight_size(&args) + 64);
    void *aligned = reinterpret_cast<void *>(
        (reinterpret_cast<uintptr_t>(packed.data()) + 63) & ~uintptr_t(63));
    args.weight = w.data();
    ASSERT_EQ(tcc_conv2d_pack_weight(&args, aligned), TCC_KERNEL_OK);
    c.weight = b.addConstantBuffer(
        DType::U8, {int64_t(tcc_conv2d_packed_weight_size(&args))}, aligned);
    c.weight_packed = true;
    args.packed_weight = aligned; // sizes the workspace without weights
  }
  if (cc.arenaWorkspace) {
    // Enough for the pool: the session uses the plan's workspace.
    size_t bytes = tcc_conv2d_workspace_size(&args, parallel);
    c.workspace = int32_t(b.addArenaBuffer(DType::U8, {int64_t(bytes)}, 0));
  }
  c.epilogue = std::make_unique<EpilogueT>();
  c.epilogue->bias = int32_t(biasBuf);
  c.epilogue->residual = int32_t(rBuf);
  c.epilogue->activation = Activation::Relu;
  OpUnion op;
  op.Set(std::move(c));
  b.addStep(std::move(op));

  Model model = loadModel(b.finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(parallel, &session));
  ASSERT_TCC_OK(session.bindInput("in", in.data(), in.size() * 4));
  ASSERT_TCC_OK(session.bindInput("r", r.data(), r.size() * 4));
  ASSERT_TCC_OK(session.run());
  const float *out = nullptr;
  ASSERT_TCC_OK(session.output(0, &out));

  std::vector<float> expected(r.size());
  tcc_epilogue e{};
  e.alpha = 1;
  e.bias = bias.data();
  e.residual = r.data();
  e.beta = 1;
  e.activation = TCC_ACTIVATION_RELU;
  args.input = in.data();
  args.weight = w.data();
  args.packed_weight = nullptr;
  args.output = expected.data();
  args.epilogue = &e;
  referenceConv2d(args);
  expectNear(out, expected, 1e-4f);
}

TEST(Executor, Conv2dStepsMatchTheReference) {
  Pool pool;
  ASSERT_TCC_OK(Pool::create(3, &pool));
  const ConvCase cases[] = {
      {1, 3, 8, 7, 4, 3, 3, 1, 1, 1, 1, false, false},
      {2, 4, 9, 9, 6, 3, 3, 2, 1, 1, 2, true, false},
      {1, 8, 6, 5, 8, 1, 1, 1, 0, 1, 1, true, true},
      {1, 6, 11, 10, 6, 3, 3, 1, 2, 2, 6, false, true},
      {2, 4, 9, 9, 6, 3, 3, 2, 1, 1, 2, true, false, true},
      {1, 3, 12, 11, 8, 7, 7, 2, 3, 1, 1, true, true, true},
      {1, 8, 6, 5, 8, 1, 1, 1, 0, 1, 1, true, false, true},
  };
  for (const ConvCase &cc : cases) {
    checkConv2d(cc, nullptr);
    checkConv2d(cc, pool.parallel());
  }
}

} // namespace
