//===- CudaCompiledModelTest.cpp - compiled cuda artifacts, faked ---------===//
//
// The models of test/Cuda/Inputs, compiled by `tcc compile --target cuda
// --gpu sm_80,sm_90` at build time, loaded and run three times on the fake
// driver (FakeCuda: kernels do nothing, cuBLASLt computes): every step kind
// the compiler writes is one the device runs, cuBLASLt accepts every
// matmul's layouts, and each launch passes as many parameters as its PTX
// entry declares. What the kernels compute only a GPU can say
// (scripts/device-check.sh).
//
//===----------------------------------------------------------------------===//

#include "CudaProgram.h"
#include "FakeCuda.h"

#include "TestModels.h"
#include "TestPaths.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/Float16.h"
#include "tcc/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>

using namespace tcc;
using tcc::artifact::DType;
using tcc::cuda::CudaProgram;
using tcc::cuda::CudaSession;

namespace {

// The number of parameters of PTX entry `name`, each a 64-bit value (a
// bare pointer: the device passes each as 8 bytes); -1 when there is no
// such entry or a parameter of another type.
int ptxParams(const std::string &ptx, const std::string &name) {
  size_t at = ptx.find(".entry " + name + "(");
  if (at == std::string::npos)
    return -1;
  size_t end = ptx.find(')', at);
  int n = 0;
  for (size_t p = ptx.find(".param", at); p < end;
       p = ptx.find(".param", p + 1), ++n)
    if (ptx.compare(p, 12, ".param .u64 ") != 0 &&
        ptx.compare(p, 12, ".param .b64 ") != 0)
      return -1;
  return n;
}

// One of the build's compiled test models on the fake driver: the file,
// its artifact, and the program and session loaded from it. The fake must
// outlive it (the program and session release through the fake's calls).
struct FakeGpuModel {
  std::vector<uint8_t> file;
  std::unique_ptr<runtime::Artifact> artifact;
  cuda::Gpu gpu;
  std::unique_ptr<CudaProgram> program;
  std::unique_ptr<CudaSession> session;

