//===- DeviceTest.cpp - devices, buffers, async runs and plugins ----------===//

#include "ModelTestSupport.h"
#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Runtime.h"
#include "tcc/runtime/tcc_runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace tcc::test;
using tcc::runtime::Buffer;
using tcc::runtime::Device;
using tcc::runtime::Event;
using tcc::runtime::Model;
using tcc::runtime::Pool;
using tcc::runtime::Session;
using tcc::runtime::Status;

namespace {

// Runs what the fake device's queue holds.
int flushFakeDevice() {
  return callTestDevice("fake", "tcc_test_fake_device_flush");
}

TEST(Device, CpuIsBuiltIn) {
  Device cpu;
  ASSERT_TCC_OK(Device::open("cpu", &cpu));
  EXPECT_EQ(cpu.name(), "cpu");
  EXPECT_STREQ(tcc_device_name(nullptr), "");
}

TEST(Device, UnknownNamesSayWhereTheyWereLookedFor) {
  useTestDevices();
  Device device;
  EXPECT_TCC_ERROR(
      Device::open("nosuch", &device), TCC_STATUS_NOT_FOUND,
      std::string("no device 'nosuch': libtcc_device_nosuch.so not found in ") +
          TCC_TEST_DEVICES_DIR);
  EXPECT_TCC_ERROR(Device::open("../fake", &device),
                   TCC_STATUS_INVALID_ARGUMENT,
                   "device names are lowercase letters, digits and _");
  EXPECT_TCC_ERROR(Device::open("", &device), TCC_STATUS_INVALID_ARGUMENT,
                   "no device ''");
  EXPECT_FALSE(device);
  tcc_device_t *raw = nullptr;
  EXPECT_TCC_ERROR(tcc_device_open(nullptr, &raw),
                   TCC_STATUS_INVALID_ARGUMENT, "name is NULL");
}

TEST(Device, PluginsAreCheckedForTheirEntryPointAndAbiVersion) {
  useTestDevices();
  Device device;
  EXPECT_TCC_ERROR(Device::open("badabi", &device), TCC_STATUS_UNIMPLEMENTED,
                   "is built for device plugin ABI 999, this runtime speaks 2");
  EXPECT_TCC_ERROR(Device::open("noentry", &device), TCC_STATUS_NOT_FOUND,
                   "does not export tcc_device_plugin_v2");
  ASSERT_TCC_OK(Device::open("fake", &device));
  EXPECT_EQ(device.name(), "fake");
}

TEST(Device, CpuBuffersAreHostMemory) {
  Device cpu;
  ASSERT_TCC_OK(Device::open("cpu", &cpu));
  for (tcc_memory_kind_t kind : {TCC_MEMORY_HOST, TCC_MEMORY_DEVICE}) {
    Buffer buffer;
    ASSERT_TCC_OK(Buffer::allocate(cpu, kind, 100, &buffer));
    EXPECT_EQ(buffer.byteSize(), 100u);
    float *data = nullptr;
    ASSERT_TCC_OK(buffer.map(&data));
    EXPECT_EQ(reinterpret_cast<uintptr_t>(data) % 64, 0u);
    std::memset(data, 0, 100);
  }
  Buffer buffer;
  EXPECT_TCC_ERROR(
      Buffer::allocate(cpu, tcc_memory_kind_t(7), 4, &buffer),
      TCC_STATUS_INVALID_ARGUMENT, "unknown memory kind 7");
}

TEST(Device, BuffersBindAsInputsAndOutputs) {
  Model model = loadModel(addMulModel(4).finish());
  Device cpu;
  ASSERT_TCC_OK(Device::open("cpu", &cpu));
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session, cpu));
  Buffer x, y, z;
  ASSERT_TCC_OK(Buffer::allocate(cpu, TCC_MEMORY_DEVICE, 16, &x));
  ASSERT_TCC_OK(Buffer::allocate(cpu, TCC_MEMORY_HOST, 16, &y));
  ASSERT_TCC_OK(Buffer::allocate(cpu, TCC_MEMORY_DEVICE, 16, &z));
  float *xs = nullptr, *ys = nullptr, *zs = nullptr;
  ASSERT_TCC_OK(x.map(&xs));
  ASSERT_TCC_OK(y.map(&ys));
  ASSERT_TCC_OK(z.map(&zs));
  for (int i = 0; i < 4; ++i) {
    xs[i] = float(i);
    ys[i] = 1.0f;
  }
  ASSERT_TCC_OK(session.bindInput(0, x));
  ASSERT_TCC_OK(session.bindInput(1, y));
  ASSERT_TCC_OK(session.bindOutput(0, z));
  // The session holds the buffers: the caller's handles may go.
  x = Buffer();
  y = Buffer();
  ASSERT_TCC_OK(session.run());
  EXPECT_EQ(std::vector<float>(zs, zs + 4), (std::vector<float>{1, 4, 9, 16}));
  const float *out = nullptr;
  ASSERT_TCC_OK(session.output(0, &out));
  EXPECT_EQ(out, zs);

  Buffer small;
  ASSERT_TCC_OK(Buffer::allocate(cpu, TCC_MEMORY_HOST, 12, &small));
  EXPECT_TCC_ERROR(session.bindInput(0, small), TCC_STATUS_INVALID_ARGUMENT,
                   "input 0 'x': 12 bytes given, it takes 16 (f32)");
  EXPECT_TCC_ERROR(Status(tcc_session_bind_input_buffer(session.get(), 0,
                                                        nullptr)),
                   TCC_STATUS_INVALID_ARGUMENT, "buffer is NULL");
}

