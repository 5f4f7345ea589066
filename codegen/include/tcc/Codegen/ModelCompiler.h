//===- ModelCompiler.h - A tcc module to a model artifact -------*- C++ -*-===//
//
// Compiles the entry function of a tcc module into the bytes of a `model.bin`
// (runtime/schema/artifact.fbs) for a target (Target.h): the graph passes,
// then the target-neutral planner (Planner.cpp), which makes each op a step
// of the execution plan (a generated kernel, a library call of the target,
// or nothing for views), every intermediate value a buffer in one arena
// planned from lifetimes, every constant bytes in the constants segment.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_MODELCOMPILER_H
#define TCC_CODEGEN_MODELCOMPILER_H

#include "tcc/Codegen/KernelCompiler.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

#include <functional>
#include <memory>

namespace mlir::tcc {

class Target;

struct ModelCompileOptions {
  /// The function to compile; empty: the module's only public function.
  std::string function;
  /// Where the code runs (resolveTarget); null: this machine.
  std::shared_ptr<const Target> target;
  /// 0: each op its own kernel; 2: the graph passes (fusion, folding) first.
  int optLevel = 2;
  /// "bf16" or "fp16": matmuls, linears and convolutions in that precision,
  /// their constant weights converted at compile time (tcc-autocast, then
  /// constant folding, at any optLevel); "": fp32.
  std::string precision;
  /// Applied to every pass manager the compile runs (IR printing, timing).
  std::function<void(PassManager &)> configurePassManager;
  /// Hears each stage and kernel as the compile reaches it (tcc compile
  /// --progress); null: nothing is reported.
  CompileProgressFn progress;
  /// Ops the target has library calls for (on x86-64, fp32 GEMM and
  /// convolution through the runtime's microkernels) run as those calls
  /// rather than as generated loops.
  bool useMicrokernels = true;
};

/// What `tcc inspect` reports too, for the compiler's own summary.
struct ModelCompileStats {
  size_t kernels = 0, libraryCalls = 0, copies = 0;
  uint64_t arenaBytes = 0, intermediateBytes = 0, constantBytes = 0,
           codeBytes = 0;
};

/// The function to compile: `name`, else the module's only public function
/// (tcc/IR/EntryFunction.h, the rule every tool follows); the error goes to
/// the module's context.
FailureOr<func::FuncOp> findEntryFunction(ModuleOp module, StringRef name = "");

/// Compiles `module` (left lowered; pass a clone to keep it). Diagnostics go
/// to the module's context.
FailureOr<std::vector<uint8_t>>
compileModel(ModuleOp module, const ModelCompileOptions &options,
             ModelCompileStats *stats = nullptr);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_MODELCOMPILER_H
