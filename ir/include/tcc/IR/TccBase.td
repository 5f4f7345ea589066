//===- TccBase.td - Types, attributes and op classes of tcc -*- tablegen -*-===//

#ifndef TCC_IR_TCCBASE_TD
#define TCC_IR_TCCBASE_TD

include "tcc/IR/TccDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Element and tensor types
//===----------------------------------------------------------------------===//

// The element types of the eager frontend's dtypes: float32, float64,
// float16, bfloat16, int64, int32, int8 (signless i8), uint8 (ui8), bool (i1).
// Quantized types (the INT8 path) join Tcc_ElementType later; ops that take
// Tcc_FloatTensor today will accept them through their own constraint.
def Tcc_FloatElementType : AnyTypeOf<[F32, F64, F16, BF16], "floating point">;
def Tcc_IntElementType : AnyTypeOf<[I64, I32, I8, UI8], "integer (not i1)">;
def Tcc_NumericElementType
    : AnyTypeOf<[Tcc_FloatElementType, Tcc_IntElementType], "numeric (not i1)">;
def Tcc_ElementType : AnyTypeOf<[Tcc_NumericElementType, I1], "tcc element type">;
def Tcc_IndexElementType : AnyTypeOf<[I64, I32], "i64 or i32">;

def Tcc_Tensor : StaticShapeTensorOf<[Tcc_ElementType]>;
def Tcc_FloatTensor : StaticShapeTensorOf<[Tcc_FloatElementType]>;
def Tcc_FloatOrInt8Tensor : StaticShapeTensorOf<[Tcc_FloatElementType, UI8, I8]>;
def Tcc_NumericTensor : StaticShapeTensorOf<[Tcc_NumericElementType]>;
def Tcc_BoolTensor : StaticShapeTensorOf<[I1]>;
def Tcc_IndexTensor : StaticShapeTensorOf<[Tcc_IndexElementType]>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Tcc_GeluApproximation : I32EnumAttr<"GeluApproximation",
    "Approximation of gelu (PyTorch's `approximate` argument)", [
      I32EnumAttrCase<"none", 0>,
      I32EnumAttrCase<"tanh", 1>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcc";
}
def Tcc_GeluApproximationAttr
    : EnumAttr<Tcc_Dialect, Tcc_GeluApproximation, "approximate">;

def Tcc_ScatterReduction : I32EnumAttr<"ScatterReduction",
    "How tcc.scatter combines an update with the value it lands on", [
      I32EnumAttrCase<"none", 0>,
      I32EnumAttrCase<"add", 1>,
      I32EnumAttrCase<"mul", 2>,
      I32EnumAttrCase<"max", 3>,
      I32EnumAttrCase<"min", 4>
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcc";
}
def Tcc_ScatterReductionAttr
    : EnumAttr<Tcc_Dialect, Tcc_ScatterReduction, "scatter_reduction"> {
  let assemblyFormat = "`<` $value `>`"; // #tcc.scatter_reduction<add>
}

def Tcc_Layout : I32EnumAttr<"Layout",
    "Order of the dimensions of an image tensor and of a convolution weight", [
      I32EnumAttrCase<"NCHW", 0, "nchw">,
      I32EnumAttrCase<"NHWC", 1, "nhwc">
    ]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::mlir::tcc";
}
def Tcc_LayoutAttr : EnumAttr<Tcc_Dialect, Tcc_Layout, "layout"> {
  let assemblyFormat = "`<` $value `>`"; // #tcc.layout<nhwc>
}

def Tcc_DefaultLayout
    : DefaultValuedAttr<Tcc_LayoutAttr, "::mlir::tcc::Layout::NCHW">;

// Attribute shapes are checked by result-type inference (which runs before
// ODS constraints), so these stay plain and the diagnostics stay specific.
class Tcc_I64ArrayDefault<string value>
    : DefaultValuedAttr<DenseI64ArrayAttr, value>;

//===----------------------------------------------------------------------===//
// Traits and op classes
//===----------------------------------------------------------------------===//

// Every tensor an op takes or makes has an element count and byte size that
// fit in int64_t (checked with overflow-checked arithmetic).
def Tcc_BoundedTensorSizes : NativeOpTrait<"BoundedTensorSizes"> {
  let cppNamespace = "::mlir::OpTrait::tcc";
}

// Each result element depends only on the operand elements at the same
// (broadcast) position; the elementwise fusion pass groups such ops.
def Tcc_Pointwise : NativeOpTrait<"Pointwise"> {
  let cppNamespace = "::mlir::OpTrait::tcc";
}

class Tcc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tcc_Dialect, mnemonic,
         !listconcat([Tcc_BoundedTensorSizes, Pure], traits)>;

// Ops whose result type inference is one shared helper call. Inference can
// run on an operation state before the op exists (and before ODS checks its
// attributes), so helpers read required attributes as possibly-null
// properties; ops with default-valued attributes (`hasDefaults`) fill the
// defaults in first, from the ODS definition.
class Tcc_InferredOp<string mnemonic, string inferCall, list<Trait> traits = [],
                     bit hasDefaults = 0>
    : Tcc_Op<mnemonic, !listconcat(traits, [InferTypeOpAdaptor])> {
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, ::std::optional<::mlir::Location> loc,
        Adaptor }] # !if(hasDefaults, "given", "adaptor") # [{,
        ::llvm::SmallVectorImpl<::mlir::Type> &results) {
      ::mlir::tcc::detail::OpDiag diag{loc, getOperationName()};
  }] # !if(hasDefaults, [{
      Properties properties = given.getProperties();
      populateDefaultProperties(
          ::mlir::OperationName(getOperationName(), context), properties);
      Adaptor adaptor(given.getOperands(), given.getAttributes(), properties);
  }], "") # [{
      return }] # inferCall # [{;
    }
  }];
}

#endif // TCC_IR_TCCBASE_TD
