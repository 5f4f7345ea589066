//===- AArch64Target.cpp - AArch64 CPUs -----------------------------------===//
//
// Kernels compiled by LLVM's AArch64 backend for a CPU of the aarch64 triple
// (default: generic ARMv8-A with NEON; its features chosen at compile time,
// checked by the runtime at load), fp32 GEMM and convolution as calls of
// the runtime's microkernels (Targets/Cpu).
//
//===----------------------------------------------------------------------===//

#include "../Cpu/CpuCodeTarget.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

const TargetCapabilities &capabilities() {
  static const cpu::CpuCapabilities instance("aarch64");
  return instance;
}

std::unique_ptr<Target> create(const TargetRequest &request,
                               std::string *error) {
  std::optional<CpuTarget> target = resolveCpuTarget("aarch64", request, error);
  if (!target)
    return nullptr;
  // Atomics, should a kernel ever have one, inline (LSE or exclusive
  // loads and stores) rather than call libgcc's __aarch64_* helpers, which
  // the runtime does not offer.
  target->features += target->features.empty() ? "" : ",";
  target->features += "-outline-atomics";
  return cpu::createCpuCodeTarget(capabilities(), std::move(*target));
}

} // namespace

namespace mlir::tcc {
TargetRegistration registerAArch64Target() {
  return {"aarch64", "aarch64", &capabilities, &create};
}
} // namespace mlir::tcc
