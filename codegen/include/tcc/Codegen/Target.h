//===- Target.h - Where compiled code runs ----------------------*- C++ -*-===//
//
// A target is a kind of machine that compiled code runs on: x86-64 and
// AArch64 CPUs today, CUDA next. The planner (ModelCompiler) is
// target-neutral: it asks the target which ops run as library calls and how
// (their weights pre-packed as the target's kernels want), how to compile
// the remaining kernels into a code module, and what that module needs of
// the machine. The graph passes ask the target's TargetCapabilities which
// epilogues fuse and which layout convolutions want.
//
// Each target lives in codegen/lib/Targets/<Name>/ and is registered in one
// place, codegen/lib/Targets/Targets.def (docs/architecture.md, "Adding a
// target").
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_TARGET_H
#define TCC_CODEGEN_TARGET_H

#include "tcc/Codegen/KernelCompiler.h"
#include "tcc/Codegen/TargetRequest.h"
#include "tcc/Passes/TargetCapabilities.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mlir::tcc {

class PlanBuilder;
struct Epilogue;
/// The artifact being written (codegen/lib/ArtifactDraft.h).
struct ArtifactDraft;

/// What the artifact records of a code module, so a runtime can tell
/// whether it can run it.
struct CodeModuleIdentity {
  std::string triple; // e.g. "x86_64-unknown-linux-gnu"
  std::string cpu;    // e.g. "znver4", "x86-64-v3", "neoverse-n1"
  /// Features the running processor must have (runtime names = LLVM's,
  /// "avx512f", "dotprod").
  std::vector<std::string> requiredFeatures;
};

/// A target configured for one compile (its CPU and features chosen).
class Target {
public:
  virtual ~Target() = default;

  /// What the graph passes and the planner ask about.
  virtual const TargetCapabilities &capabilities() const = 0;
  StringRef name() const { return capabilities().name(); }

  /// What the code module this target produces needs of the machine.
  virtual CodeModuleIdentity codeIdentity() const = 0;

  /// Lowers `group` (an op capabilities().isEpilogueAnchor accepts, and the
  /// epilogue fused after it) into library-call steps on `plan`, `outside`
  /// mapping the group's values to the plan's. False when this target has no
  /// call for it (the planner then compiles a kernel).
  virtual bool lowerLibraryCall(PlanBuilder &plan, const Epilogue &group,
                                function_ref<Value(Value)> outside,
                                Value result) const = 0;

  /// Whether `op`, an NCHW op with a layout attribute that the planner
  /// compiles a kernel for, runs NHWC instead because this target's library
  /// calls around it keep its input and result channels-last (the buffers
  /// then hold NHWC data under the IR's NCHW types).
  virtual bool runsChannelsLast(Operation *op) const { return false; }

  /// Compiles the outlined kernels (one public function each) into this
  /// target's code module, reporting the Lowering and Compiling stages to
  /// `progress` (may be null).
  virtual FailureOr<KernelObject>
  compileKernels(ModuleOp kernels,
                 const std::function<void(PassManager &)> &configure,
                 const CompileProgressFn &progress) const = 0;

  /// Puts `object` into the artifact that holds the plan, with an
  /// arena of `arenaBytes`. CPU targets: code module 0 and the host arena.
  /// Device targets add their code module, move the plan (its steps, arena
  /// and constants) onto it and keep module 0, without code, for the host.
  virtual void placeCode(ArtifactDraft &artifact, KernelObject object,
                         uint64_t arenaBytes) const;
};

/// A target's entry in the registry.
struct TargetRegistration {
  /// What `--target` takes ("x86_64").
  const char *name;
  /// LLVM's architecture name of its triples ("x86_64"), which maps a
  /// `--target-triple` to the target; empty for targets without one.
  const char *llvmArch;
  /// Its capabilities in its default configuration, which textual pass
  /// pipelines get by name; a configured Target may answer otherwise (the
  /// cuda target under --cuda-conv=direct).
  const TargetCapabilities &(*capabilities)();
  /// Configures the target for `request` (whose target names this one), or
  /// null with `*error` saying what is wrong.
  std::unique_ptr<Target> (*create)(const TargetRequest &request,
                                    std::string *error);
  /// Whether it takes GPU architectures (TargetRequest::gpu).
  bool takesGpuArchitectures = false;
};

/// Every registered target (codegen/lib/Targets/Targets.def).
ArrayRef<TargetRegistration> registeredTargets();

/// The registered targets' names, sorted.
std::vector<std::string> targetNames();

/// Makes the targets' capabilities findable by name for textual pass
/// pipelines (tcc-opt). Idempotent.
void registerTargets();

/// The target `request` names, configured, or null with `*error` saying
/// what is wrong (an unknown target lists the valid names).
std::unique_ptr<Target> resolveTarget(const TargetRequest &request,
                                      std::string *error);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_TARGET_H