TEST(Device, BuffersOfAnotherDeviceOrNotHostVisibleAreRefused) {
  useTestDevices();
  Model model = loadModel(addMulModel(4).finish());
  Device fake;
  ASSERT_TCC_OK(Device::open("fake", &fake));
  Session onCpu, onFake;
  ASSERT_TCC_OK(model.createSession(nullptr, &onCpu));
  ASSERT_TCC_OK(model.createSession(nullptr, &onFake, fake));
  Buffer host, device;
  ASSERT_TCC_OK(Buffer::allocate(fake, TCC_MEMORY_HOST, 16, &host));
  ASSERT_TCC_OK(Buffer::allocate(fake, TCC_MEMORY_DEVICE, 16, &device));
  EXPECT_TCC_ERROR(onCpu.bindInput(0, host), TCC_STATUS_INVALID_ARGUMENT,
                   "the buffer is memory of device 'fake' but the session "
                   "runs on 'cpu'");
  ASSERT_TCC_OK(onFake.bindInput(0, host));
  EXPECT_TCC_ERROR(onFake.bindInput(1, device), TCC_STATUS_UNIMPLEMENTED,
                   "that the host cannot address");
  float *data = nullptr;
  EXPECT_TCC_ERROR(device.map(&data), TCC_STATUS_FAILED_PRECONDITION,
                   "the buffer is memory of device 'fake' that the host "
                   "cannot address");
}

TEST(AsyncRun, GivesTheSyncResultBitwise) {
  const int64_t n = 4096;
  Model model = loadModel(addMulModel(n).finish());
  Pool pool;
  ASSERT_TCC_OK(Pool::create(2, &pool));
  std::vector<float> x = randomFloats(n, 1), y = randomFloats(n, 2);
  std::vector<float> sync(n), async(n);
  Session a, b;
  ASSERT_TCC_OK(model.createSession(pool.parallel(), &a));
  ASSERT_TCC_OK(model.createSession(pool.parallel(), &b));
  for (Session *s : {&a, &b}) {
    ASSERT_TCC_OK(s->bindInput(0, x.data(), n * 4));
    ASSERT_TCC_OK(s->bindInput(1, y.data(), n * 4));
  }
  ASSERT_TCC_OK(a.bindOutput(0, sync.data(), n * 4));
  ASSERT_TCC_OK(b.bindOutput(0, async.data(), n * 4));
  ASSERT_TCC_OK(a.run());
  Event done;
  ASSERT_TCC_OK(b.runAsync(&done));
  ASSERT_TCC_OK(done.wait());
  EXPECT_EQ(std::memcmp(sync.data(), async.data(), n * 4), 0);
  // The session's own output buffer, too.
  ASSERT_TCC_OK(b.bindOutput(0, nullptr, 0));
  ASSERT_TCC_OK(b.runAsync(&done));
  ASSERT_TCC_OK(done.wait());
  const float *own = nullptr;
  ASSERT_TCC_OK(b.output(0, &own));
  EXPECT_EQ(std::memcmp(sync.data(), own, n * 4), 0);
}

