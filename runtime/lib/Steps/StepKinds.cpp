//===- StepKinds.cpp - the registry of plan-step kinds --------------------===//
//
// A new kind of step is a file beside this one defining its StepKind, and
// one line in kKinds.
//
//===----------------------------------------------------------------------===//

#include "StepKind.h"

#include "../Artifact/Checks.h"

namespace tcc {
namespace runtime {
namespace detail {

extern const StepKind kKernelCallStep, kSgemmStep, kConv2dStep, kCopyStep,
    kQgemmStep, kQconv2dStep;

namespace {

const StepKind *const kKinds[] = {
    &kKernelCallStep,
    &kSgemmStep,
    &kConv2dStep,
    &kCopyStep,
    &kQgemmStep,
    &kQconv2dStep,
};

} // namespace

const StepKind *findStepKind(tcc::artifact::Op type) {
  for (const StepKind *kind : kKinds)
    if (kind->type == type)
      return kind;
  return nullptr;
}

Status libraryCallFailed(uint32_t step, const char *function, int status) {
  return Status(TCC_STATUS_INTERNAL, cat("plan step ", step, ": ", function,
                                         " failed with status ", status));
}

} // namespace detail

using detail::findStepKind;
using detail::kKinds;
using detail::StepKind;

const char *stepKindName(tcc::artifact::Op type) {
  const StepKind *kind = findStepKind(type);
  return kind ? kind->name : nullptr;
}

bool isStepKindName(const std::string &name) {
  for (const StepKind *kind : kKinds)
    if (name == kind->name)
      return true;
  return false;
}

std::string knownStepKinds() {
  std::string names;
  for (const StepKind *kind : kKinds)
    names += std::string(names.empty() ? "" : ", ") + kind->name;
  return names;
}

StepDescription describeStep(const tcc::artifact::Model &model,
                             uint32_t index) {
  const tcc::artifact::Step &step = *model.plan()->Get(index);
  StepDescription out;
  out.kind = step.kind()->str();
  const auto *ops = step.source_ops();
  for (uint32_t i = 0; ops && i < ops->size(); ++i)
    out.sourceOps.push_back(ops->Get(i)->str());
  if (const StepKind *kind = findStepKind(step.op_type()))
    kind->describe(model, step, &out);
  return out;
}

} // namespace runtime
} // namespace tcc
