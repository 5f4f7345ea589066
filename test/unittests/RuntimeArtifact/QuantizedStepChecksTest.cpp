//===- QuantizedStepChecksTest.cpp - forged qgemm/qconv2d steps are refused
//===//
//
// Like BindingChecksTest: each case forges one value of a Qgemm or Qconv2d
// step (or its packed weight) and the validator must name it at load.
//
//===----------------------------------------------------------------------===//

#include "TestStatus.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactBuilder.h"
#include "tcc/runtime/kernels_int8.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>

using namespace tcc::runtime;
using namespace tcc::artifact;

namespace {

Status verify(const std::vector<uint8_t> &file) {
  const Model *m = nullptr;
  return verifyArtifactBytes(file.data(), file.size(), &m);
}

// tcc_qgemm_pack_b's output for a k x n B of ones (`edit` may change it).
std::vector<uint8_t>
packedOnes(int64_t k, int64_t n,
           const std::function<void(uint8_t *)> &edit = {}) {
  size_t size = tcc_qgemm_packed_b_size(k, n);
  std::vector<uint8_t> scratch(size + 64);
  auto *aligned = reinterpret_cast<uint8_t *>(
      (reinterpret_cast<uintptr_t>(scratch.data()) + 63) & ~uintptr_t(63));
  std::vector<int8_t> b(size_t(k * n), 1);
  EXPECT_EQ(tcc_qgemm_pack_b(k, n, b.data(), n, 0, aligned), TCC_KERNEL_OK);
  if (edit)
    edit(aligned);
  return std::vector<uint8_t>(aligned, aligned + size);
}

std::unique_ptr<QEpilogueT> u8Epilogue() {
  auto e = std::make_unique<QEpilogueT>();
  e->output = QOutput::U8;
  e->scales = {0.5f};
  e->output_zero_point = 3;
  return e;
}

// c[2 x 3] (u8) = requantize(a[2 x 4] (u8, zero point 128) * B[4 x 3]),
// a at byte 0 and c at byte 64 of the arena, B packed in the constants.
std::vector<uint8_t>
qgemm(const std::function<void(QgemmT &, ArtifactBuilder &)> &edit,
      const std::vector<uint8_t> &packed = packedOnes(4, 3)) {
  ArtifactBuilder b;
  QgemmT g;
  g.a = b.addArenaBuffer(DType::U8, {2, 4}, 0);
  g.c = b.addArenaBuffer(DType::U8, {2, 3}, 64);
  g.b = b.addConstantBuffer(DType::U8, {int64_t(packed.size())}, packed.data());
  g.m = 2;
  g.n = 3;
  g.k = 4;
  g.lda = 4;
  g.ldc = 3;
  g.a_zero_point = 128;
  g.epilogue = u8Epilogue();
  edit(g, b);
  OpUnion op;
  op.Set(std::move(g));
  b.addStep(std::move(op));
  return b.finish();
}

TEST(QuantizedStepChecks, QgemmAsWrittenIsValid) {
  EXPECT_TCC_OK(verify(qgemm([](QgemmT &, ArtifactBuilder &) {})));
  // Per-channel scales, an int32 bias, ReLU, an f32 output.
  EXPECT_TCC_OK(verify(qgemm([](QgemmT &g, ArtifactBuilder &b) {
    int32_t bias[3] = {1, -2, 3};
    g.epilogue->bias = int32_t(b.addConstantBuffer(DType::I32, {3}, bias));
    g.epilogue->scales = {0.5f, 0.25f, 2.0f};
    g.epilogue->relu = true;
  })));
  EXPECT_TCC_OK(verify(qgemm([](QgemmT &g, ArtifactBuilder &b) {
    g.c = b.addArenaBuffer(DType::F32, {2, 3}, 64);
    g.epilogue->output = QOutput::F32;
    g.epilogue->output_zero_point = 0;
  })));
}

TEST(QuantizedStepChecks, QgemmPackedWeightIsCheckedAtLoad) {
  // Another format version, as a newer compiler would write it.
  EXPECT_TCC_ERROR(
      verify(qgemm([](QgemmT &, ArtifactBuilder &) {},
                   packedOnes(4, 3, [](uint8_t *p) { p[8] = 99; }))),
      TCC_STATUS_DATA_LOSS,
      "plan step 0 (Qgemm): packed b: qgemm: packed_b has format version 99");
  // Packed for another shape (the same size: one panel, k rounded to 4).
  EXPECT_TCC_ERROR(
      verify(qgemm([](QgemmT &, ArtifactBuilder &) {}, packedOnes(3, 3))),
      TCC_STATUS_DATA_LOSS,
      "packed b: qgemm: packed_b holds a 3 x 3 matrix, the call "
      "needs 4 x 3");
  EXPECT_TCC_ERROR(
      verify(qgemm([](QgemmT &, ArtifactBuilder &) {},
                   packedOnes(4, 3, [](uint8_t *p) { p[0] = 0; }))),
      TCC_STATUS_DATA_LOSS, "does not start with an int8 packed-B header");
  // Too few bytes for k x n.
  EXPECT_TCC_ERROR(verify(qgemm([](QgemmT &g, ArtifactBuilder &) {
                     g.k = 8;
                     g.lda = 8;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "a: accesses 16 elements but the "
                   "buffer has 8");
  EXPECT_TCC_ERROR(verify(qgemm([](QgemmT &g, ArtifactBuilder &b) {
                     g.b = b.addArenaBuffer(DType::U8, {4096}, 4096);
                   })),
                   TCC_STATUS_DATA_LOSS, "packed b: must be a constant");
  EXPECT_TCC_ERROR(verify(qgemm([](QgemmT &g, ArtifactBuilder &) {
                     g.k = TCC_INT8_MAX_K + 1;
                   })),
                   TCC_STATUS_DATA_LOSS,
                   "k 65794 exceeds the int8 kernels' "
                   "65793");
}

TEST(QuantizedStepChecks, QgemmBindingsHoldWhatTheKernelTouches) {
  EXPECT_TCC_ERROR(verify(qgemm([](QgemmT &g, ArtifactBuilder &) { g.m = 3; })),
                   TCC_STATUS_DATA_LOSS,
                   "plan step 0 (Qgemm): a: accesses 12 elements but the "
                   "buffer has 8");
  EXPECT_TCC_ERROR(
      verify(qgemm([](QgemmT &g, ArtifactBuilder &) { g.ldc = 4; })),
      TCC_STATUS_DATA_LOSS,
      "c: accesses 7 elements but the "
      "buffer has 6");
  EXPECT_TCC_ERROR(
      verify(qgemm([](QgemmT &g, ArtifactBuilder &) { g.lda = 3; })),
      TCC_STATUS_DATA_LOSS, "lda 3 is less than k 4");
  EXPECT_TCC_ERROR(verify(qgemm([](QgemmT &g, ArtifactBuilder &b) {
                     g.a = b.addArenaBuffer(DType::I8, {2, 4}, 0);
                   })),
                   TCC_STATUS_DATA_LOSS, "a: dtype");
  EXPECT_TCC_ERROR(verify(qgemm([](QgemmT &g, ArtifactBuilder &b) {
                     g.c = b.addArenaBuffer(DType::U8, {2, 3}, 4);
                   })),
                   TCC_STATUS_DATA_LOSS, "c and a: shares memory");
  EXPECT_TCC_ERROR(
      verify(qgemm([](QgemmT &g, ArtifactBuilder &) { g.a_zero_point = 256; })),
      TCC_STATUS_DATA_LOSS, "a zero point 256 is outside a's range [0, 255]");
}

TEST(QuantizedStepChecks, QgemmEpilogueIsChecked) {
  auto error = [](const std::function<void(QgemmT &, ArtifactBuilder &)> &e) {
    return verify(qgemm(e));
  };
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &b) {
                     g.c = b.addArenaBuffer(DType::F32, {2, 3}, 64);
                   }),
                   TCC_STATUS_DATA_LOSS, "output: dtype");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &) {
                     g.epilogue->scales = {0.5f, 0.5f};
                   }),
                   TCC_STATUS_DATA_LOSS,
                   "2 scales for 3 output channels (one, or one per channel)");
  for (float bad : {0.0f, -1.0f, INFINITY, NAN})
    EXPECT_TCC_ERROR(error([&](QgemmT &g, ArtifactBuilder &) {
                       g.epilogue->scales = {bad};
                     }),
                     TCC_STATUS_DATA_LOSS, "is not finite and positive");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &) {
                     g.epilogue->output_zero_point = 256;
                   }),
                   TCC_STATUS_DATA_LOSS,
                   "output zero point 256 is outside the output type's range");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &b) {
                     float bias[3] = {};
                     g.epilogue->bias =
                         int32_t(b.addConstantBuffer(DType::F32, {3}, bias));
                   }),
                   TCC_STATUS_DATA_LOSS, "epilogue bias: dtype");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &b) {
                     int32_t bias[2] = {};
                     g.epilogue->bias =
                         int32_t(b.addConstantBuffer(DType::I32, {2}, bias));
                   }),
                   TCC_STATUS_DATA_LOSS,
                   "epilogue bias: accesses 3 elements but the buffer has 2");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &b) {
                     g.c = b.addArenaBuffer(DType::F32, {2, 3}, 64);
                     g.epilogue->output = QOutput::F32;
                     g.epilogue->output_zero_point = 0;
                     g.epilogue->residual =
                         int32_t(b.addArenaBuffer(DType::F32, {2, 3}, 128));
                   }),
                   TCC_STATUS_DATA_LOSS,
                   "only a u8 or s8 output takes a residual");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &b) {
                     g.epilogue->residual =
                         int32_t(b.addArenaBuffer(DType::U8, {2, 2}, 128));
                     g.epilogue->residual_scale = 1.0f;
                   }),
                   TCC_STATUS_DATA_LOSS,
                   "epilogue residual: accesses 6 elements but the buffer has "
                   "4");
  EXPECT_TCC_ERROR(error([](QgemmT &g, ArtifactBuilder &) {
                     g.epilogue->output = QOutput(9);
                   }),
                   TCC_STATUS_DATA_LOSS, "unknown quantized output kind 9");
}

