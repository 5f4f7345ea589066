//===- StepTrace.h - what a traced run records per plan step ----*- C++ -*-===//
//
// Step tracing (tcc_session_set_tracing) records, for every plan step of
// every run, when it started, how long it took and which thread ran it; the
// trace is then written as a Chrome/Perfetto trace (Trace Event Format
// JSON, one "X" complete event per step per run) whose events carry what
// describeStep says of the step (kind, source ops, FLOPs, bytes).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_EXECUTOR_STEPTRACE_H
#define TCC_RUNTIME_LIB_EXECUTOR_STEPTRACE_H

#include "tcc/runtime/artifact_generated.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {

class StepTrace {
public:
  using Clock = std::chrono::steady_clock;

  // Forgets what was recorded; times count from now.
  void restart();
  void record(uint32_t step, Clock::time_point start, uint64_t durationNs,
              uint64_t thread) {
    events_.push_back({step, runs_, nanosecondsSinceOrigin(start),
                       durationNs, thread});
  }
  void endRun() { ++runs_; }
  uint64_t runs() const { return runs_; }

  // The trace as Trace Event Format JSON; `poolThreads` is the size of the
  // session's pool (1: none), which a reader needs to read parallel steps.
  std::string json(const tcc::artifact::Model &model,
                   int32_t poolThreads) const;

private:
  struct Event {
    uint32_t step;
    uint64_t run;
    uint64_t startNs, durationNs; // start: since restart()
    uint64_t thread;
  };
  uint64_t nanosecondsSinceOrigin(Clock::time_point t) const {
    return uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t - origin_)
            .count());
  }

  Clock::time_point origin_ = Clock::now();
  std::vector<Event> events_;
  uint64_t runs_ = 0;
};

// The calling thread's id as the system names it (Linux: gettid), read
// once per thread.
uint64_t currentThreadId();

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_EXECUTOR_STEPTRACE_H
