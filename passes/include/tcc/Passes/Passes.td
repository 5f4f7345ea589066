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

#endif // TCC_PASSES_PASSES_TD
