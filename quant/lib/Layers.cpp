//===- Layers.cpp - Finding the quantizable layers ------------------------===//

#include "Layers.h"

#include "tcc/IR/TccOps.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "llvm/ADT/StringExtras.h"

#include <map>

namespace tcc {
namespace quant {
namespace detail {

namespace {

using namespace mlir;
namespace mt = mlir::tcc;

bool isF32Tensor(Value v) {
  auto t = dyn_cast<RankedTensorType>(v.getType());
  return t && t.getElementType().isF32();
}

/// The constant defining `v`, if it is an f32 one.
mt::ConstantOp f32Constant(Value v) {
  auto c = v ? v.getDefiningOp<mt::ConstantOp>() : nullptr;
  return c && isF32Tensor(v) ? c : nullptr;
}

/// "conv1" for a weight blob named "conv1.weight"; empty when unnamed.
std::string nameOfWeight(mt::ConstantOp weight) {
  auto resource = dyn_cast<DenseResourceElementsAttr>(weight.getValue());
  if (!resource)
    return "";
  // Passes that rewrite a weight suffix its name (conv1.weight.bn_folded).
  std::string key = resource.getRawHandle().getKey().str();
  size_t suffix = key.rfind(".weight");
  return suffix == std::string::npos || suffix == 0 ? key
                                                    : key.substr(0, suffix);
}

/// Whether `v` is a float activation: not a constant.
bool isActivation(Value v) {
  return isF32Tensor(v) && !v.getDefiningOp<mt::ConstantOp>();
}

std::optional<Layer> asLayer(Operation *op) {
  Layer layer;
  layer.op = op;
  mt::ConstantOp weight;
  if (auto conv = dyn_cast<mt::Conv2dOp>(op)) {
    weight = f32Constant(conv.getWeight());
    if (!weight || conv.getLayout() != mt::Layout::NCHW ||
        !isActivation(conv.getInput()) ||
        (conv.getBias() && !f32Constant(conv.getBias())))
      return std::nullopt;
    int64_t channels =
        cast<RankedTensorType>(conv.getInput().getType()).getDimSize(1);
    layer.kind = conv.getGroups() > 1 && conv.getGroups() == channels
                     ? "depthwise_conv2d"
                     : "conv2d";
    layer.inputs.push_back(conv.getInput());
  } else if (auto linear = dyn_cast<mt::LinearOp>(op)) {
    weight = f32Constant(linear.getWeight());
    if (!weight || !isActivation(linear.getInput()) ||
        (linear.getBias() && !f32Constant(linear.getBias())))
      return std::nullopt;
    layer.kind = "linear";
    layer.inputs.push_back(linear.getInput());
  } else if (auto matmul = dyn_cast<mt::MatmulOp>(op)) {
    weight = f32Constant(matmul.getRhs());
    if (!weight ||
        cast<RankedTensorType>(matmul.getRhs().getType()).getRank() != 2 ||
        !isActivation(matmul.getLhs()) ||
        cast<RankedTensorType>(matmul.getLhs().getType()).getRank() < 2)
      return std::nullopt;
    layer.kind = "matmul";
    layer.inputs.push_back(matmul.getLhs());
  } else if (auto add = dyn_cast<mt::AddOp>(op)) {
    if (!isActivation(add.getLhs()) || !isActivation(add.getRhs()) ||
        add.getLhs().getType() != add.getRhs().getType() ||
        add.getLhs().getType() != add.getType())
      return std::nullopt;
    layer.kind = "add";
    layer.inputs.push_back(add.getLhs());
    layer.inputs.push_back(add.getRhs());
  } else {
    return std::nullopt;
  }
  if (weight)
    layer.name = nameOfWeight(weight);
  Value result = op->getResult(0);
  layer.output = result;
  if (result.hasOneUse())
    if (auto relu = dyn_cast<mt::ReluOp>(*result.getUsers().begin())) {
      layer.relu = relu;
      layer.output = relu.getResult();
    }
  return layer;
}

} // namespace

std::vector<Layer> findLayers(mlir::func::FuncOp function) {
  std::vector<Layer> layers;
  std::map<std::string, int> unnamed;
  std::map<std::string, int> seen;
  // Only the body's own ops: a fusion region's ops are not layers.
  for (Operation &op : function.getBody().front())
    if (std::optional<Layer> layer = asLayer(&op))
      layers.push_back(std::move(*layer));
  for (Layer &layer : layers) {
    if (layer.name.empty())
      layer.name = layer.kind + "#" + std::to_string(unnamed[layer.kind]++);
    // Two layers sharing one weight blob get distinct names.
    if (int n = seen[layer.name]++)
      layer.name += "#" + std::to_string(n);
  }
  return layers;
}

} // namespace detail
} // namespace quant
} // namespace tcc
