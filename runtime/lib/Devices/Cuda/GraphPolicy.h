//===- GraphPolicy.h - when a session captures a graph ----------*- C++ -*-===//
//
// A session's first run enqueues the plan step by step (it also loads
// whatever the driver loads lazily, which a capture must not see); the
// second captures the same work into a CUDA graph and launches it; later
// runs replay the graph, one launch per run. A failed capture leaves the
// session running step by step for good. A timed run (profiling: events
// between steps) always runs step by step and changes nothing.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_CUDA_GRAPHPOLICY_H
#define TCC_RUNTIME_LIB_DEVICES_CUDA_GRAPHPOLICY_H

namespace tcc {
namespace cuda {

enum class RunMode {
  Eager,   // enqueue the steps
  Timed,   // enqueue the steps with an event before and after each
  Capture, // enqueue the steps under stream capture, then launch the graph
  Replay,  // launch the captured graph
};

class GraphPolicy {
public:
  RunMode next(bool timed) const {
    if (timed)
      return RunMode::Timed;
    switch (state_) {
    case State::First:
    case State::StepByStep:
      return RunMode::Eager;
    case State::ReadyToCapture:
      return RunMode::Capture;
    case State::Captured:
      return RunMode::Replay;
    }
    return RunMode::Eager;
  }
  // What happened to a run of mode `mode`; `captured`: whether its
  // capture gave a graph (Capture only).
  void ran(RunMode mode, bool ok, bool captured = true) {
    if (mode == RunMode::Capture)
      state_ = captured ? State::Captured : State::StepByStep;
    else if (mode == RunMode::Eager && ok && state_ == State::First)
      state_ = State::ReadyToCapture;
  }
  bool hasGraph() const { return state_ == State::Captured; }

private:
  enum class State { First, ReadyToCapture, Captured, StepByStep };
  State state_ = State::First;
};

} // namespace cuda
} // namespace tcc

#endif // TCC_RUNTIME_LIB_DEVICES_CUDA_GRAPHPOLICY_H
