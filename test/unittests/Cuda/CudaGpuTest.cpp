//===- CudaGpuTest.cpp - the cuda device on a real GPU --------------------===//
//
// The linear model (LinearModel.h) with a hand-written PTX kernel for
// sm_80, which a newer GPU compiles at load, run through the C API on the
// device "cuda": three runs (step by step, captured into a graph, replayed)
// with new inputs each, against float64; then profiled runs, whose steps
// the device times with events. Each case skips, saying why, when the
// device cannot be opened (no driver, no GPU): on machines without a GPU.
// scripts/device-check.sh runs it on one.
//
//===----------------------------------------------------------------------===//

#include "LinearModel.h"

#include "tcc/runtime/tcc_runtime.h"

#include <gtest/gtest.h>

#include <string>

using namespace tcc::test;

namespace {

// out[i] = a[i] * b[i] for i < 20 (assembled by ptxas for sm_80 and sm_90
// when written).
const char kMulPtx[] = R"PTX(//
// out[i] = a[i] * b[i] for i < 20: k_mul_fn(out, a, b)
.version 7.8
.target sm_80
.address_size 64

.visible .entry k_mul_fn(.param .u64 out, .param .u64 a, .param .u64 b)
.maxntid 32, 1, 1
{
  .reg .pred %p<2>;
  .reg .b32 %r<2>;
  .reg .b64 %rd<10>;
  .reg .f32 %f<4>;
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, 20;
  @%p1 bra DONE;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [a];
  ld.param.u64 %rd3, [b];
  cvta.to.global.u64 %rd4, %rd1;
  cvta.to.global.u64 %rd5, %rd2;
  cvta.to.global.u64 %rd6, %rd3;
  mul.wide.u32 %rd7, %r1, 4;
  add.s64 %rd8, %rd5, %rd7;
  ld.global.f32 %f1, [%rd8];
  add.s64 %rd9, %rd6, %rd7;
  ld.global.f32 %f2, [%rd9];
  mul.rn.f32 %f3, %f1, %f2;
  add.s64 %rd8, %rd4, %rd7;
  st.global.f32 [%rd8], %f3;
DONE:
  ret;
}
)PTX";

struct Status {
  tcc_status_t s;
  ~Status() { tcc_status_free(s); }
  bool ok() const { return s == nullptr; }
  std::string message() const { return s ? tcc_status_message(s) : "OK"; }
};

class CudaGpu : public ::testing::Test {
protected:
  void SetUp() override {
    Status opened{tcc_device_open("cuda", &device)};
    if (!opened.ok())
      GTEST_SKIP() << "no GPU to run on: " << opened.message();
    std::string ptx = kMulPtx;
    std::vector<std::vector<uint8_t>> images = {
        std::vector<uint8_t>(ptx.begin(), ptx.end())};
    m = linearModel(&images, {"sm_80"});
    Status loaded{
        tcc_model_load_memory(m.file.data(), m.file.size(), nullptr, &model)};
    ASSERT_TRUE(loaded.ok()) << loaded.message();
    tcc_session_options_t options;
    tcc_session_options_initialize(&options);
    options.device = device;
    Status created{tcc_session_create(model, &options, &session)};
    ASSERT_TRUE(created.ok()) << created.message();
  }
  void TearDown() override {
    tcc_session_release(session);
    tcc_model_release(model);
    tcc_device_release(device);
  }

  void runAndCheck(int seed) {
    std::vector<float> x, r, y(M * N, -1), z(M * N, -1);
    linearInputs(seed, &x, &r);
    Status s1{tcc_session_bind_input(session, 0, x.data(), x.size() * 4)};
    Status s2{tcc_session_bind_input(session, 1, r.data(), r.size() * 4)};
    Status s3{tcc_session_bind_output(session, 0, y.data(), y.size() * 4)};
    Status s4{tcc_session_bind_output(session, 1, z.data(), z.size() * 4)};
    ASSERT_TRUE(s1.ok() && s2.ok() && s3.ok() && s4.ok());
    Status ran{tcc_session_run(session)};
    ASSERT_TRUE(ran.ok()) << ran.message();
    std::vector<double> ey, ez;
    linearReference(m, x, r, &ey, &ez);
    for (size_t i = 0; i < y.size(); ++i) {
      // cuBLASLt in strict fp32 sums in another order than float64.
      EXPECT_NEAR(y[i], ey[i], 1e-5 + 1e-5 * std::abs(ey[i])) << "y " << i;
      EXPECT_NEAR(z[i], ez[i], 1e-5 + 1e-5 * std::abs(ez[i])) << "z " << i;
    }
  }

  tcc_device_t *device = nullptr;
  tcc_model_t *model = nullptr;
  tcc_session_t *session = nullptr;
  LinearModel m;
};

TEST_F(CudaGpu, RunsStepByStepThenAsACapturedGraphThenReplays) {
  for (int seed = 1; seed <= 4; ++seed)
    runAndCheck(seed);
}

TEST_F(CudaGpu, ProfilingTimesEveryStepOnTheDevice) {
  Status on{tcc_session_set_profiling(session, 1)};
  ASSERT_TRUE(on.ok());
  runAndCheck(1);
  runAndCheck(2);
  uint64_t ns[3] = {0, 0, 0};
  size_t steps = 0;
  uint64_t runs = 0;
  Status times{tcc_session_step_times(session, ns, 3, &steps, &runs)};
  ASSERT_TRUE(times.ok()) << times.message();
  EXPECT_EQ(steps, 3u);
  EXPECT_EQ(runs, 2u);
  for (uint64_t t : ns)
    EXPECT_GT(t, 0u); // each step was timed by its events
}

TEST_F(CudaGpu, AnArchitectureTheGpuLacksIsRefusedNamingBoth) {
  // PTX for sm_120 only: no GPU of this test's time is that new, and a
  // newer one would JIT it (then this case says so and checks nothing else).
  std::string ptx = std::string(kMulPtx);
  ptx.replace(ptx.find(".target sm_80"), 13, ".target sm_120");
  std::vector<std::vector<uint8_t>> images = {
      std::vector<uint8_t>(ptx.begin(), ptx.end())};
  LinearModel newer = linearModel(&images, {"sm_120"});
  tcc_model_t *refused = nullptr;
  Status s{tcc_model_load_memory(newer.file.data(), newer.file.size(), nullptr,
                                 &refused)};
  if (s.ok()) {
    tcc_model_release(refused);
    GTEST_SKIP() << "this GPU is sm_120 or newer";
  }
  EXPECT_EQ(tcc_status_code(s.s), TCC_STATUS_FAILED_PRECONDITION);
  EXPECT_NE(s.message().find("code for sm_120 only"), std::string::npos)
      << s.message();
}

} // namespace
