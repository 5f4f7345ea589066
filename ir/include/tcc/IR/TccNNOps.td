//===- TccNNOps.td - Linear algebra, conv, pooling, norms --*- tablegen -*-===//

#ifndef TCC_IR_TCCNNOPS_TD
#define TCC_IR_TCCNNOPS_TD

include "tcc/IR/TccBase.td"

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Tcc_MatmulOp : Tcc_InferredOp<"matmul",
    "::mlir::tcc::detail::inferMatmul(diag, adaptor.getLhs(), "
    "adaptor.getRhs(), results)"> {
  let summary = "Matrix product with batch broadcasting (torch.matmul)";
  let description = [{
    Both operands have rank 2 or more (the tracer reshapes vectors); batch
    dimensions broadcast, as in `torch.matmul`.

    ```mlir
    %0 = tcc.matmul %a, %b : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
    ```
  }];
  let arguments = (ins Tcc_NumericTensor:$lhs, Tcc_NumericTensor:$rhs);
  let results = (outs Tcc_NumericTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Tcc_LinearOp : Tcc_InferredOp<"linear",
    "::mlir::tcc::detail::inferLinear(diag, adaptor.getInput(), "
    "adaptor.getWeight(), adaptor.getBias(), results)"> {
  let summary = "y = x W^T + b (torch.nn.functional.linear)";
  let description = [{
    `input` is `[..., in]`, `weight` is `[out, in]`, the optional `bias` is
    `[out]`; the result is `[..., out]`.

    ```mlir
    %y = tcc.linear %x, %w, %b : (tensor<8x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<8x2xf32>
    ```
  }];
  let arguments = (ins Tcc_NumericTensor:$input, Tcc_NumericTensor:$weight,
                       Optional<Tcc_NumericTensor>:$bias);
  let results = (outs Tcc_NumericTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

def Tcc_Conv2dOp : Tcc_InferredOp<"conv2d",
    "::mlir::tcc::detail::inferConv2d(diag, adaptor, results)", [], 1> {
  let summary = "2-D convolution (torch.nn.functional.conv2d)";
  let description = [{
    With the default `layout = nchw`, `input` is `[N, C, H, W]`, `weight` is
    `[O, C / groups, kH, kW]` (OIHW) and the optional `bias` is `[O]`; the
    result is `[N, O, H', W']` with, per spatial dim,
    `H' = floor((H + 2 * padding - dilation * (kH - 1) - 1) / stride) + 1`.
    `stride`, `padding` and `dilation` hold (height, width); `C` and `O` are
    multiples of `groups`.

    `layout = nhwc` is the form the layout pass rewrites to for CPU kernels:
    `input` is `[N, H, W, C]`, `weight` is `[O, kH, kW, C / groups]` (OHWI)
    and the result `[N, H', W', O]`; attributes and arithmetic are unchanged.
    The pass wraps the op in `tcc.transpose`s (permutations `[0, 2, 3, 1]`
    in, `[0, 3, 1, 2]` out) and transposes the constant weight, then
    cancels adjacent transposes.

    ```mlir
    %y = tcc.conv2d %x, %w, %b {padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}
        : (tensor<1x3x32x32xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input, Tcc_FloatTensor:$weight,
                       Optional<Tcc_FloatTensor>:$bias,
                       Tcc_I64ArrayDefault<"{1, 1}">:$stride,
                       Tcc_I64ArrayDefault<"{0, 0}">:$padding,
                       Tcc_I64ArrayDefault<"{1, 1}">:$dilation,
                       DefaultValuedAttr<I64Attr, "1">:$groups,
                       Tcc_DefaultLayout:$layout);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight (`,` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tcc_MaxPool2dOp : Tcc_InferredOp<"max_pool2d",
    "::mlir::tcc::detail::inferMaxPool2d(diag, adaptor, results)", [], 1> {
  let summary = "2-D max pooling (torch.nn.functional.max_pool2d)";
  let description = [{
    `input` is `[N, C, H, W]` (or `[N, H, W, C]` with `layout = nhwc`).
    Output sizes follow PyTorch exactly, per spatial dim:
    `out = floor((H + 2 * padding - dilation * (k - 1) - 1 + (ceil_mode ? stride - 1 : 0)) / stride) + 1`,
    minus one when `ceil_mode` makes the last window start past the padded
    input (`(out - 1) * stride >= H + padding`). `padding` is at most half
    the kernel and every output size is at least 1. Padded positions count
    as -inf. The input may also be ui8 or i8 (ONNX MaxPool's 8-bit types):
    padded positions then count as the type's lowest value, and since a
    positive scale preserves order, max-pooling a quantized tensor equals
    max-pooling its dequantized values.

    ```mlir
    %y = tcc.max_pool2d %x {kernel_size = array<i64: 3, 3>, stride = array<i64: 2, 2>, padding = array<i64: 1, 1>}
        : tensor<1x64x112x112xf32> -> tensor<1x64x56x56xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatOrInt8Tensor:$input,
                       DenseI64ArrayAttr:$kernel_size,
                       DenseI64ArrayAttr:$stride,
                       Tcc_I64ArrayDefault<"{0, 0}">:$padding,
                       Tcc_I64ArrayDefault<"{1, 1}">:$dilation,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       Tcc_DefaultLayout:$layout);
  let results = (outs Tcc_FloatOrInt8Tensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
}

def Tcc_AvgPool2dOp : Tcc_InferredOp<"avg_pool2d",
    "::mlir::tcc::detail::inferAvgPool2d(diag, adaptor, results)", [], 1> {
  let summary = "2-D average pooling (torch.nn.functional.avg_pool2d)";
  let description = [{
    Output sizes as for `tcc.max_pool2d` with dilation 1. Each window sums
    its elements and divides by `divisor_override` when given, else by the
    window size counting padded positions when `count_include_pad`, else by
    the number of input positions it covers.

    ```mlir
    %y = tcc.avg_pool2d %x {kernel_size = array<i64: 2, 2>, stride = array<i64: 2, 2>}
        : tensor<1x8x32x32xf32> -> tensor<1x8x16x16xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input, DenseI64ArrayAttr:$kernel_size,
                       DenseI64ArrayAttr:$stride,
                       Tcc_I64ArrayDefault<"{0, 0}">:$padding,
                       DefaultValuedAttr<BoolAttr, "false">:$ceil_mode,
                       DefaultValuedAttr<BoolAttr, "true">:$count_include_pad,
                       OptionalAttr<I64Attr>:$divisor_override,
                       Tcc_DefaultLayout:$layout);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
}

def Tcc_AdaptiveAvgPool2dOp : Tcc_InferredOp<"adaptive_avg_pool2d",
    "::mlir::tcc::detail::inferAdaptiveAvgPool2d(diag, adaptor, results)", [], 1> {
  let summary = "2-D adaptive average pooling to a fixed output size";
  let description = [{
    As `torch.nn.functional.adaptive_avg_pool2d`: output cell `i` of a
    spatial dim of size `H` averages input rows
    `[floor(i * H / out), ceil((i + 1) * H / out))`. The non-batch input dims
    are non-empty.

    ```mlir
    %y = tcc.adaptive_avg_pool2d %x {output_size = array<i64: 1, 1>}
        : tensor<1x512x7x7xf32> -> tensor<1x512x1x1xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input, DenseI64ArrayAttr:$output_size,
                       Tcc_DefaultLayout:$layout);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

class Tcc_ReduceOp<string mnemonic, string summaryText,
                   Type tensor = Tcc_NumericTensor, bit nonEmpty = 0>
    : Tcc_InferredOp<mnemonic,
          "::mlir::tcc::detail::inferReduce(diag, adaptor.getInput(), "
          # "adaptor.getProperties().dims, adaptor.getKeepdim(), "
          # !if(nonEmpty, "true", "false") # ", results)", [], 1> {
  let summary = summaryText;
  let description = "`torch." # !subst("reduce_", "", mnemonic) # "` over "
      # "the listed `dims` (at least one, no repeats, in `[-rank, rank)`; "
      # "folding normalizes them to sorted non-negative form). Reduced dims "
      # "stay as size 1 with `keepdim`, else they are removed."
      # !if(nonEmpty, " Reduced dims are non-empty (no identity exists).", "")
      # "\n\n```mlir\n%y = tcc." # mnemonic
      # " %x {dims = array<i64: 1>, keepdim = true} : tensor<2x3xf32> -> "
      # "tensor<2x1xf32>\n```";
  let arguments = (ins tensor:$input, DenseI64ArrayAttr:$dims,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs tensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Tcc_ReduceSumOp : Tcc_ReduceOp<"reduce_sum", "Sum over dims">;
def Tcc_ReduceMeanOp
    : Tcc_ReduceOp<"reduce_mean", "Mean over dims", Tcc_FloatTensor>;
def Tcc_ReduceProdOp : Tcc_ReduceOp<"reduce_prod", "Product over dims">;
// On i1 tensors reduce_max is torch.any and reduce_min is torch.all.
def Tcc_ReduceMaxOp
    : Tcc_ReduceOp<"reduce_max", "Maximum over dims (torch.amax)", Tcc_Tensor, 1>;
def Tcc_ReduceMinOp
    : Tcc_ReduceOp<"reduce_min", "Minimum over dims (torch.amin)", Tcc_Tensor, 1>;

class Tcc_ArgReduceOp<string mnemonic, string summaryText>
    : Tcc_InferredOp<mnemonic,
          "::mlir::tcc::detail::inferArgReduce(diag, adaptor.getInput(), "
          "adaptor.getProperties().dim, adaptor.getKeepdim(), results)", [],
          1> {
  let summary = summaryText;
  let description = "`torch." # mnemonic # "` along one non-empty `dim` "
      # "(in `[-rank, rank)`), giving i64 indices; the first index wins a "
      # "tie.\n\n```mlir\n%i = tcc." # mnemonic
      # " %x {dim = 1 : i64} : tensor<2x3xf32> -> tensor<2xi64>\n```";
  let arguments = (ins Tcc_NumericTensor:$input, I64Attr:$dim,
                       DefaultValuedAttr<BoolAttr, "false">:$keepdim);
  let results = (outs StaticShapeTensorOf<[I64]>:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Tcc_ArgmaxOp : Tcc_ArgReduceOp<"argmax", "Index of the maximum along a dim">;
def Tcc_ArgminOp : Tcc_ArgReduceOp<"argmin", "Index of the minimum along a dim">;

//===----------------------------------------------------------------------===//
// Softmax and normalization
//===----------------------------------------------------------------------===//

class Tcc_SoftmaxOpBase<string mnemonic, string summaryText>
    : Tcc_Op<mnemonic, [SameOperandsAndResultType]> {
  let summary = summaryText;
  let description = "`torch." # mnemonic # "` along `dim` (in `[-rank, "
      # "rank)`; folding makes it non-negative).\n\n```mlir\n%y = tcc."
      # mnemonic # " %x {dim = 1 : i64} : tensor<2x3xf32>\n```";
  let arguments = (ins Tcc_FloatTensor:$input, I64Attr:$dim);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tcc_SoftmaxOp : Tcc_SoftmaxOpBase<"softmax", "Softmax along a dim">;
def Tcc_LogSoftmaxOp
    : Tcc_SoftmaxOpBase<"log_softmax", "Log of softmax along a dim">;

def Tcc_LayerNormOp : Tcc_InferredOp<"layer_norm",
    "::mlir::tcc::detail::inferLayerNorm(diag, adaptor, results)",
    [AttrSizedOperandSegments], 1> {
  let summary = "Layer normalization (torch.nn.functional.layer_norm)";
  let description = [{
    Normalizes over the trailing dims named by `normalized_shape` (which
    equal the input's last dims), then scales by `weight` and shifts by
    `bias` when given (both of shape `normalized_shape`). `eps` is at least
    0 and defaults to PyTorch's 1e-5.

    ```mlir
    %y = tcc.layer_norm %x weight %w bias %b {normalized_shape = array<i64: 8>}
        : (tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input,
                       Optional<Tcc_FloatTensor>:$weight,
                       Optional<Tcc_FloatTensor>:$bias,
                       DenseI64ArrayAttr:$normalized_shape,
                       DefaultValuedAttr<F64Attr, "1e-5">:$eps);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat = [{
    $input (`weight` $weight^)? (`bias` $bias^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Tcc_BatchNormOp : Tcc_InferredOp<"batch_norm",
    "::mlir::tcc::detail::inferBatchNorm(diag, adaptor, results)", [], 1> {
  let summary = "Batch normalization, inference form";
  let description = [{
    `torch.nn.functional.batch_norm` with `training = False`:
    `(x - running_mean) / sqrt(running_var + eps) * weight + bias`, with the
    channel in dim 1 of an input of rank 2 or more; the four per-channel
    operands are `[C]`. `eps` is at least 0 (default 1e-5).

    ```mlir
    %y = tcc.batch_norm %x, %w, %b, %mean, %var {eps = 1.000000e-05 : f64}
        : (tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) -> tensor<1x16x8x8xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input, Tcc_FloatTensor:$weight,
                       Tcc_FloatTensor:$bias, Tcc_FloatTensor:$running_mean,
                       Tcc_FloatTensor:$running_var,
                       DefaultValuedAttr<F64Attr, "1e-5">:$eps);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat = [{
    $input `,` $weight `,` $bias `,` $running_mean `,` $running_var attr-dict
    `:` functional-type(operands, results)
  }];
}

#endif // TCC_IR_TCCNNOPS_TD
