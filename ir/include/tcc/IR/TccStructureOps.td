//===- TccStructureOps.td - Fusion groups ------------------*- tablegen -*-===//

#ifndef TCC_IR_TCCSTRUCTUREOPS_TD
#define TCC_IR_TCCSTRUCTUREOPS_TD

include "tcc/IR/TccBase.td"

def Tcc_FusionOp : Op<Tcc_Dialect, "fusion", [
    IsolatedFromAbove, SingleBlockImplicitTerminator<"YieldOp">,
    RecursiveMemoryEffects, Tcc_BoundedTensorSizes]> {
  let summary = "A group of ops that compiles to one kernel";
  let description = [{
    The fusion passes wrap ops that run best as one kernel (an elementwise
    chain, a matmul or convolution with its epilogue) in a `tcc.fusion`. The
    region is isolated from above: its block arguments are the operands, and
    `tcc.yield` gives the results. The code generator outlines each fusion
    as one kernel, or as one microkernel call with a fused epilogue.

    ```mlir
    %y = tcc.fusion (%a, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32> {
    ^bb0(%x: tensor<8xf32>, %z: tensor<8xf32>):
      %0 = tcc.mul %x, %z : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      %1 = tcc.sigmoid %0 : tensor<8xf32>
      tcc.yield %1 : tensor<8xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<Tcc_Tensor>:$inputs);
  let results = (outs Variadic<Tcc_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `(` $inputs `)` attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    OpBuilder<(ins "::mlir::TypeRange":$resultTypes,
                   "::mlir::ValueRange":$inputs)>
  ];
  let extraClassDeclaration = [{
    ::mlir::Block &getBlock() { return getBody().front(); }
    YieldOp getYield();
  }];
}

def Tcc_YieldOp : Op<Tcc_Dialect, "yield", [
    Pure, Terminator, HasParent<"FusionOp">]> {
  let summary = "The results of a tcc.fusion";
  let arguments = (ins Variadic<Tcc_Tensor>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let builders = [OpBuilder<(ins), [{ /* nothing */ }]>];
}

#endif // TCC_IR_TCCSTRUCTUREOPS_TD
