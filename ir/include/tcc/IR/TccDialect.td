//===- TccDialect.td - The tcc dialect ---------------------*- tablegen -*-===//
//
// The tcc dialect: tensor-level ops traced from the eager frontend, on builtin
// ranked tensor types with static shapes.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_TCCDIALECT_TD
#define TCC_IR_TCCDIALECT_TD

include "mlir/IR/OpBase.td"

def Tcc_Dialect : Dialect {
  let name = "tcc";
  let cppNamespace = "::mlir::tcc";
  let summary = "Tensor ops of the tcc compiler, with PyTorch semantics";
  let description = [{
    Ops on builtin ranked tensors with static shapes. Semantics follow
    PyTorch's: binary ops broadcast NumPy-style, reductions take a list of
    dims and a keepdim flag, convolution and pooling are NCHW unless their
    `layout` attribute says otherwise. Operands of an op share one element
    type; the tracer inserts `tcc.cast` where PyTorch would promote.

    Conventions every op follows:

    - Every op infers its result type from its operands and attributes
      (`InferTypeOpInterface` or `SameOperandsAndResultType`), so the tracer
      and passes build ops without computing shapes; a written result type is
      checked against the inferred one.
    - Dimension attributes (`dim`, `dims`) accept PyTorch's negative values in
      `[-rank, rank)`; folding rewrites them to the canonical non-negative
      (and, for `dims`, sorted) form.
    - Every tensor's element count and byte size fit in `int64_t`.
    - Function arguments and results may carry a `tcc.name` string attribute,
      unique within the function, by which the runtime binds inputs and
      outputs.
    - Backward ops for training graphs will be named `tcc.<op>_backward`
      (e.g. `tcc.conv2d_backward`), one per forward op that needs one.
  }];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 0;
  let hasConstantMaterializer = 1;
  let hasCanonicalizer = 1;
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let extraClassDeclaration = [{
    /// The discardable attribute that names a function argument or result.
    static constexpr ::llvm::StringLiteral kNameAttrName = "tcc.name";
    /// Set by codegen on kernel functions: the number of independent tiles
    /// (an integer >= 1) and the byte sizes of the scratch arguments.
    static constexpr ::llvm::StringLiteral kTilesAttrName = "tcc.tiles";
    static constexpr ::llvm::StringLiteral kScratchBytesAttrName =
        "tcc.scratch_bytes";
  }];
}

#endif // TCC_IR_TCCDIALECT_TD
