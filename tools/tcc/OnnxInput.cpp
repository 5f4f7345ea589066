//===- OnnxInput.cpp - ONNX models as tool inputs -------------------------===//

#include "OnnxInput.h"

#include "CommandLine.h"

#include "tcc/Support/OutOfMemory.h"

using namespace tcc::tool;

std::string tcc::tool::addInputShape(const std::string &value,
                                     mlir::tcc::onnx::ImportOptions *options) {
  size_t eq = value.rfind('=');
  if (eq == std::string::npos || eq == 0)
    return "--input-shape " + value + " is not NAME=DxDx... (e.g. "
           "input=1x3x224x224)";
  std::string name = value.substr(0, eq);
  std::vector<int64_t> shape;
  if (!mlir::tcc::onnx::parseShape(value.substr(eq + 1), &shape))
    return "--input-shape " + value + ": '" + value.substr(eq + 1) +
           "' is not a shape of non-negative sizes joined by 'x' (e.g. "
           "1x3x224x224)";
  if (!options->inputShapes.emplace(name, shape).second)
    return "--input-shape names '" + name + "' twice";
  return "";
}

mlir::OwningOpRef<mlir::ModuleOp>
tcc::tool::importOnnxForTool(const char *cmd, mlir::MLIRContext *context,
                             const std::string &path,
                             const mlir::tcc::onnx::ImportOptions &options) {
  mlir::tcc::ToolStage importing("importing the ONNX model");
  std::string error;
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::tcc::onnx::importModelFile(context, path, options, &error);
  if (!module)
    fail(cmd, error);
  return module;
}
