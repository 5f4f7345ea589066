//===- Importer.cpp - ONNX graphs to tcc functions ------------------------===//

#include "tcc/Onnx/Import.h"

#include "GraphChecks.h"
#include "ModelReader.h"
#include "NodeContext.h"
#include "OpTable.h"
#include "TensorData.h"

#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Support/InputGuards.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

bool mlir::tcc::onnx::isOnnxPath(StringRef path) {
  return llvm::sys::path::extension(path).equals_insensitive(".onnx");
}

bool mlir::tcc::onnx::parseShape(StringRef text, std::vector<int64_t> *shape) {
  shape->clear();
  if (text.empty())
    return true; // a 0-dim tensor
  llvm::SmallVector<StringRef> parts;
  text.split(parts, 'x');
  for (StringRef part : parts) {
    uint64_t dim;
    if (part.empty() || part.getAsInteger(10, dim) || dim > uint64_t(kMaxElements))
      return false;
    shape->push_back(static_cast<int64_t>(dim));
  }
  return true;
}

namespace {

class GraphImporter {
public:
  GraphImporter(MLIRContext *context, const ::onnx::ModelProto &model,
                std::string modelDir, const ImportOptions &options)
      : context(context), model(model), graph(model.graph()),
        modelDir(std::move(modelDir)), options(options), state(context) {}

  OwningOpRef<ModuleOp> run();

private:
  int64_t defaultOpset() const;
  void checkOpsSupported(int64_t opset, const std::vector<int> &order) const;
  RankedTensorType inputType(const ::onnx::ValueInfoProto &input) const;
  void checkOutputType(const ::onnx::ValueInfoProto &output, Value v) const;
  void checkFixedValue(const ::onnx::ValueInfoProto &input,
                       const ConstantData &data) const;

