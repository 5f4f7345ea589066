//===- Model.cpp - loading a verified artifact for execution --------------===//

#include "Model.h"

#include "../Artifact/Checks.h"

#include "tcc/runtime/ArtifactFormat.h"

#include <algorithm>

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

// Loads module `index`'s code with its device's executable loader (the
// host check let only "cpu" modules through); `*out` stays null for a
// module without code.
Status loadModule(const Model &m, const tcc::runtime::Artifact &artifact,
                  uint32_t index, uint32_t flags,
                  std::unique_ptr<tcc::runtime::detail::Executable> *out) {
  const CodeModule *module = m.code_modules()->Get(index);
  tcc::runtime::Artifact::Code code = artifact.moduleCode(index);
  uint32_t numImports = module->imports() ? module->imports()->size() : 0;
  if (!code.data) {
    if (numImports)
      return tcc::runtime::detail::corrupt(
          "the model has kernels or imports but no code segment");
    return Status();
  }
  static const std::unique_ptr<tcc::runtime::detail::Device> cpu =
      tcc::runtime::detail::makeCpuDevice();
  return cpu->loadExecutable(*module, code.data, code.size, flags, out);
}

} // namespace

Status tcc_model_s::create(std::unique_ptr<tcc::runtime::Artifact> artifact,
                           uint32_t flags, tcc_model_s **out) {
  const Model &m = artifact->model();
  TCC_RETURN_IF_ERROR(tcc::runtime::checkHostSupports(m));

  std::unique_ptr<tcc_model_s> model(new tcc_model_s());
  // Before the step kinds' load hooks, which read the header through it.
  model->artifact = std::move(artifact);
  uint32_t numModules = m.code_modules() ? m.code_modules()->size() : 0;
  for (uint32_t i = 0; i < numModules; ++i) {
    std::unique_ptr<tcc::runtime::detail::Executable> code;
    Status loaded = loadModule(m, *model->artifact, i, flags, &code);
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
