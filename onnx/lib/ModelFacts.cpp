//===- ModelFacts.cpp - What a model holds, before importing it -----------===//

#include "tcc/Onnx/ModelFacts.h"

#include "tcc/Onnx/Import.h"

#include "ModelReader.h"
#include "OpTable.h"
#include "TensorData.h"

#include "mlir/IR/BuiltinTypes.h"

#include <set>

using namespace mlir;
using namespace mlir::tcc::onnx;

namespace {

bool isDefaultDomain(const std::string &domain) {
  return domain.empty() || domain == "ai.onnx";
}

/// The element types the model names: its values' types, its tensors'
/// types, and the `to`/`dtype` attributes of casts and constant-like ops.
std::set<int32_t> dataTypesNamed(const ::onnx::GraphProto &graph) {
  std::set<int32_t> types;
  auto addValue = [&](const ::onnx::ValueInfoProto &v) {
    if (v.type().has_tensor_type())
      types.insert(v.type().tensor_type().elem_type());
  };
  for (const auto &v : graph.input())
    addValue(v);
  for (const auto &v : graph.output())
    addValue(v);
  for (const auto &v : graph.value_info())
    addValue(v);
  for (const auto &t : graph.initializer())
    types.insert(t.data_type());
  for (const auto &node : graph.node())
    for (const auto &attr : node.attribute()) {
      if (attr.has_t())
        types.insert(attr.t().data_type());
      if ((attr.name() == "to" || attr.name() == "dtype") && attr.has_i())
        types.insert(static_cast<int32_t>(attr.i()));
    }
  types.erase(::onnx::TensorProto::UNDEFINED);
  return types;
}

/// Dropout's training_mode given as a graph input: the mode (and so whether
/// the op is random) is known only when the model runs.
bool hasTrainingDropout(const ::onnx::GraphProto &graph) {
  std::set<std::string> initializers;
  for (const auto &t : graph.initializer())
    initializers.insert(t.name());
  for (const auto &node : graph.node())
    if (node.op_type() == "Dropout" && isDefaultDomain(node.domain()) &&
        node.input_size() >= 3 && !node.input(2).empty() &&
        !initializers.count(node.input(2)))
      return true;
  return false;
}

std::string outOfScopeReason(MLIRContext *context,
                             const ::onnx::ModelProto &model) {
  const ::onnx::GraphProto &graph = model.graph();
  for (const auto &node : graph.node()) {
    if (!isDefaultDomain(node.domain()))
      return node.op_type() + ": domain '" + node.domain() +
             "' (tcc imports ai.onnx ops only)";
    if (const char *reason = OpTable::outOfScopeReason(node.op_type()))
      return node.op_type() + ": " + reason;
  }
  int64_t opset = -1;
  for (const auto &entry : model.opset_import())
    if (isDefaultDomain(entry.domain()))
      opset = entry.version();
  if (opset < kMinOpset || opset > kMaxOpset)
    return "opset " + std::to_string(opset) + " (tcc imports opsets " +
           std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset) +
           ")";
  for (const auto *values : {&graph.input(), &graph.output()})
    for (const auto &v : *values)
      if (!v.type().has_tensor_type())
        return "'" + v.name() + "' is not a tensor (sequences, maps and "
               "optionals are not supported)";
  for (int32_t type : dataTypesNamed(graph))
    if (!elementTypeOf(context, type))
      return "element type " + dataTypeName(type) + " (tcc has none)";
  if (hasTrainingDropout(graph))
    return "Dropout in training mode (random ops are not supported)";
  return "";
}

ValueFacts valueFacts(MLIRContext *context, const ::onnx::ValueInfoProto &v) {
  ValueFacts facts;
  facts.name = v.name();
  if (!v.type().has_tensor_type())
    return facts;
  Type element = elementTypeOf(context, v.type().tensor_type().elem_type());
  facts.isFloat = element && isa<FloatType>(element);
  facts.isInteger = element && element.isIntOrIndex() && !element.isInteger(1);
  return facts;
}

} // namespace

std::string mlir::tcc::onnx::readModelFacts(MLIRContext *context,
                                            StringRef path,
                                            ModelFacts *facts) {
  ::onnx::ModelProto model;
  if (std::string problem = readModelFile(path, &model); !problem.empty())
    return problem;
  const ::onnx::GraphProto &graph = model.graph();
  *facts = ModelFacts();
  for (const auto &entry : model.opset_import())
    if (isDefaultDomain(entry.domain()))
      facts->opset = entry.version();
  for (const auto &node : graph.node())
    facts->opTypes.push_back(isDefaultDomain(node.domain())
                                 ? node.op_type()
                                 : node.domain() + ":" + node.op_type());
  std::set<std::string> initializers;
  for (const auto &t : graph.initializer())
    initializers.insert(t.name());
  std::set<std::string> firstOperands;
  for (const auto &node : graph.node())
    if (node.input_size() > 0)
      firstOperands.insert(node.input(0));
  for (const auto &v : graph.input())
    if (!initializers.count(v.name())) {
      facts->inputs.push_back(valueFacts(context, v));
      facts->inputs.back().isFirstOperand = firstOperands.count(v.name()) != 0;
    }
  for (const auto &v : graph.output())
    facts->outputs.push_back(valueFacts(context, v));
  facts->outOfScope = outOfScopeReason(context, model);
  return "";
}