  const artifact::Model &model() const { return artifact->model(); }
};

// Reads cudaTestArtifacts()/NAME.bin into `model`.
void readArtifact(const std::string &name, FakeGpuModel &model) {
  model.file = test::readFile(test::cudaTestArtifacts() + "/" + name + ".bin");
  runtime::Status s = runtime::Artifact::fromMemory(
      model.file.data(), model.file.size(), nullptr, &model.artifact);
  ASSERT_TRUE(s.ok()) << name << ": " << s.message();
}

// Loads `model`'s program and session on `fake`, as a GPU of compute
// capability major.minor (sm_90 takes the sm_90 cubin or PTX).
void loadOnFake(test::FakeCuda &fake, FakeGpuModel &model, int major = 9,
                int minor = 0) {
  fake.install(&model.gpu.driver, &model.gpu.lt);
  model.gpu.major = major;
  model.gpu.minor = minor;
  runtime::Status s =
      CudaProgram::load(model.gpu, model.model(), model.artifact->fileData(),
                        model.artifact->constants(), &model.program);
  ASSERT_TRUE(s.ok()) << s.message();
  s = CudaSession::create(*model.program, &model.session);
  ASSERT_TRUE(s.ok()) << s.message();
}

// Runs `model` three times (step by step, captured, replayed) and the CPU
// target's artifact cudaTestArtifacts()/CPU_NAME.bin on the same fp32
// inputs: the outputs must agree within fp32's rounding.
void expectTheCpuTargetsOutputs(FakeGpuModel &model,
                                const std::string &cpuName) {
  std::vector<uint8_t> cpuFile =
      test::readFile(test::cudaTestArtifacts() + "/" + cpuName + ".bin");
  runtime::Model cpu;
  ASSERT_TRUE(
      runtime::Model::loadMemory(cpuFile.data(), cpuFile.size(), &cpu).ok());
  runtime::Session cpuSession;
  ASSERT_TRUE(cpu.createSession(nullptr, &cpuSession).ok());
  const artifact::Model &m = model.model();
  auto floatsOf = [&](const artifact::TensorSpec *spec) {
    return m.buffers()->Get(spec->buffer())->byte_size() / 4;
  };
  for (int run = 0; run < 3; ++run) {
    std::vector<std::vector<float>> in, out;
    std::vector<const void *> inPtrs;
    std::vector<void *> outPtrs;
    for (uint32_t i = 0; i < m.inputs()->size(); ++i) {
      in.emplace_back(floatsOf(m.inputs()->Get(i)));
      for (size_t e = 0; e < in.back().size(); ++e)
        in.back()[e] =
            float((e * 37 + i * 11 + size_t(run) * 5) % 23) / 11.5f - 1.0f;
      inPtrs.push_back(in.back().data());
      ASSERT_TRUE(
          cpuSession.bindInput(i, in.back().data(), in.back().size() * 4).ok());
    }
    for (uint32_t i = 0; i < m.outputs()->size(); ++i) {
      out.emplace_back(floatsOf(m.outputs()->Get(i)), -7.0f);
      outPtrs.push_back(out.back().data());
    }
    runtime::Status s =
        model.session->run(inPtrs.data(), outPtrs.data(), nullptr);
    ASSERT_TRUE(s.ok()) << "run " << run << ": " << s.message();
    ASSERT_TRUE(cpuSession.run().ok());
    for (uint32_t i = 0; i < m.outputs()->size(); ++i) {
      const float *reference = nullptr;
      ASSERT_TRUE(cpuSession.output(i, &reference).ok());
      for (size_t e = 0; e < out[i].size(); ++e)
        EXPECT_NEAR(out[i][e], reference[e],
                    1e-5 + 1e-4 * std::abs(reference[e]))
            << "output " << i << " element " << e << " run " << run;
    }
  }
  EXPECT_TRUE(model.session->policy().hasGraph());
}

class CudaCompiledModel : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaCompiledModel, LoadsAndRunsOnTheFakeDriver) {
  test::FakeCuda fake;
  FakeGpuModel model;
  ASSERT_NO_FATAL_FAILURE(readArtifact(GetParam(), model));
  fake.anyFunction = true;
  // sm_89: no cubin, so the sm_80 PTX (JIT).
  ASSERT_NO_FATAL_FAILURE(loadOnFake(fake, model, 8, 9));
  const CudaProgram *program = model.program.get();
  EXPECT_TRUE(program->image.jit);
  EXPECT_EQ(program->imageArch, "sm_80");
  ASSERT_NE(fake.loadedImage.find(".target sm_80"), std::string::npos);
  size_t launches = 0, gemms = 0;
  for (const cuda::DeviceStep &step : program->steps) {
    gemms += step.kind == cuda::DeviceStep::Kind::Gemm;
    for (const cuda::Launch &launch : step.launches) {
      ++launches;
      EXPECT_EQ(ptxParams(fake.loadedImage, launch.function),
                int(launch.args.size()))
          << launch.function;
    }
  }
  EXPECT_GT(launches + gemms, 0u);

  const artifact::Model &m = model.model();
  auto bytesOf = [&](const artifact::TensorSpec *spec) {
    return m.buffers()->Get(spec->buffer())->byte_size();
  };
  std::vector<std::vector<uint8_t>> in, out;
  std::vector<const void *> inPtrs;
  std::vector<void *> outPtrs;
  for (uint32_t i = 0; m.inputs() && i < m.inputs()->size(); ++i)
    inPtrs.push_back(in.emplace_back(bytesOf(m.inputs()->Get(i))).data());
  for (uint32_t i = 0; m.outputs() && i < m.outputs()->size(); ++i)
    outPtrs.push_back(out.emplace_back(bytesOf(m.outputs()->Get(i))).data());
  for (int run = 0; run < 3; ++run) {
    runtime::Status s =
        model.session->run(inPtrs.data(), outPtrs.data(), nullptr);
    ASSERT_TRUE(s.ok()) << "run " << run << ": " << s.message();
  }
  EXPECT_TRUE(model.session->policy().hasGraph());
  EXPECT_EQ(fake.count("cuLaunchKernel"), 2 * launches); // eager, capture
  EXPECT_EQ(fake.count("cublasLtMatmul"), 2 * gemms);
  EXPECT_EQ(fake.count("cuGraphLaunch"), 2u);
}

