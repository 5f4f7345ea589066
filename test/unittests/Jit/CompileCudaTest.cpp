//===- CompileCudaTest.cpp - tcc::jit for the cuda device, compile-only ---===//
//
// This machine has no GPU: the cuda artifact is checked as the runtime's
// validator reads it (its GPU images, launches and GEMM steps), and
// compile() for cuda computes what eager does, compiled or not.
//
//===----------------------------------------------------------------------===//

#include "JitTestSupport.h"
#include "TestModels.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <set>
#include <utility>

namespace tcc {
namespace {

using namespace testmodels;
using jittest::sameTensors;

jit::CompileOptions cudaOptions() {
  jit::CompileOptions options;
  options.device = "cuda";
  options.gpu = "sm_80,sm_90";
  options.trace.print_warnings = false;
  options.print_warnings = false;
  return options;
}

TEST(CompileCuda, AnArtifactForTwoArchitecturesCompilesWithoutAGpu) {
  manual_seed(11);
  Mlp model;
  jit::CompileOptions options = cudaOptions();
  options.allow_tf32 = true;
  std::vector<uint8_t> bytes =
      jit::compile_artifact(model, {randn({4, 1, 8, 8})}, options);

  // The runtime's validator accepts it (GpuChecks included).
  std::unique_ptr<runtime::Artifact> artifact;
  runtime::Status status =
      runtime::Artifact::fromMemory(bytes.data(), bytes.size(), nullptr,
                                    &artifact);
  ASSERT_TRUE(status.ok()) << status.message();
  const artifact::Model &m = artifact->model();
  ASSERT_EQ(m.code_modules()->size(), 2u);
  const artifact::CodeModule *cuda = m.code_modules()->Get(1);
  EXPECT_EQ(cuda->kind()->str(), runtime::kCudaModuleKind);
  ASSERT_NE(cuda->cuda(), nullptr);
  std::set<std::pair<std::string, artifact::CudaImageFormat>> images;
  for (const artifact::CudaImage *image : *cuda->cuda()->images())
    images.insert({image->arch()->str(), image->format()});
  EXPECT_TRUE(images.count({"sm_80", artifact::CudaImageFormat::Ptx}));
  EXPECT_TRUE(images.count({"sm_90", artifact::CudaImageFormat::Ptx}));

  // The linears are TF32 sgemm steps; the rest are kernels that launch.
  size_t gemms = 0;
  for (const artifact::Step *step : *m.plan()) {
    EXPECT_EQ(step->code_module(), 1u);
    if (const artifact::Sgemm *gemm = step->op_as_Sgemm()) {
      EXPECT_TRUE(gemm->tf32());
      ++gemms;
    }
  }
  EXPECT_GT(gemms, 0u);
  for (const artifact::Kernel *kernel : *m.kernels())
    EXPECT_GT(kernel->gpu_launches()->size(), 0u) << kernel->symbol()->str();
}

TEST(CompileCuda, CompiledOrNotItComputesWhatEagerDoes) {
  manual_seed(12);
  Mlp model;
  Tensor x = randn({4, 1, 8, 8});
  jit::CompiledModule compiled = jit::compile(model, {x}, cudaOptions());
  // Without a driver (or before the runtime runs cuda modules) it runs
  // eagerly and says why.
  if (!compiled.is_compiled())
    EXPECT_NE(compiled.fallback_reason().find("cuda"), std::string::npos)
        << compiled.fallback_reason();
  NoGradGuard noGrad;
  std::vector<Tensor> expected = jit::detail::callModel(model, {x});
  EXPECT_TRUE(sameTensors(compiled({x}), expected, 1e-4));
}

TEST(CompileCuda, BadDeviceOptionsAreRefusedByName) {
  auto f = [](const Tensor &x) { return x + 1; };
  jit::CompileOptions options = cudaOptions();
  options.device = "tpu";
  EXPECT_ERROR_HAS(jit::compile_artifact(f, {ones({2})}, options),
                   "unknown device 'tpu' (devices: cpu, cuda)");
  options = cudaOptions();
  options.gpu = "sm_70";
  EXPECT_ERROR_HAS(jit::compile_artifact(f, {ones({2})}, options),
                   "unknown GPU architecture 'sm_70'");
  options = cudaOptions();
  options.device = "cpu";
  options.gpu = "";
  options.allow_tf32 = true;
  EXPECT_ERROR_HAS(jit::compile_artifact(f, {ones({2})}, options),
                   "--allow-tf32 applies to GPU targets");
  options = cudaOptions();
  options.precision = "fp8";
  EXPECT_ERROR_HAS(jit::compile_artifact(f, {ones({2})}, options),
                   "precision must be bf16 or fp16, not 'fp8'");
  options.device = "cpu";
  options.gpu = "";
  options.precision = "bf16";
  EXPECT_ERROR_HAS(jit::compile_artifact(f, {ones({2})}, options),
                   "precision applies to the cuda device, not to cpu");
}

// ResNet's downsampling block at batch 2: its three convolutions (3x3 of
// stride 2, 3x3, the 1x1 projection of stride 2; batch norm folded into
// their biases) are im2col kernels and sgemm steps by default, generated
// kernels with cuda_conv = "direct".
TEST(CompileCuda, ConvolutionsAreGemmsUnlessDirectIsAskedFor) {
  manual_seed(14);
  ResBlock block(8, 16, 2);
  Tensor x = randn({2, 8, 8, 8});
  auto count = [&](const jit::CompileOptions &options) {
    std::vector<uint8_t> bytes = jit::compile_artifact(block, {x}, options);
    std::unique_ptr<runtime::Artifact> artifact;
    runtime::Status status = runtime::Artifact::fromMemory(
        bytes.data(), bytes.size(), nullptr, &artifact);
    EXPECT_TRUE(status.ok()) << status.message();
    size_t gemms = 0, im2cols = 0;
    if (!artifact)
      return std::pair(gemms, im2cols);
    const artifact::Model &m = artifact->model();
    for (const artifact::Step *step : *m.plan()) {
      if (const artifact::Sgemm *gemm = step->op_as_Sgemm()) {
        EXPECT_EQ(gemm->m(), 2 * 4 * 4); // N * OH * OW
        EXPECT_EQ(gemm->n(), 16);
        ++gemms;
      }
      if (const artifact::KernelCall *call = step->op_as_KernelCall()) {
        std::string symbol =
            m.kernels()->Get(call->kernel())->symbol()->str();
        im2cols += symbol.find("_im2col") != std::string::npos;
      }
    }
    return std::pair(gemms, im2cols);
  };
  jit::CompileOptions options = cudaOptions();
  EXPECT_EQ(count(options), (std::pair<size_t, size_t>(3, 3)));
  options.cuda_conv = "direct";
  EXPECT_EQ(count(options), (std::pair<size_t, size_t>(0, 0)));
  options.cuda_conv = "implicit";
  EXPECT_ERROR_HAS(jit::compile_artifact(block, {x}, options),
                   "--cuda-conv takes gemm or direct, not 'implicit'");
  options = cudaOptions();
  options.device = "cpu";
  options.gpu = "";
  options.cuda_conv = "gemm";
  EXPECT_ERROR_HAS(jit::compile_artifact(block, {x}, options),
                   "--cuda-conv applies to the cuda target");
}

TEST(CompileCuda, Bf16StoresTheLinearsWeightsInBf16) {
  manual_seed(13);
  Mlp model;
  jit::CompileOptions options = cudaOptions();
  options.precision = "bf16";
  std::vector<uint8_t> bytes =
      jit::compile_artifact(model, {randn({4, 1, 8, 8})}, options);
  std::unique_ptr<runtime::Artifact> artifact;
  runtime::Status status =
      runtime::Artifact::fromMemory(bytes.data(), bytes.size(), nullptr,
                                    &artifact);
  ASSERT_TRUE(status.ok()) << status.message();
  // Every constant of the MLP is a linear's weight or bias: all bf16.
  size_t constants = 0;
  for (const artifact::Buffer *buffer : *artifact->model().buffers())
    if (buffer->storage() == artifact::Storage::Constant) {
      EXPECT_EQ(buffer->dtype(), artifact::DType::BF16);
      ++constants;
    }
  EXPECT_GT(constants, 0u);
  for (const artifact::Step *step : *artifact->model().plan())
    EXPECT_EQ(step->op_as_Sgemm(), nullptr);
}

} // namespace
} // namespace tcc
