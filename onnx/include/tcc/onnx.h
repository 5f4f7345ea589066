//===- onnx.h - Importing ONNX models into tcc -------------------*- C++ -*-===//
//
//   tcc::onnx::ImportOptions options;
//   options.input_shapes["input"] = {1, 3, 224, 224};  // symbolic dims
//   tcc::jit::TracedGraph graph = tcc::onnx::import("model.onnx", options);
//   graph.save("model.ir");                   // or graph.run({x}), or compile
//
// The model's graph becomes one function (`forward` unless named otherwise)
// whose arguments and results carry the ONNX input and output names. What
// is imported, and what is refused, is in docs/onnx.md. This header
// includes nothing from MLIR or protobuf.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_H
#define TCC_ONNX_H

#include "tcc/jit.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace tcc {
namespace onnx {

struct ImportOptions {
  /// The full shape of inputs whose ONNX shape has symbolic or unknown
  /// dims, by input name (as `tcc import --input-shape name=1x3x224x224`).
  /// A shape given for an input with fixed dims must agree with them.
  std::map<std::string, std::vector<int64_t>> input_shapes;
  /// Inputs imported as constants holding these values, by input name (as
  /// `tcc import --input-value`): for inputs that decide shapes, such as a
  /// Reshape's target. They leave the graph's signature.
  std::map<std::string, Tensor> input_values;
  /// Name of the imported function.
  std::string function_name = "forward";
};

/// Thrown when a model cannot be imported; the message names the node,
/// initializer, input or file that is wrong.
class ImportError : public jit::JitError {
public:
  using jit::JitError::JitError;
};

/// Imports the ONNX model at `path` (external data files are read from the
/// model's folder, never outside it).
jit::TracedGraph import(const std::string &path,
                        const ImportOptions &options = {});

} // namespace onnx
} // namespace tcc

#endif // TCC_ONNX_H
