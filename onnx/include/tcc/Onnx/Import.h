//===- Import.h - ONNX models to tcc modules --------------------*- C++ -*-===//
//
// The MLIR-level importer behind `tcc import`, `tcc compile model.onnx` and
// tcc::onnx::import. It reads the protobuf with limits, checks the graph
// (topological order, names, initializer sizes, external data paths), then
// builds one func of tcc ops, inferring every shape with the dialect's own
// type inference and folding shape subgraphs (Shape, Gather, Concat, ...)
// into constants as it goes. Errors are returned, never thrown, and name
// the node, initializer or input at fault.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_IMPORT_H
#define TCC_ONNX_IMPORT_H

#include "tcc/Passes/ConstantData.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace mlir::tcc::onnx {

/// The opsets of the default (ai.onnx) domain the importer reads.
constexpr int64_t kMinOpset = 11;
constexpr int64_t kMaxOpset = 28;

struct ImportOptions {
  /// Full shapes of inputs with symbolic or unknown dims, by input name.
  std::map<std::string, std::vector<int64_t>> inputShapes;
  /// Inputs given a fixed value, by name: they become constants, so that
  /// what depends on them (a Reshape's shape, a Slice's bounds) is known at
  /// import. Each must have the input's element type and a shape that fits.
  std::map<std::string, ConstantData> inputValues;
  std::string functionName = "forward";
};

/// Imports the model file at `path`; null with `*error` set on failure.
/// Loads the tcc and func dialects into `context`.
OwningOpRef<ModuleOp> importModelFile(MLIRContext *context, StringRef path,
                                      const ImportOptions &options,
                                      std::string *error);

/// Imports a serialized ModelProto already in memory. External data is read
/// relative to `modelDir`; with `modelDir` empty a model that has any is
/// refused.
OwningOpRef<ModuleOp> importModelBytes(MLIRContext *context, StringRef bytes,
                                       StringRef modelDir,
                                       const ImportOptions &options,
                                       std::string *error);

/// Whether the tools treat `path` as an ONNX model (its extension is
/// `.onnx`) rather than tcc IR.
bool isOnnxPath(StringRef path);

/// Parses "1x3x224x224" (a 0-dim shape is ""); false for anything else.
bool parseShape(StringRef text, std::vector<int64_t> *shape);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_IMPORT_H
