//===- BindingChecksTest.cpp - a forged plan is refused at load -----------===//
//
// The trust rules of docs/reliability.md: each case forges one thing an
// attacker who recomputes the hashes could change (the builder's edit hook
// rewrites the header before hashing), and the validator must name it.
//
//===----------------------------------------------------------------------===//

#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Artifact.h"

#include <gtest/gtest.h>

using namespace tcc::runtime;
using namespace tcc::artifact;
using namespace tcc::test;

namespace {

Status verify(const std::vector<uint8_t> &file) {
  const Model *m = nullptr;
  return verifyArtifactBytes(file.data(), file.size(), &m);
}

// addMulModel(4): buffers x, y (inputs), z (output), c (constant), t
// (arena); step 0 add(x, y) -> t, step 1 mul(t, c) -> z, 4 tiles each.
std::vector<uint8_t> forged(const std::function<void(ModelT &)> &edit) {
  return addMulModel(4).finish(edit);
}

KernelCallT *call(ModelT &m, size_t step) {
  return m.plan[step]->op.AsKernelCall();
}

TEST(BindingChecks, KernelWritesOnlyArenaAndOutputs) {
  EXPECT_TCC_OK(verify(forged([](ModelT &) {})));
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) { call(m, 0)->bindings[2] = 0; })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 0 (KernelCall): binding 2: written but stored in "
                   "input");
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) { call(m, 1)->bindings[2] = 3; })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 1 (KernelCall): binding 2: written but stored in "
                   "constants");
  // Declaring the constant read-only does not help once a kernel says it
  // writes it: the declaration, not the binding order, decides.
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) {
                     m.kernels[1]->bindings[1] = KernelBinding(16, true);
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 1 (KernelCall): binding 1: written but stored in "
                   "constants");
}

TEST(BindingChecks, KernelBindingsHoldWhatTheCodeTouches) {
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) {
                     m.kernels[0]->bindings[0] = KernelBinding(17, false);
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 0 (KernelCall): binding 0: kernel "
                   "'tcc_test_add_f32' accesses 17 bytes but the buffer has 16");
  EXPECT_TCC_ERROR(
      verify(forged([](ModelT &m) { m.kernels[0]->bindings.pop_back(); })),
      TCC_STATUS_DATA_LOSS,
      "kernel 0 'tcc_test_add_f32': declares 2 of its 3 bindings");
  EXPECT_TCC_ERROR(
      verify(forged([](ModelT &m) { m.kernels[1]->bindings.clear(); })),
      TCC_STATUS_DATA_LOSS, "written by an older tcc? recompile it");
}

TEST(BindingChecks, KernelCallsRunTheirKernelsTiles) {
  EXPECT_TCC_ERROR(
      verify(forged([](ModelT &m) { call(m, 0)->tiles = int64_t(1) << 40; })),
      TCC_STATUS_DATA_LOSS,
      "plan step 0 (KernelCall): tiles 1099511627776 but kernel "
      "'tcc_test_add_f32' was compiled for 4");
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) { call(m, 0)->tiles = 0; })),
                   TCC_STATUS_DATA_LOSS, "tiles 0 but kernel");
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) {
                     m.kernels[0]->tiles = 0;
                     call(m, 0)->tiles = 0;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "kernel 0 'tcc_test_add_f32': tiles 0 is less than 1");
}

TEST(BindingChecks, KernelSymbolsAreUniqueInTheirModule) {
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) {
                     m.kernels[1]->symbol = "tcc_test_add_f32";
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "kernel 1 'tcc_test_add_f32': another kernel of code module "
                   "0 has the same symbol");
}