TEST(AsyncRun, ManyRunsEndInSubmissionOrder) {
  Model model = loadModel(addMulModel(256).finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  std::vector<float> x = randomFloats(256, 3), y = randomFloats(256, 4);
  ASSERT_TCC_OK(session.bindInput(0, x.data(), x.size() * 4));
  ASSERT_TCC_OK(session.bindInput(1, y.data(), y.size() * 4));
  std::vector<Event> events(50);
  for (Event &e : events)
    ASSERT_TCC_OK(session.runAsync(&e));
  ASSERT_TCC_OK(events.back().wait());
  // The last run ended, so every earlier one had: one queue, in order.
  for (Event &e : events)
    EXPECT_TCC_OK(e.wait(0));
}

TEST(AsyncRun, InFlightRunsOwnTheSessionUntilTheirEventSignals) {
  useTestDevices();
  Model model = loadModel(addMulModel(4).finish());
  Device fake;
  ASSERT_TCC_OK(Device::open("fake", &fake));
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session, fake));
  std::vector<float> x = {1, 2, 3, 4}, y = {0, 0, 0, 0}, z(4);
  ASSERT_TCC_OK(session.bindInput(0, x.data(), 16));
  ASSERT_TCC_OK(session.bindInput(1, y.data(), 16));
  ASSERT_TCC_OK(session.bindOutput(0, z.data(), 16));
  Event first, second;
  ASSERT_TCC_OK(session.runAsync(&first));
  ASSERT_TCC_OK(session.runAsync(&second)); // queued behind the first
  EXPECT_TCC_ERROR(first.wait(1000000), TCC_STATUS_DEADLINE_EXCEEDED,
                   "the run did not end within 1000000 ns");
  const char *busy = "the session has 2 async run(s) in flight";
  EXPECT_TCC_ERROR(session.run(), TCC_STATUS_FAILED_PRECONDITION, busy);
  EXPECT_TCC_ERROR(session.bindInput(0, x.data(), 16),
                   TCC_STATUS_FAILED_PRECONDITION, busy);
  EXPECT_TCC_ERROR(session.bindOutput(0, z.data(), 16),
                   TCC_STATUS_FAILED_PRECONDITION, busy);
  const float *out = nullptr;
  EXPECT_TCC_ERROR(session.output(0, &out), TCC_STATUS_FAILED_PRECONDITION,
                   busy);
  EXPECT_TCC_ERROR(session.setProfiling(true), TCC_STATUS_FAILED_PRECONDITION,
                   busy);
  EXPECT_TCC_ERROR(session.setTracing(true), TCC_STATUS_FAILED_PRECONDITION,
                   busy);
  std::string trace;
  EXPECT_TCC_ERROR(session.traceJson(&trace), TCC_STATUS_FAILED_PRECONDITION,
                   busy);
  // Releasing the session and the first event early is allowed.
  session = Session();
  first = Event();
  EXPECT_EQ(flushFakeDevice(), 2);
  ASSERT_TCC_OK(second.wait());
  ASSERT_TCC_OK(second.wait(0)); // waits again with the same answer
  EXPECT_EQ(z, (std::vector<float>{1, 4, 9, 16}));
}

TEST(AsyncRun, ErrorsComeBackThroughTheEvent) {
  Model model = loadModel(addMulModel(4).finish());
  Session session;
  ASSERT_TCC_OK(model.createSession(nullptr, &session));
  Event done;
  ASSERT_TCC_OK(session.runAsync(&done));
  EXPECT_TCC_ERROR(done.wait(), TCC_STATUS_FAILED_PRECONDITION,
                   "input 0 'x' is not bound");
  EXPECT_TCC_ERROR(done.wait(), TCC_STATUS_FAILED_PRECONDITION,
                   "input 0 'x' is not bound");
  tcc_event_t *raw = nullptr;
  EXPECT_TCC_ERROR(Status(tcc_session_run_async(nullptr, &raw)),
                   TCC_STATUS_INVALID_ARGUMENT, "session is NULL");
  EXPECT_TCC_ERROR(Status(tcc_session_run_async(session.get(), nullptr)),
                   TCC_STATUS_INVALID_ARGUMENT, "out_event is NULL");
  EXPECT_TCC_ERROR(Status(tcc_event_wait(nullptr, 0)),
                   TCC_STATUS_INVALID_ARGUMENT, "event is NULL");
}

TEST(AsyncRun, ReleasingEverythingWithRunsQueuedIsSafe) {
  Model model = loadModel(addMulModel(1024).finish());
  std::vector<float> x = randomFloats(1024, 5), y = randomFloats(1024, 6);
  std::vector<Event> lastRuns(20);
  for (Event &last : lastRuns) {
    Session session;
    ASSERT_TCC_OK(model.createSession(nullptr, &session));
    ASSERT_TCC_OK(session.bindInput(0, x.data(), 4096));
    ASSERT_TCC_OK(session.bindInput(1, y.data(), 4096));
    Event e;
    for (int i = 0; i < 3; ++i)
      ASSERT_TCC_OK(session.runAsync(&e));
    last = e;
    // The session's last reference may go on the queue's own thread.
  }
  // The bound inputs must outlive the runs.
  for (Event &last : lastRuns)
    EXPECT_TCC_OK(last.wait());
}

} // namespace
