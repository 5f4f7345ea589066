//===- ModelFacts.h - What a model holds, before importing it ---*- C++ -*-===//
//
// The conformance runner (test/onnx) classifies each case before importing
// it: which ops the model uses, which inputs are integers (candidates for
// ImportOptions::inputValues), and whether the model is outside what tcc
// imports by design (issue 13's scope: the ops of OutOfScope.def, domains
// other than ai.onnx, opsets below kMinOpset, non-tensor values, element
// types tcc lacks, Dropout in training mode).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_MODELFACTS_H
#define TCC_ONNX_MODELFACTS_H

#include "mlir/IR/MLIRContext.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::tcc::onnx {

/// A graph input or output.
struct ValueFacts {
  std::string name;
  bool isInteger = false; // an integer element type (bool is not)
  bool isFloat = false;   // f16, bf16, f32 or f64
  /// Whether some node takes it as its first operand (the data an op works
  /// on, rather than a shape, scales or bounds); inputs only.
  bool isFirstOperand = false;
};

struct ModelFacts {
  /// The opset of the default domain; -1 when the model imports none.
  int64_t opset = -1;
  /// Each node's op type in graph order; "domain:Op" outside ai.onnx.
  std::vector<std::string> opTypes;
  /// The graph inputs that are not initializers, in order, and the outputs.
  std::vector<ValueFacts> inputs, outputs;
  /// Why the model is outside tcc's scope by design; "" when it is in scope.
  std::string outOfScope;
};

/// Reads the model at `path` into `*facts`; "" or why it cannot be read.
std::string readModelFacts(MLIRContext *context, StringRef path,
                           ModelFacts *facts);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_MODELFACTS_H
