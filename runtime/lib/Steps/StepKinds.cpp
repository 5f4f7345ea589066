//===- StepKinds.cpp - the registry of plan-step kinds --------------------===//

#include "tcc/runtime/StepKinds.h"

namespace tcc {
namespace runtime {

using tcc::artifact::Op;

namespace {

struct NamedKind {
  Op type;
  const char *name;
};

constexpr NamedKind kKinds[] = {
    {Op::KernelCall, "kernel"},
    {Op::Sgemm, "sgemm"},
    {Op::Conv2d, "conv2d"},
    {Op::Copy, "copy"},
};

} // namespace

const char *stepKindName(Op type) {
  for (const NamedKind &k : kKinds)
    if (k.type == type)
      return k.name;
  return nullptr;
}

bool isStepKindName(const std::string &name) {
  for (const NamedKind &k : kKinds)
    if (name == k.name)
      return true;
  return false;
}

std::string knownStepKinds() {
  std::string names;
  for (const NamedKind &k : kKinds)
    names += std::string(names.empty() ? "" : ", ") + k.name;
  return names;
}

} // namespace runtime
} // namespace tcc
