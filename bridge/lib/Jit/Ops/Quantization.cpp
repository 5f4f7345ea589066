//===- Quantization.cpp - quantize, dequantize, integer matmul/conv -------===//
//
// Each eager op of the Quantization family is one tcc op with the same
// operands and attributes.
//
//===----------------------------------------------------------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

/// quantize, dequantize and requantize: (input, scale, zero point, axis).
template <class OpTy> Values traceAffine(TraceContext &c) {
  return {c.create<OpTy>(mlir::ValueRange{c.in(0), c.in(1), c.in(2)},
                         {c.i64Attr("axis", c.intAttr("axis"))})};
}

Values traceMatmulInteger(TraceContext &c) {
  return {c.create<MatmulIntegerOp>(
      mlir::ValueRange{c.in(0), c.in(1), c.in(2), c.in(3)})};
}

Values traceConv2dInteger(TraceContext &c) {
  return {c.create<Conv2dIntegerOp>(
      mlir::ValueRange{c.in(0), c.in(1), c.in(2), c.in(3)},
      {c.i64ArrayAttr("stride", c.intsAttr("stride")),
       c.i64ArrayAttr("padding", c.intsAttr("padding")),
       c.i64ArrayAttr("dilation", c.intsAttr("dilation")),
       c.i64Attr("groups", c.intAttr("groups"))})};
}

} // namespace

void registerQuantizationTraces(TraceRegistry &r) {
  r.trace("quantize", traceAffine<QuantizeOp>);
  r.trace("dequantize", traceAffine<DequantizeOp>);
  r.trace("requantize", traceAffine<RequantizeOp>);
  r.trace("matmul_integer", traceMatmulInteger);
  r.trace("conv2d_integer", traceConv2dInteger);
}

} // namespace jit
} // namespace tcc