// A 1x2x5x5 NCHW u8 input and 2 output channels, 3x3 kernel, pad 1:
// depthwise (the weight's 18 bytes) or one group (packed, k = 18).
std::vector<uint8_t>
qconv(bool depthwise,
      const std::function<void(Qconv2dT &, ArtifactBuilder &)> &edit) {
  ArtifactBuilder b;
  Qconv2dT c;
  c.input = b.addArenaBuffer(DType::U8, {1, 2, 5, 5}, 0);
  c.output = b.addArenaBuffer(DType::U8, {1, 2, 5, 5}, 64);
  std::vector<uint8_t> weight =
      depthwise ? std::vector<uint8_t>(18, 1) : packedOnes(18, 2);
  c.weight =
      b.addConstantBuffer(DType::U8, {int64_t(weight.size())}, weight.data());
  c.depthwise = depthwise;
  c.nchw_input = c.nchw_output = true;
  c.batch = 1;
  c.in_channels = c.out_channels = 2;
  c.in_height = c.in_width = 5;
  c.kernel_height = c.kernel_width = 3;
  c.stride_h = c.stride_w = c.dilation_h = c.dilation_w = 1;
  c.pad_h = c.pad_w = 1;
  c.input_zero_point = 7;
  c.epilogue = u8Epilogue();
  edit(c, b);
  OpUnion op;
  op.Set(std::move(c));
  b.addStep(std::move(op));
  return b.finish();
}

