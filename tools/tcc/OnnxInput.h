//===- OnnxInput.h - ONNX models as tool inputs -----------------*- C++ -*-===//
//
// What `tcc import` and `tcc compile model.onnx` share: the --input-shape
// option, and importing with its errors printed as the tools print theirs.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_ONNXINPUT_H
#define TCC_TOOLS_TCC_ONNXINPUT_H

#include "tcc/Onnx/Import.h"

#include <string>

namespace tcc {
namespace tool {

/// Adds one `--input-shape NAME=DxDx...` value to `options`; "" or what is
/// wrong with it.
std::string addInputShape(const std::string &value,
                          mlir::tcc::onnx::ImportOptions *options);

/// Adds one `--input-value NAME=FILE.npy`: the input becomes a constant
/// holding the array; "" or what is wrong with it.
std::string addInputValue(const std::string &value, mlir::MLIRContext *context,
                          mlir::tcc::onnx::ImportOptions *options);

/// Imports `path`, printing "tcc <cmd>: error: ..." on failure (then null).
mlir::OwningOpRef<mlir::ModuleOp>
importOnnxForTool(const char *cmd, mlir::MLIRContext *context,
                  const std::string &path,
                  const mlir::tcc::onnx::ImportOptions &options);

/// The help text lines of --input-shape.
inline constexpr const char *kInputShapeHelp =
    "  --input-shape NAME=DxDx...\n"
    "                           the full shape of ONNX input NAME, for inputs\n"
    "                           with symbolic or unknown dims (repeatable;\n"
    "                           \"NAME=\" for a 0-dim input)\n"
    "  --input-value NAME=FILE.npy\n"
    "                           import input NAME as a constant holding the\n"
    "                           array in FILE.npy, for inputs that decide\n"
    "                           shapes (a Reshape's shape, a Slice's bounds);\n"
    "                           the input leaves the signature (repeatable)\n";

} // namespace tool
} // namespace tcc

#endif
