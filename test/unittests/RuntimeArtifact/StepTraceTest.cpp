//===- StepTraceTest.cpp - step tracing through the C and C++ API ---------===//

#include "TestModels.h"
#include "TestStatus.h"

#include "tcc/runtime/Runtime.h"
#include "tcc/runtime/tcc_runtime.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/syscall.h>
#include <unistd.h>

using namespace tcc::test;

namespace {

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos;
       at = text.find(what, at + what.size()))
    ++n;
  return n;
}

struct AddMulSession {
  std::vector<uint8_t> bytes = addMulModel(1024).finish();
  std::vector<float> x = std::vector<float>(1024, 1.0f), y = x;
  tcc::runtime::Model model;
  tcc::runtime::Session session;
  void create() {
    ASSERT_TCC_OK(
        tcc::runtime::Model::loadMemory(bytes.data(), bytes.size(), &model));
    ASSERT_TCC_OK(model.createSession(nullptr, &session));
    ASSERT_TCC_OK(session.bindInput(0, x.data(), x.size() * 4));
    ASSERT_TCC_OK(session.bindInput(1, y.data(), y.size() * 4));
  }
};

TEST(StepTrace, OneEventPerStepPerTracedRun) {
  AddMulSession s;
  s.create();
  tcc::runtime::Session &session = s.session;
  // Off by default: runs record nothing.
  ASSERT_TCC_OK(session.run());
  std::string json;
  ASSERT_TCC_OK(session.traceJson(&json));
  EXPECT_EQ(count(json, "\"ph\":\"X\""), 0u) << json;

  ASSERT_TCC_OK(session.setTracing(true));
  for (int i = 0; i < 3; ++i)
    ASSERT_TCC_OK(session.run());
  ASSERT_TCC_OK(session.traceJson(&json));
  EXPECT_EQ(count(json, "\"ph\":\"X\""), 6u) << json; // 2 steps x 3 runs
  EXPECT_EQ(count(json, "\"kind\":\"kernel\""), 6u);
  EXPECT_EQ(count(json, "\"source_ops\":[\"tcc.add\"]"), 3u);
  EXPECT_EQ(count(json, "\"source_ops\":[\"tcc.mul\"]"), 3u);
  EXPECT_EQ(count(json, "\"bytes\":12288"), 6u); // 3 bindings of 1024 floats
  EXPECT_EQ(count(json, "\"run\":2}"), 2u);
  EXPECT_EQ(count(json, "\"name\":\"kernel 'tcc_test_add_f32'\""), 3u);
  // The steps ran on this thread.
  std::string tid = "\"tid\":" + std::to_string(long(syscall(SYS_gettid)));
  EXPECT_EQ(count(json, tid + ","), 6u) << json;
  EXPECT_NE(json.find("\"runs\":3"), std::string::npos);

  // Disabling keeps the recording; enabling again forgets it.
  ASSERT_TCC_OK(session.setTracing(false));
  ASSERT_TCC_OK(session.run());
  std::string kept;
  ASSERT_TCC_OK(session.traceJson(&kept));
  EXPECT_EQ(count(kept, "\"ph\":\"X\""), 6u);
  ASSERT_TCC_OK(session.setTracing(true));
  ASSERT_TCC_OK(session.traceJson(&kept));
  EXPECT_EQ(count(kept, "\"ph\":\"X\""), 0u);
}

TEST(StepTrace, ProfilingAndTracingTogether) {
  AddMulSession s;
  s.create();
  ASSERT_TCC_OK(s.session.setTracing(true));
  ASSERT_TCC_OK(s.session.setProfiling(true));
  ASSERT_TCC_OK(s.session.run());
  std::vector<uint64_t> ns;
  uint64_t runs = 0;
  ASSERT_TCC_OK(s.session.stepTimes(&ns, &runs));
  EXPECT_EQ(runs, 1u);
  std::string json;
  ASSERT_TCC_OK(s.session.traceJson(&json));
  EXPECT_EQ(count(json, "\"ph\":\"X\""), 2u);
}

TEST(StepTrace, WritesTheFileWholeAndReportsErrors) {
  AddMulSession s;
  s.create();
  ASSERT_TCC_OK(s.session.setTracing(true));
  ASSERT_TCC_OK(s.session.run());
  std::string json;
  ASSERT_TCC_OK(s.session.traceJson(&json));

  char dir[] = "/tmp/tcc-trace-XXXXXX";
  ASSERT_NE(::mkdtemp(dir), nullptr);
  std::string path = std::string(dir) + "/trace.json";
  ASSERT_TCC_OK(s.session.writeTrace(path));
  std::ifstream in(path);
  std::stringstream written;
  written << in.rdbuf();
  EXPECT_EQ(written.str(), json);
  std::system(("rm -rf " + std::string(dir)).c_str());

  EXPECT_TCC_ERROR(s.session.writeTrace(std::string(dir) + "/no/such.json"),
                   TCC_STATUS_IO_ERROR, "no/such.json");

  // A short buffer gets the start; the size is the whole.
  char head[8] = {};
  size_t size = 0;
  ASSERT_TCC_OK(
      tcc_session_trace_json(s.session.get(), head, sizeof head, &size));
  EXPECT_EQ(size, json.size());
  EXPECT_EQ(std::string(head, sizeof head), json.substr(0, sizeof head));

  EXPECT_TCC_ERROR(tcc_session_trace_json(s.session.get(), nullptr, 4, &size),
                   TCC_STATUS_INVALID_ARGUMENT, "out_json");
  EXPECT_TCC_ERROR(tcc_session_trace_json(s.session.get(), nullptr, 0, nullptr),
                   TCC_STATUS_INVALID_ARGUMENT, "out_size");
  EXPECT_TCC_ERROR(tcc_session_write_trace(s.session.get(), nullptr),
                   TCC_STATUS_INVALID_ARGUMENT, "path");
  EXPECT_TCC_ERROR(tcc_session_set_tracing(nullptr, 1),
                   TCC_STATUS_INVALID_ARGUMENT, "session");
}

} // namespace
