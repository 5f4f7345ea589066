//===- Session.cpp - running the execution plan ---------------------------===//
//
// Every offset, index and size used here was validated at load, so a run
// only resolves buffer addresses and calls each step's run function (its
// kind's, runtime/lib/Steps/). Runs do not allocate, except each output's
// own buffer on the first run that needs it.
//
//===----------------------------------------------------------------------===//

#include "Model.h"

#include "../Artifact/Checks.h"

#include "tcc/runtime/ArtifactFormat.h"
#include "tcc/runtime/kernels.h"

#include <algorithm>
#include <chrono>
#include <cstring>

using tcc::runtime::Status;
using tcc::runtime::detail::cat;
using namespace tcc::artifact;

Status tcc_session_s::create(tcc_model_s *model,
                             const tcc_session_options_t &options,
                             tcc_session_s **out) {
  if (!options.allocator.alloc || !options.allocator.free)
    return Status(TCC_STATUS_INVALID_ARGUMENT, "allocator lacks alloc/free");
  if (options.parallel &&
      (!options.parallel->parallel_for || options.parallel->num_threads < 1))
    return Status(TCC_STATUS_INVALID_ARGUMENT,
                  "parallel has no parallel_for or num_threads < 1");
  std::unique_ptr<tcc_session_s> session(new tcc_session_s());
  session->allocator = options.allocator;
  if (options.parallel) {
    session->hasParallel = true;
    session->parallel = *options.parallel;
  }
  const Model &m = model->header();
  if (options.device) {
    tcc_device_retain(options.device);
    session->device = options.device;
  } else {
    TCC_RETURN_IF_ERROR(tcc_device_s::openCpu(&session->device));
  }
  session->inputs.assign(model->inputs.size(), nullptr);
  session->inputBuffers.assign(model->inputs.size(), nullptr);
  session->outputBuffers.assign(model->outputs.size(), nullptr);
  session->boundOutputs.assign(model->outputs.size(), nullptr);
  session->ownOutputs.assign(model->outputs.size(), nullptr);
  session->bufferAddresses.assign(m.buffers() ? m.buffers()->size() : 0,
                                  nullptr);
  session->bindings.assign(model->maxBindings, nullptr);

  if (model->program) { // the device owns arenas and constants
    TCC_RETURN_IF_ERROR(model->program->createSession(&session->program));
    tcc_model_retain(model);
    session->model = model;
    *out = session.release();
    return Status();
  }

  const tcc_allocator_t &a = session->allocator;
  // Host spaces' arenas come from the allocator, device spaces' from their
  // devices (host-visible where a step touches them: the model's load
  // checked it).
  const auto *spaces = m.memory_spaces();
  session->arenas.assign(spaces ? spaces->size() : 0, nullptr);
  session->deviceArenas.resize(session->arenas.size());
  for (uint32_t i = 0; i < session->arenas.size(); ++i) {
    uint64_t bytes = spaces->Get(i)->arena_bytes();
    if (bytes == 0)
      continue;
    if (bytes > SIZE_MAX)
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED, "arena too large");
    if (tcc::runtime::detail::Device *device = model->devices.ofSpace(i)) {
      TCC_RETURN_IF_ERROR(tcc::runtime::detail::DeviceMemory::allocate(
                              *device, TCC_MEMORY_DEVICE, size_t(bytes),
                              tcc::runtime::kArtifactAlignment,
                              &session->deviceArenas[i])
                              .withContext(cat("memory space ", i, " arena")));
      session->arenas[i] = session->deviceArenas[i].data();
      continue;
    }
    session->arenas[i] = static_cast<uint8_t *>(
        a.alloc(a.self, size_t(bytes), tcc::runtime::kArtifactAlignment));
    if (!session->arenas[i])
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate the ", bytes, "-byte arena"));
  }
  // Arena and constant buffers never move; a run only points the inputs'
  // and outputs' buffers at what is bound.
  const auto *buffers = m.buffers();
  for (uint32_t i = 0; i < session->bufferAddresses.size(); ++i) {
    const Buffer *b = buffers->Get(i);
    uint8_t *address = nullptr;
    if (b->storage() == Storage::Arena) {
      uint8_t *base = session->arenas[b->space()];
      // A zero-byte buffer in an empty arena has no base; it is never read.
      address = base ? base + b->offset() : nullptr;
    } else if (b->storage() == Storage::Constant) {
      address = model->constantAddress(*b);
    } else {
      session->ioBuffers.push_back(i);
    }
    session->bufferAddresses[i] = address;
  }

  // Steps that size something by the session's pool (conv2d workspaces).
  tcc_model_retain(model);
  session->model = model;
  session->useSessionWorkspace.assign(model->plan.size(), false);
  for (uint32_t i = 0; i < model->plan.size(); ++i) {
    const Step &step = *model->plan[i].step;
    const auto *kind = tcc::runtime::detail::findStepKind(step.op_type());
    if (kind->prepare)
      kind->prepare(*session, step, i);
  }
  if (session->workspaceBytes) {
    session->workspace = static_cast<uint8_t *>(a.alloc(
        a.self, session->workspaceBytes, tcc::runtime::kArtifactAlignment));
    if (!session->workspace)
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate a ", session->workspaceBytes,
                        "-byte conv2d workspace"));
  }
  *out = session.release();
  return Status();
}

