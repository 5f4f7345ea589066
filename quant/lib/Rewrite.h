//===- Rewrite.h - Layers into tcc's integer ops ----------------*- C++ -*-===//

#ifndef TCC_QUANT_LIB_REWRITE_H
#define TCC_QUANT_LIB_REWRITE_H

#include "Layers.h"

#include "tcc/Quant/Observers.h"

#include <vector>

namespace tcc {
namespace quant {
namespace detail {

/// The calibrated ranges of one layer's inputs and output.
struct LayerRanges {
  std::vector<Range> inputs;
  Range output;
};

/// Rewrites the layers of `function` with `int8[i]` set into their quantized
/// form (Calibrate.h describes it), activations of `activationType`, and
/// removes the float ops left unused. Throws QuantError naming the layer
/// when a scale comes out zero or overflows, or a bias overflows int32.
void quantizeLayers(mlir::func::FuncOp function,
                    const std::vector<Layer> &layers,
                    const std::vector<LayerRanges> &ranges,
                    const std::vector<bool> &int8,
                    IntegerRange activationType);

} // namespace detail
} // namespace quant
} // namespace tcc

#endif // TCC_QUANT_LIB_REWRITE_H
