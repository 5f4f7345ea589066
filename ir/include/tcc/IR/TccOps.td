//===- TccOps.td - Ops of the tcc dialect ------------------*- tablegen -*-===//
//
// Every op infers its result type; inference runs before the verifier, so it
// validates its operands itself and fails with a diagnostic, never asserts.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_TCCOPS_TD
#define TCC_IR_TCCOPS_TD

include "tcc/IR/TccDialect.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

// The element types of the eager frontend's dtypes: float32, float64,
// float16, bfloat16, int64, int32, int8 (signless i8), uint8 (ui8), bool (i1).
def Tcc_ElementType : AnyTypeOf<[F32, F64, F16, BF16, I64, I32, I8, UI8, I1],
                                "tcc element type">;
def Tcc_FloatElementType : AnyTypeOf<[F32, F64, F16, BF16], "floating point">;

def Tcc_Tensor : StaticShapeTensorOf<[Tcc_ElementType]>;
def Tcc_FloatTensor : StaticShapeTensorOf<[Tcc_FloatElementType]>;

//===----------------------------------------------------------------------===//
// Constant
//===----------------------------------------------------------------------===//

def Tcc_ConstantOp : Tcc_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<InferTypeOpInterface>]> {
  let summary = "A constant tensor";
  let description = [{
    A tensor whose value is known at compile time. Weights use
    `dense_resource` blobs so that a model file carries them in binary form.

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

//===----------------------------------------------------------------------===//
// Elementwise unary
//===----------------------------------------------------------------------===//

class Tcc_UnaryOp<string mnemonic, string summaryText, list<Trait> traits = []>
    : Tcc_Op<mnemonic, !listconcat(traits, [Pure, SameOperandsAndResultType,
                                            Elementwise])> {
  let summary = summaryText;
  let description = "Elementwise `" # mnemonic # "`, as PyTorch's.";
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

class Tcc_FloatUnaryOp<string mnemonic, string summaryText>
    : Tcc_UnaryOp<mnemonic, summaryText> {
  let arguments = (ins Tcc_FloatTensor:$input);
}

def Tcc_ExpOp : Tcc_FloatUnaryOp<"exp", "Elementwise exponential">;

//===----------------------------------------------------------------------===//
// Elementwise binary, broadcasting
//===----------------------------------------------------------------------===//

class Tcc_BinaryOp<string mnemonic, string summaryText, list<Trait> traits = []>
    : Tcc_Op<mnemonic, !listconcat(traits, [Pure, InferTypeOpAdaptor])> {
  let summary = summaryText;
  let description = [{
    Elementwise, with NumPy/PyTorch broadcasting. Both operands have the
    same element type; the result shape is the broadcast of their shapes.
  }];
  let arguments = (ins Tcc_Tensor:$lhs, Tcc_Tensor:$rhs);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

def Tcc_AddOp : Tcc_BinaryOp<"add", "Elementwise addition", [Commutative]> {
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra
//===----------------------------------------------------------------------===//

def Tcc_MatmulOp : Tcc_Op<"matmul", [Pure, InferTypeOpAdaptor]> {
  let summary = "Matrix product with batch broadcasting (torch.matmul)";
  let description = [{
    Both operands have rank 2 or more (the tracer reshapes vectors); batch
    dimensions broadcast, as in `torch.matmul`.

    ```mlir
    %0 = tcc.matmul %a, %b : (tensor<4x8x16xf32>, tensor<16x32xf32>) -> tensor<4x8x32xf32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$lhs, Tcc_Tensor:$rhs);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
}

//===----------------------------------------------------------------------===//
// Shape manipulation
//===----------------------------------------------------------------------===//

def Tcc_ReshapeOp : Tcc_Op<"reshape", [Pure]> {
  let summary = "Reshape to a static shape with the same element count";
  let description = [{
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

#endif // TCC_IR_TCCOPS_TD