  MLIRContext *context;
  const ::onnx::ModelProto &model;
  const ::onnx::GraphProto &graph;
  std::string modelDir;
  const ImportOptions &options;
  GraphState state;
};

int64_t GraphImporter::defaultOpset() const {
  int64_t opset = -1;
  for (const auto &entry : model.opset_import())
    if (entry.domain().empty() || entry.domain() == "ai.onnx")
      opset = entry.version();
  if (opset < 0)
    throwImportFailure("the model imports no opset of the default ONNX domain");
  if (opset < kMinOpset || opset > kMaxOpset)
    throwImportFailure("the model uses opset " + std::to_string(opset) +
                       "; tcc imports opsets " + std::to_string(kMinOpset) +
                       " to " + std::to_string(kMaxOpset) +
                       " (convert it with onnx.version_converter)");
  return opset;
}

void GraphImporter::checkOpsSupported(int64_t opset,
                                      const std::vector<int> &order) const {
  std::string problems;
  int count = 0;
  for (int index : order) {
    const ::onnx::NodeProto &node = graph.node(index);
    std::string why;
    if (!node.domain().empty() && node.domain() != "ai.onnx")
      why = "domain '" + node.domain() + "' is not supported";
    else if (const char *reason = OpTable::outOfScopeReason(node.op_type()))
      why = reason;
    else if (!OpTable::get().find(node.op_type(), opset))
      why = "not supported yet";
    if (why.empty())
      continue;
    ++count;
    problems += "\n  " + node.op_type() + " (opset " + std::to_string(opset) +
                ") in " + describeNode(node, index) + ": " + why;
  }
  if (count)
    throwImportFailure("the model has " + std::to_string(count) +
                       " node(s) tcc cannot import:" + problems);
}

RankedTensorType
GraphImporter::inputType(const ::onnx::ValueInfoProto &input) const {
  const std::string &name = input.name();
  if (!input.type().has_tensor_type())
    throwImportFailure("graph input '" + name +
                       "' is not a tensor (sequences, maps and optionals are "
                       "not supported)");
  const auto &tensorType = input.type().tensor_type();
  Type element = elementTypeOf(context, tensorType.elem_type());
  if (!element)
    throwImportFailure("graph input '" + name + "' has element type " +
                       dataTypeName(tensorType.elem_type()) +
                       ", which tcc does not support");
  auto given = options.inputShapes.find(name);
  if (!tensorType.has_shape()) {
    if (given == options.inputShapes.end())
      throwImportFailure("graph input '" + name +
                         "' has no shape in the model; give it with "
                         "--input-shape " + name + "=DxDx...");
    if (std::string p = checkShape(given->second); !p.empty())
      throwImportFailure("--input-shape for '" + name + "': " + p);
    return RankedTensorType::get(given->second, element);
  }
  const auto &dims = tensorType.shape().dim();
  std::vector<int64_t> shape;
  for (int i = 0; i < dims.size(); ++i) {
    const auto &dim = dims.Get(i);
    if (dim.has_dim_value()) {
      shape.push_back(dim.dim_value());
      continue;
    }
    if (given == options.inputShapes.end())
      throwImportFailure(
          "graph input '" + name + "' has an unknown dimension " +
          std::to_string(i) +
          (dim.has_dim_param() ? " ('" + dim.dim_param() + "')" : "") +
          "; give the input's shape with --input-shape " + name +
          "=DxDx... (ImportOptions::input_shapes in C++)");
    shape.push_back(-1);
  }
  if (given != options.inputShapes.end()) {
    const std::vector<int64_t> &g = given->second;
    bool agrees = g.size() == shape.size();
    for (size_t i = 0; agrees && i < g.size(); ++i)
      agrees = shape[i] < 0 || shape[i] == g[i];
    if (!agrees)
      throwImportFailure("--input-shape " + name + "=" + shapeText(g) +
                         " does not fit the model's shape of '" + name +
                         "' (rank " + std::to_string(shape.size()) + ")");
    shape = g;
  }
  if (std::string p = checkShape(shape); !p.empty())
    throwImportFailure("graph input '" + name + "': " + p);
  return RankedTensorType::get(shape, element);
}

void GraphImporter::checkFixedValue(const ::onnx::ValueInfoProto &input,
                                    const ConstantData &data) const {
  const std::string &name = input.name();
  if (!input.type().has_tensor_type())
    throwImportFailure("graph input '" + name + "' is not a tensor");
  const auto &tensorType = input.type().tensor_type();
  if (tensorType.elem_type() != dataTypeOf(data.type.getElementType()))
    throwImportFailure("--input-value for '" + name + "' is " +
                       dataTypeName(dataTypeOf(data.type.getElementType())) +
                       ", but the input is " +
                       dataTypeName(tensorType.elem_type()));
  if (!tensorType.has_shape())
    return;
  const auto &dims = tensorType.shape().dim();
  bool agrees = dims.size() == data.type.getRank();
  for (int i = 0; agrees && i < dims.size(); ++i)
    agrees = !dims.Get(i).has_dim_value() ||
             dims.Get(i).dim_value() == data.type.getDimSize(i);
  if (!agrees)
    throwImportFailure("--input-value for '" + name + "' has shape " +
                       shapeText(data.type.getShape()) +
                       ", which does not fit the input's");
}

void GraphImporter::checkOutputType(const ::onnx::ValueInfoProto &output,
                                    Value v) const {
  if (!output.type().has_tensor_type())
    return;
  const auto &tensorType = output.type().tensor_type();
  auto type = cast<RankedTensorType>(v.getType());
  if (tensorType.elem_type() != 0 &&
      tensorType.elem_type() != dataTypeOf(type.getElementType()))
    throwImportFailure("graph output '" + output.name() + "' is declared " +
                       dataTypeName(tensorType.elem_type()) +
                       " but computes " +
                       dataTypeName(dataTypeOf(type.getElementType())));
  if (!tensorType.has_shape())
    return;
  const auto &dims = tensorType.shape().dim();
  bool agrees = dims.size() == type.getRank();
  for (int i = 0; agrees && i < dims.size(); ++i)
    agrees = !dims.Get(i).has_dim_value() ||
             dims.Get(i).dim_value() == type.getDimSize(i);
  if (!agrees)
    throwImportFailure("graph output '" + output.name() +
                       "' is declared with a shape that differs from the "
                       "one computed, " + shapeText(type.getShape()));
}

OwningOpRef<ModuleOp> GraphImporter::run() {
  int64_t opset = defaultOpset();
  std::vector<int> order;
  if (std::string problem = checkGraph(graph, &order); !problem.empty())
    throwImportFailure(problem);
  checkOpsSupported(opset, order);

  std::set<std::string> initializerNames;
  for (const auto &init : graph.initializer())
    initializerNames.insert(init.name());
  auto checkNamesInput = [&](const std::string &name, const char *option) {
    bool found = false;
    for (const auto &input : graph.input())
      found |= input.name() == name;
    if (!found || initializerNames.count(name))
      throwImportFailure(std::string(option) + " names '" + name +
                         "', which is not an input of the model");
  };
  for (const auto &entry : options.inputShapes)
    checkNamesInput(entry.first, "--input-shape");
  for (const auto &entry : options.inputValues)
    checkNamesInput(entry.first, "--input-value");

  Location loc = NameLoc::get(StringAttr::get(
      context, graph.name().empty() ? "onnx" : graph.name()));
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  // Inputs that are also initializers hold default values (ONNX IR < 4
  // style); they are imported as the constants.
  std::vector<Type> argTypes;
  std::vector<const ::onnx::ValueInfoProto *> args;
  std::vector<const ::onnx::ValueInfoProto *> fixed;
  for (const auto &input : graph.input()) {
    if (initializerNames.count(input.name()))
      continue;
    if (options.inputValues.count(input.name())) {
      fixed.push_back(&input);
      continue;
    }
    argTypes.push_back(inputType(input));
    args.push_back(&input);
  }
  auto func = func::FuncOp::create(
      loc, options.functionName, FunctionType::get(context, argTypes, {}));
  module->push_back(func);
  Block *body = func.addEntryBlock();
  state.builder.setInsertionPointToEnd(body);
  Builder b(context);
  for (size_t i = 0; i < args.size(); ++i) {
    state.values[args[i]->name()] = body->getArgument(i);
    func.setArgAttr(i, "tcc.name", b.getStringAttr(args[i]->name()));
  }

  for (const ::onnx::ValueInfoProto *input : fixed) {
    const ConstantData &data = options.inputValues.at(input->name());
    checkFixedValue(*input, data);
    auto op = state.builder.create<tcc::ConstantOp>(
        loc, data.type, makeConstantAttr(data, input->name()));
    state.values[input->name()] = op.getResult();
  }

  for (const auto &init : graph.initializer()) {
    ConstantData data;
    if (std::string problem = readTensor(context, init, modelDir, &data);
        !problem.empty())
      throwImportFailure("initializer '" + init.name() + "': " + problem);
    ElementsAttr attr = makeConstantAttr(data, init.name());
    auto op = state.builder.create<tcc::ConstantOp>(loc, data.type, attr);
    state.values[init.name()] = op.getResult();
  }

  for (int index : order) {
    const ::onnx::NodeProto &node = graph.node(index);
    NodeContext ctx(state, node, index, opset);
    OpTable::get().find(node.op_type(), opset)(ctx);
    for (size_t i = 0; i < ctx.numOutputs(); ++i)
      if (ctx.wantsOutput(i) && !state.values.count(node.output(i)))
        ctx.fail("output " + std::to_string(i) + " ('" + node.output(i) +
                 "') is not supported");
  }

  std::vector<Value> results;
  std::vector<Type> resultTypes;
  for (const auto &output : graph.output()) {
    Value v = state.values.at(output.name());
    checkOutputType(output, v);
    results.push_back(v);
    resultTypes.push_back(v.getType());
  }
  state.builder.create<func::ReturnOp>(loc, results);
  func.setType(FunctionType::get(context, argTypes, resultTypes));
  for (int i = 0; i < graph.output_size(); ++i)
    func.setResultAttr(i, "tcc.name", b.getStringAttr(graph.output(i).name()));

  // Drop what no result needs: unused initializers, and the shape
  // arithmetic that folded into constants.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (op.getNumResults() && op.use_empty() && isPure(&op))
      op.erase();

  if (failed(checkTensorSizes(*module)) || failed(verify(*module)))
    throwImportFailure("the imported module does not verify (a bug in the "
                       "importer; please report it with the model)");
  return module;
}

OwningOpRef<ModuleOp> importProto(MLIRContext *context,
                                  const ::onnx::ModelProto &model,
                                  const std::string &modelDir,
                                  const ImportOptions &options,
                                  std::string *error) {
  context->loadDialect<tcc::TccDialect, func::FuncDialect>();
  try {
    return GraphImporter(context, model, modelDir, options).run();
  } catch (const ImportFailure &failure) {
    *error = failure.message;
    return nullptr;
  }
}

} // namespace

OwningOpRef<ModuleOp> mlir::tcc::onnx::importModelBytes(MLIRContext *context,
                                             StringRef bytes,
                                             StringRef modelDir,
                                             const ImportOptions &options,
                                             std::string *error) {
  ::onnx::ModelProto model;
  *error = parseModel(bytes, &model);
  if (!error->empty())
    return nullptr;
  return importProto(context, model, modelDir.str(), options, error);
}

OwningOpRef<ModuleOp> mlir::tcc::onnx::importModelFile(MLIRContext *context,
                                            StringRef path,
                                            const ImportOptions &options,
                                            std::string *error) {
  ::onnx::ModelProto model;
  *error = readModelFile(path, &model);
  if (!error->empty())
    return nullptr;
  StringRef dir = llvm::sys::path::parent_path(path);
  OwningOpRef<ModuleOp> module = importProto(
      context, model, dir.empty() ? "." : dir.str(), options, error);
  if (!module)
    *error = "'" + path.str() + "': " + *error;
  return module;
}
