//===- Passes.td - Optimization passes on the tcc dialect --*- tablegen -*-===//

#ifndef TCC_PASSES_PASSES_TD
#define TCC_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TccFuseElementwise : Pass<"tcc-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Group pointwise chains, and normalizations with their "
                "pointwise prologue and epilogue, into one tcc.fusion";
  let description = [{
    Walking from the last op up, each pointwise op (`Tcc_Pointwise`: unary,
    binary with broadcasting, compare, select, cast, ...) or normalization
    (softmax, log_softmax, layer_norm) starts a group and pulls in the
    pointwise producers, and at most one normalization, whose every user is
    already in the group, so no value is computed twice and no intermediate
    tensor is written to memory. Splat constants are copied into the group.
    Groups of two or more ops become a `tcc.fusion`, which the code
    generator compiles as one kernel (one loop nest after linalg's
    elementwise fusion; a normalization's rows are the kernel's tiles). So
    an attention scale fuses into its softmax, and a residual add into the
    layer norm after it.

    What never fuses, and why: a producer with a user outside the group (its
    value must reach memory anyway; multi-output groups may come later); two
    normalizations (each needs its own passes over a row); other reductions,
    matmul and convolution (their epilogues go to the microkernels, see
    tcc-fuse-epilogues) and data movement, which keep their own loop
    structure; ops already inside a fusion.

    Before:
    ```mlir
    %0 = tcc.mul %x, %y : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = tcc.sigmoid %0 : tensor<8xf32>
    ```
    After:
    ```mlir
    %1 = tcc.fusion (%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%a: tensor<8xf32>, %b: tensor<8xf32>):
      %0 = tcc.mul %a, %b : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %2 = tcc.sigmoid %0 : tensor<8xf32>
      tcc.yield %2 : tensor<8xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

def TccFoldConstants : Pass<"tcc-fold-constants", "::mlir::func::FuncOp"> {
  let summary = "Evaluate ops whose operands are all constants";
  let description = [{
    Every tcc op whose operands are all `tcc.constant`s is replaced by a
    constant holding its result: through the op's folder where it has one
    (splats, identities), else through the pass's evaluator (reshape,
    transpose, broadcast_to, slice, concat, pad, cast, the pointwise ops,
    comparisons, select). A non-splat result becomes a `dense_resource` blob,
    named after the weight it came from, so weights stay binary. Ops and
    constants left without users are erased.

    Size guard: a folded constant may be at most twice the bytes of the
    constants it is computed from plus 4 KiB (`kFoldGrowthFactor`,
    `kFoldAllowanceBytes` in `tcc/IR/TensorSizes.h`); anything larger, such
    as a scalar broadcast to a big tensor, stays an op. Ops the evaluator
    does not cover, and values without an exact result (a float cast to an
    integer type it does not fit, integer division by zero), stay too.

    The evaluator is a small one on raw bytes in `passes/lib`
    (`ConstantEvaluator`), not the reference interpreter `tcc::jit`: that
    runs the eager frontend, which the passes library must not depend on,
    and reports errors by C++ exceptions, which must never unwind through
    MLIR's frames. The ops models fold (transpose, reshape, cast,
    broadcast_to, slice, concat, pad, pointwise arithmetic) are few; the
    unit tests check each against the interpreter.

    Before:
    ```mlir
    %w = tcc.constant dense_resource<fc.weight> : tensor<4x8xf32>
    %t = tcc.transpose %w {permutation = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
    %y = tcc.matmul %x, %t : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    ```
    After:
    ```mlir
    %t = tcc.constant dense_resource<fc.weight.transpose> : tensor<8x4xf32>
    %y = tcc.matmul %x, %t : (tensor<2x8xf32>, tensor<8x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

def TccMergeLinears : Pass<"tcc-merge-linears", "::mlir::func::FuncOp"> {
  let summary = "Merge fp32 linears that share their input into one GEMM";
  let description = [{
    Linears that read the same input, with constant 2-D fp32 weights of the
    same input size and all with constant biases or all without, become one
    linear whose weight (and bias) stacks theirs in program order; each old
    result is a `tcc.slice` of the merged result along its last dim. The
    concatenations are left to tcc-fold-constants, which runs next. Attention's
    q, k and v projections are the case: one 128x768x256 GEMM instead of three
    128x256x256 (the input packed once, fewer, larger microkernel calls).
    The code generator reads the slices in place (a leading dimension and an
    offset into the merged buffer), so they cost no copy when they feed
    matmuls.

    Cost rule, so merging never costs a fusion or a copy: a linear joins only
    when its result reaches nothing but matmuls, through reshapes and
    transposes (the views the code generator reads in place). A result with any other user (a bias
    or residual add, an activation: epilogues tcc-fuse-epilogues would put
    into the GEMM) stays its own linear. Nothing merges across blocks.

    Before:
    ```mlir
    %q = tcc.linear %x, %wq, %bq : (tensor<8x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<8x2xf32>
    %k = tcc.linear %x, %wk, %bk : (tensor<8x4xf32>, tensor<3x4xf32>, tensor<3xf32>) -> tensor<8x3xf32>
    ```
    After:
    ```mlir
    %w = tcc.concat %wq, %wk {dim = 0 : i64} : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<5x4xf32>
    %b = tcc.concat %bq, %bk {dim = 0 : i64} : (tensor<2xf32>, tensor<3xf32>) -> tensor<5xf32>
    %m = tcc.linear %x, %w, %b : (tensor<8x4xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<8x5xf32>
    %q = tcc.slice %m {start = array<i64: 0, 0>, end = array<i64: 8, 2>, step = array<i64: 1, 1>} : tensor<8x5xf32> -> tensor<8x2xf32>
    %k = tcc.slice %m {start = array<i64: 0, 2>, end = array<i64: 8, 5>, step = array<i64: 1, 1>} : tensor<8x5xf32> -> tensor<8x3xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

def TccFoldBatchNorm : Pass<"tcc-fold-batch-norm", "::mlir::func::FuncOp"> {
  let summary = "Fold inference batch norm into the conv2d or linear before it";
  let description = [{
    `batch_norm(conv2d(x, W, b))` with constant `W`, `b` (or no bias) and
    constant batch-norm parameters becomes `conv2d(x, W', b')` with, per
    output channel `o`,
    `s = gamma[o] / sqrt(var[o] + eps)`, `W'[o] = W[o] * s` and
    `b'[o] = (b[o] - mean[o]) * s + beta[o]`, computed in float64 and
    rounded once to the element type; a conv without a bias gets one. The
    same holds for `linear` with a `[N, out]` result (BatchNorm1d). An NHWC
    conv qualifies when a `tcc.transpose` with permutation `[0, 3, 1, 2]`
    alone sits between it and the batch norm (the weight's output channel is
    dim 0 in every layout).

    It does not fire when the conv's (or linear's, or the transpose's)
    result has other users, since they need the unnormalized value, nor
    when any weight, bias or batch-norm parameter is not a constant.

    Before:
    ```mlir
    %c = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %y = tcc.batch_norm %c, %gamma, %beta, %mean, %var
        : (tensor<1x4x6x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    ```
    After:
    ```mlir
    %w2 = tcc.constant dense_resource<conv.weight.bn> : tensor<4x3x3x3xf32>
    %b2 = tcc.constant dense_resource<conv.bias.bn> : tensor<4xf32>
    %y = tcc.conv2d %x, %w2, %b2 : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
    ```
  }];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

def TccFoldQdq : Pass<"tcc-fold-qdq", "::mlir::func::FuncOp"> {
  let summary = "Fold dequantize -> matmul/conv2d -> quantize into integer "
                "ops and a requantize";
  let description = [{
    A quantize (8-bit, per tensor, f32 scale) of a `tcc.matmul` or an NCHW
    `tcc.conv2d` that has no other user, whose operands are dequantized
    8-bit tensors with f32 scales, becomes the integer op
    (`tcc.matmul_integer` / `tcc.conv2d_integer` on the quantized tensors
    and their zero points) and a `tcc.requantize` by `s_a * s_b / s_y`
    (docs/quantization.md). The left operand (the conv's input) is
    quantized per tensor; the right one per tensor or per channel along its
    last dim (the conv weight's output channel), which makes the multiplier
    per channel too. A bias (the conv's operand, or an add after the
    matmul) that is a dequantized i32 tensor of zero point 0 and scale
    `s_a * s_b` (constants) becomes an i32 add of the sums; a `tcc.relu`
    before the quantize becomes a `tcc.maximum` of the result and `zp_y`.

    The two forms are equal in real arithmetic; the integer one computes the
    sum exactly, so it may differ from the float form by one step of the
    output scale where the float sum's rounding crosses a boundary.

    Before:
    ```mlir
    %a = tcc.dequantize %qa, %sa, %zpa : (tensor<4x3xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x3xf32>
    %b = tcc.dequantize %qb, %sb, %zpb : (tensor<3x2xi8>, tensor<f32>, tensor<i8>) -> tensor<3x2xf32>
    %c = tcc.matmul %a, %b : (tensor<4x3xf32>, tensor<3x2xf32>) -> tensor<4x2xf32>
    %y = tcc.quantize %c, %sy, %zpy : (tensor<4x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
    ```
    After:
    ```mlir
    %acc = tcc.matmul_integer %qa, %qb, %zpa, %zpb : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>, tensor<i8>) -> tensor<4x2xi32>
    %0 = tcc.mul %sa, %sb : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %m = tcc.div %0, %sy : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %y = tcc.requantize %acc, %m, %zpy : (tensor<4x2xi32>, tensor<f32>, tensor<ui8>) -> tensor<4x2xui8>
    ```
  }];
}

def TccConvertLayout : Pass<"tcc-convert-layout", "::mlir::func::FuncOp"> {
  let summary = "Rewrite NCHW convolution and pooling to NHWC, cancelling transposes";
  let description = [{
    Runs where the target's convolutions want channels-last
    (`TargetCapabilities::prefersChannelsLast`, true for the CPU
    microkernels) and leaves the function alone elsewhere. Each `conv2d`,
    `max_pool2d`, `avg_pool2d` and `adaptive_avg_pool2d` in `nchw` layout
    becomes its `nhwc` form between two `tcc.transpose`s (`[0, 2, 3, 1]` in,
    `[0, 3, 1, 2]` out); a conv's weight is transposed OIHW -> OHWI. Then the
    transposes are moved and cancelled:

    - two adjacent transposes compose, and cancel when they are inverses;
    - a pointwise op (`Tcc_Pointwise`) with an operand transposed by `P`
      runs on the untransposed values and is transposed once afterwards:
      constants (broadcast ones included) are permuted at compile time, and
      any other operand of full rank (a residual from before the change) is
      transposed by `P`'s inverse, reusing that transpose when it exists;
      only when this removes at least as many transposes as it adds;
    - a transpose that moves only size-1 dims is a reshape; a flatten
      (`reshape` to `[N, K]`) of a transposed value feeding `linear` with a
      constant weight permutes the weight's columns instead;
    - transposes of constants fold into the constants (OIHW -> OHWI).

    So a ResNet-style network has transposes only at its NCHW inputs and
    outputs. Ops the rules do not cover (batch norm, reductions, softmax)
    keep a transpose before them.

    Profitability: the runtime's NCHW and NHWC convolutions run at about
    the same speed, so a function is converted only when the transposes
    left are at most one per converted op; otherwise (a lone conv between
    an NCHW argument and result, say) it is left as it was.

    Before:
    ```mlir
    %c = tcc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
    %r = tcc.relu %c : tensor<1x4x6x6xf32>
    ```
    After:
    ```mlir
    %w2 = tcc.constant dense_resource<conv.weight.nhwc> : tensor<4x3x3x3xf32>
    %t = tcc.transpose %x {permutation = array<i64: 0, 2, 3, 1>} : tensor<1x3x8x8xf32> -> tensor<1x8x8x3xf32>
    %c = tcc.conv2d %t, %w2 {layout = #tcc.layout<nhwc>} : (tensor<1x8x8x3xf32>, tensor<4x3x3x3xf32>) -> tensor<1x6x6x4xf32>
    %r = tcc.relu %c : tensor<1x6x6x4xf32>
    %y = tcc.transpose %r {permutation = array<i64: 0, 3, 1, 2>} : tensor<1x6x6x4xf32> -> tensor<1x4x6x6xf32>
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"x86_64\"",
           "The registered code generation target whose capabilities "
           "decide (TargetCapabilities.h)">
  ];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

def TccFuseEpilogues : Pass<"tcc-fuse-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Fuse bias, residual add and activation into fp32 GEMMs and convolutions";
  let description = [{
    A target's library calls (on x86-64, the runtime's fp32 microkernels)
    apply `act(acc + bias + residual)` while the output tile is still in
    registers. This pass groups each op the target calls an epilogue anchor
    (on x86-64, an fp32 `tcc.matmul`, `tcc.linear` or `tcc.conv2d`) with
    the ops that follow it and fit that epilogue into one `tcc.fusion`,
    anchor first: an add of a per-output-channel bias (when the anchor has
    none), an add of a tensor of the output's shape (a residual), and one
    final activation the target applies (x86-64: relu, clamp, gelu, silu,
    sigmoid, tanh). Each op in the chain must be the only user of the one
    before, so no intermediate is needed elsewhere.

    What never fuses, and why: ops after the activation (the library call
    applies it last); a second bias; a broadcasting add that is neither a
    bias nor a residual; anchors the target has no library call for (on
    x86-64, other dtypes than f32).

    Before:
    ```mlir
    %0 = tcc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<16x8xf32>, tensor<16xf32>) -> tensor<4x16xf32>
    %1 = tcc.add %0, %r : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
    %2 = tcc.relu %1 : tensor<4x16xf32>
    ```
    After:
    ```mlir
    %2 = tcc.fusion (%x, %w, %b, %r) : (...) -> tensor<4x16xf32> {
    ^bb0(...):
      %0 = tcc.linear ...
      %1 = tcc.add %0, ...
      %3 = tcc.relu %1 : tensor<4x16xf32>
      tcc.yield %3 : tensor<4x16xf32>
    }
    ```
  }];
  let options = [
    Option<"targetName", "target", "std::string", /*default=*/"\"x86_64\"",
           "The registered code generation target whose capabilities "
           "decide (TargetCapabilities.h)">
  ];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

def TccAutocast : Pass<"tcc-autocast", "::mlir::func::FuncOp"> {
  let summary = "Run fp32 matmuls, linears and convolutions in bf16 or fp16";
  let description = [{
    PyTorch autocast's rules for `--precision bf16|fp16`: each `tcc.matmul`,
    `tcc.linear` and `tcc.conv2d` of fp32 operands and result reads its
    operands cast to the low precision and its result is cast back to fp32;
    everything else (reductions, softmax, normalizations, elementwise ops)
    stays fp32. Constant operands (weights) become constants of the low
    precision when tcc-fold-constants runs after it, so they are converted
    once, at compile time, and stored that way.

    Before:
    ```mlir
    %y = tcc.linear %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>) -> tensor<4x16xf32>
    ```
    After:
    ```mlir
    %xl = tcc.cast %x : tensor<4x8xf32> to tensor<4x8xbf16>
    %wl = tcc.cast %w : tensor<16x8xf32> to tensor<16x8xbf16>
    %yl = tcc.linear %xl, %wl : (tensor<4x8xbf16>, tensor<16x8xbf16>) -> tensor<4x16xbf16>
    %y = tcc.cast %yl : tensor<4x16xbf16> to tensor<4x16xf32>
    ```
  }];
  let options = [
    Option<"precision", "precision", "std::string", /*default=*/"\"bf16\"",
           "The low precision: bf16 or fp16">
  ];
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

#endif // TCC_PASSES_PASSES_TD