TEST(QuantizedStepChecks, Qconv2dBindingsHoldWhatTheKernelTouches) {
  for (bool depthwise : {false, true})
    EXPECT_TCC_OK(
        verify(qconv(depthwise, [](Qconv2dT &, ArtifactBuilder &) {})));
  EXPECT_TCC_ERROR(
      verify(qconv(true,
                   [](Qconv2dT &c, ArtifactBuilder &) { c.kernel_width = 5; })),
      TCC_STATUS_DATA_LOSS,
      "plan step 0 (Qconv2d): weight: accesses 30 elements but "
      "the buffer has 18");
  EXPECT_TCC_ERROR(
      verify(qconv(false,
                   [](Qconv2dT &c, ArtifactBuilder &) { c.in_channels = 3; })),
      TCC_STATUS_DATA_LOSS,
      "input: accesses 75 elements but the "
      "buffer has 50");
  EXPECT_TCC_ERROR(
      verify(qconv(
          false, [](Qconv2dT &c, ArtifactBuilder &) { c.kernel_height = 1; })),
      TCC_STATUS_DATA_LOSS,
      "packed weight: qgemm: packed_b holds a 18 x 2 matrix, the "
      "call needs 6 x 2");
  EXPECT_TCC_ERROR(
      verify(qconv(false, [](Qconv2dT &c, ArtifactBuilder &) { c.pad_h = 2; })),
      TCC_STATUS_DATA_LOSS,
      "output: accesses 70 elements but the buffer has 50");
  EXPECT_TCC_ERROR(
      verify(qconv(true,
                   [](Qconv2dT &c, ArtifactBuilder &) { c.out_channels = 4; })),
      TCC_STATUS_DATA_LOSS, "a depthwise convolution maps 2 channels to 4");
  EXPECT_TCC_ERROR(
      verify(qconv(
          true, [](Qconv2dT &c, ArtifactBuilder &) { c.input_signed = true; })),
      TCC_STATUS_DATA_LOSS, "input: dtype");
  EXPECT_TCC_ERROR(
      verify(qconv(true, [](Qconv2dT &c,
                            ArtifactBuilder &) { c.input_zero_point = -1; })),
      TCC_STATUS_DATA_LOSS,
      "input zero point -1 is outside the input's range [0, 255]");
  EXPECT_TCC_ERROR(
      verify(qconv(
          true, [](Qconv2dT &c, ArtifactBuilder &) { c.kernel_height = 9; })),
      TCC_STATUS_DATA_LOSS,
      "the dilated kernel (9) is larger "
      "than the padded input (7)");
  EXPECT_TCC_ERROR(verify(qconv(false,
                                [](Qconv2dT &c, ArtifactBuilder &) {
                                  c.epilogue->scales = {1, 1, 1};
                                })),
                   TCC_STATUS_DATA_LOSS, "3 scales for 2 output channels");
}