INSTANTIATE_TEST_SUITE_P(TestCudaInputs, CudaCompiledModel,
                         ::testing::Values("elementwise", "reductions", "nn",
                                           "mlp", "gemms", "gemms-half",
                                           "convs", "convs-half"));

// gemms.mlir's steps are all cuBLASLt matmuls, which the fake computes as
// cuBLASLt documents them: its outputs must be the CPU target's (tcc's own
// microkernels) on the same inputs, whether run step by step, captured or
// replayed.
TEST(CudaCompiledGemms, MatchTheCpuTargetOnTheFakeCublasLt) {
  test::FakeCuda fake;
  FakeGpuModel model;
  ASSERT_NO_FATAL_FAILURE(readArtifact("gemms", model));
  ASSERT_NO_FATAL_FAILURE(loadOnFake(fake, model));
  for (const cuda::DeviceStep &step : model.program->steps)
    ASSERT_EQ(step.kind, cuda::DeviceStep::Kind::Gemm);
  expectTheCpuTargetsOutputs(model, "gemms.cpu");
}

// A bf16 or fp16 matrix: its elements' bits, and their values.
struct HalfMatrix {
  DType dtype;
  std::vector<uint16_t> bits;
  std::vector<double> values;
};

HalfMatrix halfMatrix(DType dtype, size_t elements, int seed) {
  HalfMatrix h{dtype, {}, {}};
  for (size_t e = 0; e < elements; ++e) {
    // Values that need all of a bf16's mantissa, so a lost bit shows.
    float v = float((e * 37 + size_t(seed) * 11) % 29) / 7.3f - 1.9f;
    uint16_t bits = dtype == DType::BF16 ? runtime::floatToBFloat16Bits(v)
                                         : runtime::floatToHalfBits(v);
    h.bits.push_back(bits);
    h.values.push_back(dtype == DType::BF16 ? runtime::bfloat16BitsToFloat(bits)
                                            : runtime::halfBitsToFloat(bits));
  }
  return h;
}

double halfValue(DType dtype, uint16_t bits) {
  return dtype == DType::BF16 ? runtime::bfloat16BitsToFloat(bits)
                              : runtime::halfBitsToFloat(bits);
}

// A half-precision output's float64 reference.
struct ExpectedHalf {
  DType dtype;
  const std::vector<double> *values;
};

// Runs `session` on `in` and checks each output against its reference: the
// reference rounded once to the output's type, so within half an ulp
// (relative: 2^-8 for bf16, 2^-11 for fp16), plus fp32's rounding before.
void expectHalfOutputs(CudaSession &session, const std::vector<HalfMatrix> &in,
                       const std::vector<ExpectedHalf> &expected, int run) {
  std::vector<const void *> inPtrs;
  for (const HalfMatrix &matrix : in)
    inPtrs.push_back(matrix.bits.data());
  std::vector<std::vector<uint16_t>> out;
  std::vector<void *> outPtrs;
  for (const ExpectedHalf &e : expected)
    outPtrs.push_back(out.emplace_back(e.values->size(), 0xffff).data());
  runtime::Status s = session.run(inPtrs.data(), outPtrs.data(), nullptr);
  ASSERT_TRUE(s.ok()) << "run " << run << ": " << s.message();
  for (size_t o = 0; o < out.size(); ++o) {
    double halfUlp = expected[o].dtype == DType::BF16 ? 1.0 / 256 : 1.0 / 2048;
    for (size_t e = 0; e < out[o].size(); ++e) {
      double want = (*expected[o].values)[e];
      EXPECT_NEAR(halfValue(expected[o].dtype, out[o][e]), want,
                  halfUlp * std::abs(want) * (1 + 1e-4) + 1e-7)
          << "output " << o << " element " << e << " run " << run;
    }
  }
}

