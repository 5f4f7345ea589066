//===- KernelCompiler.h - Kernels to a shared object ------------*- C++ -*-===//
//
// Compiles a module of kernel functions (tcc ops on tensors) to machine code
// in one position-independent ELF shared object. Each public function `f`
// becomes an exported symbol with the runtime's kernel signature
//   void f(void *const *bindings, int64_t tile_begin, int64_t tile_end)
// whose bindings are f's arguments, then f's results, then its scratch
// buffers, in that order.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_KERNELCOMPILER_H
#define TCC_CODEGEN_KERNELCOMPILER_H

#include "tcc/Codegen/CompileProgress.h"
#include "tcc/Codegen/CpuTarget.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LogicalResult.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace mlir {
class DialectRegistry;
class OpPassManager;
class PassManager;
} // namespace mlir

namespace mlir::tcc {

/// One launch of a GPU kernel function (GPU targets).
struct GpuLaunch {
  std::string function;
  uint32_t grid[3] = {1, 1, 1}, block[3] = {1, 1, 1};
  uint32_t sharedBytes = 0;
  std::vector<uint32_t> args; // the kernel's binding indices
};

/// The code of GPU kernels for one architecture (GPU targets).
struct GpuImage {
  std::string arch;          // "sm_90"
  bool cubin = false;        // else PTX text
  std::vector<uint8_t> bytes;
};

/// One compiled kernel.
struct CompiledKernel {
  std::string symbol;
  unsigned numInputs = 0, numOutputs = 0;
  std::vector<int64_t> scratchBytes; // bindings after inputs and outputs
  int64_t tiles = 1;
  std::vector<GpuLaunch> launches; // GPU targets: what runs it, in order
  unsigned numBindings() const {
    return numInputs + numOutputs + static_cast<unsigned>(scratchBytes.size());
  }
};

struct KernelObject {
  std::vector<CompiledKernel> kernels;
  std::vector<uint8_t> sharedObject; // ELF bytes
  /// Runtime functions the code calls through its `tcc_imports` table, in
  /// table order (the artifact's Model.imports).
  std::vector<std::string> imports;
  /// GPU targets: the code, instead of sharedObject.
  std::vector<GpuImage> gpuImages;
};

/// The dialects and interfaces (bufferization models, LLVM translations)
/// that kernel compilation needs.
void registerCodegenDialects(DialectRegistry &registry);

/// Adds the passes that lower kernels from tcc ops to the LLVM dialect
/// (registered as the pipeline `tcc-kernels-to-llvm`).
void buildKernelsToLLVMPipeline(OpPassManager &pm);

/// The first half of both pipelines: kernels of tcc ops to bufferized
/// functions of scf.parallel loops, with scratch buffers as arguments.
void buildKernelsToLoopsPipeline(OpPassManager &pm);
void registerKernelPipelines();

/// The first half of every target's compileKernels: lists the kernels of
/// `kernels` before lowering (its public functions, with their argument and
/// result counts), reports the Lowering stage, then runs `configure` and
/// the target's `pipeline` on the module in place.
FailureOr<std::vector<CompiledKernel>>
lowerKernels(ModuleOp kernels,
             const std::function<void(PassManager &)> &configure,
             const CompileProgressFn &progress,
             const std::function<void(OpPassManager &)> &pipeline);

/// Lowers `kernels` in place and produces the shared object. Diagnostics go
/// to the module's context. `progress` hears the Lowering and Compiling
/// stages.
FailureOr<KernelObject>
compileKernels(ModuleOp kernels, const CpuTarget &target,
               const std::function<void(PassManager &)> &configure = {},
               const CompileProgressFn &progress = {});

} // namespace mlir::tcc

#endif // TCC_CODEGEN_KERNELCOMPILER_H
