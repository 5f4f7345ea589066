//===- CudaLogicTest.cpp - the cuda plugin's decisions, without a GPU -----===//
//
// The plain functions behind the cuda device: which image a GPU loads, where
// buffers live, how an Sgemm becomes a cuBLASLt matmul, how launch
// parameters are packed, how CUDA errors read, and when a session captures
// and replays a graph.
//
//===----------------------------------------------------------------------===//

#include "CudaErrors.h"
#include "DeviceSteps.h"
#include "GraphPolicy.h"
#include "ImageChoice.h"
#include "MemoryLayout.h"

#include "TestModels.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <gtest/gtest.h>

#include <functional>

using namespace tcc;
using namespace tcc::cuda;
using namespace tcc::artifact;

namespace {

TEST(CudaImageChoice, ArchNumbers) {
  EXPECT_EQ(archNumber("sm_80"), 80);
  EXPECT_EQ(archNumber("sm_100"), 100);
  EXPECT_EQ(archNumber("sm_9a"), -1);
  EXPECT_EQ(archNumber("compute_90"), -1);
}

TEST(CudaImageChoice, TheCubinOfTheGpusArchitectureLoadsWithoutJit) {
  std::vector<ImageInfo> images = {
      {"sm_80", false}, {"sm_80", true}, {"sm_90", false}, {"sm_90", true}};
  ImageChoice choice;
  ASSERT_TRUE(chooseImage(images, 9, 0, &choice).ok());
  EXPECT_EQ(choice.index, 3u);
  EXPECT_FALSE(choice.jit);
  ASSERT_TRUE(chooseImage(images, 8, 0, &choice).ok());
  EXPECT_EQ(choice.index, 1u);
  EXPECT_FALSE(choice.jit);
}

TEST(CudaImageChoice, ANewerGpuJitsTheNewestPtxNotNewerThanItself) {
  std::vector<ImageInfo> images = {
      {"sm_80", false}, {"sm_80", true}, {"sm_90", false}, {"sm_90", true}};
  ImageChoice choice;
  // sm_89: no sm_89 cubin; an sm_80 cubin is not taken, the sm_80 PTX is.
  ASSERT_TRUE(chooseImage(images, 8, 9, &choice).ok());
  EXPECT_EQ(choice.index, 0u);
  EXPECT_TRUE(choice.jit);
  ASSERT_TRUE(chooseImage(images, 10, 0, &choice).ok());
  EXPECT_EQ(choice.index, 2u);
  EXPECT_TRUE(choice.jit);
}

TEST(CudaImageChoice, AnOlderGpuIsRefusedNamingBothArchitectures) {
  std::vector<ImageInfo> images = {
      {"sm_90", false}, {"sm_80", false}, {"sm_90", true}};
  ImageChoice choice;
  runtime::Status s = chooseImage(images, 7, 5, &choice);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_NE(s.message().find("the GPU is sm_75 (compute capability 7.5)"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("code for sm_80, sm_90 only"), std::string::npos)
      << s.message();
}

// Two memory spaces with arenas of 100 and 40 bytes, two inputs of 12 and 4
// bytes, one output, and constants at offsets 64 and 128 of the segment.
runtime::ArtifactBuilder layoutModel() {
  runtime::ArtifactBuilder b;
  b.addInput("x", DType::F32, {3});
  b.addInput("y", DType::F32, {1});
  b.addOutput("z", DType::F32, {2});
  b.addArenaBuffer(DType::F32, {25}, 0);
  uint32_t space = b.addMemorySpace(MemoryKind::Host, 40);
  b.addBuffer(DType::F32, {2}, Storage::Arena, 8, 0, space);
  float pad[16] = {0}, c[4] = {1, 2, 3, 4};
  b.appendConstants(pad, sizeof(pad));
  b.addConstantBuffer(DType::F32, {4}, c);
  b.addConstantBuffer(DType::F32, {4}, c);
  b.addBuffer(DType::F32, {1}, Storage::Input, 8, 0);
  return b;
}

TEST(CudaMemoryLayout, RegionsAndOffsetsFollowTheMemoryPlan) {
  std::vector<uint8_t> file = layoutModel().finish();
  const Model *model = nullptr;
  ASSERT_TRUE(
      runtime::verifyArtifactBytes(file.data(), file.size(), &model).ok());
  MemoryLayout layout;
  ASSERT_TRUE(layOutMemory(*model, &layout).ok());
  // Arenas one after another, each at a multiple of 256.
  ASSERT_EQ(layout.arenaBase.size(), 2u);
  EXPECT_EQ(layout.arenaBase[0], 0u);
  EXPECT_EQ(layout.arenaBase[1], 256u);
  EXPECT_EQ(layout.arenaBytes, 256u + 40u);
  EXPECT_EQ(layout.inputOffset, (std::vector<uint64_t>{0, 256}));
  EXPECT_EQ(layout.inputBytes, (std::vector<uint64_t>{12, 4}));
  EXPECT_EQ(layout.inputsBytes, 260u);
  EXPECT_EQ(layout.outputBytes, (std::vector<uint64_t>{8}));
  // The constants that buffers use, from the 64-byte boundary before them.
  EXPECT_EQ(layout.constantsBegin, 64u);
  EXPECT_EQ(layout.constantsEnd, 128u + 16u);

  RegionBases bases{0x10000, 0x20000, 0x30000, 0x40000};
  std::vector<uint64_t> a = bufferAddresses(layout, bases);
  const auto *buffers = model->buffers();
  ASSERT_EQ(a.size(), buffers->size());
  for (uint32_t i = 0; i < buffers->size(); ++i) {
    const Buffer *b = buffers->Get(i);
    uint64_t expected = 0;
    switch (b->storage()) {
    case Storage::Arena:
      expected = 0x20000 + (b->space() ? 256 : 0) + b->offset();
      break;
    case Storage::Constant:
      expected = 0x10000 + b->offset() - 64;
      break;
    case Storage::Input:
      expected = 0x30000 + (b->index() ? 256 : 0) + b->offset();
      break;
    case Storage::Output:
      expected = 0x40000 + b->offset();
      break;
    }
    EXPECT_EQ(a[i], expected) << "buffer " << i;
  }
}

// A row-major 2x3 (m x k) times 3x4 (k x n) Sgemm with the given epilogue.
// `edit` changes the step last.
std::vector<uint8_t>
sgemmStepHeader(const EpilogueT *epilogue, bool transA = false,
                bool transB = true, bool packed = false, bool tf32 = false,
                const std::function<void(SgemmT &)> &edit = nullptr) {
  flatbuffers::FlatBufferBuilder fbb;
  SgemmT g;
  g.a = 1;
  g.b = 2;
  g.c = 3;
  g.m = 2;
  g.n = 4;
  g.k = 3;
  g.lda = transA ? 2 : 3;
  g.ldb = transB ? 3 : 4;
  g.ldc = 4;
  g.trans_a = transA;
  g.trans_b = transB;
  g.b_packed = packed;
  g.tf32 = tf32;
  g.batch = 3;
  g.a_batch_stride = 6;
  g.b_batch_stride = 12;
  g.c_batch_stride = 8;
  if (epilogue)
    g.epilogue = std::make_unique<EpilogueT>(*epilogue);
  if (edit)
    edit(g);
  fbb.Finish(Sgemm::Pack(fbb, &g));
  return std::vector<uint8_t>(fbb.GetBufferPointer(),
                              fbb.GetBufferPointer() + fbb.GetSize());
}

LtGemm plan(const EpilogueT *e, runtime::Status *status, bool transA = false,
            bool transB = true, bool packed = false, bool tf32 = false,
            const std::function<void(SgemmT &)> &edit = nullptr) {
  std::vector<uint8_t> bytes =
      sgemmStepHeader(e, transA, transB, packed, tf32, edit);
  LtGemm out;
  *status = planLtGemm(*flatbuffers::GetRoot<Sgemm>(bytes.data()), &out);
  return out;
}

TEST(CudaLtGemm, RowMajorOperandsSwapIntoColumnMajorCublasLt) {
  runtime::Status s;
  LtGemm g = plan(nullptr, &s);
  ASSERT_TRUE(s.ok()) << s.message();
  // D^T (n x m) = op(B)^T op(A)^T: cuBLASLt's A is tcc's b.
  EXPECT_EQ(g.rows, 4u);
  EXPECT_EQ(g.cols, 2u);
  EXPECT_EQ(g.inner, 3u);
  EXPECT_EQ(g.a, 2u);
  EXPECT_EQ(g.b, 1u);
  EXPECT_EQ(g.d, 3u);
  // b stored n x k row-major (trans_b) is k x n column-major: op T.
  EXPECT_EQ(g.transA, CUBLAS_OP_T);
  EXPECT_EQ(g.aRows, 3u);
  EXPECT_EQ(g.aCols, 4u);
  EXPECT_EQ(g.lda, 3);
  // a stored m x k row-major is k x m column-major: op N.
  EXPECT_EQ(g.transB, CUBLAS_OP_N);
  EXPECT_EQ(g.bRows, 3u);
  EXPECT_EQ(g.bCols, 2u);
  EXPECT_EQ(g.ldb, 3);
  EXPECT_EQ(g.ldc, 4);
  EXPECT_EQ(g.batch, 3);
  EXPECT_EQ(g.strideA, 12);
  EXPECT_EQ(g.strideB, 6);
  EXPECT_EQ(g.strideC, 8);
  EXPECT_EQ(g.epilogue, CUBLASLT_EPILOGUE_DEFAULT);
  EXPECT_EQ(g.beta, 0.0f);

  LtGemm t = plan(nullptr, &s, /*transA=*/true, /*transB=*/false);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(t.transA, CUBLAS_OP_N);
  EXPECT_EQ(t.aRows, 4u);
  EXPECT_EQ(t.aCols, 3u);
  EXPECT_EQ(t.transB, CUBLAS_OP_T);
  EXPECT_EQ(t.bRows, 2u);
  EXPECT_EQ(t.bCols, 3u);
}

TEST(CudaLtGemm, Tf32OnlyWhereTheStepAllowsIt) {
  runtime::Status s;
  EXPECT_EQ(plan(nullptr, &s).compute, CUBLAS_COMPUTE_32F);
  ASSERT_TRUE(s.ok()) << s.message();
  LtGemm fast = plan(nullptr, &s, /*transA=*/false, /*transB=*/true,
                     /*packed=*/false, /*tf32=*/true);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fast.compute, CUBLAS_COMPUTE_32F_FAST_TF32);
}

TEST(CudaLtGemm, OperandTypesAreTheStepsDtypesWithFp32Accumulation) {
  struct Case {
    DType ab, c;
    cudaDataType_t abType, cdType;
  } cases[] = {
      {DType::F32, DType::F32, CUDA_R_32F, CUDA_R_32F},
      {DType::BF16, DType::BF16, CUDA_R_16BF, CUDA_R_16BF},
      {DType::BF16, DType::F32, CUDA_R_16BF, CUDA_R_32F},
      {DType::F16, DType::F16, CUDA_R_16F, CUDA_R_16F},
      {DType::F16, DType::F32, CUDA_R_16F, CUDA_R_32F},
  };
  for (const Case &c : cases) {
    runtime::Status s;
    LtGemm g = plan(nullptr, &s, false, true, false, false, [&](SgemmT &t) {
      t.dtype = c.ab;
      t.c_dtype = c.c;
    });
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(g.abType, c.abType) << EnumNameDType(c.ab);
    EXPECT_EQ(g.cdType, c.cdType) << EnumNameDType(c.c);
    EXPECT_EQ(g.compute, CUBLAS_COMPUTE_32F);
  }
  // A dtype cuBLASLt is not given (the validator refuses it first).
  runtime::Status s;
  plan(nullptr, &s, false, true, false, false,
       [](SgemmT &t) { t.dtype = DType::I8; });
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("dtype I8"), std::string::npos) << s.message();
}