// gemms-half.mlir: a bf16 linear with bias and ReLU, a bf16 matmul with a
// residual, a batched fp16 matmul and a bf16 linear with ReLU between casts
// (tcc-autocast's form), all cuBLASLt matmuls whose layouts
// carry the steps' types, with fp32 accumulation. The fake computes them
// from cuBLASLt's documented semantics on those types; the outputs must be
// the float64 products of the rounded inputs, rounded once to the output's
// type (within its rounding: half an ulp, plus fp32's before it).
TEST(CudaCompiledGemms, HalfPrecisionStepsRunOnCublasLtInTheirTypes) {
  test::FakeCuda fake;
  FakeGpuModel model;
  ASSERT_NO_FATAL_FAILURE(readArtifact("gemms-half", model));
  ASSERT_NO_FATAL_FAILURE(loadOnFake(fake, model));
  ASSERT_EQ(model.program->steps.size(), 4u);
  for (const cuda::DeviceStep &step : model.program->steps)
    ASSERT_EQ(step.kind, cuda::DeviceStep::Kind::Gemm);
  // Per step: the descriptor computes in fp32; the A, B and C/D layouts
  // of the steps are bf16, bf16, fp16 and bf16.
  EXPECT_EQ(fake.computeTypes,
            std::vector<cublasComputeType_t>(4, CUBLAS_COMPUTE_32F));
  std::vector<cudaDataType> types;
  for (cudaDataType t : {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16F, CUDA_R_16BF})
    types.insert(types.end(), 3, t);
  EXPECT_EQ(fake.layoutTypes, types);
  // The linear's bias, of D's type.
  EXPECT_EQ(fake.biasTypes, std::vector<cudaDataType>{CUDA_R_16BF});

  // Inputs x, w, b, y, m, r (bf16), p, q (fp16), v (bf16), as
  // gemms-half.mlir.
  const int64_t M = 8, K = 16, N = 12, N2 = 5, B = 3, PM = 8, PK = 12, PN = 4,
                N3 = 6;
  for (int run = 0; run < 3; ++run) {
    std::vector<HalfMatrix> in = {halfMatrix(DType::BF16, M * K, run + 1),
                                  halfMatrix(DType::BF16, N * K, run + 2),
                                  halfMatrix(DType::BF16, N, run + 3),
                                  halfMatrix(DType::BF16, M * N, run + 4),
                                  halfMatrix(DType::BF16, N * N2, run + 5),
                                  halfMatrix(DType::BF16, M * N2, run + 6),
                                  halfMatrix(DType::F16, B * PM * PK, run + 7),
                                  halfMatrix(DType::F16, B * PK * PN, run + 8),
                                  halfMatrix(DType::BF16, N3 * K, run + 9)};
    const auto &x = in[0].values, &w = in[1].values, &b = in[2].values,
               &y = in[3].values, &m = in[4].values, &r = in[5].values,
               &p = in[6].values, &q = in[7].values, &vw = in[8].values;
    std::vector<double> h(M * N), z(M * N2), pq(B * PM * PN), g(M * N3);
    for (int64_t i = 0; i < M; ++i) {
      for (int64_t j = 0; j < N; ++j) {
        double v = b[j];
        for (int64_t k = 0; k < K; ++k)
          v += x[i * K + k] * w[j * K + k];
        h[i * N + j] = v > 0 ? v : 0;
      }
      for (int64_t j = 0; j < N2; ++j) {
        double v = r[i * N2 + j];
        for (int64_t k = 0; k < N; ++k)
          v += y[i * N + k] * m[k * N2 + j];
        z[i * N2 + j] = v;
      }
      for (int64_t j = 0; j < N3; ++j) {
        double t = 0;
        for (int64_t k = 0; k < K; ++k)
          t += x[i * K + k] * vw[j * K + k];
        g[i * N3 + j] = t > 0 ? t : 0;
      }
    }
    for (int64_t t = 0; t < B; ++t)
      for (int64_t i = 0; i < PM; ++i)
        for (int64_t j = 0; j < PN; ++j) {
          double v = 0;
          for (int64_t k = 0; k < PK; ++k)
            v += p[(t * PM + i) * PK + k] * q[(t * PK + k) * PN + j];
          pq[(t * PM + i) * PN + j] = v;
        }
    ASSERT_NO_FATAL_FAILURE(expectHalfOutputs(*model.session, in,
                                              {{DType::BF16, &h},
                                               {DType::BF16, &z},
                                               {DType::F16, &pq},
                                               {DType::BF16, &g}},
                                              run));
  }
  EXPECT_TRUE(model.session->policy().hasGraph());
  EXPECT_EQ(fake.count("cuGraphLaunch"), 2u);
}

