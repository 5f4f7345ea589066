//===- Runtime.cpp - the C API over models and sessions -------------------===//
//
// Each entry point checks its arguments, calls the C++ implementation and
// turns any exception (allocation failure, the thread pool's errors) into a
// status, so nothing unwinds into C callers.
//
//===----------------------------------------------------------------------===//

#include "tcc/runtime/tcc_runtime.h"

#include "../Artifact/Checks.h"
#include "Guarded.h"
#include "../Executor/Model.h"

#include "tcc/runtime/FileWrite.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <new>

using tcc::runtime::Status;
using tcc::runtime::capi::guarded;
using tcc::runtime::capi::nullArgument;
using tcc::runtime::detail::cat;

namespace {

tcc_model_load_options_t loadOptions(const tcc_model_load_options_t *options) {
  tcc_model_load_options_t o;
  tcc_model_load_options_initialize(&o);
  return options ? *options : o;
}

Status loadArtifact(std::unique_ptr<tcc::runtime::Artifact> artifact,
                    const tcc_model_load_options_t &options,
                    tcc_model_t **out_model) {
  std::string name = artifact->name();
  return tcc_model_s::create(std::move(artifact), options.flags, out_model)
      .withContext(name);
}

Status tensorInfo(const std::vector<tcc::runtime::detail::TensorInfo> &infos,
                  size_t index, const char *kind, tcc_tensor_info_t *out) {
  if (!out)
    return nullArgument("out_info");
  if (index >= infos.size())
    return Status(TCC_STATUS_OUT_OF_RANGE,
                  cat(kind, " index ", index, " out of range (the model has ",
                      infos.size(), ")"));
  const auto &info = infos[index];
  out->name = info.name.c_str();
  out->dtype = info.dtype;
  out->rank = info.shape.size();
  out->shape = info.shape.data();
  out->byte_size = info.byteSize;
  return Status();
}

Status findTensor(const std::vector<tcc::runtime::detail::TensorInfo> &infos,
                  const char *name, const char *kind, size_t *out_index) {
  if (!name)
    return nullArgument("name");
  if (!out_index)
    return nullArgument("out_index");
  for (size_t i = 0; i < infos.size(); ++i)
    if (infos[i].name == name) {
      *out_index = i;
      return Status();
    }
  std::string known;
  for (const auto &info : infos)
    known += cat(known.empty() ? "" : ", ", "'", info.name, "'");
  return Status(TCC_STATUS_NOT_FOUND,
                cat("the model has no ", kind, " named '", name, "' (", kind,
                    "s: ", known.empty() ? "none" : known, ")"));
}

Status checkBinding(const tcc::runtime::detail::TensorInfo &info,
                    const char *kind, size_t index, const void *data,
                    size_t byte_size, bool allowNull) {
  std::string what = cat(kind, " ", index, " '", info.name, "'");
  if (!data) {
    // An empty tensor has no bytes to point at (an empty std::vector's
    // data() may be NULL).
    if (allowNull || (info.byteSize == 0 && byte_size == 0))
      return Status();
    return Status(TCC_STATUS_INVALID_ARGUMENT, cat(what, ": data is NULL"));
  }
  if (byte_size != info.byteSize)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(what, ": ", byte_size, " bytes given, it takes ",
                      info.byteSize, " (", tcc_dtype_name(info.dtype), ")"));
  if (reinterpret_cast<uintptr_t>(data) % tcc_dtype_size(info.dtype) != 0)
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat(what, ": data is not aligned to its ",
                      tcc_dtype_size(info.dtype), "-byte elements"));
  return Status();
}

// A bool input's bytes are each 0 or 1 (invalidBoolByte). Checked when
// bound; the caller must not change them to other values before a run.
Status checkBools(const tcc::runtime::detail::TensorInfo &info, size_t index,
                  const void *data) {
  if (info.dtype != TCC_DTYPE_BOOL || !data)
    return Status();
  std::string bad = tcc::runtime::detail::invalidBoolByte(
      static_cast<const uint8_t *>(data), info.byteSize);
  if (bad.empty())
    return Status();
  return Status(TCC_STATUS_INVALID_ARGUMENT,
                cat("input ", index, " '", info.name, "': ", bad));
}

// Bindings, outputs and profiling belong to the queue's thread while async
// runs are in flight.
Status checkIdle(const tcc_session_t *session) {
  uint32_t runs = session->runsInFlight.load(std::memory_order_acquire);
  if (runs)
    return Status(TCC_STATUS_FAILED_PRECONDITION,
                  cat("the session has ", runs,
                      " async run(s) in flight; wait for their events first"));
  return Status();
}

