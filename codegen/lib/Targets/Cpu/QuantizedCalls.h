//===- QuantizedCalls.h - Calls to tcc_qgemm and tcc_qconv2d ----*- C++ -*-===//
//
// tcc.matmul_integer and tcc.conv2d_integer (depthwise included) with their
// fused epilogue (i32 bias, requantize or dequantize, ReLU) run as calls of
// the runtime's int8 kernels (runtime/include/tcc/runtime/kernels_int8.h)
// when the weights, zero points and scales are constants the kernels take:
// the weights are packed at compile time, less their zero point, and the
// epilogue's parameters are written into the step.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_TARGETS_CPU_QUANTIZEDCALLS_H
#define TCC_CODEGEN_TARGETS_CPU_QUANTIZEDCALLS_H

#include "tcc/Codegen/PlanBuilder.h"
#include "tcc/Passes/Epilogue.h"

namespace mlir::tcc::cpu {

/// The Qgemm or Qconv2d step of a quantized epilogue group; false (nothing
/// added) when the kernels cannot compute it: a weight, zero point or scale
/// that is not a constant, a weight zero point that leaves int8, scales that
/// are not finite and positive, grouped convolutions other than depthwise.
/// Activations that only int8 convolutions read stay NHWC between them
/// (the convolutions' groups are `target`'s epilogue groups).
bool lowerQuantizedCall(PlanBuilder &plan, const Epilogue &group,
                        function_ref<Value(Value)> outside, Value result,
                        const TargetCapabilities &target);

/// Whether `op`, an NCHW op the planner compiles a kernel for, runs NHWC
/// instead: an 8-bit max pool whose input a qconv2d step (or another such
/// pool) writes NHWC and whose result only qconv2d steps (or such pools)
/// read, so that no step converts the layout around it.
bool runsChannelsLast(Operation *op, const TargetCapabilities &target);

} // namespace mlir::tcc::cpu

#endif // TCC_CODEGEN_TARGETS_CPU_QUANTIZEDCALLS_H
