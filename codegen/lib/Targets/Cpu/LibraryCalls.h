//===- LibraryCalls.h - CPU library calls: tcc_sgemm, tcc_conv2d ----------===//
//
// fp32 matmul, linear and conv2d with their fused epilogue run as calls of
// the runtime's microkernels (runtime/include/tcc/runtime/kernels.h), with
// constant weights packed at compile time in the layout the kernels read.
// Every CPU runtime offers these kernels and reads the same packed formats
// (runtime/lib/kernels/PackedB.h), so every CPU target shares these calls.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_TARGETS_CPU_LIBRARYCALLS_H
#define TCC_CODEGEN_TARGETS_CPU_LIBRARYCALLS_H

#include "tcc/Codegen/PlanBuilder.h"
#include "tcc/Passes/Epilogue.h"

namespace mlir::tcc::cpu {

/// Whether `op` has a microkernel call that applies epilogues.
bool isLibraryCallAnchor(Operation *op);

/// Which calls a target takes of those below.
struct LibraryCallOptions {
  /// Constant weights of large linears and matmuls packed for tcc_sgemm
  /// (CPU only).
  bool packWeights = true;
  /// Convolutions as tcc_conv2d calls.
  bool convolutions = true;
  /// Integer matmuls and convolutions as tcc_qgemm/tcc_qconv2d calls.
  bool quantized = true;
};

/// The artifact's epilogue of `group`: its activation and clamp, and its
/// bias and residual buffers (marked read). Not the anchor's own bias.
::tcc::artifact::EpilogueT lowerEpilogue(PlanBuilder &plan,
                                         const Epilogue &group,
                                         function_ref<Value(Value)> outside);

/// Target::lowerLibraryCall for CPU targets; with `options`, for targets
/// whose library computes the same steps another way (the cuda target's
/// Sgemm steps run through cuBLASLt, which reads weights as stored).
bool lowerLibraryCall(PlanBuilder &plan, const Epilogue &group,
                      function_ref<Value(Value)> outside, Value result,
                      const TargetCapabilities &target,
                      LibraryCallOptions options = {});

} // namespace mlir::tcc::cpu

#endif // TCC_CODEGEN_TARGETS_CPU_LIBRARYCALLS_H