std::string traceJson(const tcc_session_t &session) {
  return session.trace.json(session.model->header(),
                            session.hasParallel ? session.parallel.num_threads
                                                : 1);
}

void setBuffer(std::vector<tcc_buffer_s *> &buffers, size_t index,
               tcc_buffer_s *buffer) {
  tcc_buffer_retain(buffer);
  tcc_buffer_release(buffers[index]);
  buffers[index] = buffer;
}

Status bindInput(tcc_session_t *session, size_t index, const void *data,
                 size_t byte_size) {
  if (!session)
    return nullArgument("session");
  TCC_RETURN_IF_ERROR(checkIdle(session));
  const auto &infos = session->model->inputs;
  if (index >= infos.size())
    return Status(TCC_STATUS_OUT_OF_RANGE,
                  cat("input index ", index, " out of range (the model has ",
                      infos.size(), ")"));
  TCC_RETURN_IF_ERROR(
      checkBinding(infos[index], "input", index, data, byte_size, false));
  TCC_RETURN_IF_ERROR(checkBools(infos[index], index, data));
  // Non-null marks the input bound; nothing reads an empty input's bytes.
  static const uint64_t kEmptyInput = 0;
  session->inputs[index] = data ? data : &kEmptyInput;
  setBuffer(session->inputBuffers, index, nullptr);
  return Status();
}

Status bindOutput(tcc_session_t *session, size_t index, void *data,
                  size_t byte_size) {
  if (!session)
    return nullArgument("session");
  TCC_RETURN_IF_ERROR(checkIdle(session));
  const auto &infos = session->model->outputs;
  if (index >= infos.size())
    return Status(TCC_STATUS_OUT_OF_RANGE,
                  cat("output index ", index, " out of range (the model has ",
                      infos.size(), ")"));
  TCC_RETURN_IF_ERROR(
      checkBinding(infos[index], "output", index, data, byte_size, true));
  session->boundOutputs[index] = data;
  setBuffer(session->outputBuffers, index, nullptr);
  return Status();
}

// The buffer's host address, for binding it to `session`.
Status bufferAddress(tcc_session_t *session, tcc_buffer_t *buffer,
                     void **out) {
  if (!session)
    return nullArgument("session");
  if (!buffer)
    return nullArgument("buffer");
  const std::string &device = buffer->device->impl->name();
  if (device != session->device->impl->name())
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  cat("the buffer is memory of device '", device,
                      "' but the session runs on '",
                      session->device->impl->name(), "'"));
  if (!buffer->device->impl->hostVisible(buffer->kind))
    return Status(TCC_STATUS_UNIMPLEMENTED,
                  cat("the buffer is memory of device '", device,
                      "' that the host cannot address; the model's inputs "
                      "and outputs are host memory"));
  *out = buffer->address;
  return Status();
}

Status runAsync(tcc_session_t *session, tcc_event_t **out_event) {
  if (!session)
    return nullArgument("session");
  if (!out_event)
    return nullArgument("out_event");
  if (!session->queue)
    TCC_RETURN_IF_ERROR(session->device->impl->createQueue(&session->queue));
  std::unique_ptr<tcc_event_s> event(new tcc_event_s());
  tcc_event_s *e = event.get();
  tcc::runtime::detail::Queue::Work work = [session] { return session->run(); };
  // The queued run holds a reference to the session and to the event.
  tcc::runtime::detail::Queue::Done done = [session, e](Status status) {
    session->runsInFlight.fetch_sub(1, std::memory_order_release);
    e->signal(std::move(status));
    tcc_event_release(e);
    tcc_session_release(session);
  };
  tcc_session_retain(session);
  e->refs.store(2, std::memory_order_relaxed);
  session->runsInFlight.fetch_add(1, std::memory_order_relaxed);
  auto undo = [&] {
    session->runsInFlight.fetch_sub(1, std::memory_order_relaxed);
    tcc_session_release(session);
  };
  Status submitted;
  try {
    submitted = session->queue->submit(std::move(work), std::move(done));
  } catch (...) {
    undo();
    throw;
  }
  if (!submitted.ok()) {
    undo();
    return submitted;
  }
  *out_event = event.release();
  return Status();
}

} // namespace