TEST(CudaLtGemm, EachEpilogueMapsToCublasLtsOrIsRefused) {
  struct Case {
    Activation activation;
    bool bias;
    cublasLtEpilogue_t expected;
  } cases[] = {
      {Activation::None, false, CUBLASLT_EPILOGUE_DEFAULT},
      {Activation::None, true, CUBLASLT_EPILOGUE_BIAS},
      {Activation::Relu, false, CUBLASLT_EPILOGUE_RELU},
      {Activation::Relu, true, CUBLASLT_EPILOGUE_RELU_BIAS},
      {Activation::GeluTanh, false, CUBLASLT_EPILOGUE_GELU},
      {Activation::GeluTanh, true, CUBLASLT_EPILOGUE_GELU_BIAS},
  };
  for (const Case &c : cases) {
    EpilogueT e;
    e.activation = c.activation;
    e.bias = c.bias ? 4 : -1;
    e.alpha = 0.5f;
    runtime::Status s;
    LtGemm g = plan(&e, &s);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(g.epilogue, c.expected) << EnumNameActivation(c.activation);
    EXPECT_EQ(g.bias, c.bias ? 4 : -1);
    EXPECT_EQ(g.alpha, 0.5f);
  }
  for (Activation a : {Activation::Gelu, Activation::Silu, Activation::Clamp,
                       Activation::Sigmoid, Activation::Tanh}) {
    EpilogueT e;
    e.activation = a;
    runtime::Status s;
    plan(&e, &s);
    ASSERT_FALSE(s.ok()) << EnumNameActivation(a);
    EXPECT_EQ(s.code(), TCC_STATUS_UNIMPLEMENTED);
    EXPECT_NE(s.message().find(EnumNameActivation(a)), std::string::npos)
        << s.message();
  }
}

