//===- TccShapeOps.td - Shape, layout and indexing ops -----*- tablegen -*-===//

#ifndef TCC_IR_TCCSHAPEOPS_TD
#define TCC_IR_TCCSHAPEOPS_TD

include "tcc/IR/TccBase.td"

def Tcc_ReshapeOp : Tcc_Op<"reshape"> {
  let summary = "Reshape to a static shape with the same element count";
  let description = [{
    Covers `view`, `reshape`, `flatten`, `squeeze` and `unsqueeze`. A reshape
    to the same type, a reshape of a reshape and a reshape of a constant fold.

    ```mlir
    %0 = tcc.reshape %x : tensor<2x3xf32> to tensor<6xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tcc_TransposeOp : Tcc_InferredOp<"transpose",
    "::mlir::tcc::detail::inferTranspose(diag, adaptor.getInput(), "
    "adaptor.getProperties().permutation, results)"> {
  let summary = "Permutes dims (torch.permute; transpose swaps two)";
  let description = [{
    Result dim `i` is input dim `permutation[i]`. The identity permutation
    folds away; a transpose of a transpose folds into one with the composed
    permutation; a splat constant folds.

    ```mlir
    %y = tcc.transpose %x {permutation = array<i64: 0, 2, 1>} : tensor<2x3x4xf32> -> tensor<2x4x3xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input, DenseI64ArrayAttr:$permutation);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Tcc_BroadcastToOp : Tcc_Op<"broadcast_to"> {
  let summary = "Broadcasts to the result type's shape (Tensor.expand)";
  let description = [{
    The input's dims align with the result's trailing dims; each is 1 or
    equal to the result's. A broadcast to the same type folds away and a
    splat constant folds.

    ```mlir
    %y = tcc.broadcast_to %x : tensor<3xf32> to tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tcc_SliceOp : Tcc_InferredOp<"slice",
    "::mlir::tcc::detail::inferSlice(diag, adaptor.getInput(), "
    "adaptor.getProperties().start, adaptor.getProperties().end, "
    "adaptor.getProperties().step, results)"> {
  let summary = "Strided slice of every dim (x[a:b:c, ...])";
  let description = [{
    Per dim, takes indices `start, start + step, ...` below `end`, with
    `0 <= start <= end <= size` and `step >= 1` (the tracer resolves
    Python's negative and out-of-range indices). Result dim size is
    `ceil((end - start) / step)`. A slice that takes everything folds away;
    a splat constant folds.

    ```mlir
    %y = tcc.slice %x {start = array<i64: 0, 1>, end = array<i64: 4, 3>, step = array<i64: 2, 1>}
        : tensor<4x3xf32> -> tensor<2x2xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input, DenseI64ArrayAttr:$start,
                       DenseI64ArrayAttr:$end, DenseI64ArrayAttr:$step);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

def Tcc_ConcatOp : Tcc_InferredOp<"concat",
    "::mlir::tcc::detail::inferConcat(diag, adaptor.getInputs(), "
    "adaptor.getProperties().dim, results)"> {
  let summary = "Concatenation along a dim (torch.cat)";
  let description = [{
    One or more inputs of one rank (at least 1) and element type, equal in
    every dim but `dim` (in `[-rank, rank)`; folding makes it non-negative).
    A single input folds away.

    ```mlir
    %y = tcc.concat %a, %b {dim = 1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x8xf32>
    ```
  }];
  let arguments = (ins Variadic<Tcc_Tensor>:$inputs, I64Attr:$dim);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$inputs attr-dict `:` functional-type($inputs, results)";
  let hasFolder = 1;
}

def Tcc_GatherOp : Tcc_InferredOp<"gather",
    "::mlir::tcc::detail::inferGather(diag, adaptor.getInput(), "
    "adaptor.getIndex(), adaptor.getProperties().dim, results)"> {
  let summary = "Gathers values along a dim by an index tensor (torch.gather)";
  let description = [{
    `result[i][j][k] = input[index[i][j][k]][j][k]` for `dim = 0`, and so
    on. `index` has the input's rank, and in every dim but `dim` is no
    larger than the input; the result has the index's shape.

    ```mlir
    %y = tcc.gather %x, %i {dim = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input, Tcc_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$input `,` $index attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tcc_ScatterOp : Tcc_InferredOp<"scatter",
    "::mlir::tcc::detail::inferScatter(diag, adaptor.getInput(), "
    "adaptor.getIndex(), adaptor.getUpdates(), adaptor.getProperties().dim, "
    "adaptor.getProperties().reduction, results)", [], 1> {
  let summary = "Writes updates into a copy of the input at indexed positions "
                "(torch.scatter, ONNX ScatterElements)";
  let description = [{
    The result is the input with, for `dim = 0`,
    `result[index[i][j]][j] = updates[i][j]` (`reduction = none`) or
    `result[index[i][j]][j] = result[index[i][j]][j] <op> updates[i][j]`
    (`add`, `mul`, `max`, `min`), and so on for other dims. `index` and
    `updates` have one shape, of the input's rank (at least 1), no larger
    than the input in any dim but `dim`; `updates` has the input's element
    type, which may be i1 only with `reduction = none`.

    Updates apply in row-major order of `index`: with `none`, the last one
    to reach a position wins (ONNX leaves this open; tcc fixes it so that
    compiled code and the interpreter agree). `max` and `min` propagate NaN.

    Index values must lie in `[0, input.shape[dim])`; importers turn
    negative (from-the-end) indices into these. Out of range, the reference
    interpreter throws, as PyTorch does; compiled code cannot throw, so it
    skips such an update (nothing is written, never outside the result).

    ```mlir
    %y = tcc.scatter %x, %i, %u {dim = 1 : i64} : (tensor<2x5xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
    %z = tcc.scatter %x, %i, %u {dim = 0 : i64, reduction = #tcc.scatter_reduction<add>} : (tensor<2x5xf32>, tensor<2x3xi64>, tensor<2x3xf32>) -> tensor<2x5xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input, Tcc_IndexTensor:$index,
      Tcc_Tensor:$updates, I64Attr:$dim,
      DefaultValuedAttr<Tcc_ScatterReductionAttr,
                        "::mlir::tcc::ScatterReduction::none">:$reduction);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$input `,` $index `,` $updates attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tcc_IndexSelectOp : Tcc_InferredOp<"index_select",
    "::mlir::tcc::detail::inferIndexSelect(diag, adaptor.getInput(), "
    "adaptor.getIndex(), adaptor.getProperties().dim, results)"> {
  let summary = "Selects entries along a dim by a 1-D index (torch.index_select)";
  let description = [{
    The result is the input with dim `dim` replaced by the index's length.

    ```mlir
    %y = tcc.index_select %x, %i {dim = 0 : i64} : (tensor<5x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input, Tcc_IndexTensor:$index, I64Attr:$dim);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$input `,` $index attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tcc_EmbeddingOp : Tcc_InferredOp<"embedding",
    "::mlir::tcc::detail::inferEmbedding(diag, adaptor.getIndices(), "
    "adaptor.getWeight(), results)"> {
  let summary = "Looks up rows of a table (torch.nn.functional.embedding)";
  let description = [{
    `weight` is `[V, D]`; integer `indices` of any shape select rows, giving
    `indices.shape + [D]`.

    ```mlir
    %y = tcc.embedding %ids, %table : (tensor<2x7xi64>, tensor<100x16xf32>) -> tensor<2x7x16xf32>
    ```
  }];
  let arguments = (ins Tcc_IndexTensor:$indices, Tcc_Tensor:$weight);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$indices `,` $weight attr-dict `:` functional-type(operands, results)";
}

def Tcc_PadOp : Tcc_InferredOp<"pad",
    "::mlir::tcc::detail::inferPad(diag, adaptor.getInput(), "
    "adaptor.getProperties().pad, adaptor.getValue(), results)", [], 1> {
  let summary = "Constant padding (torch.nn.functional.pad, mode constant)";
  let description = [{
    `pad` is PyTorch's list, last dim first: `[left_last, right_last,
    left_second_last, right_second_last, ...]`, an even number of entries,
    at most two per dim. Negative entries crop; no padded size goes below 0.
    New positions hold `value` (default 0), a whole number for integer
    tensors and 0 or 1 for i1. All-zero padding folds away.

    ```mlir
    %y = tcc.pad %x {pad = array<i64: 1, 1, 2, 0>} : tensor<2x3xf32> -> tensor<4x5xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input, DenseI64ArrayAttr:$pad,
                       DefaultValuedAttr<F64Attr, "0.0">:$value);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$input attr-dict `:` type($input) `->` type($result)";
  let hasFolder = 1;
}

#endif // TCC_IR_TCCSHAPEOPS_TD