// A convolution's stride, padding and dilation: what its im2col kernel's
// shapes do not say.
struct Im2colParams {
  int64_t stride, padding, dilation;
};
// convs.mlir's, in the order of their im2col kernels in the plan.
const Im2colParams kConvsIm2col[] = {{2, 1, 1}, {1, 2, 2}, {2, 0, 1}};

// im2col as docs/cuda.md defines it, written here from the definition:
// col[n, oh, ow, kh, kw, c] = x[n, oh*s - p + kh*d, ow*s - p + kw*d, c], 0
// outside x. `in` is [N, H, W, C], `out` [N, OH, OW, KH, KW, C]; T is float
// or the 16 bits of a bf16/fp16 (whose zero is all zero bits too).
template <typename T>
void hostIm2col(const T *x, T *col, const std::vector<int64_t> &in,
                const std::vector<int64_t> &out, const Im2colParams &p) {
  for (int64_t n = 0; n < out[0]; ++n)
    for (int64_t oh = 0; oh < out[1]; ++oh)
      for (int64_t ow = 0; ow < out[2]; ++ow)
        for (int64_t kh = 0; kh < out[3]; ++kh)
          for (int64_t kw = 0; kw < out[4]; ++kw)
            for (int64_t c = 0; c < out[5]; ++c) {
              int64_t h = oh * p.stride - p.padding + kh * p.dilation;
              int64_t w = ow * p.stride - p.padding + kw * p.dilation;
              bool inside = h >= 0 && h < in[1] && w >= 0 && w < in[2];
              *col++ =
                  inside ? x[((n * in[1] + h) * in[2] + w) * in[3] + c] : T(0);
            }
}

// Makes each im2col kernel of `m`'s plan a host function over its call's
// buffers of T, the i-th with params[i]; returns the steps' kinds in
// order ("im2col", "sgemm").
template <typename T>
std::vector<std::string>
runIm2colsOnTheHost(const artifact::Model &m,
                    const std::vector<Im2colParams> &params,
                    test::FakeCuda &fake) {
  std::vector<std::string> order;
  size_t im2cols = 0;
  for (const artifact::Step *step : *m.plan()) {
    if (step->op_as_Sgemm()) {
      order.push_back("sgemm");
      continue;
    }
    const artifact::KernelCall *call = step->op_as_KernelCall();
    const artifact::Kernel *kernel =
        call ? m.kernels()->Get(call->kernel()) : nullptr;
    std::string symbol = kernel ? kernel->symbol()->str() : "";
    if (symbol.size() < 7 || symbol.substr(symbol.size() - 7) != "_im2col" ||
        im2cols == params.size() || kernel->gpu_launches()->size() != 1) {
      ADD_FAILURE() << "step " << order.size() << " (" << symbol
                    << ") is neither an im2col kernel nor an sgemm step";
      order.push_back("other");
      continue;
    }
    order.push_back("im2col");
    const artifact::GpuLaunch *launch = kernel->gpu_launches()->Get(0);
    auto shapeOf = [&](uint32_t binding) {
      const auto *shape =
          m.buffers()->Get(call->bindings()->Get(binding))->shape();
      return std::vector<int64_t>(shape->begin(), shape->end());
    };
    std::vector<int64_t> in = shapeOf(launch->args()->Get(0)),
                         out = shapeOf(launch->args()->Get(1));
    EXPECT_EQ(in.size(), 4u);
    EXPECT_EQ(out.size(), 6u);
    Im2colParams p = params[im2cols++];
    test::FakeCuda::Kernel &host = fake.kernels[launch->function()->str()];
    host.params = 2;
    host.run = [in, out, p](void **args, uint64_t) {
      hostIm2col(*static_cast<const T **>(args[0]), *static_cast<T **>(args[1]),
                 in, out, p);
    };
  }
  return order;
}

