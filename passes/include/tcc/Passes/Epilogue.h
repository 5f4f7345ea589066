//===- Epilogue.h - GEMM/convolution epilogues ------------------*- C++ -*-===//
//
// The epilogue a library call applies to an output tile while it is still
// in registers, act(anchor + bias + residual), shared by the pass that forms
// epilogue groups and the code generator that turns them into library calls.
// Which anchors and activations qualify is the target's answer
// (TargetCapabilities), not this file's.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_PASSES_EPILOGUE_H
#define TCC_PASSES_EPILOGUE_H

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <optional>

namespace mlir::tcc {

class TargetCapabilities;

/// The runtime's tcc_activation, value for value (one list: Activations.def).
enum class EpilogueActivation {
#define TCC_ACTIVATION(Name, NAME, value) Name = value,
#include "tcc/runtime/Activations.def"
#undef TCC_ACTIVATION
};

/// act(anchor + bias + residual) over the anchor's output.
///
/// A quantized anchor (tcc.matmul_integer, tcc.conv2d_integer: i32 sums)
/// takes an i32 bias, then may end in `rescale`: a tcc.requantize to
/// ui8/i8, optionally followed by tcc.maximum with its zero point (ReLU in
/// the quantized domain, `activation` Relu), or a tcc.dequantize to f32,
/// optionally followed by tcc.relu. These are the int8 kernels' epilogue
/// (docs/int8-kernels.md). After a requantize (without ReLU) the chain may
/// go on with a residual add in QDQ form,
///   quantize(add(dequantize(requantize(...)), dequantize(residual)))
/// optionally followed by tcc.maximum with the quantize's zero point
/// (`activation` Relu): `residual` is then the integer tensor and
/// `residualQuantize` the quantize.
struct Epilogue {
  Operation *anchor = nullptr; // tcc.matmul, tcc.linear or tcc.conv2d
  Value bias;                  // per output channel, or null
  Value residual;              // the output's shape, or null
  EpilogueActivation activation = EpilogueActivation::None;
  double clampMin = 0, clampMax = 0;
  Operation *rescale = nullptr; // quantized anchors: requantize/dequantize
  Operation *residualQuantize = nullptr; // the QDQ residual add's quantize
  SmallVector<Operation *> ops; // anchor first, then the chain
};

/// Whether `op` is tcc.matmul_integer or tcc.conv2d_integer.
bool isQuantizedAnchor(Operation *op);

/// The longest chain after `anchor` (one the target's isEpilogueAnchor
/// accepts) that fits the epilogue, following each value's single user; the
/// activation must be one the target applies. After a bf16 or fp16 value,
/// ReLU may be spelled cast to f32, relu, cast back (tcc-autocast's form),
/// which computes what ReLU in the low precision does.
Epilogue matchEpilogue(Operation *anchor, const TargetCapabilities &target);

/// The epilogue of a group of ops (in order, anchor first), or nullopt when
/// the group is not exactly an anchor and a chain that fit `target`.
std::optional<Epilogue> matchEpilogueGroup(ArrayRef<Operation *> ops,
                                           const TargetCapabilities &target);

} // namespace mlir::tcc

#endif // TCC_PASSES_EPILOGUE_H
