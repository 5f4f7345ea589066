//===- CpuCodeTarget.cpp - What the CPU targets share ---------------------===//

#include "CpuCodeTarget.h"
#include "LibraryCalls.h"
#include "QuantizedCalls.h"

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/runtime/ArtifactFormat.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::cpu;

bool CpuCapabilities::isEpilogueAnchor(Operation *op) const {
  return isLibraryCallAnchor(op);
}

// tcc_sgemm and tcc_conv2d apply every tcc_activation.
bool CpuCapabilities::appliesActivation(EpilogueActivation) const {
  return true;
}

// The microkernels' convolutions read channels-last.
bool CpuCapabilities::prefersChannelsLast() const { return true; }

// The runtime aligns the arena and the constants segment to this.
uint64_t CpuCapabilities::bufferAlignment() const {
  return ::tcc::runtime::kArtifactAlignment;
}

namespace {

class CpuCodeTarget final : public Target {
public:
  CpuCodeTarget(const TargetCapabilities &capabilities, CpuTarget cpu)
      : caps(capabilities), cpu(std::move(cpu)) {}

  const TargetCapabilities &capabilities() const override { return caps; }

  CodeModuleIdentity codeIdentity() const override {
    return {cpu.triple, cpu.cpu, cpu.requiredFeatures()};
  }

  bool lowerLibraryCall(PlanBuilder &plan, const Epilogue &group,
                        function_ref<Value(Value)> outside,
                        Value result) const override {
    return cpu::lowerLibraryCall(plan, group, outside, result, caps);
  }

  bool runsChannelsLast(Operation *op) const override {
    return cpu::runsChannelsLast(op, caps);
  }

  FailureOr<KernelObject> compileKernels(
      ModuleOp kernels,
      const std::function<void(PassManager &)> &configure,
      const CompileProgressFn &progress) const override {
    return mlir::tcc::compileKernels(kernels, cpu, configure, progress);
  }

private:
  const TargetCapabilities &caps;
  CpuTarget cpu;
};

} // namespace

std::unique_ptr<Target>
cpu::createCpuCodeTarget(const TargetCapabilities &capabilities,
                         CpuTarget cpu) {
  return std::make_unique<CpuCodeTarget>(capabilities, std::move(cpu));
}
