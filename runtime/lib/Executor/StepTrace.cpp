//===- StepTrace.cpp - plan steps as a Chrome trace -----------------------===//

#include "StepTrace.h"

#include "tcc/runtime/StepKinds.h"

#include <cstdio>
#include <functional>
#include <thread>

#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

namespace tcc {
namespace runtime {
namespace detail {

namespace {

void appendJsonString(std::string &out, const std::string &s) {
  out += '"';
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += char(c);
    }
  }
  out += '"';
}

// Nanoseconds as the format's microseconds, exactly (three decimals).
void appendMicroseconds(std::string &out, uint64_t ns) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu.%03llu",
                (unsigned long long)(ns / 1000),
                (unsigned long long)(ns % 1000));
  out += buf;
}

// The name and the args of every event of step `index` but run: what
// `tcc inspect` and `tcc bench --profile` say of the step.
struct StepText {
  std::string name, args;
};

StepText describe(const tcc::artifact::Model &model, uint32_t index) {
  StepDescription d = describeStep(model, index);
  StepText text;
  appendJsonString(text.name, d.role);
  std::string &a = text.args;
  a = "\"step\":" + std::to_string(index) + ",\"kind\":";
  appendJsonString(a, d.kind);
  a += ",\"what\":";
  appendJsonString(a, d.summary);
  a += ",\"source_ops\":[";
  for (size_t i = 0; i < d.sourceOps.size(); ++i) {
    if (i)
      a += ',';
    appendJsonString(a, d.sourceOps[i]);
  }
  a += ']';
  // Only what is known: describeStep gives 0 where it does not count.
  char buf[64];
  if (d.flops > 0) {
    std::snprintf(buf, sizeof buf, ",\"flops\":%.0f", d.flops);
    a += buf;
  }
  if (d.bytes > 0) {
    std::snprintf(buf, sizeof buf, ",\"bytes\":%.0f", d.bytes);
    a += buf;
  }
  return text;
}

} // namespace

void StepTrace::restart() {
  events_.clear();
  runs_ = 0;
  origin_ = Clock::now();
}

std::string StepTrace::json(const tcc::artifact::Model &model,
                            int32_t poolThreads) const {
  uint32_t numSteps = model.plan() ? model.plan()->size() : 0;
  std::vector<StepText> steps;
  steps.reserve(numSteps);
  for (uint32_t i = 0; i < numSteps; ++i)
    steps.push_back(describe(model, i));

  std::string pid = std::to_string(getpid());
  std::string out = "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"runs\":" +
                    std::to_string(runs_) +
                    ",\"pool_threads\":" + std::to_string(poolThreads) +
                    "},\"traceEvents\":[\n";
  out += "{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":" + pid +
         ",\"tid\":0,\"args\":{\"name\":\"tcc session\"}}";
  for (const Event &e : events_) {
    const StepText &step = steps[e.step];
    out += ",\n{\"name\":" + step.name + ",\"cat\":\"step\",\"ph\":\"X\",\"ts\":";
    appendMicroseconds(out, e.startNs);
    out += ",\"dur\":";
    appendMicroseconds(out, e.durationNs);
    out += ",\"pid\":" + pid + ",\"tid\":" + std::to_string(e.thread) +
           ",\"args\":{" + step.args + ",\"run\":" + std::to_string(e.run) +
           "}}";
  }
  out += "\n]}\n";
  return out;
}

uint64_t currentThreadId() {
  thread_local uint64_t id =
#if defined(__linux__)
      uint64_t(syscall(SYS_gettid));
#else
      uint64_t(std::hash<std::thread::id>()(std::this_thread::get_id()));
#endif
  return id;
}

} // namespace detail
} // namespace runtime
} // namespace tcc
