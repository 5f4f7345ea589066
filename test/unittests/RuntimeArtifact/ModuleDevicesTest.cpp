//===- ModuleDevicesTest.cpp - code modules loaded by their devices -------===//
//
// A code module of kind K loads through the device named K (the test
// plugins of TestDevicePlugin.c), whose memory holds the model's device
// memory spaces; loading names the device it cannot find or use, and the
// host step that would touch memory the host cannot address.
//
//===----------------------------------------------------------------------===//

#include "ModelTestSupport.h"
#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Runtime.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

using namespace tcc::test;
using tcc::artifact::CodeModuleT;
using tcc::artifact::CopyT;
using tcc::artifact::DType;
using tcc::artifact::MemoryKind;
using tcc::artifact::ModelT;
using tcc::artifact::OpUnion;
using tcc::artifact::Storage;
using tcc::runtime::ArtifactBuilder;
using tcc::runtime::Model;
using tcc::runtime::Session;
using tcc::runtime::Status;

namespace {

Status load(const std::vector<uint8_t> &file) {
  Model model;
  return Model::loadMemory(file.data(), file.size(), &model);
}

// Buffers of deviceModel.
enum : uint32_t { kX, kZ, kHostConstant, kC, kT };

// What the test devices' loader accepts as code.
std::vector<uint8_t> testDeviceCode() {
  const char *code = "tcc test device code";
  return std::vector<uint8_t>(code, code + std::strlen(code) + 1);
}

// z = x * c + 1 for f32[4], computed by the kernel of code module 1 (of
// kind `kind`, with `code`) into t, then copied to z by a host copy step. c = {10, 20, 30, 40} is a constant and t an arena buffer,
// both in memory space 1, the device memory of module 1. A host constant
// before c puts c at offset 64 of the constants segment.
ArtifactBuilder deviceModel(const std::string &kind,
                            std::vector<uint8_t> code = testDeviceCode()) {
  ArtifactBuilder b;
  uint32_t x = b.addInput("x", DType::F32, {4});
  uint32_t z = b.addOutput("z", DType::F32, {4});
  float unused = 0;
  uint32_t host = b.addConstantBuffer(DType::F32, {1}, &unused);
  CodeModuleT moduleT;
  moduleT.kind = kind;
  uint32_t module = b.addCodeModule(moduleT, std::move(code));
  uint32_t space = b.addMemorySpace(MemoryKind::Device, 16, module);
  std::vector<float> c = {10, 20, 30, 40};
  uint32_t cBuf = b.addConstantBuffer(DType::F32, {4}, c.data());
  b.model().buffers[cBuf]->space = space;
  uint32_t t = b.addBuffer(DType::F32, {4}, Storage::Arena, 0, 0, space);
  EXPECT_EQ(std::vector<uint32_t>({x, z, host, cBuf, t}),
            std::vector<uint32_t>({kX, kZ, kHostConstant, kC, kT}));
  uint32_t kernel = b.addKernel("tcc_test_device_mul_add_one_f32",
                                {reads(16), reads(16), writes(16)}, 4, {},
                                module);
  b.addKernelCall(kernel, {x, cBuf, t});
  CopyT copy;
  copy.src = t;
  copy.dst = z;
  copy.bytes = 16;
  OpUnion op;
  op.Set(std::move(copy));
  b.addStep(std::move(op));
  return b;
}

int liveDeviceAllocations() {
  return callTestDevice("test", "tcc_test_device_live_allocations");
}

TEST(ModuleDevices, RunsAPluginModulesKernelsInItsDeviceMemory) {
  useTestDevices();
  Model model = loadModel(deviceModel("test").finish());
  ASSERT_TRUE(model.get());
  EXPECT_EQ(liveDeviceAllocations(), 1); // the copy of c
  {
    Session session;
    ASSERT_TCC_OK(model.createSession(nullptr, &session));
    EXPECT_EQ(liveDeviceAllocations(), 2); // and the session's arena
    std::vector<float> x = {1.5f, -2, 3, 0.25f};
    ASSERT_TCC_OK(session.bindInput(0, x.data(), 16));
    ASSERT_TCC_OK(session.run());
    const float *z = nullptr;
    ASSERT_TCC_OK(session.output(0, &z));
    EXPECT_EQ(std::vector<float>(z, z + 4),
              (std::vector<float>{16, -39, 91, 11}));
  }
  EXPECT_EQ(liveDeviceAllocations(), 1);
}

TEST(ModuleDevices, AMissingPluginIsNamedWithWhereItWasLookedFor) {
  useTestDevices();
  EXPECT_TCC_ERROR(load(deviceModel("nosuch").finish()), TCC_STATUS_NOT_FOUND,
                   std::string("code module 1 of kind 'nosuch': no device "
                               "'nosuch': libtcc_device_nosuch.so not found "
                               "in ") +
                       TCC_TEST_DEVICES_DIR);
}

TEST(ModuleDevices, TheDeviceMustLoadItsModulesKind) {
  useTestDevices();
  EXPECT_TCC_ERROR(load(deviceModel("mismatch").finish()),
                   TCC_STATUS_FAILED_PRECONDITION,
                   "code module 1 of kind 'mismatch': device 'mismatch' loads "
                   "modules of kind 'test'");
  EXPECT_TCC_ERROR(load(deviceModel("fake").finish()),
                   TCC_STATUS_FAILED_PRECONDITION,
                   "code module 1 of kind 'fake': device 'fake' loads no code "
                   "modules");
}

TEST(ModuleDevices, TheDevicesLoaderTakesTheModulesCode) {
  useTestDevices();
  EXPECT_TCC_ERROR(load(deviceModel("test").finish([](ModelT &m) {
                     m.code_modules[1]->imports = {"expf"};
                   })),
                   TCC_STATUS_UNIMPLEMENTED,
                   "code module 1: device 'test' fills no import table, but "
                   "the module imports 1 functions");
  EXPECT_TCC_ERROR(load(deviceModel("test", testKernels()).finish()),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "code module 1: test device: not test device code");
}

TEST(ModuleDevices, HostStepsMayNotTouchMemoryTheHostCannotAddress) {
  useTestDevices();
  EXPECT_TCC_ERROR(load(deviceModel("hidden").finish()),
                   TCC_STATUS_FAILED_PRECONDITION,
                   "plan step 0 (kernel): buffer 3 is in memory space 1, "
                   "memory of device 'hidden' that the host cannot address, "
                   "but the step runs on the host");
  // The kernel on host memory only: the copy reads t.
  EXPECT_TCC_ERROR(load(deviceModel("hidden").finish([](ModelT &m) {
                     m.plan[0]->op.AsKernelCall()->bindings = {kX, kX, kZ};
                   })),
                   TCC_STATUS_FAILED_PRECONDITION,
                   "plan step 1 (copy): buffer 4 is in memory space 1, "
                   "memory of device 'hidden'");
  // No step touches space 1, but c would have to be copied there.
  EXPECT_TCC_ERROR(load(deviceModel("hidden").finish([](ModelT &m) {
                     m.plan[0]->op.AsKernelCall()->bindings = {kX, kX, kZ};
                     m.plan[1]->op.AsCopy()->src = kX;
                   })),
                   TCC_STATUS_UNIMPLEMENTED,
                   "memory space 1 holds constants in memory of device "
                   "'hidden' that the host cannot address");
}

// deviceModel with both steps on module 1, of kind "program": its device
// runs the whole plan (the plugin ABI's programs), so no step runs on the
// host and memory the host cannot address is the device's business.
std::vector<uint8_t> programModel() {
  return deviceModel("program").finish(
      [](ModelT &m) { m.plan[1]->code_module = 1; });
}

TEST(ModuleDevices, ADeviceThatRunsProgramsRunsTheWholePlan) {
  useTestDevices();
  Model model = loadModel(programModel());
  ASSERT_TRUE(model.get());
  EXPECT_EQ(callTestDevice("program", "tcc_test_device_live_programs"), 100);
  {
    Session session;
    ASSERT_TCC_OK(model.createSession(nullptr, &session));
    EXPECT_EQ(callTestDevice("program", "tcc_test_device_live_programs"),
              101);
    ASSERT_TCC_OK(session.setProfiling(true));
    std::vector<float> x = {1.5f, -2, 3, 0.25f};
    ASSERT_TCC_OK(session.bindInput(0, x.data(), 16));
    ASSERT_TCC_OK(session.run());
    ASSERT_TCC_OK(session.run());
    const float *z = nullptr;
    ASSERT_TCC_OK(session.output(0, &z));
    EXPECT_EQ(std::vector<float>(z, z + 4),
              (std::vector<float>{3, -4, 6, 0.5f}));
    // The device's own step times, summed over the profiled runs.
    std::vector<uint64_t> ns;
    uint64_t runs = 0;
    ASSERT_TCC_OK(session.stepTimes(&ns, &runs));
    EXPECT_EQ(ns, (std::vector<uint64_t>{2000, 2000}));
    EXPECT_EQ(runs, 2u);
    EXPECT_TCC_ERROR(Status(tcc_session_set_tracing(session.get(), 1)),
                     TCC_STATUS_UNIMPLEMENTED,
                     "the model's device runs its plan as a whole");
  }
  EXPECT_EQ(callTestDevice("program", "tcc_test_device_live_programs"), 100);
}

TEST(ModuleDevices, APlanIsNotSplitBetweenAProgramDeviceAndTheHost) {
  useTestDevices();
  EXPECT_TCC_ERROR(load(deviceModel("program").finish()),
                   TCC_STATUS_UNIMPLEMENTED,
                   "plan step 0 runs on device 'program', which runs whole "
                   "plans, but plan step 1 on device 'cpu': a plan cannot be "
                   "split between them yet");
}

} // namespace
