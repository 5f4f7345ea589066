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

#include "tcc/runtime/Artifact.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace tcc;
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

class CudaCompiledModel : public ::testing::TestWithParam<std::string> {};

TEST_P(CudaCompiledModel, LoadsAndRunsOnTheFakeDriver) {
  std::vector<uint8_t> file =
      test::readFile(std::string(TCC_CUDA_TEST_ARTIFACTS) + "/" + GetParam() +
                     ".bin");
  std::unique_ptr<runtime::Artifact> artifact;
  ASSERT_TRUE(runtime::Artifact::fromMemory(file.data(), file.size(), nullptr,
                                            &artifact)
                  .ok());
  test::FakeCuda fake;
  fake.anyFunction = true;
  cuda::Gpu gpu;
  fake.install(&gpu.driver, &gpu.lt);
  gpu.major = 8; // sm_89: no cubin, so the sm_80 PTX (JIT)
  gpu.minor = 9;
  std::unique_ptr<CudaProgram> program;
  runtime::Status s = CudaProgram::load(gpu, artifact->model(),
                                        artifact->fileData(),
                                        artifact->constants(), &program);
  ASSERT_TRUE(s.ok()) << s.message();
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

  std::unique_ptr<CudaSession> session;
  s = CudaSession::create(*program, &session);
  ASSERT_TRUE(s.ok()) << s.message();
  const auto *inputs = artifact->model().inputs();
  const auto *outputs = artifact->model().outputs();
  std::vector<std::vector<uint8_t>> in, out;
  std::vector<const void *> inPtrs;
  std::vector<void *> outPtrs;
  for (uint32_t i = 0; inputs && i < inputs->size(); ++i)
    in.emplace_back(
        artifact->model().buffers()->Get(inputs->Get(i)->buffer())->byte_size());
  for (uint32_t i = 0; outputs && i < outputs->size(); ++i)
    out.emplace_back(
        artifact->model().buffers()->Get(outputs->Get(i)->buffer())->byte_size());
  for (auto &b : in)
    inPtrs.push_back(b.data());
  for (auto &b : out)
    outPtrs.push_back(b.data());
  for (int run = 0; run < 3; ++run) {
    s = session->run(inPtrs.data(), outPtrs.data(), nullptr);
    ASSERT_TRUE(s.ok()) << "run " << run << ": " << s.message();
  }
  EXPECT_TRUE(session->policy().hasGraph());
  EXPECT_EQ(fake.count("cuLaunchKernel"), 2 * launches); // eager, capture
  EXPECT_EQ(fake.count("cublasLtMatmul"), 2 * gemms);
  EXPECT_EQ(fake.count("cuGraphLaunch"), 2u);
}

INSTANTIATE_TEST_SUITE_P(TestCudaInputs, CudaCompiledModel,
                         ::testing::Values("elementwise", "reductions", "nn",
                                           "mlp"));

} // namespace
