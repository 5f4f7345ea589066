//===- Layers.h - The layers calibration quantizes --------------*- C++ -*-===//
//
// Which ops of a float32 function become int8, and the float tensors whose
// ranges calibration records for each. Found the same way in every copy of
// a module, so the i-th layer of one copy is the i-th of another.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_QUANT_LIB_LAYERS_H
#define TCC_QUANT_LIB_LAYERS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/SmallVector.h"

#include <string>
#include <vector>

namespace tcc {
namespace quant {
namespace detail {

struct Layer {
  std::string name;
  /// conv2d, depthwise_conv2d, linear, matmul or add.
  std::string kind;
  mlir::Operation *op = nullptr;
  /// The float activations it reads (the weight is a constant operand).
  llvm::SmallVector<mlir::Value, 2> inputs;
  /// Its float result, or that of the ReLU that is the result's only user
  /// (absorbed into the quantized output's range).
  mlir::Value output;
  mlir::Operation *relu = nullptr;
};

/// The quantizable layers of `function`, in program order: NCHW conv2d and
/// linear with constant f32 weight (and bias), matmul by a constant 2-D f32
/// matrix, and add of two non-constant f32 tensors of one shape.
std::vector<Layer> findLayers(mlir::func::FuncOp function);

} // namespace detail
} // namespace quant
} // namespace tcc

#endif // TCC_QUANT_LIB_LAYERS_H
