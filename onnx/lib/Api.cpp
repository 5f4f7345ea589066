//===- Api.cpp - tcc::onnx::import ----------------------------------------===//

#include "tcc/onnx.h"

#include "ModuleState.h"
#include "TracedGraphAccess.h"

#include "tcc/Onnx/Import.h"


tcc::jit::TracedGraph tcc::onnx::import(const std::string &path,
                                        const ImportOptions &options) {
  auto state = std::make_shared<jit::ModuleState>();
  state->context = jit::makeContext();
  mlir::tcc::onnx::ImportOptions importOptions;
  importOptions.inputShapes = options.input_shapes;
  importOptions.functionName = options.function_name;
  std::string error;
  state->module = mlir::tcc::onnx::importModelFile(state->context.get(), path,
                                                   importOptions, &error);
  if (!state->module)
    throw ImportError("cannot import " + error);
  return jit::TracedGraphAccess::make(std::move(state), options.function_name);
}
