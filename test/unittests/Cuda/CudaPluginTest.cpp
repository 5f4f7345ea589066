//===- CudaPluginTest.cpp - libtcc_device_cuda.so on a fake driver --------===//
//
// The real plugin, opened by the runtime as `tcc-run --device cuda` opens
// it, on FakeCudaLibrary (a libcuda.so.1 and libcublasLt.so.13 that run on
// host memory, named by TCC_CUDA_DRIVER and TCC_CUBLASLT): the plugin's C
// entry points, the runtime's program path and the C API, end to end.
//
//===----------------------------------------------------------------------===//

#include "LinearModel.h"
#include "TestPaths.h"

#include "tcc/runtime/tcc_runtime.h"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

using namespace tcc::test;

namespace {

struct Status {
  tcc_status_t s;
  ~Status() { tcc_status_free(s); }
  bool ok() const { return s == nullptr; }
  std::string message() const { return s ? tcc_status_message(s) : "OK"; }
};

int fakeCalls(const char *call) {
  void *library = dlopen(fakeCudaLibrary().c_str(), RTLD_NOW | RTLD_NOLOAD);
  EXPECT_NE(library, nullptr) << "the plugin has not opened the fake driver";
  if (!library)
    return -1;
  auto calls = reinterpret_cast<int (*)(const char *)>(
      dlsym(library, "tcc_fake_cuda_calls"));
  int n = calls(call);
  dlclose(library);
  return n;
}

class CudaPlugin : public ::testing::Test {
protected:
  void SetUp() override {
    setenv("TCC_CUDA_DRIVER", fakeCudaLibrary().c_str(), 1);
    setenv("TCC_CUBLASLT", fakeCudaLibrary().c_str(), 1);
    setenv("TCC_DEVICE_PATH", cudaPluginDir().c_str(), 1);
    Status opened{tcc_device_open("cuda", &device)};
    ASSERT_TRUE(opened.ok()) << opened.message();
  }
  void TearDown() override { tcc_device_release(device); }

  // A session of `model` on the device.
  tcc_session_t *session(tcc_model_t *model) {
    tcc_session_options_t options;
    tcc_session_options_initialize(&options);
    options.device = device;
    tcc_session_t *s = nullptr;
    Status created{tcc_session_create(model, &options, &s)};
    EXPECT_TRUE(created.ok()) << created.message();
    return s;
  }

  tcc_device_t *device = nullptr;
};

TEST_F(CudaPlugin, RunsTheLinearModelThroughTheCApi) {
  LinearModel m = linearModel();
  tcc_model_t *model = nullptr;
  Status loaded{
      tcc_model_load_memory(m.file.data(), m.file.size(), nullptr, &model)};
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  tcc_session_t *s = session(model);
  ASSERT_NE(s, nullptr);
  int launchesBefore = fakeCalls("cuLaunchKernel");
  int graphsBefore = fakeCalls("cuGraphLaunch");
  for (int seed = 1; seed <= 4; ++seed) {
    std::vector<float> x, r, y(M * N, -1), z(M * N, -1);
    linearInputs(seed, &x, &r);
    Status b0{tcc_session_bind_input(s, 0, x.data(), x.size() * 4)};
    Status b1{tcc_session_bind_input(s, 1, r.data(), r.size() * 4)};
    Status b2{tcc_session_bind_output(s, 0, y.data(), y.size() * 4)};
    Status b3{tcc_session_bind_output(s, 1, z.data(), z.size() * 4)};
    ASSERT_TRUE(b0.ok() && b1.ok() && b2.ok() && b3.ok());
    Status ran{tcc_session_run(s)};
    ASSERT_TRUE(ran.ok()) << ran.message();
    std::vector<double> ey, ez;
    linearReference(m, x, r, &ey, &ez);
    for (size_t i = 0; i < y.size(); ++i) {
      EXPECT_NEAR(y[i], ey[i], 1e-5) << "y " << i << " seed " << seed;
      EXPECT_NEAR(z[i], ez[i], 1e-5) << "z " << i << " seed " << seed;
    }
  }
  // Run 1 step by step, run 2 captured (the launch recorded once more) and
  // launched, runs 3 and 4 replayed.
  EXPECT_EQ(fakeCalls("cuLaunchKernel") - launchesBefore, 2);
  EXPECT_EQ(fakeCalls("cuGraphLaunch") - graphsBefore, 3);
  tcc_session_release(s);
  tcc_model_release(model);
}

TEST_F(CudaPlugin, ProfilingReportsTheDevicesStepTimes) {
  LinearModel m = linearModel();
  tcc_model_t *model = nullptr;
  Status loaded{
      tcc_model_load_memory(m.file.data(), m.file.size(), nullptr, &model)};
  ASSERT_TRUE(loaded.ok()) << loaded.message();
  tcc_session_t *s = session(model);
  ASSERT_NE(s, nullptr);
  std::vector<float> x, r;
  linearInputs(1, &x, &r);
  Status b0{tcc_session_bind_input(s, 0, x.data(), x.size() * 4)};
  Status b1{tcc_session_bind_input(s, 1, r.data(), r.size() * 4)};
  Status on{tcc_session_set_profiling(s, 1)};
  ASSERT_TRUE(b0.ok() && b1.ok() && on.ok());
  for (int i = 0; i < 3; ++i) {
    Status ran{tcc_session_run(s)};
    ASSERT_TRUE(ran.ok()) << ran.message();
  }
  uint64_t ns[3] = {0, 0, 0}, runs = 0;
  size_t steps = 0;
  Status times{tcc_session_step_times(s, ns, 3, &steps, &runs)};
  ASSERT_TRUE(times.ok());
  EXPECT_EQ(steps, 3u);
  EXPECT_EQ(runs, 3u);
  for (uint64_t t : ns) // the fake's events are 0.25 ms apart
    EXPECT_EQ(t, 3 * 250000u);
  tcc_session_release(s);
  tcc_model_release(model);
}

TEST_F(CudaPlugin, AModelForANewerGpuIsRefusedAtLoadNamingBoth) {
  std::string ptx = "//\n.version 8.6\n.target sm_100\n.address_size 64\n";
  std::vector<std::vector<uint8_t>> images = {
      std::vector<uint8_t>(ptx.begin(), ptx.end())};
  LinearModel m = linearModel(&images, {"sm_100"});
  tcc_model_t *model = nullptr;
  Status loaded{
      tcc_model_load_memory(m.file.data(), m.file.size(), nullptr, &model)};
  ASSERT_FALSE(loaded.ok());
  EXPECT_EQ(tcc_status_code(loaded.s), TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_NE(loaded.message().find("the GPU is sm_90 (compute capability 9.0), "
                                  "but the artifact has code for sm_100 only"),
            std::string::npos)
      << loaded.message();
}

} // namespace