TEST(BindingChecks, KernelIndexNamingAnotherKernelIsCheckedAgainstIt) {
  // Step 1 calling the add kernel with a declaration that writes binding 1
  // (the constant) is refused; one with the same declaration computes add
  // instead of mul, which only a signature can rule out.
  EXPECT_TCC_ERROR(verify(forged([](ModelT &m) {
                     m.kernels[0]->bindings = {reads(16), writes(16),
                                               writes(16)};
                     call(m, 0)->bindings = {0, 4, 2};
                     call(m, 1)->kernel = 0;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 1 (KernelCall): binding 1: written but stored in "
                   "constants");
}

// c = a[2 x 4] * w[4 x 3] with a and c (room for 2x6 floats) in the arena
// at the given byte offsets.
std::vector<uint8_t> gemm(uint64_t aOffset, uint64_t cOffset,
                          const std::function<void(SgemmT &)> &edit) {
  ArtifactBuilder b;
  uint32_t a = b.addArenaBuffer(DType::F32, {2, 4}, aOffset);
  uint32_t c = b.addArenaBuffer(DType::F32, {2, 6}, cOffset);
  std::vector<float> w(12, 0.5f);
  uint32_t wb = b.addConstantBuffer(DType::F32, {4, 3}, w.data());
  SgemmT g;
  g.a = a;
  g.b = wb;
  g.c = c;
  g.m = 2;
  g.n = 3;
  g.k = 4;
  g.lda = 4;
  g.ldb = 3;
  g.ldc = 3;
  edit(g);
  OpUnion op;
  op.Set(std::move(g));
  b.addStep(std::move(op));
  return b.finish();
}

TEST(BindingChecks, SgemmBatchesWriteDisjointMatrices) {
  EXPECT_TCC_OK(verify(gemm(0, 64, [](SgemmT &) {})));
  // A batch of 2^40 over one 2x3 matrix passes every bounds check with
  // zero strides, and would run 2^40 GEMMs.
  EXPECT_TCC_ERROR(verify(gemm(0, 64,
                               [](SgemmT &g) { g.batch = int64_t(1) << 40; })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): c: batches overlap (batch stride 0, "
                   "2x3 matrices with ldc 3)");
  EXPECT_TCC_ERROR(verify(gemm(0, 64,
                               [](SgemmT &g) {
                                 g.batch = 2;
                                 g.c_batch_stride = 5;
                               })),
                   TCC_STATUS_DATA_LOSS, "c: batches overlap (batch stride 5");
  // Stacked, or side by side in c's rows (a result written through a
  // transpose), the batches are disjoint.
  EXPECT_TCC_OK(verify(gemm(0, 64, [](SgemmT &g) {
    g.batch = 2;
    g.c_batch_stride = 6;
  })));
  EXPECT_TCC_OK(verify(gemm(0, 64, [](SgemmT &g) {
    g.batch = 2;
    g.ldc = 6;
    g.c_batch_stride = 3;
  })));
  EXPECT_TCC_ERROR(verify(gemm(0, 64,
                               [](SgemmT &g) {
                                 g.batch = 3;
                                 g.ldc = 6;
                                 g.c_batch_stride = 3;
                               })),
                   TCC_STATUS_DATA_LOSS, "c: batches overlap");
}

TEST(BindingChecks, SgemmOutputSharesNoMemoryWithItsOperands) {
  EXPECT_TCC_ERROR(verify(gemm(0, 16, [](SgemmT &) {})), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Sgemm): c and a: shares memory with another "
                   "operand (arena bytes [16, 64) and [0, 32))");
  // Touching is not sharing.
  EXPECT_TCC_OK(verify(gemm(0, 32, [](SgemmT &) {})));
}

// NCHW 1x2x5x5 input, 4 filters 2x3x3, pad 1, all in the arena at the
// given byte offsets (input 200 bytes, output 400, workspace 64).
std::vector<uint8_t> conv(uint64_t inputOffset, uint64_t outputOffset,
                          uint64_t workspaceOffset) {
  ArtifactBuilder b;
  uint32_t in = b.addArenaBuffer(DType::F32, {1, 2, 5, 5}, inputOffset);
  uint32_t out = b.addArenaBuffer(DType::F32, {1, 4, 5, 5}, outputOffset);
  uint32_t ws = b.addArenaBuffer(DType::U8, {64}, workspaceOffset);
  std::vector<float> w(72, 0.5f);
  uint32_t wb = b.addConstantBuffer(DType::F32, {4, 2, 3, 3}, w.data());
  Conv2dT c;
  c.input = in;
  c.weight = wb;
  c.output = out;
  c.workspace = int32_t(ws);
  c.batch = 1;
  c.in_channels = 2;
  c.in_height = c.in_width = 5;
  c.out_channels = 4;
  c.kernel_height = c.kernel_width = 3;
  c.stride_h = c.stride_w = c.dilation_h = c.dilation_w = c.groups = 1;
  c.pad_h = c.pad_w = 1;
  OpUnion op;
  op.Set(std::move(c));
  b.addStep(std::move(op));
  return b.finish();
}

TEST(BindingChecks, Conv2dOutputAndWorkspaceShareNoMemory) {
  EXPECT_TCC_OK(verify(conv(0, 256, 1024)));
  EXPECT_TCC_ERROR(verify(conv(0, 192, 1024)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Conv2d): output and input: shares memory");
  EXPECT_TCC_ERROR(verify(conv(0, 256, 640)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Conv2d): workspace and output: shares memory");
  EXPECT_TCC_ERROR(verify(conv(0, 256, 128)), TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Conv2d): workspace and input: shares memory");
}

} // namespace
