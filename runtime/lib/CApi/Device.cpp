//===- Device.cpp - the C API of devices, buffers and events --------------===//

#include "tcc/runtime/tcc_runtime.h"

#include "../Artifact/Checks.h"
#include "Guarded.h"
#include "../Devices/Device.h"

#include "tcc/runtime/ArtifactFormat.h"

#include <chrono>
#include <exception>
#include <new>

using tcc::runtime::Status;
using tcc::runtime::capi::guarded;
using tcc::runtime::capi::nullArgument;
using tcc::runtime::detail::cat;

Status tcc_device_s::openCpu(tcc_device_s **out) {
  std::unique_ptr<tcc_device_s> device(new tcc_device_s());
  device->impl = tcc::runtime::detail::makeCpuDevice();
  *out = device.release();
  return Status();
}

tcc_buffer_s::~tcc_buffer_s() {
  if (address)
    device->impl->free(kind, address);
  tcc_device_release(device);
}

void tcc_event_s::signal(Status status) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    code = status.code();
    message = status.ok() ? std::string() : status.message();
    done = true;
  }
  signalled.notify_all();
}

Status tcc_event_s::wait(uint64_t timeoutNs) {
  std::unique_lock<std::mutex> lock(mutex);
  auto isDone = [&] { return done; };
  // Beyond about 146 years a deadline would overflow the clock: no limit.
  if (timeoutNs >= (uint64_t(1) << 62)) {
    signalled.wait(lock, isDone);
  } else if (!signalled.wait_for(lock, std::chrono::nanoseconds(timeoutNs),
                                 isDone)) {
    return Status(TCC_STATUS_DEADLINE_EXCEEDED,
                  cat("the run did not end within ", timeoutNs, " ns"));
  }
  return Status(code, message);
}

extern "C" {

tcc_status_t tcc_device_open(const char *name, tcc_device_t **out_device) {
  return guarded([&] {
    if (!name)
      return nullArgument("name");
    if (!out_device)
      return nullArgument("out_device");
    std::unique_ptr<tcc::runtime::detail::Device> impl;
    TCC_RETURN_IF_ERROR(tcc::runtime::detail::openDevice(name, &impl));
    tcc_device_s *device = new tcc_device_s();
    device->impl = std::move(impl);
    *out_device = device;
    return Status();
  });
}

void tcc_device_retain(tcc_device_t *device) {
  if (device)
    device->refs.fetch_add(1, std::memory_order_relaxed);
}

void tcc_device_release(tcc_device_t *device) {
  if (device && device->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete device;
}

const char *tcc_device_name(const tcc_device_t *device) {
  return device ? device->impl->name().c_str() : "";
}

tcc_status_t tcc_device_buffer_allocate(tcc_device_t *device,
                                        tcc_memory_kind_t kind,
                                        size_t byte_size,
                                        tcc_buffer_t **out_buffer) {
  return guarded([&] {
    if (!device)
      return nullArgument("device");
    if (!out_buffer)
      return nullArgument("out_buffer");
    if (kind != TCC_MEMORY_HOST && kind != TCC_MEMORY_DEVICE)
      return Status(TCC_STATUS_INVALID_ARGUMENT,
                    cat("unknown memory kind ", int(kind)));
    std::unique_ptr<tcc_buffer_s> buffer(new tcc_buffer_s());
    tcc_device_retain(device);
    buffer->device = device;
    buffer->kind = kind;
    buffer->byteSize = byte_size;
    TCC_RETURN_IF_ERROR(device->impl->allocate(
        kind, byte_size, tcc::runtime::kArtifactAlignment, &buffer->address));
    *out_buffer = buffer.release();
    return Status();
  });
}

void tcc_buffer_retain(tcc_buffer_t *buffer) {
  if (buffer)
    buffer->refs.fetch_add(1, std::memory_order_relaxed);
}

void tcc_buffer_release(tcc_buffer_t *buffer) {
  if (buffer && buffer->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete buffer;
}

size_t tcc_buffer_byte_size(const tcc_buffer_t *buffer) {
  return buffer ? buffer->byteSize : 0;
}

tcc_status_t tcc_buffer_map(tcc_buffer_t *buffer, void **out_host_data) {
  return guarded([&] {
    if (!buffer)
      return nullArgument("buffer");
    if (!out_host_data)
      return nullArgument("out_host_data");
    if (!buffer->device->impl->hostVisible(buffer->kind))
      return Status(TCC_STATUS_FAILED_PRECONDITION,
                    cat("the buffer is memory of device '",
                        buffer->device->impl->name(),
                        "' that the host cannot address"));
    *out_host_data = buffer->address;
    return Status();
  });
}

tcc_status_t tcc_event_wait(tcc_event_t *event, uint64_t timeout_ns) {
  return guarded([&] {
    if (!event)
      return nullArgument("event");
    return event->wait(timeout_ns);
  });
}

void tcc_event_retain(tcc_event_t *event) {
  if (event)
    event->refs.fetch_add(1, std::memory_order_relaxed);
}

void tcc_event_release(tcc_event_t *event) {
  if (event && event->refs.fetch_sub(1, std::memory_order_acq_rel) == 1)
    delete event;
}

} // extern "C"
