//===- TccOps.td - Ops of the tcc dialect ------------------*- tablegen -*-===//
//
// Every op infers its result type; inference runs before the verifier, so it
// validates its operands and attributes itself and fails with a diagnostic,
// never asserts. The op groups live in the files included below.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_TCCOPS_TD
#define TCC_IR_TCCOPS_TD

include "tcc/IR/TccBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Tcc_ConstantOp : Tcc_Op<"constant",
    [ConstantLike, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A constant tensor";
  let description = [{
    A tensor whose value is known at compile time: a `dense` literal, or a
    `dense_resource` blob for weights so that a model file carries them in
    binary form. A blob must be present in the file, hold exactly the bytes
    the type needs (one byte per i1) and be aligned to its element size.

    ```mlir
    %w = tcc.constant dense<[1.0, 2.0]> : tensor<2xf32>
    %b = tcc.constant dense_resource<fc1.bias> : tensor<128xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
  let hasVerifier = 1;
}

include "tcc/IR/TccElementwiseOps.td"
include "tcc/IR/TccNNOps.td"
include "tcc/IR/TccQuantizationOps.td"
include "tcc/IR/TccShapeOps.td"
include "tcc/IR/TccStructureOps.td"

#endif // TCC_IR_TCCOPS_TD