// convs.mlir's plan: its im2col kernels on the host (the fake runs no
// PTX), its GEMMs on the fake cuBLASLt in float64. Its outputs must be the
// CPU target's, whose tcc_conv2d computes each convolution directly: the
// workspaces, the GEMMs' shapes and leading dimensions, the weights' B^T,
// the bias per column, the residual and the activations are then what the
// convolutions mean.
TEST(CudaCompiledConvs, MatchTheCpuTargetWithIm2colOnTheHost) {
  test::FakeCuda fake;
  FakeGpuModel model;
  ASSERT_NO_FATAL_FAILURE(readArtifact("convs", model));
  std::vector<std::string> order = runIm2colsOnTheHost<float>(
      model.model(), {std::begin(kConvsIm2col), std::end(kConvsIm2col)}, fake);
  size_t im2cols = std::count(order.begin(), order.end(), "im2col");
  size_t gemms = std::count(order.begin(), order.end(), "sgemm");
  EXPECT_EQ(order,
            (std::vector<std::string>{"im2col", "sgemm", "sgemm", "im2col",
                                      "sgemm", "im2col", "sgemm"}));
  ASSERT_NO_FATAL_FAILURE(loadOnFake(fake, model));
  expectTheCpuTargetsOutputs(model, "convs.cpu");
  // Eager, then captured: each im2col launch and each GEMM once a time.
  EXPECT_EQ(fake.count("cuLaunchKernel"), 2 * im2cols);
  EXPECT_EQ(fake.count("cublasLtMatmul"), 2 * gemms);
}

// An NHWC convolution in float64, from its definition: [N, OH, OW, OC] of
// x [N, H, W, C] and the OHWI weight, plus the bias when there is one.
std::vector<double> referenceConv(const std::vector<double> &x,
                                  const std::vector<int64_t> &in,
                                  const std::vector<double> &weight,
                                  const std::vector<int64_t> &kernel,
                                  const std::vector<double> *bias, int64_t outH,
                                  int64_t outW, const Im2colParams &p) {
  const int64_t N = in[0], H = in[1], W = in[2], C = in[3];
  const int64_t OC = kernel[0], KH = kernel[1], KW = kernel[2];
  std::vector<double> y(N * outH * outW * OC);
  for (int64_t n = 0; n < N; ++n)
    for (int64_t oh = 0; oh < outH; ++oh)
      for (int64_t ow = 0; ow < outW; ++ow)
        for (int64_t oc = 0; oc < OC; ++oc) {
          double v = bias ? (*bias)[oc] : 0.0;
          for (int64_t kh = 0; kh < KH; ++kh)
            for (int64_t kw = 0; kw < KW; ++kw) {
              int64_t h = oh * p.stride - p.padding + kh * p.dilation;
              int64_t w = ow * p.stride - p.padding + kw * p.dilation;
              if (h < 0 || h >= H || w < 0 || w >= W)
                continue;
              for (int64_t c = 0; c < C; ++c)
                v += x[((n * H + h) * W + w) * C + c] *
                     weight[((oc * KH + kh) * KW + kw) * C + c];
            }
          y[((n * outH + oh) * outW + ow) * OC + oc] = v;
        }
  return y;
}