extern "C" {

void tcc_model_load_options_initialize(tcc_model_load_options_t *out_options) {
  if (!out_options)
    return;
  std::memset(out_options, 0, sizeof(*out_options));
  out_options->allocator = tcc_allocator_system();
}

tcc_status_t tcc_model_load_file(const char *path,
                                 const tcc_model_load_options_t *options,
                                 tcc_model_t **out_model) {
  return guarded([&] {
    if (!path)
      return nullArgument("path");
    if (!out_model)
      return nullArgument("out_model");
    tcc_model_load_options_t o = loadOptions(options);
    std::unique_ptr<tcc::runtime::Artifact> artifact;
    TCC_RETURN_IF_ERROR(tcc::runtime::Artifact::openFile(
        path, &artifact,
        o.flags & TCC_MODEL_LOAD_FLAG_MAP_FILE ? nullptr : &o.allocator,
        o.public_key));
    return loadArtifact(std::move(artifact), o, out_model);
  });
}

tcc_status_t tcc_model_load_memory(const void *data, size_t size,
                                   const tcc_model_load_options_t *options,
                                   tcc_model_t **out_model) {
  return guarded([&] {
    if (!out_model)
      return nullArgument("out_model");
    tcc_model_load_options_t o = loadOptions(options);
    std::unique_ptr<tcc::runtime::Artifact> artifact;
    TCC_RETURN_IF_ERROR(tcc::runtime::Artifact::fromMemory(
        data, size, &o.allocator, &artifact, o.public_key));
    return loadArtifact(std::move(artifact), o, out_model);
  });
}

void tcc_model_retain(tcc_model_t *model) {
  if (model)
    model->refs.fetch_add(1, std::memory_order_relaxed);
}

void tcc_model_release(tcc_model_t *model) {
  if (model && model->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete model;
}

size_t tcc_model_input_count(const tcc_model_t *model) {
  return model ? model->inputs.size() : 0;
}

size_t tcc_model_output_count(const tcc_model_t *model) {
  return model ? model->outputs.size() : 0;
}

tcc_status_t tcc_model_input_info(const tcc_model_t *model, size_t index,
                                  tcc_tensor_info_t *out_info) {
  if (!model)
    return nullArgument("model").release();
  return tensorInfo(model->inputs, index, "input", out_info).release();
}

tcc_status_t tcc_model_output_info(const tcc_model_t *model, size_t index,
                                   tcc_tensor_info_t *out_info) {
  if (!model)
    return nullArgument("model").release();
  return tensorInfo(model->outputs, index, "output", out_info).release();
}

tcc_status_t tcc_model_find_input(const tcc_model_t *model, const char *name,
                                  size_t *out_index) {
  return guarded([&] {
    if (!model)
      return nullArgument("model");
    return findTensor(model->inputs, name, "input", out_index);
  });
}

tcc_status_t tcc_model_find_output(const tcc_model_t *model, const char *name,
                                   size_t *out_index) {
  return guarded([&] {
    if (!model)
      return nullArgument("model");
    return findTensor(model->outputs, name, "output", out_index);
  });
}

void tcc_session_options_initialize(tcc_session_options_t *out_options) {
  if (!out_options)
    return;
  std::memset(out_options, 0, sizeof(*out_options));
  out_options->allocator = tcc_allocator_system();
}

tcc_status_t tcc_session_create(tcc_model_t *model,
                                const tcc_session_options_t *options,
                                tcc_session_t **out_session) {
  return guarded([&] {
    if (!model)
      return nullArgument("model");
    if (!out_session)
      return nullArgument("out_session");
    tcc_session_options_t o;
    tcc_session_options_initialize(&o);
    return tcc_session_s::create(model, options ? *options : o, out_session);
  });
}

void tcc_session_retain(tcc_session_t *session) {
  if (session)
    session->refs.fetch_add(1, std::memory_order_relaxed);
}

void tcc_session_release(tcc_session_t *session) {
  if (session && session->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete session;
}

tcc_status_t tcc_session_bind_input(tcc_session_t *session, size_t index,
                                    const void *data, size_t byte_size) {
  return guarded([&] { return bindInput(session, index, data, byte_size); });
}

tcc_status_t tcc_session_bind_input_by_name(tcc_session_t *session,
                                            const char *name, const void *data,
                                            size_t byte_size) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    size_t index;
    TCC_RETURN_IF_ERROR(
        findTensor(session->model->inputs, name, "input", &index));
    return bindInput(session, index, data, byte_size);
  });
}

tcc_status_t tcc_session_bind_output(tcc_session_t *session, size_t index,
                                     void *data, size_t byte_size) {
  return guarded([&] { return bindOutput(session, index, data, byte_size); });
}

tcc_status_t tcc_session_bind_output_by_name(tcc_session_t *session,
                                             const char *name, void *data,
                                             size_t byte_size) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    size_t index;
    TCC_RETURN_IF_ERROR(
        findTensor(session->model->outputs, name, "output", &index));
    return bindOutput(session, index, data, byte_size);
  });
}

