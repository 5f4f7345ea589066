//===- ModelDevices.h - the devices a model's code runs on ------*- C++ -*-===//
//
// Loading opens one device per distinct kind of code module: "cpu" is the
// built-in device, any other kind K the device named K (the plugin
// libtcc_device_K.so, Devices/Registry.cpp), which must load modules of
// kind K. The model owns them for its lifetime: its executables and its
// device memory come from them.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_RUNTIME_LIB_EXECUTOR_MODELDEVICES_H
#define TCC_RUNTIME_LIB_EXECUTOR_MODELDEVICES_H

#include "../Devices/Device.h"

#include "tcc/runtime/Status.h"
#include "tcc/runtime/artifact_generated.h"

#include <memory>
#include <vector>

namespace tcc {
namespace runtime {
namespace detail {

class ModelDevices {
public:
  // Opens the devices of `model`'s code modules (validated) and checks that
  // every buffer a plan step touches is memory the host can address (every
  // step kind runs on the host), unless the plan runs on a device that runs
  // whole plans (programDevice); errors name the module, or the step and
  // the memory space.
  static Status open(const tcc::artifact::Model &model, ModelDevices *out);

  Device &ofModule(uint32_t module) const { return *byModule_[module]; }
  // The device whose memory `space` is, or nullptr for host memory (which
  // sessions take from their allocator).
  Device *ofSpace(uint32_t space) const { return bySpace_[space]; }
  // The device that runs the whole plan (Device::runsPrograms), or nullptr
  // when the steps run on the host.
  Device *programDevice() const { return program_; }

private:
  Status checkHostSteps(const tcc::artifact::Model &model) const;
  // Sets program_ when a step is on a device that runs programs; then every
  // step must be.
  Status findProgramDevice(const tcc::artifact::Model &model);

  std::vector<std::unique_ptr<Device>> devices_; // one per module kind
  std::vector<Device *> byModule_;               // by Model.code_modules
  std::vector<Device *> bySpace_;                // by Model.memory_spaces
  Device *program_ = nullptr;
};

} // namespace detail
} // namespace runtime
} // namespace tcc

#endif // TCC_RUNTIME_LIB_EXECUTOR_MODELDEVICES_H
