//===- Model.h - a loaded model and its sessions ----------------*- C++ -*-===//
//
// The objects behind tcc_model_t and tcc_session_t. A model is immutable
// after loading (only its reference count changes), so any number of
// sessions on any threads share it. A session owns everything a run writes:
// its arena, its output buffers, its conv2d workspace and its scratch
// tables, so concurrent runs of different sessions share no mutable state.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_EXECUTOR_MODEL_H
#define TCC_RUNTIME_LIB_EXECUTOR_MODEL_H

#include "../Devices/Device.h"
#include "ModelDevices.h"
#include "StepTrace.h"

#include "../Steps/StepKind.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/Status.h"

#include <atomic>
#include <memory>
#include <string>
#include <vector>

// The C signature of a generated kernel (see Kernel in the schema).
typedef void (*tcc_kernel_fn)(void *const *bindings, int64_t tile_begin,
                              int64_t tile_end);

namespace tcc {
namespace runtime {
namespace detail {

struct TensorInfo {
  std::string name;
  tcc_dtype_t dtype;
  std::vector<int64_t> shape;
  size_t byteSize;
};

} // namespace detail
} // namespace runtime
} // namespace tcc

struct tcc_model_s {
  std::atomic<int> refs{1};
  std::unique_ptr<tcc::runtime::Artifact> artifact;
  // Before everything they allocated or loaded, which goes first.
  tcc::runtime::detail::ModelDevices devices;
  // By index of Model.code_modules; null for a module without code.
  std::vector<std::unique_ptr<tcc::runtime::detail::Executable>> code;
  // By memory space: a device space's copy of the constants it holds
  // (bytes [constantsFirst, ...) of the constants segment), made at load;
  // empty for spaces whose constants are read from the segment itself.
  std::vector<tcc::runtime::detail::DeviceMemory> deviceConstants;
  std::vector<uint64_t> constantsFirst;
  // The plan as a device runs it, when devices.programDevice(): then code,
  // kernels, deviceConstants and plan are empty.
  std::unique_ptr<tcc::runtime::detail::Program> program;
  std::vector<tcc_kernel_fn> kernels; // by index of Model.kernels
  std::vector<tcc::runtime::detail::TensorInfo> inputs, outputs;
  // By plan step: its kind's run function, resolved at load so that a run
  // calls it without looking anything up.
  struct PlannedStep {
    tcc::runtime::detail::RunStepFn run;
    const tcc::artifact::Step *step;
  };
  std::vector<PlannedStep> plan;
  uint32_t maxBindings = 0; // over all KernelCalls
  // By plan step: a KernelCall whose bindings are large enough to split its
  // tiles across the pool's threads (smaller ones run on the caller).
  std::vector<bool> parallelKernelStep;

  const tcc::artifact::Model &header() const { return artifact->model(); }
  // Where constant buffer `b`'s bytes are while the model runs.
  uint8_t *constantAddress(const tcc::artifact::Buffer &b) const;

  // Checks the host, opens each module's device, loads its code through the
  // device, resolves every kernel and import and copies constants into the
  // device memory spaces that hold them.
  static tcc::runtime::Status
  create(std::unique_ptr<tcc::runtime::Artifact> artifact, uint32_t flags,
         tcc_model_s **out);
};

struct tcc_session_s {
  std::atomic<int> refs{1};
  tcc_model_s *model = nullptr; // retained
  tcc_allocator_t allocator{};
  bool hasParallel = false;
  tcc_parallel parallel{};
  tcc_device_s *device = nullptr; // retained; runs its async runs
  // Created by the first async run, so sync-only sessions start no thread.
  std::unique_ptr<tcc::runtime::detail::Queue> queue;
  // Async runs submitted and not yet ended. Bindings, outputs, profiling
  // and tracing are refused while it is not 0 (the queue's thread reads them).
  std::atomic<uint32_t> runsInFlight{0};

  // The device's run of the plan, when the model has a program.
  std::unique_ptr<tcc::runtime::detail::ProgramSession> program;
  std::vector<uint8_t *> arenas; // by memory space; null when empty
  // By memory space: a device space's arena, which arenas[] points into.
  std::vector<tcc::runtime::detail::DeviceMemory> deviceArenas;
  std::vector<const void *> inputs; // caller's buffers, nullptr: unbound
  std::vector<void *> boundOutputs; // caller's buffers, nullptr: own
  std::vector<void *> ownOutputs;   // allocated on first use
  // Buffers bound with tcc_session_bind_*_buffer, retained; null otherwise.
  std::vector<tcc_buffer_s *> inputBuffers, outputBuffers;
  // Conv2d workspace when the plan's own is too small for this pool.
  uint8_t *workspace = nullptr;
  size_t workspaceBytes = 0;
  std::vector<bool> useSessionWorkspace; // by plan step

  // Step profiling (tcc_session_set_profiling): wall nanoseconds per plan
  // step summed over the profiled runs.
  bool profiling = false;
  std::vector<uint64_t> stepNanoseconds;
  uint64_t profiledRuns = 0;
  // Step tracing (tcc_session_set_tracing): each step of each run.
  bool tracing = false;
  tcc::runtime::detail::StepTrace trace;

  // Per-run scratch, sized at creation so runs do not allocate.
  // By buffer index: arena and constant buffers' are fixed at creation;
  // those of inputs and outputs (ioBuffers) are set by each run.
  std::vector<uint8_t *> bufferAddresses;
  std::vector<uint32_t> ioBuffers;
  std::vector<void *> bindings;

  ~tcc_session_s();
  static tcc::runtime::Status create(tcc_model_s *model,
                                     const tcc_session_options_t &options,
                                     tcc_session_s **out);
  tcc::runtime::Status run();
  void *outputAddress(size_t index) const {
    return boundOutputs[index] ? boundOutputs[index] : ownOutputs[index];
  }

  const tcc_parallel *parallelOrNull() const {
    return hasParallel ? &parallel : nullptr;
  }

private:
  tcc::runtime::Status prepareOutputs();
  // A run of the model's program on its device.
  tcc::runtime::Status runProgram();
};

#endif // TCC_RUNTIME_LIB_EXECUTOR_MODEL_H