TEST(QuantizedStepChecks, Qconv2dQdqResidualIsChecked) {
  // The residual add in QDQ form: the residual (a u8 tensor like the
  // output, NCHW here) and the product's and output's parameters.
  auto withResidual = [](const std::function<void(Qconv2dT &)> &edit) {
    return verify(qconv(false, [&](Qconv2dT &c, ArtifactBuilder &b) {
      c.nchw_residual = true;
      c.epilogue->residual =
          int32_t(b.addArenaBuffer(DType::U8, {1, 2, 5, 5}, 128));
      c.epilogue->residual_zero_point = 9;
      c.epilogue->residual_scale = 0.25f;
      c.epilogue->residual_qdq = true;
      c.epilogue->product_zero_point = 100;
      c.epilogue->product_scale = 0.5f;
      c.epilogue->output_scale = 0.75f;
      edit(c);
    }));
  };
  EXPECT_TCC_OK(withResidual([](Qconv2dT &) {}));
  EXPECT_TCC_ERROR(withResidual([](Qconv2dT &c) {
                     c.epilogue->product_zero_point = 300;
                   }),
                   TCC_STATUS_DATA_LOSS,
                   "epilogue residual product zero point 300 is outside");
  for (float bad : {0.0f, -1.0f, INFINITY, NAN}) {
    EXPECT_TCC_ERROR(withResidual([&](Qconv2dT &c) {
                       c.epilogue->product_scale = bad;
                     }),
                     TCC_STATUS_DATA_LOSS, "is not finite and positive");
    EXPECT_TCC_ERROR(withResidual([&](Qconv2dT &c) {
                       c.epilogue->output_scale = bad;
                     }),
                     TCC_STATUS_DATA_LOSS, "is not finite and positive");
  }
  // QDQ parameters without a residual are a forgery, not a no-op.
  EXPECT_TCC_ERROR(verify(qconv(false,
                                [](Qconv2dT &c, ArtifactBuilder &) {
                                  c.epilogue->residual_qdq = true;
                                })),
                   TCC_STATUS_DATA_LOSS,
                   "QDQ residual parameters without a residual");
}

} // namespace
