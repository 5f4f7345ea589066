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
    dims and a keepdim flag, convolution and pooling are NCHW. Operands of an
    op have one element type; the tracer inserts `tcc.cast` where PyTorch
    would promote.
  }];
  let useDefaultAttributePrinterParser = 0;
  let useDefaultTypePrinterParser = 0;
  let hasConstantMaterializer = 1;
}

class Tcc_Op<string mnemonic, list<Trait> traits = []>
    : Op<Tcc_Dialect, mnemonic, traits>;

#endif // TCC_IR_TCCDIALECT_TD