TEST(CudaLtGemm, AResidualIsBetaTimesC) {
  EpilogueT e;
  e.residual = 5;
  e.beta = 0.75f;
  e.activation = Activation::Relu;
  runtime::Status s;
  LtGemm g = plan(&e, &s);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(g.residual, 5);
  EXPECT_EQ(g.beta, 0.75f);
  EXPECT_EQ(g.epilogue, CUBLASLT_EPILOGUE_RELU);
  // Without a residual, beta is 0 whatever the epilogue says (C is D).
  e.residual = -1;
  g = plan(&e, &s);
  EXPECT_EQ(g.beta, 0.0f);
}

TEST(CudaLtGemm, WhatCublasLtCannotApplyIsRefused) {
  EpilogueT e;
  e.bias = 4;
  e.bias_per_row = true;
  runtime::Status s;
  plan(&e, &s);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("bias per row"), std::string::npos);
  plan(nullptr, &s, false, false, /*packed=*/true);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("packed"), std::string::npos);
}

TEST(CudaLaunchArgs, ParametersPointAtTheBuffersAddressesInOrder) {
  Launch launch;
  launch.args = {2, 0, 2};
  std::vector<uint64_t> addresses = {0x1000, 0x2000, 0x3000};
  LaunchArgs args;
  packLaunchArgs(launch, addresses, &args);
  ASSERT_EQ(args.params.size(), 3u);
  EXPECT_EQ(*static_cast<uint64_t *>(args.params[0]), 0x3000u);
  EXPECT_EQ(*static_cast<uint64_t *>(args.params[1]), 0x1000u);
  EXPECT_EQ(*static_cast<uint64_t *>(args.params[2]), 0x3000u);
  // Each parameter is its own 8-byte slot (cuLaunchKernel copies by size).
  EXPECT_EQ(args.params[0], &args.values[0]);
  EXPECT_EQ(args.params[2], &args.values[2]);
}

