//===- X86Target.cpp - x86-64 CPUs ----------------------------------------===//
//
// Kernels compiled by LLVM for a CPU of the x86_64 triple (its features
// chosen at compile time, checked by the runtime at load), fp32 GEMM and
// convolution as calls of the runtime's microkernels (Targets/Cpu).
//
//===----------------------------------------------------------------------===//

#include "../Cpu/CpuCodeTarget.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

const TargetCapabilities &capabilities() {
  static const cpu::CpuCapabilities instance("x86_64");
  return instance;
}

std::unique_ptr<Target> create(const TargetRequest &request,
                               std::string *error) {
  std::optional<CpuTarget> target = resolveCpuTarget("x86_64", request, error);
  if (!target)
    return nullptr;
  return cpu::createCpuCodeTarget(capabilities(), std::move(*target));
}

} // namespace

namespace mlir::tcc {
TargetRegistration registerX86Target() {
  return {"x86_64", "x86_64", &capabilities, &create};
}
} // namespace mlir::tcc
