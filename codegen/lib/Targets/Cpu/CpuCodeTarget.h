//===- CpuCodeTarget.h - What the CPU targets share -------------*- C++ -*-===//
//
// CPU targets differ in their LLVM triple, CPUs and features (CpuTarget),
// not in how code is made: each compiles kernels with LLVM into an ELF
// shared object and calls the same runtime microkernels (LibraryCalls.h).
// A CPU target's folder names its architecture and builds on these.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_TARGETS_CPU_CPUCODETARGET_H
#define TCC_CODEGEN_TARGETS_CPU_CPUCODETARGET_H

#include "tcc/Codegen/CpuTarget.h"
#include "tcc/Codegen/Target.h"

#include <memory>
#include <string>

namespace mlir::tcc::cpu {

/// The capabilities of a CPU target named `name` ("x86_64"): epilogues
/// and layouts as the runtime's microkernels apply and read them.
class CpuCapabilities final : public TargetCapabilities {
public:
  explicit CpuCapabilities(const char *name) : targetName(name) {}
  StringRef name() const override { return targetName; }
  bool isEpilogueAnchor(Operation *op) const override;
  bool appliesActivation(EpilogueActivation activation) const override;
  bool prefersChannelsLast() const override;
  uint64_t bufferAlignment() const override;

private:
  const char *targetName;
};

/// The target with `capabilities` that compiles for `cpu`.
std::unique_ptr<Target> createCpuCodeTarget(
    const TargetCapabilities &capabilities, CpuTarget cpu);

} // namespace mlir::tcc::cpu

#endif // TCC_CODEGEN_TARGETS_CPU_CPUCODETARGET_H