TEST(CudaErrors, CodesSayWhatTheCallerCanDo) {
  EXPECT_EQ(statusCodeOf(CUDA_ERROR_OUT_OF_MEMORY),
            TCC_STATUS_RESOURCE_EXHAUSTED);
  EXPECT_EQ(statusCodeOf(CUDA_ERROR_NO_BINARY_FOR_GPU),
            TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_EQ(statusCodeOf(CUDA_ERROR_UNSUPPORTED_PTX_VERSION),
            TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_EQ(statusCodeOf(CUDA_ERROR_ILLEGAL_ADDRESS), TCC_STATUS_INTERNAL);
  EXPECT_EQ(statusCodeOf(CUBLAS_STATUS_NOT_SUPPORTED),
            TCC_STATUS_UNIMPLEMENTED);
  EXPECT_EQ(statusCodeOf(CUBLAS_STATUS_ALLOC_FAILED),
            TCC_STATUS_RESOURCE_EXHAUSTED);
}

TEST(CudaErrors, MessagesNameTheErrorTheCallAndTheStep) {
  runtime::Status s =
      driverError(CUDA_ERROR_LAUNCH_FAILED, "CUDA_ERROR_LAUNCH_FAILED",
                  stepWhere(3, "kernel 'k3_add'"), "cuLaunchKernel");
  EXPECT_EQ(s.code(), TCC_STATUS_INTERNAL);
  EXPECT_EQ(s.message(), "cuda: plan step 3 (kernel 'k3_add'): cuLaunchKernel: "
                         "CUDA_ERROR_LAUNCH_FAILED");
  runtime::Status oom =
      driverError(CUDA_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY",
                  "allocating the arena", "cuMemAlloc", "8 bytes asked for");
  EXPECT_EQ(oom.code(), TCC_STATUS_RESOURCE_EXHAUSTED);
  EXPECT_EQ(oom.message(), "cuda: allocating the arena: cuMemAlloc: "
                           "CUDA_ERROR_OUT_OF_MEMORY (8 bytes asked for)");
}

TEST(CudaGraphPolicy, FirstRunEagerSecondCapturesThenReplays) {
  GraphPolicy p;
  EXPECT_EQ(p.next(false), RunMode::Eager);
  p.ran(RunMode::Eager, /*ok=*/false); // a failed first run does not count
  EXPECT_EQ(p.next(false), RunMode::Eager);
  p.ran(RunMode::Eager, true);
  EXPECT_EQ(p.next(false), RunMode::Capture);
  // A timed run changes nothing.
  EXPECT_EQ(p.next(true), RunMode::Timed);
  p.ran(RunMode::Timed, true);
  EXPECT_EQ(p.next(false), RunMode::Capture);
  p.ran(RunMode::Capture, true, /*captured=*/true);
  EXPECT_TRUE(p.hasGraph());
  EXPECT_EQ(p.next(false), RunMode::Replay);
  p.ran(RunMode::Replay, true);
  EXPECT_EQ(p.next(false), RunMode::Replay);
  EXPECT_EQ(p.next(true), RunMode::Timed);
}

TEST(CudaGraphPolicy, AFailedCaptureRunsStepByStepForGood) {
  GraphPolicy p;
  p.ran(RunMode::Eager, true);
  p.ran(RunMode::Capture, true, /*captured=*/false);
  EXPECT_FALSE(p.hasGraph());
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(p.next(false), RunMode::Eager);
    p.ran(RunMode::Eager, true);
  }
}

} // namespace
