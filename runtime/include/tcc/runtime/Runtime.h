//===- Runtime.h - C++ wrapper of the runtime's C API -----------*- C++ -*-===//
//
// RAII handles over tcc_runtime.h, header-only so it adds no C++ ABI to the
// library. Errors come back as Status values; nothing throws. Copying a
// handle retains the object (both copies refer to it), moving transfers it.
//
//   tcc::runtime::Model model;
//   if (auto s = tcc::runtime::Model::loadFile("model.bin", &model); !s.ok())
//     return fail(s.message());
//   tcc::runtime::Session session;
//   s = model.createSession(nullptr, &session);
//   s = session.bindInput("x", x.data(), x.size() * sizeof(float));
//   s = session.run();
//   const float *y; s = session.output(0, &y);
//   tcc::runtime::Event done;            // or asynchronously:
//   s = session.runAsync(&done);
//   s = done.wait();
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_RUNTIME_H
#define TCC_RUNTIME_RUNTIME_H

#include "tcc/runtime/Status.h"
#include "tcc/runtime/tcc_runtime.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tcc {
namespace runtime {

namespace detail {
// A reference-counted C object.
template <typename T, void (*Retain)(T *), void (*Release)(T *)> class Handle {
public:
  Handle() = default;
  Handle(const Handle &other) : ptr_(other.ptr_) {
    if (ptr_)
      Retain(ptr_);
  }
  Handle(Handle &&other) noexcept : ptr_(std::exchange(other.ptr_, nullptr)) {}
  Handle &operator=(Handle other) noexcept {
    std::swap(ptr_, other.ptr_);
    return *this;
  }
  ~Handle() {
    if (ptr_)
      Release(ptr_);
  }
  T *get() const { return ptr_; }
  explicit operator bool() const { return ptr_ != nullptr; }
  // Takes over a reference the caller owns.
  void reset(T *ptr) { *this = Handle(ptr); }

private:
  explicit Handle(T *ptr) : ptr_(ptr) {}
  T *ptr_ = nullptr;
};
} // namespace detail

// A thread pool for intra-op parallelism (tcc_thread_pool_t).
class Pool : public detail::Handle<tcc_thread_pool_t, tcc_thread_pool_retain,
                                   tcc_thread_pool_release> {
public:
  static Status create(int numThreads, Pool *out) {
    tcc_thread_pool_t *pool = nullptr;
    Status s(tcc_thread_pool_create(numThreads, &pool));
    if (s.ok())
      out->reset(pool);
    return s;
  }
  const tcc_parallel *parallel() const {
    return tcc_thread_pool_parallel(get());
  }
};

// A device (tcc_device_t): "cpu" or a plugin.
class Device : public detail::Handle<tcc_device_t, tcc_device_retain,
                                     tcc_device_release> {
public:
  static Status open(const std::string &name, Device *out) {
    tcc_device_t *device = nullptr;
    Status s(tcc_device_open(name.c_str(), &device));
    if (s.ok())
      out->reset(device);
    return s;
  }
  std::string name() const { return tcc_device_name(get()); }
};

// Memory of a device (tcc_buffer_t).
class Buffer : public detail::Handle<tcc_buffer_t, tcc_buffer_retain,
                                     tcc_buffer_release> {
public:
  static Status allocate(const Device &device, tcc_memory_kind_t kind,
                         size_t byteSize, Buffer *out) {
    tcc_buffer_t *buffer = nullptr;
    Status s(tcc_device_buffer_allocate(device.get(), kind, byteSize, &buffer));
    if (s.ok())
      out->reset(buffer);
    return s;
  }
  size_t byteSize() const { return tcc_buffer_byte_size(get()); }
  // The host address of a host-visible buffer; T is the element type.
  template <typename T> Status map(T **data) {
    void *p = nullptr;
    Status s(tcc_buffer_map(get(), &p));
    if (s.ok())
      *data = static_cast<T *>(p);
    return s;
  }
};

// The completion of an async run (tcc_event_t).
class Event : public detail::Handle<tcc_event_t, tcc_event_retain,
                                    tcc_event_release> {
public:
  // The run's status, or DEADLINE_EXCEEDED when `timeoutNs` passes first.
  Status wait(uint64_t timeoutNs = TCC_TIMEOUT_INFINITE) {
    return Status(tcc_event_wait(get(), timeoutNs));
  }
};

// An input or output of a model.
struct TensorInfo {
  std::string name;
  tcc_dtype_t dtype = TCC_DTYPE_F32;
  std::vector<int64_t> shape;
  size_t byteSize = 0;
};

class Session : public detail::Handle<tcc_session_t, tcc_session_retain,
                                      tcc_session_release> {
public:
  Status bindInput(size_t index, const void *data, size_t byteSize) {
    return Status(tcc_session_bind_input(get(), index, data, byteSize));
  }
  Status bindInput(const std::string &name, const void *data, size_t byteSize) {
    return Status(
        tcc_session_bind_input_by_name(get(), name.c_str(), data, byteSize));
  }
  Status bindOutput(size_t index, void *data, size_t byteSize) {
    return Status(tcc_session_bind_output(get(), index, data, byteSize));
  }
  Status bindOutput(const std::string &name, void *data, size_t byteSize) {
    return Status(
        tcc_session_bind_output_by_name(get(), name.c_str(), data, byteSize));
  }
  Status bindInput(size_t index, const Buffer &buffer) {
    return Status(tcc_session_bind_input_buffer(get(), index, buffer.get()));
  }
  Status bindOutput(size_t index, const Buffer &buffer) {
    return Status(tcc_session_bind_output_buffer(get(), index, buffer.get()));
  }
  Status run() { return Status(tcc_session_run(get())); }
  // Queues a run on the session's device (tcc_session_run_async).
  Status runAsync(Event *event) {
    tcc_event_t *e = nullptr;
    Status s(tcc_session_run_async(get(), &e));
    if (s.ok())
      event->reset(e);
    return s;
  }
  /// Step profiling (tcc_session_set_profiling): enabling clears the totals.
  Status setProfiling(bool enabled) {
    return Status(tcc_session_set_profiling(get(), enabled ? 1 : 0));
  }
  /// Wall nanoseconds per plan step, summed over `*runs` profiled runs.
  Status stepTimes(std::vector<uint64_t> *nanoseconds, uint64_t *runs) {
    size_t steps = 0;
    Status s(tcc_session_step_times(get(), nullptr, 0, &steps, nullptr));
    if (!s.ok())
      return s;
    nanoseconds->assign(steps, 0);
    return Status(tcc_session_step_times(get(), nanoseconds->data(), steps,
                                         &steps, runs));
  }
  /// Step tracing (tcc_session_set_tracing): enabling forgets the recording.
  Status setTracing(bool enabled) {
    return Status(tcc_session_set_tracing(get(), enabled ? 1 : 0));
  }
  /// The recording as Chrome trace JSON (tcc_session_trace_json).
  Status traceJson(std::string *json) {
    size_t size = 0;
    Status s(tcc_session_trace_json(get(), nullptr, 0, &size));
    if (!s.ok())
      return s;
    json->assign(size, '\0');
    return Status(tcc_session_trace_json(get(), json->data(), size, &size));
  }
  /// The same written to `path` atomically (tcc_session_write_trace).
  Status writeTrace(const std::string &path) {
    return Status(tcc_session_write_trace(get(), path.c_str()));
  }
  // Where output `index` is after a run; T is the element type.
  template <typename T>
  Status output(size_t index, const T **data, size_t *byteSize = nullptr) {
    const void *p = nullptr;
    Status s(tcc_session_output(get(), index, &p, byteSize));
    if (s.ok())
      *data = static_cast<const T *>(p);
    return s;
  }
};

class Model
    : public detail::Handle<tcc_model_t, tcc_model_retain, tcc_model_release> {
public:
  // With `publicKey` (TCC_PUBLIC_KEY_SIZE bytes) only a model signed by
  // that key loads.
  static Status loadFile(const std::string &path, Model *out,
                         uint32_t flags = 0,
                         const uint8_t *publicKey = nullptr) {
    tcc_model_load_options_t options;
    tcc_model_load_options_initialize(&options);
    options.flags = flags;
    options.public_key = publicKey;
    tcc_model_t *model = nullptr;
    Status s(tcc_model_load_file(path.c_str(), &options, &model));
    if (s.ok())
      out->reset(model);
    return s;
  }
  static Status loadMemory(const void *data, size_t size, Model *out,
                           uint32_t flags = 0,
                           const uint8_t *publicKey = nullptr) {
    tcc_model_load_options_t options;
    tcc_model_load_options_initialize(&options);
    options.flags = flags;
    options.public_key = publicKey;
    tcc_model_t *model = nullptr;
    Status s(tcc_model_load_memory(data, size, &options, &model));
    if (s.ok())
      out->reset(model);
    return s;
  }

  size_t inputCount() const { return tcc_model_input_count(get()); }
  size_t outputCount() const { return tcc_model_output_count(get()); }
  Status input(size_t index, TensorInfo *out) const {
    tcc_tensor_info_t info;
    Status s(tcc_model_input_info(get(), index, &info));
    if (s.ok())
      *out = toInfo(info);
    return s;
  }
  Status output(size_t index, TensorInfo *out) const {
    tcc_tensor_info_t info;
    Status s(tcc_model_output_info(get(), index, &info));
    if (s.ok())
      *out = toInfo(info);
    return s;
  }
  Status findInput(const std::string &name, size_t *index) const {
    return Status(tcc_model_find_input(get(), name.c_str(), index));
  }
  Status findOutput(const std::string &name, size_t *index) const {
    return Status(tcc_model_find_output(get(), name.c_str(), index));
  }

  // A session whose kernels run on `parallel` (NULL: the calling thread).
  // On `device` (a null handle: cpu).
  Status createSession(const tcc_parallel *parallel, Session *out,
                       const Device &device = Device()) const {
    tcc_session_options_t options;
    tcc_session_options_initialize(&options);
    options.parallel = parallel;
    options.device = device.get();
    tcc_session_t *session = nullptr;
    Status s(tcc_session_create(get(), &options, &session));
    if (s.ok())
      out->reset(session);
    return s;
  }

private:
  static TensorInfo toInfo(const tcc_tensor_info_t &info) {
    TensorInfo out;
    out.name = info.name;
    out.dtype = info.dtype;
    out.shape.assign(info.shape, info.shape + info.rank);
    out.byteSize = info.byte_size;
    return out;
  }
};

} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_RUNTIME_H
