//===- CudaFakeDriverTest.cpp - whole runs of the cuda plugin, faked ------===//
//
// A small cuda model (a cuBLASLt linear with bias, residual and ReLU, a
// generated kernel, a copy) loaded and run by CudaProgram/CudaSession on
// FakeCuda: the image the GPU's architecture picks, the driver calls of
// load, session creation and each run (eager, captured, replayed), the
// outputs against a float64 reference, and the errors.
//
//===----------------------------------------------------------------------===//

#include "CudaProgram.h"
#include "FakeCuda.h"
#include "LinearModel.h"

#include "TestModels.h"

#include "tcc/runtime/Artifact.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tcc;
using namespace tcc::artifact;
using tcc::cuda::CudaProgram;
using tcc::cuda::CudaSession;
using namespace tcc::test;

namespace {

class CudaFakeDriver : public ::testing::Test {
protected:
  void SetUp() override {
    fake.kernels["k_mul_fn"].params = 3;
    fake.kernels["k_mul_fn"].run = [](void **params, uint64_t threads) {
      auto *out = *static_cast<float **>(params[0]);
      auto *a = *static_cast<const float **>(params[1]);
      auto *b = *static_cast<const float **>(params[2]);
      for (uint64_t i = 0; i < threads; ++i)
        out[i] = a[i] * b[i];
    };
    fake.install(&gpu.driver, &gpu.lt);
  }

  runtime::Status load(const LinearModel &m,
                       std::unique_ptr<CudaProgram> *out) {
    TCC_RETURN_IF_ERROR(runtime::Artifact::fromMemory(
        m.file.data(), m.file.size(), nullptr, &artifact));
    gpu.major = fake.major;
    gpu.minor = fake.minor;
    return CudaProgram::load(gpu, artifact->model(), artifact->fileData(),
                             artifact->constants(), out);
  }

  // Runs with inputs from `seed` and checks both outputs.
  void runAndCheck(CudaSession &session, const LinearModel &m, int seed,
                   uint64_t *stepNs = nullptr) {
    std::vector<float> x, r, y(M * N, -1), z(M * N, -1);
    linearInputs(seed, &x, &r);
    const void *inputs[] = {x.data(), r.data()};
    void *outputs[] = {y.data(), z.data()};
    runtime::Status s = session.run(inputs, outputs, stepNs);
    ASSERT_TRUE(s.ok()) << s.message();
    std::vector<double> ey, ez;
    linearReference(m, x, r, &ey, &ez);
    for (size_t i = 0; i < y.size(); ++i) {
      EXPECT_NEAR(y[i], ey[i], 1e-5) << "y[" << i << "], seed " << seed;
      EXPECT_NEAR(z[i], ez[i], 1e-5) << "z[" << i << "], seed " << seed;
    }
  }

  std::vector<std::string> callsSince(size_t first) const {
    return std::vector<std::string>(fake.calls.begin() + long(first),
                                    fake.calls.end());
  }

