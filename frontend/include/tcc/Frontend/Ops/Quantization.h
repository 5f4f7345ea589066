//===- Quantization.h - Quantize, dequantize, integer matmul and conv -*- C++
//-*-//
//
// Quantized values are plain integer tensors (uint8, int8, int32) with their
// scale and zero point passed as tensors: 0-d for per-tensor quantization,
// or 1-D along `axis` for per-channel (docs/quantization.md). The ops follow
// ONNX's QuantizeLinear, DequantizeLinear, MatMulInteger and ConvInteger;
// the scalar rules are tcc::scalar::quantize/dequantize/requantize of
// tcc/runtime/ScalarOps.h. None of them is differentiable.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPS_QUANTIZATION_H
#define TCC_FRONTEND_OPS_QUANTIZATION_H

#include "tcc/Frontend/Tensor.h"

namespace tcc {

/// saturate(round_half_to_even(x / scale) + zero_point), of zero_point's
/// dtype (uint8, int8 or int32). `scale` has x's float dtype; `scale` and
/// `zero_point` have one shape: [] or [x.size(axis)].
Tensor quantize(const Tensor &x, const Tensor &scale, const Tensor &zero_point,
                int64_t axis = 1);

/// (q - zero_point) * scale, of scale's float dtype; zero_point has q's
/// dtype and scale's shape ([] or [q.size(axis)]).
Tensor dequantize(const Tensor &q, const Tensor &scale,
                  const Tensor &zero_point, int64_t axis = 1);

/// sum_k (a - a_zero_point)(b - b_zero_point) as int32 (wrapping), with
/// torch.matmul's batch broadcasting on operands of rank 2 or more. a and b
/// are uint8 or int8; a_zero_point is [] or [M] (per row) of a's dtype,
/// b_zero_point [] or [N] (per column) of b's dtype.
Tensor matmul_integer(const Tensor &a, const Tensor &b,
                      const Tensor &a_zero_point, const Tensor &b_zero_point);

/// conv2d of (input - input_zero_point) and (weight - weight_zero_point)
/// as int32: input [N, C, H, W] and weight [O, C / groups, kH, kW] are
/// uint8 or int8; input_zero_point is [], weight_zero_point [] or [O].
/// Padded positions hold the input's zero point (they add nothing).
Tensor conv2d_integer(const Tensor &input, const Tensor &weight,
                      const Tensor &input_zero_point,
                      const Tensor &weight_zero_point, IntArrayRef stride = 1,
                      IntArrayRef padding = 0, IntArrayRef dilation = 1,
                      int64_t groups = 1);

/// saturate(round_half_to_even(acc * multiplier) + zero_point) of an int32
/// accumulator, the product in double; of zero_point's dtype (uint8 or
/// int8). `multiplier` is a float tensor, [] or [acc.size(axis)].
Tensor requantize(const Tensor &acc, const Tensor &multiplier,
                  const Tensor &zero_point, int64_t axis = 1);

} // namespace tcc

#endif // TCC_FRONTEND_OPS_QUANTIZATION_H