// convs-half.mlir: bf16 and fp16 convolutions (tcc-autocast's), each an
// im2col kernel in its type where it needs one, on the host, and a
// half-precision GEMM on the fake cuBLASLt, which computes in float64 from
// the 16-bit operands and rounds as cuBLASLt's fp32 accumulator and D's
// type do. The outputs must be float64 convolutions of the same 16-bit
// inputs and weights (with their bias, residual and ReLU), rounded once to
// the output's type: within half its ulp, plus fp32's before it.
TEST(CudaCompiledConvs, HalfPrecisionConvolutionsRunAsIm2colAndHalfGemms) {
  test::FakeCuda fake;
  FakeGpuModel model;
  ASSERT_NO_FATAL_FAILURE(readArtifact("convs-half", model));
  const artifact::Model &m = model.model();
  // The 3x3 of stride 2 with padding, the 1x1 of stride 2, the 3x3 of
  // dilation 2 (the 1x1 of stride 1 reads its input).
  const std::vector<Im2colParams> im2colParams = {
      {2, 1, 1}, {2, 0, 1}, {1, 2, 2}};
  std::vector<std::string> order =
      runIm2colsOnTheHost<uint16_t>(m, im2colParams, fake);
  EXPECT_EQ(order,
            (std::vector<std::string>{"im2col", "sgemm", "sgemm", "im2col",
                                      "sgemm", "im2col", "sgemm"}));
  // The workspaces are 16-bit: [N, OH, OW, KH, KW, C] at 2 bytes each.
  for (const artifact::Step *step : *m.plan())
    if (const artifact::KernelCall *call = step->op_as_KernelCall()) {
      const artifact::Buffer *workspace =
          m.buffers()->Get(call->bindings()->Get(1));
      int64_t elements = 1;
      for (int64_t d : *workspace->shape())
        elements *= d;
      EXPECT_NE(workspace->dtype(), DType::F32);
      EXPECT_EQ(workspace->byte_size(), uint64_t(2 * elements));
    }
  ASSERT_NO_FATAL_FAILURE(loadOnFake(fake, model));
  // fp32 compute for all four; A, B and C/D bf16 for three, fp16 for the
  // last; the two biases of D's type.
  EXPECT_EQ(fake.computeTypes,
            std::vector<cublasComputeType_t>(4, CUBLAS_COMPUTE_32F));
  std::vector<cudaDataType> types;
  for (cudaDataType t : {CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16F})
    types.insert(types.end(), 3, t);
  EXPECT_EQ(fake.layoutTypes, types);
  EXPECT_EQ(fake.biasTypes,
            (std::vector<cudaDataType>{CUDA_R_16BF, CUDA_R_16F}));

  for (int run = 0; run < 3; ++run) {
    // Inputs x, w1, b1, u, w2, w4 (bf16), p, w3, b3 (fp16).
    std::vector<HalfMatrix> in = {
        halfMatrix(DType::BF16, 2 * 9 * 9 * 8, run + 1),
        halfMatrix(DType::BF16, 16 * 3 * 3 * 8, run + 2),
        halfMatrix(DType::BF16, 16, run + 3),
        halfMatrix(DType::BF16, 2 * 5 * 5 * 16, run + 4),
        halfMatrix(DType::BF16, 16 * 16, run + 5),
        halfMatrix(DType::BF16, 8 * 16, run + 6),
        halfMatrix(DType::F16, 2 * 6 * 6 * 8, run + 7),
        halfMatrix(DType::F16, 4 * 3 * 3 * 8, run + 8),
        halfMatrix(DType::F16, 4, run + 9)};
    const auto &x = in[0].values, &w1 = in[1].values, &b1 = in[2].values,
               &u = in[3].values, &w2 = in[4].values, &w4 = in[5].values,
               &p = in[6].values, &w3 = in[7].values, &b3 = in[8].values;
    std::vector<double> y1 =
        referenceConv(x, {2, 9, 9, 8}, w1, {16, 3, 3, 8}, &b1, 5, 5, {2, 1, 1});
    std::vector<double> y2 = referenceConv(u, {2, 5, 5, 16}, w2, {16, 1, 1, 16},
                                           nullptr, 5, 5, {1, 0, 1});
    std::vector<double> y4 = referenceConv(u, {2, 5, 5, 16}, w4, {8, 1, 1, 16},
                                           nullptr, 3, 3, {2, 0, 1});
    std::vector<double> y3 =
        referenceConv(p, {2, 6, 6, 8}, w3, {4, 3, 3, 8}, &b3, 6, 6, {1, 2, 2});
    for (double &v : y1)
      v = std::max(v, 0.0);
    for (size_t e = 0; e < y2.size(); ++e)
      y2[e] = std::max(y2[e] + u[e], 0.0);
    ASSERT_NO_FATAL_FAILURE(expectHalfOutputs(*model.session, in,
                                              {{DType::BF16, &y1},
                                               {DType::BF16, &y2},
                                               {DType::BF16, &y4},
                                               {DType::F16, &y3}},
                                              run));
  }
  EXPECT_TRUE(model.session->policy().hasGraph());
  // Eager, then captured: each im2col launch and each GEMM once a time.
  EXPECT_EQ(fake.count("cuLaunchKernel"), 2 * im2colParams.size());
  EXPECT_EQ(fake.count("cublasLtMatmul"), 2u * 4);
}

} // namespace