  FakeCuda fake;
  cuda::Gpu gpu;
  std::unique_ptr<runtime::Artifact> artifact;
};

TEST_F(CudaFakeDriver, LoadTakesTheGpusCubinAndCopiesConstantsOnce) {
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  runtime::Status s = load(m, &program);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_EQ(fake.loadedImage, "\x7f"
                              "ELF");
  EXPECT_EQ(program->imageArch, "sm_90");
  EXPECT_FALSE(program->image.jit);
  EXPECT_EQ(fake.calls,
            (std::vector<std::string>{"cuCtxPushCurrent", "cuModuleLoadDataEx",
                                      "cuModuleGetFunction", "cuMemAlloc",
                                      "cuMemcpyHtoD", "cuCtxPopCurrent"}));
  program.reset();
  EXPECT_EQ(fake.count("cuModuleUnload"), 1u);
  EXPECT_EQ(fake.liveAllocations, 0u);
}

TEST_F(CudaFakeDriver, ANewerGpuJitsThePtx) {
  fake.major = 10;
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  ASSERT_TRUE(load(m, &program).ok());
  EXPECT_TRUE(program->image.jit);
  EXPECT_NE(fake.loadedImage.find(".target sm_90"), std::string::npos)
      << fake.loadedImage;
}

TEST_F(CudaFakeDriver, AnOlderGpuIsRefusedBeforeTheDriverSeesTheModule) {
  fake.major = 7;
  fake.minor = 5;
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  runtime::Status s = load(m, &program);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_NE(s.message().find("sm_75"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("sm_80, sm_90"), std::string::npos) << s.message();
  EXPECT_EQ(fake.count("cuModuleLoadDataEx"), 0u);
}

TEST_F(CudaFakeDriver, TheJitErrorLogIsInTheStatus) {
  std::string ptx = "//\n.version 7.8\n.target sm_80\n// bad\n";
  std::vector<std::vector<uint8_t>> images = {
      std::vector<uint8_t>(ptx.begin(), ptx.end())};
  LinearModel m = linearModel(&images, {"sm_80"});
  std::unique_ptr<CudaProgram> program;
  runtime::Status s = load(m, &program);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_NE(s.message().find("loading the sm_80 PTX (JIT) on sm_90"),
            std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find("CUDA_ERROR_INVALID_PTX"), std::string::npos);
  EXPECT_NE(s.message().find("Unresolved extern function 'f'"),
            std::string::npos)
      << s.message();
}

TEST_F(CudaFakeDriver, RunsEagerThenCapturesThenReplaysTheGraph) {
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  ASSERT_TRUE(load(m, &program).ok());
  std::unique_ptr<CudaSession> session;
  size_t before = fake.calls.size();
  runtime::Status s = CudaSession::create(*program, &session);
  ASSERT_TRUE(s.ok()) << s.message();
  // Everything a run needs is made up front: memory, stream, event, the
  // cuBLASLt handle, descriptor, algorithm and workspace.
  std::vector<std::string> created = callsSince(before);
  EXPECT_EQ(std::count(created.begin(), created.end(), "cuMemAlloc"), 4);
  EXPECT_EQ(std::count(created.begin(), created.end(), "cuMemAllocHost"), 2);
  EXPECT_EQ(std::count(created.begin(), created.end(), "cuStreamCreate"), 1);
  EXPECT_EQ(std::count(created.begin(), created.end(), "cublasLtCreate"), 1);
  EXPECT_EQ(std::count(created.begin(), created.end(),
                       "cublasLtMatmulAlgoGetHeuristic"),
            1);

  before = fake.calls.size();
  runAndCheck(*session, m, 1);
  EXPECT_EQ(callsSince(before),
            (std::vector<std::string>{
                "cuCtxPushCurrent", "cuMemcpyHtoDAsync", "cublasLtMatmul",
                "cuLaunchKernel", "cuMemcpyDtoDAsync", "cuMemcpyDtoHAsync",
                "cuEventRecord", "cuEventSynchronize", "cuCtxPopCurrent"}));

  before = fake.calls.size();
  runAndCheck(*session, m, 2);
  EXPECT_EQ(callsSince(before),
            (std::vector<std::string>{
                "cuCtxPushCurrent", "cuStreamBeginCapture", "cuMemcpyHtoDAsync",
                "cublasLtMatmul", "cuLaunchKernel", "cuMemcpyDtoDAsync",
                "cuMemcpyDtoHAsync", "cuStreamEndCapture", "cuGraphInstantiate",
                "cuGraphLaunch", "cuEventRecord", "cuEventSynchronize",
                "cuCtxPopCurrent"}));
  EXPECT_TRUE(session->policy().hasGraph());

  // New inputs, one graph launch: the graph reads the staging buffers.
  for (int seed = 3; seed < 5; ++seed) {
    before = fake.calls.size();
    runAndCheck(*session, m, seed);
    EXPECT_EQ(callsSince(before),
              (std::vector<std::string>{"cuCtxPushCurrent", "cuGraphLaunch",
                                        "cuEventRecord", "cuEventSynchronize",
                                        "cuCtxPopCurrent"}));
  }
  session.reset();
  program.reset();
  EXPECT_EQ(fake.count("cuGraphExecDestroy"), 1u);
  EXPECT_EQ(fake.count("cuStreamDestroy"), 1u);
  EXPECT_EQ(fake.count("cublasLtDestroy"), 1u);
  EXPECT_EQ(fake.liveAllocations, 0u);
}

TEST_F(CudaFakeDriver, MoreThan48KiBOfSharedMemoryIsOptedInAtLoad) {
  LinearModel small = linearModel();
  std::unique_ptr<CudaProgram> program;
  ASSERT_TRUE(load(small, &program).ok());
  EXPECT_EQ(fake.count("cuFuncSetAttribute"), 0u);
  LinearModel large = linearModel(nullptr, {"sm_80", "sm_90"}, 64 * 1024);
  ASSERT_TRUE(load(large, &program).ok());
  EXPECT_EQ(fake.count("cuFuncSetAttribute"), 1u);
  EXPECT_EQ(fake.maxDynamicShared, 64 * 1024);
  std::unique_ptr<CudaSession> session;
  ASSERT_TRUE(CudaSession::create(*program, &session).ok());
  runAndCheck(*session, large, 1);
}

TEST_F(CudaFakeDriver, ATimedRunTimesEachStepWithEventsAndCapturesNothing) {
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  ASSERT_TRUE(load(m, &program).ok());
  std::unique_ptr<CudaSession> session;
  ASSERT_TRUE(CudaSession::create(*program, &session).ok());
  uint64_t stepNs[3] = {0, 0, 0};
  fake.stepMilliseconds = 0.25f;
  runAndCheck(*session, m, 1, stepNs);
  runAndCheck(*session, m, 2, stepNs);
  for (uint64_t ns : stepNs)
    EXPECT_EQ(ns, 2 * 250000u);
  EXPECT_EQ(fake.count("cuStreamBeginCapture"), 0u);
  // One event before the steps and one after each, recorded per run.
  EXPECT_EQ(fake.count("cuEventCreate"), 1u + 4u);
  EXPECT_EQ(fake.count("cuEventRecord"), 2u * (4u + 1u));
}

TEST_F(CudaFakeDriver, OutOfMemoryNamesTheBytesAskedForAndFree) {
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  ASSERT_TRUE(load(m, &program).ok());
  fake.memoryLimit = 1000; // the cuBLASLt workspace does not fit
  std::unique_ptr<CudaSession> session;
  runtime::Status s = CudaSession::create(*program, &session);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), TCC_STATUS_RESOURCE_EXHAUSTED);
  EXPECT_NE(s.message().find("cuBLASLt workspace"), std::string::npos)
      << s.message();
  EXPECT_NE(s.message().find(std::to_string(CudaSession::kGemmWorkspaceBytes) +
                             " bytes asked for, 1000 bytes free of 2000"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(fake.liveAllocations, 1u); // the program's constants alone
}

TEST_F(CudaFakeDriver, ALaunchFailureNamesTheStepTheKernelAndTheError) {
  LinearModel m = linearModel();
  std::unique_ptr<CudaProgram> program;
  ASSERT_TRUE(load(m, &program).ok());
  std::unique_ptr<CudaSession> session;
  ASSERT_TRUE(CudaSession::create(*program, &session).ok());
  fake.failLaunch = "k_mul_fn";
  std::vector<float> x(M * K), r(M * N), y(M * N), z(M * N);
  const void *inputs[] = {x.data(), r.data()};
  void *outputs[] = {y.data(), z.data()};
  runtime::Status s = session->run(inputs, outputs, nullptr);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "cuda: plan step 1 (kernel 'k_mul'), launch 0 'k_mul_fn': "
            "cuLaunchKernel: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES");
  // The failed run was not the first good one: the next run is eager again.
  fake.failLaunch.clear();
  size_t before = fake.calls.size();
  runAndCheck(*session, m, 1);
  EXPECT_EQ(std::count(fake.calls.begin() + long(before), fake.calls.end(),
                       "cuStreamBeginCapture"),
            0);
}

} // namespace
