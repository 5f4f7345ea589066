//===- Device.h - the runtime's device model --------------------*- C++ -*-===//
//
// A small device model in the spirit of IREE's HAL. A Device has:
//  - memory of two kinds (host, device) that it allocates and frees;
//  - an executable loader for one kind of code module (Model.code_modules'
//    `kind`: "cpu" for the built-in CPU device);
//  - queues, each running submitted work in order on another thread and
//    reporting each item's status when it ends (tcc_session_run_async).
// "cpu" is built in (Cpu/); other devices are plugins behind the C ABI of
// tcc_device_plugin.h (Registry.cpp). A new device is a folder here built
// as libtcc_device_<name>.so.
// Model loading opens one device per kind of code module (a module of kind
// K on the device named K, Executor/ModelDevices.h), loads each module's
// code with that device's loader and allocates device memory spaces (arenas
// and constant copies) from it. The step kinds all run on the host, so a
// kernel step calls what its executable resolves as a host function and
// every buffer a step touches must be host-visible. A GPU device (issue 16)
// instead runs whole plans (Program): the runtime hands it a model whose
// steps are all on its modules, and each session's runs, with the inputs
// and outputs in host memory.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_DEVICES_DEVICE_H
#define TCC_RUNTIME_LIB_DEVICES_DEVICE_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/tcc_runtime.h"

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace tcc {
namespace artifact {
struct CodeModule;
} // namespace artifact

namespace runtime {
class Artifact;
namespace detail {

// Loaded code of one module.
class Executable {
public:
  virtual ~Executable() = default;
  // The address of `symbol`, defined by this module itself.
  virtual Status resolve(const std::string &symbol, void **out) const = 0;
};

// Runs work in submission order, off the submitting thread. `done` gets
// each work's status exactly once, on the queue's thread.
class Queue {
public:
  using Work = std::function<Status()>;
  using Done = std::function<void(Status)>;
  virtual ~Queue() = default;
  virtual Status submit(Work work, Done done) = 0;
};

// A queue on one host thread of its own, started by the first submission.
// Destroying it runs what is queued, then joins the thread; destroyed from
// that thread itself (the last reference released by a finishing run), it
// lets the thread end on its own.
std::unique_ptr<Queue> makeHostQueue();

// A device's run of a model's whole plan (tcc_device_plugin.h, "Programs"):
// one per session, which owns what a run writes.
class ProgramSession {
public:
  virtual ~ProgramSession() = default;
  // Runs the plan on host inputs and outputs; with `stepNs`, adds each
  // step's device time to stepNs[step].
  virtual Status run(const void *const *inputs, void *const *outputs,
                     uint64_t *stepNs) = 0;
};

// A model loaded by a device that runs its plan itself.
class Program {
public:
  virtual ~Program() = default;
  virtual Status createSession(std::unique_ptr<ProgramSession> *out) = 0;
};

class Device {
public:
  virtual ~Device() = default;
  virtual const std::string &name() const = 0;

  virtual bool hostVisible(tcc_memory_kind_t kind) const = 0;
  virtual Status allocate(tcc_memory_kind_t kind, size_t bytes,
                          size_t alignment, void **out) = 0;
  virtual void free(tcc_memory_kind_t kind, void *address) = 0;

  // The kind of code module this device loads, or "" for none.
  virtual const std::string &moduleKind() const = 0;
  // Loads the code of `module` (`code`, `size` bytes from its segment);
  // `flags` are the model's TCC_MODEL_LOAD_FLAG_*.
  virtual Status loadExecutable(const tcc::artifact::CodeModule &module,
                                const uint8_t *code, size_t size,
                                uint32_t flags,
                                std::unique_ptr<Executable> *out) = 0;

  virtual Status createQueue(std::unique_ptr<Queue> *out) = 0;

  // Whether the device runs the plans of its modules itself (a GPU): the
  // runtime then hands it the model (loadProgram) rather than running steps
  // on the host.
  virtual bool runsPrograms() const { return false; }
  virtual Status loadProgram(const Artifact &artifact,
                             std::unique_ptr<Program> *out) {
    (void)artifact;
    (void)out;
    return Status(TCC_STATUS_UNIMPLEMENTED, "the device runs no programs");
  }
};

// Memory allocated from a device and freed through it when this goes; the
// device must outlive it.
class DeviceMemory {
public:
  DeviceMemory() = default;
  static Status allocate(Device &device, tcc_memory_kind_t kind, size_t bytes,
                         size_t alignment, DeviceMemory *out) {
    out->reset();
    void *address = nullptr;
    TCC_RETURN_IF_ERROR(device.allocate(kind, bytes, alignment, &address));
    out->device_ = &device;
    out->kind_ = kind;
    out->address_ = address;
    return Status();
  }
  DeviceMemory(DeviceMemory &&other) noexcept { *this = std::move(other); }
  DeviceMemory &operator=(DeviceMemory &&other) noexcept {
    if (this != &other) {
      reset();
      std::swap(device_, other.device_);
      std::swap(kind_, other.kind_);
      std::swap(address_, other.address_);
    }
    return *this;
  }
  ~DeviceMemory() { reset(); }
  void reset() {
    if (address_)
      device_->free(kind_, address_);
    device_ = nullptr;
    address_ = nullptr;
  }
  uint8_t *data() const { return static_cast<uint8_t *>(address_); }

private:
  Device *device_ = nullptr;
  tcc_memory_kind_t kind_ = TCC_MEMORY_DEVICE;
  void *address_ = nullptr;
};

// The built-in CPU device.
std::unique_ptr<Device> makeCpuDevice();
// "cpu", or the plugin libtcc_device_<name>.so.
Status openDevice(const std::string &name, std::unique_ptr<Device> *out);

} // namespace detail
} // namespace runtime
} // namespace tcc

// The objects behind the C API's handles.
struct tcc_device_s {
  std::atomic<int> refs{1};
  std::unique_ptr<tcc::runtime::detail::Device> impl;
  // A new handle on the built-in CPU device.
  static tcc::runtime::Status openCpu(tcc_device_s **out);
};

struct tcc_buffer_s {
  std::atomic<int> refs{1};
  tcc_device_s *device = nullptr; // retained
  tcc_memory_kind_t kind = TCC_MEMORY_HOST;
  size_t byteSize = 0;
  void *address = nullptr; // in the device's address space for `kind`
  ~tcc_buffer_s();
};

// Signalled once, under its mutex, by the queue that ran the work.
struct tcc_event_s {
  std::atomic<int> refs{1};
  std::mutex mutex;
  std::condition_variable signalled;
  bool done = false;
  tcc_status_code_t code = TCC_STATUS_OK;
  std::string message;

  void signal(tcc::runtime::Status status);
  // The status, or DEADLINE_EXCEEDED after `timeoutNs`.
  tcc::runtime::Status wait(uint64_t timeoutNs);
};

#endif // TCC_RUNTIME_LIB_DEVICES_DEVICE_H
