//===- ModelDevices.cpp - opening the devices of a model's code -----------===//

#include "ModelDevices.h"

#include "../Artifact/Checks.h"
#include "../Steps/StepKind.h"

#include "tcc/runtime/Artifact.h"

namespace tcc {
namespace runtime {
namespace detail {

using namespace tcc::artifact;

Status ModelDevices::open(const Model &model, ModelDevices *out) {
  *out = ModelDevices();
  const auto *modules = model.code_modules();
  for (uint32_t i = 0; modules && i < modules->size(); ++i) {
    std::string kind = modules->Get(i)->kind()->str();
    Device *device = nullptr;
    for (const auto &opened : out->devices_)
      if (opened->moduleKind() == kind)
        device = opened.get();
    if (!device) {
      std::string what = cat("code module ", i, " of kind '", kind, "'");
      std::unique_ptr<Device> opened;
      TCC_RETURN_IF_ERROR(openDevice(kind, &opened).withContext(what));
      if (opened->moduleKind() != kind)
        return Status(
            TCC_STATUS_FAILED_PRECONDITION,
            cat(what, ": device '", opened->name(), "' loads ",
                opened->moduleKind().empty()
                    ? std::string("no code modules")
                    : cat("modules of kind '", opened->moduleKind(), "'")));
      device = opened.get();
      out->devices_.push_back(std::move(opened));
    }
    out->byModule_.push_back(device);
  }
  const auto *spaces = model.memory_spaces();
  for (uint32_t i = 0; spaces && i < spaces->size(); ++i) {
    const MemorySpace *space = spaces->Get(i);
    out->bySpace_.push_back(space->kind() == MemoryKind::Device
                                ? out->byModule_[space->code_module()]
                                : nullptr);
  }
  TCC_RETURN_IF_ERROR(out->findProgramDevice(model));
  return out->program_ ? Status() : out->checkHostSteps(model);
}

Status ModelDevices::findProgramDevice(const Model &model) {
  const auto *plan = model.plan();
  int32_t first = -1; // the first step on a device that runs programs
  for (uint32_t i = 0; plan && i < plan->size(); ++i) {
    Device *device = byModule_[plan->Get(i)->code_module()]; // validated
    if (device->runsPrograms() && first < 0) {
      first = int32_t(i);
      program_ = device;
    }
  }
  for (uint32_t i = 0; program_ && i < plan->size(); ++i) {
    Device *device = byModule_[plan->Get(i)->code_module()];
    if (device != program_)
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("plan step ", first, " runs on device '",
                        program_->name(), "', which runs whole plans, but "
                        "plan step ", i, " on device '", device->name(),
                        "': a plan cannot be split between them yet"));
  }
  return Status();
}

Status ModelDevices::checkHostSteps(const Model &model) const {
  std::vector<bool> hostVisible;
  for (Device *device : bySpace_)
    hostVisible.push_back(!device || device->hostVisible(TCC_MEMORY_DEVICE));
  const auto *plan = model.plan();
  std::vector<uint32_t> touched;
  for (uint32_t i = 0; plan && i < plan->size(); ++i) {
    const StepKind *kind = findStepKind(plan->Get(i)->op_type()); // validated
    touched.clear();
    kind->buffers(*plan->Get(i), &touched);
    for (uint32_t b : touched) {
      uint32_t space = model.buffers()->Get(b)->space();
      if (!hostVisible[space])
        return Status(TCC_STATUS_FAILED_PRECONDITION,
                      cat("plan step ", i, " (", kind->name, "): buffer ", b,
                          " is in memory space ", space, ", memory of device '",
                          bySpace_[space]->name(),
                          "' that the host cannot address, but the step runs "
                          "on the host"));
    }
  }
  return Status();
}

} // namespace detail

Status checkModelRunsHere(const tcc::artifact::Model &model) {
  TCC_RETURN_IF_ERROR(checkCpuModules(model));
  detail::ModelDevices devices;
  return detail::ModelDevices::open(model, &devices);
}

} // namespace runtime
} // namespace tcc
