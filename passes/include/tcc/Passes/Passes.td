//===- Passes.td - Optimization passes on the tcc dialect --*- tablegen -*-===//

#ifndef TCC_PASSES_PASSES_TD
#define TCC_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TccFuseElementwise : Pass<"tcc-fuse-elementwise", "::mlir::func::FuncOp"> {
  let summary = "Group chains of pointwise ops into one tcc.fusion";
  let description = [{
    Walking from the last op up, each pointwise op (`Tcc_Pointwise`: unary,
    binary with broadcasting, compare, select, cast, ...) starts a group and
    pulls in the pointwise producers whose every user is already in the
    group, so no value is computed twice and no intermediate tensor is
    written to memory. Splat constants are copied into the group. Groups of
    two or more ops become a `tcc.fusion`, which the code generator compiles
    as one kernel (one loop nest after linalg's elementwise fusion).

    What never fuses, and why: a producer with a user outside the group (its
    value must reach memory anyway; multi-output groups may come later);
    non-pointwise ops (reductions, matmul, convolution, data movement),
    which keep their own loop structure; ops already inside a fusion.

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

def TccFuseEpilogues : Pass<"tcc-fuse-epilogues", "::mlir::func::FuncOp"> {
  let summary = "Fuse bias, residual add and activation into fp32 GEMMs and convolutions";
  let description = [{
    The runtime's fp32 microkernels apply `act(acc + bias + residual)` while
    the output tile is still in registers. This pass groups an fp32
    `tcc.matmul`, `tcc.linear` or `tcc.conv2d` with the ops that follow it
    and fit that epilogue into one `tcc.fusion`, anchor first: an add of a
    per-output-channel bias (when the anchor has none), an add of a tensor of
    the output's shape (a residual), and one final activation (relu, clamp,
    gelu, silu, sigmoid, tanh). Each op in the chain must be the only user of
    the one before, so no intermediate is needed elsewhere.

    What never fuses, and why: ops after the activation (the microkernel
    applies it last); a second bias; a broadcasting add that is neither a
    bias nor a residual; other dtypes than f32 (no microkernel).

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
  let dependentDialects = ["::mlir::tcc::TccDialect"];
}

#endif // TCC_PASSES_PASSES_TD
