//===- Quantization.cpp - quantize, dequantize, integer matmul/conv -------===//
//
// Each runs the eager op of the frontend's Quantization family, which
// defines its meaning (docs/quantization.md).
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

void registerQuantizationInterpreters(InterpreterRegistry &r) {
  using namespace mlir::tcc;
  r.interpret<QuantizeOp>([](QuantizeOp op, const InterpretContext &v) {
    return tcc::quantize(v(op.getInput()), v(op.getScale()),
                         v(op.getZeroPoint()), int64_t(op.getAxis()));
  });
  r.interpret<DequantizeOp>([](DequantizeOp op, const InterpretContext &v) {
    return tcc::dequantize(v(op.getInput()), v(op.getScale()),
                           v(op.getZeroPoint()), int64_t(op.getAxis()));
  });
  r.interpret<RequantizeOp>([](RequantizeOp op, const InterpretContext &v) {
    return tcc::requantize(v(op.getInput()), v(op.getMultiplier()),
                           v(op.getZeroPoint()), int64_t(op.getAxis()));
  });
  r.interpret<MatmulIntegerOp>(
      [](MatmulIntegerOp op, const InterpretContext &v) {
        return tcc::matmul_integer(v(op.getLhs()), v(op.getRhs()),
                                   v(op.getLhsZeroPoint()),
                                   v(op.getRhsZeroPoint()));
      });
  r.interpret<Conv2dIntegerOp>([](Conv2dIntegerOp op,
                                  const InterpretContext &v) {
    return tcc::conv2d_integer(
        v(op.getInput()), v(op.getWeight()), v(op.getInputZeroPoint()),
        v(op.getWeightZeroPoint()), op.getStride().vec(), op.getPadding().vec(),
        op.getDilation().vec(), int64_t(op.getGroups()));
  });
}

} // namespace jit
} // namespace tcc
