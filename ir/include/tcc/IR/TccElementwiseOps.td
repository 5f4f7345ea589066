//===- TccElementwiseOps.td - Elementwise tcc ops ----------*- tablegen -*-===//

#ifndef TCC_IR_TCCELEMENTWISEOPS_TD
#define TCC_IR_TCCELEMENTWISEOPS_TD

include "tcc/IR/TccBase.td"

//===----------------------------------------------------------------------===//
// Unary
//===----------------------------------------------------------------------===//

// A same-type unary op; every one folds a splat constant operand.
class Tcc_UnaryOp<string mnemonic, string summaryText,
                  Type tensor = Tcc_NumericTensor, list<Trait> traits = []>
    : Tcc_Op<mnemonic,
             !listconcat(traits, [SameOperandsAndResultType, Elementwise,
                                  Tcc_Pointwise])> {
  let summary = summaryText;
  let description = "Elementwise `torch." # mnemonic # "`. A splat constant "
                    # "operand folds.\n\n```mlir\n%y = tcc." # mnemonic
                    # " %x : tensor<2x3xf32>\n```";
  let arguments = (ins tensor:$input);
  let results = (outs tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasFolder = 1;
}

// Ops defined on floating-point tensors only; an integer tensor gets ODS's
// "must be ... floating point values" diagnostic.
class Tcc_FloatUnaryOp<string mnemonic, string summaryText>
    : Tcc_UnaryOp<mnemonic, summaryText, Tcc_FloatTensor>;

def Tcc_NegOp : Tcc_UnaryOp<"neg", "Elementwise negation">;
def Tcc_AbsOp : Tcc_UnaryOp<"abs", "Elementwise absolute value">;
def Tcc_ReluOp : Tcc_UnaryOp<"relu", "Elementwise max(x, 0)">;
def Tcc_SignOp : Tcc_UnaryOp<"sign", "Elementwise sign (-1, 0 or 1)">;
def Tcc_ExpOp : Tcc_FloatUnaryOp<"exp", "Elementwise exponential">;
def Tcc_LogOp : Tcc_FloatUnaryOp<"log", "Elementwise natural logarithm">;
def Tcc_Log1pOp : Tcc_FloatUnaryOp<"log1p", "Elementwise log(1 + x)">;
def Tcc_SqrtOp : Tcc_FloatUnaryOp<"sqrt", "Elementwise square root">;
def Tcc_RsqrtOp : Tcc_FloatUnaryOp<"rsqrt", "Elementwise 1 / sqrt(x)">;
def Tcc_TanhOp : Tcc_FloatUnaryOp<"tanh", "Elementwise hyperbolic tangent">;
def Tcc_SigmoidOp : Tcc_FloatUnaryOp<"sigmoid", "Elementwise 1 / (1 + exp(-x))">;
def Tcc_SiluOp : Tcc_FloatUnaryOp<"silu", "Elementwise x * sigmoid(x)">;
def Tcc_ErfOp : Tcc_FloatUnaryOp<"erf", "Elementwise error function">;
def Tcc_SinOp : Tcc_FloatUnaryOp<"sin", "Elementwise sine">;
def Tcc_CosOp : Tcc_FloatUnaryOp<"cos", "Elementwise cosine">;
def Tcc_FloorOp : Tcc_FloatUnaryOp<"floor", "Elementwise round toward -inf">;
def Tcc_CeilOp : Tcc_FloatUnaryOp<"ceil", "Elementwise round toward +inf">;
def Tcc_RoundOp
    : Tcc_FloatUnaryOp<"round", "Elementwise round half to even">;
def Tcc_LogicalNotOp
    : Tcc_UnaryOp<"logical_not", "Elementwise boolean not", Tcc_BoolTensor>;

def Tcc_GeluOp : Tcc_Op<"gelu", [SameOperandsAndResultType, Elementwise,
                                  Tcc_Pointwise]> {
  let summary = "Gaussian error linear unit (torch.nn.functional.gelu)";
  let description = [{
    `x * Phi(x)` with the exact normal CDF (`approximate = none`, the
    default) or PyTorch's tanh approximation (`approximate = tanh`). A splat
    constant operand folds.

    ```mlir
    %y = tcc.gelu %x : tensor<2x3xf32>
    %z = tcc.gelu %x approximate tanh : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input,
      DefaultValuedAttr<Tcc_GeluApproximationAttr,
                        "::mlir::tcc::GeluApproximation::none">:$approximate);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat =
      "$input (`approximate` `` $approximate^)? attr-dict `:` type($input)";
  let hasFolder = 1;
}

def Tcc_ClampOp : Tcc_Op<"clamp", [SameOperandsAndResultType, Elementwise,
                                  Tcc_Pointwise]> {
  let summary = "Elementwise clamp to [min, max] (torch.clamp)";
  let description = [{
    At least one bound is given. As in PyTorch, when `min > max` every
    element becomes `max`. On integer tensors the bounds are whole numbers.
    A splat constant operand folds.

    ```mlir
    %y = tcc.clamp %x min 0.0 max 6.0 : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tcc_NumericTensor:$input, OptionalAttr<F64Attr>:$min,
                       OptionalAttr<F64Attr>:$max);
  let results = (outs Tcc_NumericTensor:$result);
  let assemblyFormat = [{
    $input (`min` $min^)? (`max` $max^)? attr-dict `:` type($input)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Tcc_DropoutOp : Tcc_Op<"dropout", [SameOperandsAndResultType, Elementwise,
                                  Tcc_Pointwise]> {
  let summary = "Dropout; the identity at inference";
  let description = [{
    Kept so that a traced training graph shows where dropout was applied
    (probability `p` in [0, 1]). Traced graphs are inference graphs, so it
    always folds to its input.

    ```mlir
    %y = tcc.dropout %x {p = 5.000000e-01 : f64} : tensor<2x3xf32>
    ```
  }];
  let arguments = (ins Tcc_FloatTensor:$input, F64Attr:$p);
  let results = (outs Tcc_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Binary, broadcasting
//===----------------------------------------------------------------------===//

// A binary op whose operands share an element type and broadcast NumPy-style.
// `resultElement` is empty when the result keeps the operands' element type.
class Tcc_BinaryOp<string mnemonic, string summaryText,
                   Type tensor = Tcc_NumericTensor, string resultElement = "",
                   Type resultTensor = tensor, list<Trait> traits = []>
    : Tcc_InferredOp<mnemonic,
          "::mlir::tcc::detail::inferBroadcast(diag, {adaptor.getLhs(), "
          # "adaptor.getRhs()}, " # !if(!empty(resultElement),
                                       "::mlir::Type()", resultElement)
          # ", results)", !listconcat(traits, [Tcc_Pointwise])> {
  let summary = summaryText;
  let description = "Elementwise `torch." # mnemonic # "` with PyTorch "
      # "broadcasting. Both operands have one element type; the result shape "
      # "is the broadcast of their shapes.\n\n```mlir\n%z = tcc." # mnemonic
      # " %x, %y : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3x"
      # !if(!empty(resultElement), "f32", "i1") # ">\n```";
  let arguments = (ins tensor:$lhs, tensor:$rhs);
  let results = (outs resultTensor:$result);
  let assemblyFormat =
      "$lhs `,` $rhs attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

def Tcc_AddOp : Tcc_BinaryOp<"add", "Elementwise addition",
                             Tcc_NumericTensor, "", Tcc_NumericTensor,
                             [Commutative]>;
def Tcc_SubOp : Tcc_BinaryOp<"sub", "Elementwise subtraction">;
def Tcc_MulOp : Tcc_BinaryOp<"mul", "Elementwise multiplication",
                             Tcc_NumericTensor, "", Tcc_NumericTensor,
                             [Commutative]>;
def Tcc_DivOp : Tcc_BinaryOp<"div", "Elementwise true division",
                             Tcc_FloatTensor>;
def Tcc_PowOp : Tcc_BinaryOp<"pow", "Elementwise power">;
def Tcc_MaximumOp : Tcc_BinaryOp<"maximum", "Elementwise maximum (NaN wins)",
                                 Tcc_NumericTensor, "", Tcc_NumericTensor,
                                 [Commutative]>;
def Tcc_MinimumOp : Tcc_BinaryOp<"minimum", "Elementwise minimum (NaN wins)",
                                 Tcc_NumericTensor, "", Tcc_NumericTensor,
                                 [Commutative]>;
def Tcc_RemainderOp : Tcc_BinaryOp<"remainder",
    "Elementwise remainder with the sign of the divisor (Python's %)">;
def Tcc_FloorDivideOp : Tcc_BinaryOp<"floor_divide",
    "Elementwise division rounded toward -inf">;

// Comparisons take any element type and produce i1.
class Tcc_CompareOp<string mnemonic, string summaryText,
                    list<Trait> traits = []>
    : Tcc_BinaryOp<mnemonic, summaryText, Tcc_Tensor,
                   "::mlir::IntegerType::get(context, 1)", Tcc_BoolTensor,
                   traits>;

def Tcc_EqOp : Tcc_CompareOp<"eq", "Elementwise ==", [Commutative]>;
def Tcc_NeOp : Tcc_CompareOp<"ne", "Elementwise !=", [Commutative]>;
def Tcc_LtOp : Tcc_CompareOp<"lt", "Elementwise <">;
def Tcc_LeOp : Tcc_CompareOp<"le", "Elementwise <=">;
def Tcc_GtOp : Tcc_CompareOp<"gt", "Elementwise >">;
def Tcc_GeOp : Tcc_CompareOp<"ge", "Elementwise >=">;

class Tcc_LogicalOp<string mnemonic, string summaryText>
    : Tcc_BinaryOp<mnemonic, summaryText, Tcc_BoolTensor, "", Tcc_BoolTensor,
                   [Commutative]>;

def Tcc_LogicalAndOp : Tcc_LogicalOp<"logical_and", "Elementwise boolean and">;
def Tcc_LogicalOrOp : Tcc_LogicalOp<"logical_or", "Elementwise boolean or">;
def Tcc_LogicalXorOp : Tcc_LogicalOp<"logical_xor", "Elementwise boolean xor">;

//===----------------------------------------------------------------------===//
// Select and cast
//===----------------------------------------------------------------------===//

def Tcc_SelectOp : Tcc_InferredOp<"select",
    "::mlir::tcc::detail::inferSelect(diag, adaptor.getCondition(), "
    "adaptor.getTrueValue(), adaptor.getFalseValue(), results)",
    [Tcc_Pointwise]> {
  let summary = "Elementwise choice by an i1 condition (torch.where)";
  let description = [{
    `result = condition ? true_value : false_value`, with all three operands
    broadcast together. A splat constant condition folds to the chosen
    operand when that operand already has the result type.

    ```mlir
    %r = tcc.select %c, %a, %b : (tensor<4x1xi1>, tensor<3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    ```
  }];
  let arguments = (ins Tcc_BoolTensor:$condition, Tcc_Tensor:$true_value,
                       Tcc_Tensor:$false_value);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = [{
    $condition `,` $true_value `,` $false_value attr-dict `:`
    functional-type(operands, results)
  }];
  let hasFolder = 1;
}

def Tcc_CastOp : Tcc_Op<"cast", [Elementwise, Tcc_Pointwise]> {
  let summary = "Elementwise conversion to another element type";
  let description = [{
    Converts like `Tensor.to(dtype)`: floats to integers truncate toward
    zero, anything to `i1` tests for non-zero. The shape stays (the
    `Elementwise` trait checks it). A cast to the
    same type folds away; a splat constant folds when the converted value is
    representable.

    ```mlir
    %y = tcc.cast %x : tensor<2x3xf32> to tensor<2x3xi32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasFolder = 1;
}

def Tcc_BitcastOp : Tcc_Op<"bitcast", [Elementwise, Tcc_Pointwise]> {
  let summary = "Elementwise reinterpretation of bits as another element type";
  let description = [{
    `Tensor.view(dtype)` between types of one width: each element's bits
    are kept exactly (NaN payloads, -0 and subnormals included) and read as
    the result's element type. The element types must have the same bit
    width (`i1` only matches itself). A bitcast to the same type folds away,
    a bitcast of a bitcast bitcasts the first input, and a constant operand
    folds.

    ```mlir
    %y = tcc.bitcast %x : tensor<2x3xf32> to tensor<2x3xi32>
    ```
  }];
  let arguments = (ins Tcc_Tensor:$input);
  let results = (outs Tcc_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `to` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

#endif // TCC_IR_TCCELEMENTWISEOPS_TD
