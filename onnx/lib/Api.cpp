//===- Api.cpp - tcc::onnx::import ----------------------------------------===//

#include "tcc/onnx.h"

#include "ModuleState.h"
#include "TracedGraphAccess.h"
#include "Types.h"

#include "tcc/Onnx/Import.h"

#include <cstring>


tcc::jit::TracedGraph tcc::onnx::import(const std::string &path,
                                        const ImportOptions &options) {
  auto state = std::make_shared<jit::ModuleState>();
  state->context = jit::makeContext();
  mlir::tcc::onnx::ImportOptions importOptions;
  importOptions.inputShapes = options.input_shapes;
  importOptions.functionName = options.function_name;
  for (const auto &[name, value] : options.input_values) {
    Tensor t = value.contiguous();
    mlir::Type element = jit::elementTypeOf(state->context.get(), t.scalar_type());
    mlir::tcc::ConstantData data = mlir::tcc::ConstantData::zeros(
        mlir::RankedTensorType::get(t.sizes().vec(), element));
    if (data.bytes.size() != t.nbytes())
      throw ImportError("input_values['" + name + "']: " +
                        std::to_string(t.nbytes()) + " bytes for a type of " +
                        std::to_string(data.bytes.size()));
    std::memcpy(data.bytes.data(), t.data_ptr(), t.nbytes());
    importOptions.inputValues.emplace(name, std::move(data));
  }
  std::string error;
  state->module = mlir::tcc::onnx::importModelFile(state->context.get(), path,
                                                   importOptions, &error);
  if (!state->module)
    throw ImportError("cannot import " + error);
  return jit::TracedGraphAccess::make(std::move(state), options.function_name);
}
