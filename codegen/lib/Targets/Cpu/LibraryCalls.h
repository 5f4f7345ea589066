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

/// Target::lowerLibraryCall for CPU targets.
bool lowerLibraryCall(PlanBuilder &plan, const Epilogue &group,
                      function_ref<Value(Value)> outside, Value result,
                      const TargetCapabilities &target);

} // namespace mlir::tcc::cpu

#endif // TCC_CODEGEN_TARGETS_CPU_LIBRARYCALLS_H