tcc_status_t tcc_session_bind_input_buffer(tcc_session_t *session,
                                           size_t index, tcc_buffer_t *buffer) {
  return guarded([&] {
    void *address;
    TCC_RETURN_IF_ERROR(bufferAddress(session, buffer, &address));
    TCC_RETURN_IF_ERROR(
        bindInput(session, index, address, buffer->byteSize));
    setBuffer(session->inputBuffers, index, buffer);
    return Status();
  });
}

tcc_status_t tcc_session_bind_output_buffer(tcc_session_t *session,
                                            size_t index,
                                            tcc_buffer_t *buffer) {
  return guarded([&] {
    void *address;
    TCC_RETURN_IF_ERROR(bufferAddress(session, buffer, &address));
    // A buffer always has an address: a NULL one would mean "own buffer".
    static uint64_t kEmptyOutput = 0;
    TCC_RETURN_IF_ERROR(bindOutput(session, index,
                                   address ? address : &kEmptyOutput,
                                   buffer->byteSize));
    setBuffer(session->outputBuffers, index, buffer);
    return Status();
  });
}

tcc_status_t tcc_session_run_async(tcc_session_t *session,
                                   tcc_event_t **out_event) {
  return guarded([&] { return runAsync(session, out_event); });
}

tcc_status_t tcc_session_run(tcc_session_t *session) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    return session->run();
  });
}

tcc_status_t tcc_session_set_profiling(tcc_session_t *session, int enabled) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    session->profiling = enabled != 0;
    if (session->profiling) {
      const auto *plan = session->model->header().plan();
      session->stepNanoseconds.assign(plan ? plan->size() : 0, 0);
      session->profiledRuns = 0;
    }
    return Status();
  });
}

tcc_status_t tcc_session_step_times(tcc_session_t *session,
                                    uint64_t *out_nanoseconds, size_t capacity,
                                    size_t *out_steps, uint64_t *out_runs) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    if (capacity && !out_nanoseconds)
      return nullArgument("out_nanoseconds");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    const auto *plan = session->model->header().plan();
    size_t steps = plan ? plan->size() : 0;
    const std::vector<uint64_t> &totals = session->stepNanoseconds;
    for (size_t i = 0; i < std::min(capacity, steps); ++i)
      out_nanoseconds[i] = i < totals.size() ? totals[i] : 0;
    if (out_steps)
      *out_steps = steps;
    if (out_runs)
      *out_runs = session->profiledRuns;
    return Status();
  });
}

tcc_status_t tcc_session_set_tracing(tcc_session_t *session, int enabled) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    // A device that runs the whole plan times its steps itself (profiling);
    // the host sees no step to trace.
    if (enabled && session->program)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    "tracing: the model's device runs its plan as a whole; "
                    "profiling gives the device's step times");
    session->tracing = enabled != 0;
    if (session->tracing)
      session->trace.restart();
    return Status();
  });
}

tcc_status_t tcc_session_trace_json(tcc_session_t *session, char *out_json,
                                    size_t capacity, size_t *out_size) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    if (capacity && !out_json)
      return nullArgument("out_json");
    if (!out_size)
      return nullArgument("out_size");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    std::string json = traceJson(*session);
    if (capacity)
      std::memcpy(out_json, json.data(), std::min(capacity, json.size()));
    *out_size = json.size();
    return Status();
  });
}

tcc_status_t tcc_session_write_trace(tcc_session_t *session,
                                     const char *path) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    if (!path)
      return nullArgument("path");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    std::string json = traceJson(*session);
    std::string error =
        tcc::runtime::writeFileAtomically(path, json.data(), json.size());
    if (!error.empty())
      return Status(TCC_STATUS_IO_ERROR, error);
    return Status();
  });
}

tcc_status_t tcc_session_output(tcc_session_t *session, size_t index,
                                const void **out_data, size_t *out_byte_size) {
  return guarded([&] {
    if (!session)
      return nullArgument("session");
    if (!out_data)
      return nullArgument("out_data");
    TCC_RETURN_IF_ERROR(checkIdle(session));
    const auto &infos = session->model->outputs;
    if (index >= infos.size())
      return Status(TCC_STATUS_OUT_OF_RANGE,
                    cat("output index ", index, " out of range (the model has ",
                        infos.size(), ")"));
    void *address = session->outputAddress(index);
    if (!address)
      return Status(TCC_STATUS_FAILED_PRECONDITION,
                    cat("output ", index, " '", infos[index].name,
                        "' has no data before the first run"));
    *out_data = address;
    if (out_byte_size)
      *out_byte_size = infos[index].byteSize;
    return Status();
  });
}

} // extern "C"
