//===- OnnxInput.cpp - ONNX models as tool inputs -------------------------===//

#include "OnnxInput.h"

#include "CommandLine.h"

#include "tcc/Support/OutOfMemory.h"
#include "tcc/runtime/Npy.h"

#include "mlir/IR/Builders.h"

#include <cstring>

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

namespace {
/// The element type of an .npy dtype.
mlir::Type elementTypeOf(mlir::MLIRContext *context, tcc_dtype_t dtype) {
  mlir::Builder b(context);
  switch (dtype) {
  case TCC_DTYPE_F32: return b.getF32Type();
  case TCC_DTYPE_F64: return b.getF64Type();
  case TCC_DTYPE_F16: return b.getF16Type();
  case TCC_DTYPE_BF16: return b.getBF16Type();
  case TCC_DTYPE_I64: return b.getI64Type();
  case TCC_DTYPE_I32: return b.getI32Type();
  case TCC_DTYPE_I8: return b.getI8Type();
  case TCC_DTYPE_U8:
    return mlir::IntegerType::get(context, 8, mlir::IntegerType::Unsigned);
  case TCC_DTYPE_BOOL: return b.getI1Type();
  default: return {};
  }
}
} // namespace

std::string tcc::tool::addInputValue(const std::string &value,
                                     mlir::MLIRContext *context,
                                     mlir::tcc::onnx::ImportOptions *options) {
  size_t eq = value.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == value.size())
    return "--input-value " + value + " is not NAME=FILE.npy";
  std::string name = value.substr(0, eq), path = value.substr(eq + 1);
  runtime::NpyArray array;
  if (runtime::Status s = runtime::readNpy(path, &array); !s.ok())
    return "--input-value " + name + ": " + s.message();
  mlir::Type element = elementTypeOf(context, array.dtype);
  if (!element)
    return "--input-value " + name + ": unsupported dtype in " + path;
  mlir::tcc::ConstantData data = mlir::tcc::ConstantData::zeros(
      mlir::RankedTensorType::get(array.shape, element));
  if (data.bytes.size() != array.data.size())
    return "--input-value " + name + ": " + path + " holds " +
           std::to_string(array.data.size()) + " bytes for its shape's " +
           std::to_string(data.bytes.size());
  std::memcpy(data.bytes.data(), array.data.data(), array.data.size());
  if (!options->inputValues.emplace(name, std::move(data)).second)
    return "--input-value names '" + name + "' twice";
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
