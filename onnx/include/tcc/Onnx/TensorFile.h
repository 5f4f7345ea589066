//===- TensorFile.h - ONNX TensorProto files as constant data ---*- C++ -*-===//
//
// ONNX's test data sets hold each input and output as one serialized
// TensorProto (input_0.pb, output_0.pb). The conformance runner reads them
// with the importer's own tensor reader, so both agree on every type.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_TENSORFILE_H
#define TCC_ONNX_TENSORFILE_H

#include "tcc/Passes/ConstantData.h"

#include <string>

namespace mlir::tcc::onnx {

/// Reads the TensorProto file at `path` into `*out` (its name, if any, into
/// `*name`); "" or why not (unreadable, malformed, an element type tcc
/// lacks).
std::string readTensorFile(MLIRContext *context, StringRef path,
                           ConstantData *out, std::string *name = nullptr);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_TENSORFILE_H
