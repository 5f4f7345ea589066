//===- Model.cpp - loading a verified artifact for execution --------------===//

#include "Model.h"

#include "../Artifact/Checks.h"

#include "tcc/runtime/ArtifactFormat.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

using tcc::runtime::Status;
using tcc::runtime::detail::cat;
using tcc::runtime::detail::TensorInfo;
using namespace tcc::artifact;

namespace {

std::vector<TensorInfo>
tensorInfos(const flatbuffers::Vector<flatbuffers::Offset<TensorSpec>> *specs) {
  std::vector<TensorInfo> infos;
  for (uint32_t i = 0; specs && i < specs->size(); ++i) {
    const TensorSpec *spec = specs->Get(i);
    TensorInfo info;
    info.name = spec->name()->str();
    info.dtype = static_cast<tcc_dtype_t>(spec->dtype());
    if (spec->shape())
      info.shape.assign(spec->shape()->begin(), spec->shape()->end());
    size_t bytes = tcc_dtype_size(info.dtype);
    for (int64_t d : info.shape)
      bytes *= size_t(d); // validated not to overflow
    info.byteSize = bytes;
    infos.push_back(std::move(info));
  }
  return infos;
}

// Loads module `index`'s code with its device's executable loader; `*out`
// stays null for a module without code.
Status loadModule(const tcc_model_s &model, uint32_t index, uint32_t flags,
                  std::unique_ptr<tcc::runtime::detail::Executable> *out) {
  const CodeModule *module = model.header().code_modules()->Get(index);
  tcc::runtime::Artifact::Code code = model.artifact->moduleCode(index);
  uint32_t numImports = module->imports() ? module->imports()->size() : 0;
  if (!code.data) {
    if (numImports)
      return tcc::runtime::detail::corrupt(
          "the model has kernels or imports but no code segment");
    return Status();
  }
  return model.devices.ofModule(index).loadExecutable(*module, code.data,
                                                     code.size, flags, out);
}

// Copies the constants that device memory spaces hold into their devices'
// memory: per space, its constant buffers' bytes from the 64-byte boundary
// at or before the first (so alignments hold) to the end of the last.
Status copyDeviceConstants(tcc_model_s &model) {
  const Model &m = model.header();
  uint32_t numSpaces = m.memory_spaces() ? m.memory_spaces()->size() : 0;
  std::vector<uint64_t> first(numSpaces, UINT64_MAX), end(numSpaces, 0);
  for (uint32_t i = 0; m.buffers() && i < m.buffers()->size(); ++i) {
    const Buffer *b = m.buffers()->Get(i);
    uint32_t s = b->space();
    if (b->storage() != Storage::Constant || !b->byte_size() ||
        !model.devices.ofSpace(s))
      continue;
    first[s] = std::min(first[s], b->offset());
    end[s] = std::max(end[s], b->offset() + b->byte_size()); // validated
  }
  model.deviceConstants.resize(numSpaces);
  model.constantsFirst.assign(numSpaces, 0);
  for (uint32_t s = 0; s < numSpaces; ++s) {
    if (!end[s])
      continue;
    tcc::runtime::detail::Device &device = *model.devices.ofSpace(s);
    if (!device.hostVisible(TCC_MEMORY_DEVICE))
      return Status(TCC_STATUS_UNIMPLEMENTED,
                    cat("memory space ", s, " holds constants in memory of "
                        "device '", device.name(), "' that the host cannot "
                        "address, and devices take no copies yet"));
    uint64_t begin = first[s] / tcc::runtime::kArtifactAlignment *
                     tcc::runtime::kArtifactAlignment;
    size_t bytes = size_t(end[s] - begin); // within the mapped segment
    TCC_RETURN_IF_ERROR(tcc::runtime::detail::DeviceMemory::allocate(
                            device, TCC_MEMORY_DEVICE, bytes,
                            tcc::runtime::kArtifactAlignment,
                            &model.deviceConstants[s])
                            .withContext(cat("memory space ", s, " constants")));
    std::memcpy(model.deviceConstants[s].data(),
                model.artifact->constants() + begin, bytes);
    model.constantsFirst[s] = begin;
  }
  return Status();
}

} // namespace

uint8_t *tcc_model_s::constantAddress(const Buffer &b) const {
  // Validation lets nothing write constants.
  const tcc::runtime::detail::DeviceMemory &copy = deviceConstants[b.space()];
  if (copy.data() && b.byte_size())
    return copy.data() + (b.offset() - constantsFirst[b.space()]);
  auto *segment = const_cast<uint8_t *>(artifact->constants());
  // A zero-byte buffer in an empty segment has no address; it is never read.
  return segment ? segment + b.offset() : nullptr;
}

Status tcc_model_s::create(std::unique_ptr<tcc::runtime::Artifact> artifact,
                           uint32_t flags, tcc_model_s **out) {
  const Model &m = artifact->model();
  TCC_RETURN_IF_ERROR(tcc::runtime::checkCpuModules(m));

  std::unique_ptr<tcc_model_s> model(new tcc_model_s());
  // Before the step kinds' load hooks, which read the header through it.
  model->artifact = std::move(artifact);
  TCC_RETURN_IF_ERROR(
      tcc::runtime::detail::ModelDevices::open(m, &model->devices));
  if (tcc::runtime::detail::Device *device = model->devices.programDevice()) {
    TCC_RETURN_IF_ERROR(device->loadProgram(*model->artifact, &model->program)
                            .withContext(cat("device '", device->name(), "'")));
    model->inputs = tensorInfos(m.inputs());
    model->outputs = tensorInfos(m.outputs());
    *out = model.release();
    return Status();
  }
  uint32_t numModules = m.code_modules() ? m.code_modules()->size() : 0;
  for (uint32_t i = 0; i < numModules; ++i) {
    std::unique_ptr<tcc::runtime::detail::Executable> code;
    Status loaded = loadModule(*model, i, flags, &code);
    if (!loaded.ok() && numModules > 1) // named only when there are several
      return std::move(loaded).withContext(cat("code module ", i));
    TCC_RETURN_IF_ERROR(std::move(loaded));
    model->code.push_back(std::move(code));
  }
  uint32_t numKernels = m.kernels() ? m.kernels()->size() : 0;
  for (uint32_t i = 0; i < numKernels; ++i) {
    void *address;
    const Kernel *kernel = m.kernels()->Get(i);
    const auto &code = model->code[kernel->code_module()]; // validated in range
    if (!code)
      return tcc::runtime::detail::corrupt(
          "the model has kernels or imports but no code segment");
    TCC_RETURN_IF_ERROR(code->resolve(kernel->symbol()->str(), &address)
                            .withContext(cat("kernel ", i)));
    model->kernels.push_back(reinterpret_cast<tcc_kernel_fn>(address));
  }
  TCC_RETURN_IF_ERROR(copyDeviceConstants(*model));
  const auto *plan = m.plan();
  uint32_t numSteps = plan ? plan->size() : 0;
  model->parallelKernelStep.assign(numSteps, false);
  for (uint32_t i = 0; i < numSteps; ++i) {
    const Step *step = plan->Get(i);
    // Validated: every step's kind is registered.
    const auto *kind = tcc::runtime::detail::findStepKind(step->op_type());
    if (kind->load)
      kind->load(*model, *step, i);
    model->plan.push_back({kind->run, step});
  }
  model->inputs = tensorInfos(m.inputs());
  model->outputs = tensorInfos(m.outputs());
  *out = model.release();
  return Status();
}
