//===- CompileCudaTest.cpp - tcc::jit for the cuda device -----------------===//
//
// This machine has no GPU: the cuda artifact is checked as the runtime's
// validator reads it (its GPU images, launches and GEMM steps); compile()
// for cuda computes what eager does, compiled or not; without a driver it
// runs eagerly saying why; and on the fake driver and cuBLASLt of
// test/unittests/Cuda (FakeCudaLibrary, where the plugin is built) a model
// of GEMMs and copies, which the fake computes, runs on the "device".
//
//===----------------------------------------------------------------------===//

#include "JitTestSupport.h"
#include "TestModels.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/ArtifactFormat.h"

#include <dlfcn.h>

#include <cstdlib>
#include <set>
#include <tuple>
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
// their biases) are im2col kernels and sgemm steps by default, in fp32 or
// in the precision asked for, generated kernels with cuda_conv = "direct".
TEST(CompileCuda, ConvolutionsAreGemmsUnlessDirectIsAskedFor) {
  manual_seed(14);
  ResBlock block(8, 16, 2);
  Tensor x = randn({2, 8, 8, 8});
  auto count = [&](const jit::CompileOptions &options,
                   artifact::DType dtype = artifact::DType::F32) {
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
        EXPECT_EQ(gemm->dtype(), dtype);
        EXPECT_EQ(gemm->c_dtype(), dtype);
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
  options.precision = "bf16";
  EXPECT_EQ(count(options, artifact::DType::BF16),
            (std::pair<size_t, size_t>(3, 3)));
  options.precision = "fp16";
  EXPECT_EQ(count(options, artifact::DType::F16),
            (std::pair<size_t, size_t>(3, 3)));
  options.cuda_conv = "direct";
  EXPECT_EQ(count(options), (std::pair<size_t, size_t>(0, 0)));
  options.precision = "";
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
  // The linears are bf16 GEMM steps for cuBLASLt (autocast's bf16 result).
  size_t gemms = 0;
  for (const artifact::Step *step : *artifact->model().plan())
    if (const artifact::Sgemm *gemm = step->op_as_Sgemm()) {
      EXPECT_EQ(gemm->dtype(), artifact::DType::BF16);
      EXPECT_EQ(gemm->c_dtype(), artifact::DType::BF16);
      EXPECT_FALSE(gemm->tf32());
      ++gemms;
    }
  EXPECT_EQ(gemms, 3u);
}

/// Two linears with bias, the first with ReLU: cuBLASLt matmuls alone
/// (their epilogues included), no generated kernel.
struct GemmsOnly {
  Dense fc1{8, 16}, fc2{16, 4};
  Tensor forward(const Tensor &x) const { return fc2(fc1(x).relu()); }
  Named named_parameters() const {
    Named n;
    fc1.name(n, "fc1");
    fc2.name(n, "fc2");
    return n;
  }
};

TEST(CompileCuda, WithoutADriverItRunsEagerlySayingWhy) {
  // Never the machine's own driver: a file that is not there.
  setenv("TCC_CUDA_DRIVER", "/nonexistent/libcuda.so.1", 1);
#ifdef TCC_CUDA_PLUGIN_DIR
  setenv("TCC_DEVICE_PATH", TCC_CUDA_PLUGIN_DIR, 1);
#endif
  manual_seed(14);
  GemmsOnly model;
  Tensor x = randn({5, 8});
  jit::CompiledModule compiled = jit::compile(model, {x}, cudaOptions());
  EXPECT_FALSE(compiled.is_compiled());
  EXPECT_NE(compiled.fallback_reason().find("device 'cuda'"), std::string::npos)
      << compiled.fallback_reason();
#ifdef TCC_CUDA_PLUGIN_DIR
  EXPECT_NE(compiled.fallback_reason().find(
                "no CUDA driver: cannot load /nonexistent/libcuda.so.1"),
            std::string::npos)
      << compiled.fallback_reason();
#endif
  NoGradGuard noGrad;
  EXPECT_TRUE(sameTensors(compiled({x}), {model.forward(x)}, 0));
}

#ifdef TCC_FAKE_CUDA_LIBRARY
/// How often the fake driver saw `call` (-1 before the plugin opened it).
int fakeCalls(const char *call) {
  void *library = dlopen(TCC_FAKE_CUDA_LIBRARY, RTLD_NOW | RTLD_NOLOAD);
  if (!library)
    return -1;
  auto calls = reinterpret_cast<int (*)(const char *)>(
      dlsym(library, "tcc_fake_cuda_calls"));
  int n = calls ? calls(call) : -1;
  dlclose(library);
  return n;
}

class CompileCudaOnTheFakeDriver : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("TCC_CUDA_DRIVER", TCC_FAKE_CUDA_LIBRARY, 1);
    setenv("TCC_CUBLASLT", TCC_FAKE_CUDA_LIBRARY, 1);
    setenv("TCC_DEVICE_PATH", TCC_CUDA_PLUGIN_DIR, 1);
  }
};

TEST_F(CompileCudaOnTheFakeDriver, AModelOfGemmsRunsOnTheDevice) {
  manual_seed(15);
  GemmsOnly model;
  jit::CompiledModule compiled =
      jit::compile(model, {randn({5, 8})}, cudaOptions());
  ASSERT_TRUE(compiled.is_compiled()) << compiled.fallback_reason();
  EXPECT_EQ(compiled.stats().library_calls, 2u);
  EXPECT_EQ(compiled.stats().kernels, 0u);
  NoGradGuard noGrad;
  // Loading opened the fake (counts are per process: take differences).
  int matmuls = fakeCalls("cublasLtMatmul"),
      graphs = fakeCalls("cuGraphLaunch");
  ASSERT_GE(matmuls, 0);
  // Every call on the device: step by step, captured, then replayed.
  for (int call = 0; call < 3; ++call) {
    Tensor x = randn({5, 8});
    EXPECT_TRUE(sameTensors(compiled({x}), {model.forward(x)}, 1e-5))
        << "call " << call;
  }
  // The two matmuls of the first run and of the capture; then the graph.
  EXPECT_EQ(fakeCalls("cublasLtMatmul") - matmuls, 4);
  EXPECT_EQ(fakeCalls("cuGraphLaunch") - graphs, 2); // capture's, replay
}

TEST_F(CompileCudaOnTheFakeDriver, MatmulsAndCopiesRunOnTheDevice) {
  // The second output is the input itself: a copy step on the device.
  auto f = [](const Tensor &x, const Tensor &m) {
    return std::make_tuple(x.matmul(m), x);
  };
  Tensor x = randn({3, 6}), m = randn({6, 2});
  jit::CompileOptions options = cudaOptions();
  jit::CompiledModule compiled = jit::compile(f, {x, m}, options);
  ASSERT_TRUE(compiled.is_compiled()) << compiled.fallback_reason();
  EXPECT_EQ(compiled.stats().library_calls, 1u);
  EXPECT_EQ(compiled.stats().copies, 1u);
  Tensor x2 = randn({3, 6}), m2 = randn({6, 2});
  auto [a, b] = f(x2, m2);
  EXPECT_TRUE(sameTensors(compiled({x2, m2}), {a, b}, 1e-5));
  EXPECT_GT(fakeCalls("cuMemcpyDtoDAsync"), 0);
  // A copy of the compiled module shares the model on the device.
  jit::CompiledModule two = compiled.with_num_threads(2);
  EXPECT_TRUE(two.is_compiled());
  EXPECT_TRUE(sameTensors(two({x2, m2}), {a, b}, 1e-5));
}
#endif

} // namespace
} // namespace tcc
