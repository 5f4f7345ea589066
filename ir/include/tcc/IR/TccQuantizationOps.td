//===- TccQuantizationOps.td - Quantize, dequantize, integer ops -*- tablegen -*-===//
//
// Quantized tensors are plain ui8/i8/i32 tensors; their scales and zero
// points are operands: 0-d per tensor, or 1-D along `axis` per channel.
// docs/quantization.md gives the design and the rules; the scalar rules are
// tcc/runtime/ScalarOps.h's quantize, dequantize and requantize.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_TCCQUANTIZATIONOPS_TD
#define TCC_IR_TCCQUANTIZATIONOPS_TD

include "tcc/IR/TccBase.td"

def Tcc_QuantizedElementType : AnyTypeOf<[UI8, I8, I32], "ui8, i8 or i32">;
def Tcc_QuantizedTensor : StaticShapeTensorOf<[Tcc_QuantizedElementType]>;
def Tcc_Int8Tensor : StaticShapeTensorOf<[UI8, I8]>;
def Tcc_I32Tensor : StaticShapeTensorOf<[I32]>;

// Ops whose scale and zero point apply per tensor (0-d) or per channel
// along `axis` (1-D, of the size of that dim).
class Tcc_AffineQuantOp<string mnemonic, string infer, string summaryText,
                        Type inputType, string scaleName, string scaleGetter,
                        Type resultType>
    : Tcc_InferredOp<mnemonic,
          "::mlir::tcc::detail::" # infer # "(diag, adaptor.getInput(), "
          # "adaptor." # scaleGetter # "(), adaptor.getZeroPoint(), "
          # "adaptor.getAxis(), results)", [], 1> {
  let summary = summaryText;
  let arguments = !dag(ins,
      [inputType, Tcc_FloatTensor, Tcc_QuantizedTensor,
       DefaultValuedAttr<I64Attr, "1">],
      ["input", scaleName, "zero_point", "axis"]);
  let results = (outs resultType:$result);
  let assemblyFormat = "$input `,` $" # scaleName # " `,` $zero_point "
      # "attr-dict `:` functional-type(operands, results)";
}

def Tcc_QuantizeOp : Tcc_AffineQuantOp<"quantize", "inferQuantize",
    "saturate(round_half_to_even(x / scale) + zero_point) (ONNX QuantizeLinear)",
    Tcc_FloatTensor, "scale", "getScale", Tcc_QuantizedTensor> {
  let description = [{
    The result has the input's shape and the zero point's element type (ui8,
    i8 or i32). `scale` has the input's float type. The quotient is rounded
    to that type, then to the nearest integer (ties to even); NaN gives the
    zero point and out-of-range values saturate.

    ```mlir
    %q = tcc.quantize %x, %s, %zp : (tensor<4x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x8xui8>
    %w = tcc.quantize %x, %s, %zp {axis = 0 : i64} : (tensor<4x8xf32>, tensor<4xf32>, tensor<4xi8>) -> tensor<4x8xi8>
    ```
  }];
}

def Tcc_DequantizeOp : Tcc_AffineQuantOp<"dequantize", "inferDequantize",
    "(q - zero_point) * scale (ONNX DequantizeLinear)",
    Tcc_QuantizedTensor, "scale", "getScale", Tcc_FloatTensor> {
  let description = [{
    The result has the input's shape and the scale's float type; the zero
    point has the input's element type. `q - zero_point` is exact, converted
    to the float type once and multiplied in it (f16/bf16 in f32).

    ```mlir
    %x = tcc.dequantize %q, %s, %zp : (tensor<4x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x8xf32>
    ```
  }];
}

def Tcc_RequantizeOp : Tcc_AffineQuantOp<"requantize", "inferRequantize",
    "saturate(round_half_to_even(acc * multiplier) + zero_point)",
    Tcc_I32Tensor, "multiplier", "getMultiplier", Tcc_Int8Tensor> {
  let description = [{
    Scales an i32 accumulator (of `tcc.matmul_integer` or
    `tcc.conv2d_integer`) to a ui8/i8 result of the zero point's type. The
    accumulator is converted to the float `multiplier`'s type (typically
    `s_in * s_w / s_out`; f32 for f16/bf16) and multiplied in it, each step
    rounded to nearest even: with an f32 multiplier, the int8 kernels'
    epilogue, bit for bit.

    ```mlir
    %y = tcc.requantize %acc, %m, %zp {axis = 1 : i64}
        : (tensor<1x8x4x4xi32>, tensor<8xf32>, tensor<8xui8>) -> tensor<1x8x4x4xui8>
    ```
  }];
}

def Tcc_MatmulIntegerOp : Tcc_InferredOp<"matmul_integer",
    "::mlir::tcc::detail::inferMatmulInteger(diag, adaptor.getLhs(), "
    "adaptor.getRhs(), adaptor.getLhsZeroPoint(), adaptor.getRhsZeroPoint(), "
    "results)"> {
  let summary = "Integer matrix product with zero points (ONNX MatMulInteger)";
  let description = [{
    `sum_k (lhs - lhs_zero_point)(rhs - rhs_zero_point)` in i32 (wrapping on
    overflow), batch dims broadcast as in `tcc.matmul`. Operands are ui8 or
    i8 (mixed allowed); each zero point has its operand's type and is 0-d,
    or `[M]` per row of `lhs`, or `[N]` per column of `rhs`.

    ```mlir
    %c = tcc.matmul_integer %a, %b, %azp, %bzp
        : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<2xi8>) -> tensor<4x2xi32>
    ```
  }];
  let arguments = (ins Tcc_Int8Tensor:$lhs, Tcc_Int8Tensor:$rhs,
                       Tcc_Int8Tensor:$lhs_zero_point,
                       Tcc_Int8Tensor:$rhs_zero_point);
  let results = (outs Tcc_I32Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $lhs_zero_point `,` $rhs_zero_point attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tcc_Conv2dIntegerOp : Tcc_InferredOp<"conv2d_integer",
    "::mlir::tcc::detail::inferConv2dInteger(diag, adaptor, results)", [], 1> {
  let summary = "Integer 2-D convolution with zero points (ONNX ConvInteger)";
  let description = [{
    `tcc.conv2d` (NCHW, OIHW) of `input - input_zero_point` and
    `weight - weight_zero_point` in i32 (wrapping on overflow). Operands are
    ui8 or i8; `input_zero_point` is 0-d, `weight_zero_point` 0-d or `[O]`
    (per output channel), each of its operand's type. Padded positions hold
    the input's zero point, so they add nothing. `groups` covers grouped and
    depthwise convolutions.

    ```mlir
    %acc = tcc.conv2d_integer %x, %w, %xzp, %wzp {padding = array<i64: 1, 1>}
        : (tensor<1x3x8x8xui8>, tensor<4x3x3x3xi8>, tensor<ui8>, tensor<4xi8>) -> tensor<1x4x8x8xi32>
    ```
  }];
  let arguments = (ins Tcc_Int8Tensor:$input, Tcc_Int8Tensor:$weight,
                       Tcc_Int8Tensor:$input_zero_point,
                       Tcc_Int8Tensor:$weight_zero_point,
                       Tcc_I64ArrayDefault<"{1, 1}">:$stride,
                       Tcc_I64ArrayDefault<"{0, 0}">:$padding,
                       Tcc_I64ArrayDefault<"{1, 1}">:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups);
  let results = (outs Tcc_I32Tensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $input_zero_point `,` $weight_zero_point attr-dict
    `:` functional-type(operands, results)
  }];
}

#endif // TCC_IR_TCCQUANTIZATIONOPS_TD
