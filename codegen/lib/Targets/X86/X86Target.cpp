//===- X86Target.cpp - x86-64 CPUs ----------------------------------------===//
//
// Kernels compiled by LLVM for a CPU of the x86_64 triple (its features
// chosen at compile time, checked by the runtime at load), fp32 GEMM and
// convolution as calls of the runtime's microkernels.
//
//===----------------------------------------------------------------------===//

#include "LibraryCalls.h"

#include "tcc/Codegen/CpuTarget.h"
#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/Target.h"
#include "tcc/runtime/ArtifactFormat.h"

using namespace mlir;
using namespace mlir::tcc;

namespace {

class X86Capabilities final : public TargetCapabilities {
public:
  StringRef name() const override { return "x86_64"; }
  bool isEpilogueAnchor(Operation *op) const override {
    return x86::isLibraryCallAnchor(op);
  }
  // tcc_sgemm and tcc_conv2d apply every tcc_activation.
  bool appliesActivation(EpilogueActivation) const override { return true; }
  // The microkernels' convolutions read channels-last.
  bool prefersChannelsLast() const override { return true; }
  // The runtime aligns the arena and the constants segment to this.
  uint64_t bufferAlignment() const override {
    return ::tcc::runtime::kArtifactAlignment;
  }
};

const TargetCapabilities &capabilities() {
  static const X86Capabilities instance;
  return instance;
}

class X86Target final : public Target {
public:
  explicit X86Target(CpuTarget cpu) : cpu(std::move(cpu)) {}

  const TargetCapabilities &capabilities() const override {
    return ::capabilities();
  }

  CodeModuleIdentity codeIdentity() const override {
    return {cpu.triple, cpu.cpu, cpu.requiredFeatures()};
  }

  bool lowerLibraryCall(PlanBuilder &plan, const Epilogue &group,
                        function_ref<Value(Value)> outside,
                        Value result) const override {
    return x86::lowerLibraryCall(plan, group, outside, result);
  }

  FailureOr<KernelObject> compileKernels(
      ModuleOp kernels,
      const std::function<void(PassManager &)> &configure) const override {
    return mlir::tcc::compileKernels(kernels, cpu, configure);
  }

private:
  CpuTarget cpu;
};

std::unique_ptr<Target> create(const TargetRequest &request,
                               std::string *error) {
  std::optional<CpuTarget> cpu = resolveCpuTarget("x86_64", request, error);
  if (!cpu)
    return nullptr;
  return std::make_unique<X86Target>(std::move(*cpu));
}

} // namespace

namespace mlir::tcc {
TargetRegistration registerX86Target() {
  return {"x86_64", "x86_64", &capabilities, &create};
}
} // namespace mlir::tcc