tcc_session_s::~tcc_session_s() {
  queue.reset(); // nothing is queued: each queued run holds a reference
  program.reset(); // while the model, which owns its device, lives
  for (tcc_buffer_s *buffer : inputBuffers)
    tcc_buffer_release(buffer);
  for (tcc_buffer_s *buffer : outputBuffers)
    tcc_buffer_release(buffer);
  tcc_device_release(device);
  for (size_t i = 0; i < arenas.size(); ++i)
    if (arenas[i] && !deviceArenas[i].data())
      allocator.free(allocator.self, arenas[i]);
  deviceArenas.clear(); // while the model, which owns their devices, lives
  if (workspace)
    allocator.free(allocator.self, workspace);
  for (void *p : ownOutputs)
    if (p)
      allocator.free(allocator.self, p);
  if (model)
    tcc_model_release(model);
}

Status tcc_session_s::prepareOutputs() {
  for (size_t i = 0; i < ownOutputs.size(); ++i) {
    if (boundOutputs[i] || ownOutputs[i])
      continue;
    size_t bytes = model->outputs[i].byteSize;
    ownOutputs[i] = allocator.alloc(allocator.self, bytes ? bytes : 1,
                                    tcc::runtime::kArtifactAlignment);
    if (!ownOutputs[i])
      return Status(TCC_STATUS_RESOURCE_EXHAUSTED,
                    cat("cannot allocate ", bytes, " bytes for output '",
                        model->outputs[i].name, "'"));
  }
  return Status();
}

Status tcc_session_s::run() {
  for (size_t i = 0; i < inputs.size(); ++i)
    if (!inputs[i])
      return Status(
          TCC_STATUS_FAILED_PRECONDITION,
          cat("input ", i, " '", model->inputs[i].name, "' is not bound"));
  TCC_RETURN_IF_ERROR(prepareOutputs());
  if (program)
    return runProgram();

  const auto *buffers = model->header().buffers();
  for (uint32_t i : ioBuffers) {
    const Buffer *b = buffers->Get(i);
    uint8_t *base =
        b->storage() == Storage::Input
            ? static_cast<uint8_t *>(const_cast<void *>(inputs[b->index()]))
            : static_cast<uint8_t *>(outputAddress(b->index()));
    bufferAddresses[i] = base ? base + b->offset() : nullptr;
  }

  const tcc_model_s::PlannedStep *plan = model->plan.data();
  uint32_t numSteps = uint32_t(model->plan.size());
  if (!profiling && !tracing) {
    for (uint32_t i = 0; i < numSteps; ++i)
      TCC_RETURN_IF_ERROR(plan[i].run(*this, *plan[i].step, i));
    return Status();
  }
  // Profiling and tracing share the two clock reads per step.
  using Clock = tcc::runtime::detail::StepTrace::Clock;
  uint64_t thread = tracing ? tcc::runtime::detail::currentThreadId() : 0;
  for (uint32_t i = 0; i < numSteps; ++i) {
    Clock::time_point start = Clock::now();
    TCC_RETURN_IF_ERROR(plan[i].run(*this, *plan[i].step, i));
    uint64_t ns = uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                               Clock::now() - start)
                               .count());
    if (profiling)
      stepNanoseconds[i] += ns;
    if (tracing)
      trace.record(i, start, ns, thread);
  }
  if (profiling)
    ++profiledRuns;
  if (tracing)
    trace.endRun();
  return Status();
}

Status tcc_session_s::runProgram() {
  std::vector<void *> outputs(ownOutputs.size());
  for (size_t i = 0; i < outputs.size(); ++i)
    outputs[i] = outputAddress(i);
  // The device times steps with its own events; the host's trace of a
  // device's plan would only show the whole run.
  TCC_RETURN_IF_ERROR(program->run(inputs.data(), outputs.data(),
                                   profiling ? stepNanoseconds.data()
                                             : nullptr));
  if (profiling)
    ++profiledRuns;
  return Status();
}
