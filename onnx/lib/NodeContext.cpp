//===- NodeContext.cpp - What an op importer sees of one node -------------===//

#include "NodeContext.h"

#include "GraphChecks.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"
#include "tcc/Passes/ConstantEvaluator.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

void mlir::tcc::onnx::throwImportFailure(std::string message) {
  throw ImportFailure{std::move(message)};
}

namespace {
/// Results of ops on constants with at most this many elements are computed
/// at import (shape arithmetic, small tables); bigger ones are left to
/// tcc-fold-constants, which works on blobs without copying them here.
constexpr int64_t kFoldElementLimit = int64_t(1) << 16;

/// Collects MLIR's diagnostics while it lives, for error messages.
class DiagnosticText {
public:
  explicit DiagnosticText(MLIRContext *context)
      : handler(context, [this](Diagnostic &d) {
          if (!text.empty())
            text += "; ";
          text += d.str();
          return success();
        }) {}
  std::string text;

private:
  ScopedDiagnosticHandler handler;
};
} // namespace

std::optional<ConstantData> mlir::tcc::onnx::constantValueOf(Value v) {
  auto op = v ? v.getDefiningOp<tcc::ConstantOp>() : tcc::ConstantOp();
  if (!op)
    return std::nullopt;
  auto dense = dyn_cast<DenseElementsAttr>(op.getValue());
  if (dense && dense.isSplat() &&
      dense.getType().getNumElements() > kMaxComputedElements)
    return std::nullopt;
  return readConstant(op.getValue());
}

NodeContext::NodeContext(GraphState &graph, const ::onnx::NodeProto &node,
                         int index, int64_t opset)
    : graph_(graph), node_(node), index_(index), opset_(opset),
      location_(NameLoc::get(StringAttr::get(
          graph.context, node.name().empty() ? node.op_type() : node.name()))) {
}

std::string NodeContext::describe() const { return describeNode(node_, index_); }

void NodeContext::fail(const std::string &why) const {
  throwImportFailure(describe() + ": " + why);
}

// --- Inputs ------------------------------------------------------------------

bool NodeContext::hasInput(size_t i) const {
  return i < numInputs() && !node_.input(static_cast<int>(i)).empty();
}

Value NodeContext::optionalInput(size_t i) const {
  if (!hasInput(i))
    return {};
  auto it = graph_.values.find(node_.input(static_cast<int>(i)));
  if (it == graph_.values.end())
    fail("input '" + node_.input(static_cast<int>(i)) +
         "' has no value (it is an output the importer did not produce)");
  return it->second;
}

Value NodeContext::input(size_t i) const {
  if (!hasInput(i))
    fail("input " + std::to_string(i) + " is required but absent");
  return optionalInput(i);
}

std::optional<ConstantData> NodeContext::constantInput(size_t i) const {
  return constantValueOf(optionalInput(i));
}

std::vector<int64_t> NodeContext::intsInput(size_t i, const char *what) const {
  std::optional<ConstantData> data = constantInput(i);
  if (!data)
    fail(std::string("its ") + what + " (input " + std::to_string(i) +
         ") must be a constant, or computable from input shapes at import");
  if (!data->type.getElementType().isIntOrIndex())
    fail(std::string("its ") + what + " must be integers");
  std::vector<int64_t> values(data->numElements());
  for (int64_t k = 0; k < data->numElements(); ++k)
    values[k] = data->getInt(k);
  return values;
}

std::vector<double> NodeContext::floatsInput(size_t i,
                                             const char *what) const {
  std::optional<ConstantData> data = constantInput(i);
  if (!data)
    fail(std::string("its ") + what + " (input " + std::to_string(i) +
         ") must be a constant");
  std::vector<double> values(data->numElements());
  bool isFloat = isa<FloatType>(data->type.getElementType());
  for (int64_t k = 0; k < data->numElements(); ++k)
    values[k] = isFloat ? data->getFloat(k) : double(data->getInt(k));
  return values;
}

double NodeContext::floatScalarInput(size_t i, const char *what) const {
  std::vector<double> values = floatsInput(i, what);
  if (values.size() != 1)
    fail(std::string("its ") + what + " must hold one value, not " +
         std::to_string(values.size()));
  return values[0];
}

// --- Attributes --------------------------------------------------------------

const ::onnx::AttributeProto *NodeContext::attr(llvm::StringRef name) const {
  for (const auto &a : node_.attribute())
    if (a.name() == name)
      return &a;
  return nullptr;
}

namespace {
const char *typeName(::onnx::AttributeProto::AttributeType t) {
  return ::onnx::AttributeProto::AttributeType_Name(t).c_str();
}
} // namespace

#define EXPECT_ATTR_TYPE(a, T)                                                 \
  if ((a)->has_type() && (a)->type() != ::onnx::AttributeProto::T)             \
    fail("attribute '" + (a)->name() + "' is " + typeName((a)->type()) +       \
         ", not " #T);

int64_t NodeContext::intAttr(llvm::StringRef name, int64_t dflt) const {
  const auto *a = attr(name);
  if (!a)
    return dflt;
  EXPECT_ATTR_TYPE(a, INT)
  return a->i();
}

int64_t NodeContext::intAttr(llvm::StringRef name) const {
  if (!attr(name))
    fail("attribute '" + name.str() + "' is required");
  return intAttr(name, 0);
}

float NodeContext::floatAttr(llvm::StringRef name, float dflt) const {
  const auto *a = attr(name);
  if (!a)
    return dflt;
  EXPECT_ATTR_TYPE(a, FLOAT)
  return a->f();
}

std::vector<int64_t> NodeContext::intsAttr(llvm::StringRef name,
                                           std::vector<int64_t> dflt) const {
  const auto *a = attr(name);
  if (!a)
    return dflt;
  EXPECT_ATTR_TYPE(a, INTS)
  return std::vector<int64_t>(a->ints().begin(), a->ints().end());
}

std::vector<float> NodeContext::floatsAttr(llvm::StringRef name,
                                           std::vector<float> dflt) const {
  const auto *a = attr(name);
  if (!a)
    return dflt;
  EXPECT_ATTR_TYPE(a, FLOATS)
  return std::vector<float>(a->floats().begin(), a->floats().end());
}

std::string NodeContext::stringAttr(llvm::StringRef name,
                                    std::string dflt) const {
  const auto *a = attr(name);
  if (!a)
    return dflt;
  EXPECT_ATTR_TYPE(a, STRING)
  return a->s();
}

ConstantData NodeContext::tensorAttr(llvm::StringRef name) const {
  const auto *a = attr(name);
  if (!a)
    fail("attribute '" + name.str() + "' is required");
  EXPECT_ATTR_TYPE(a, TENSOR)
  ConstantData data;
  // Tensor attributes never refer to external files.
  if (std::string problem = readTensor(context(), a->t(), "", &data);
      !problem.empty())
    fail("attribute '" + name.str() + "': " + problem);
  return data;
}

void NodeContext::checkAttrs(
    std::initializer_list<llvm::StringRef> known) const {
  for (const auto &a : node_.attribute()) {
    if (std::find(known.begin(), known.end(), a.name()) == known.end())
      fail("attribute '" + a.name() + "' is not supported");
    if (!a.ref_attr_name().empty())
      fail("attribute '" + a.name() +
           "' refers to a function attribute, which is not supported");
  }
}

// --- Outputs -----------------------------------------------------------------

bool NodeContext::wantsOutput(size_t i) const {
  return i < numOutputs() && !node_.output(static_cast<int>(i)).empty();
}

void NodeContext::setOutput(size_t i, Value v) {
  if (!wantsOutput(i))
    return;
  graph_.values[node_.output(static_cast<int>(i))] = v;
}

// --- Building ----------------------------------------------------------------

Value NodeContext::createOp(llvm::StringRef name, ValueRange operands,
                            llvm::ArrayRef<NamedAttribute> attrs,
                            Type resultType) {
  MLIRContext *ctx = context();
  DiagnosticText diagnostics(ctx);
  if (!resultType) {
    std::optional<RegisteredOperationName> info =
        RegisteredOperationName::lookup(name, ctx);
    if (!info || !info->hasInterface<InferTypeOpInterface>())
      fail("the importer builds " + name.str() +
           " without a result type, and it cannot infer one");
    // A detached probe op holds the attributes as properties, the form
    // inference reads; its result type is a placeholder.
    OperationState probeState(location_, name);
    probeState.addOperands(operands);
    probeState.addAttributes(attrs);
    probeState.addTypes(NoneType::get(ctx));
    Operation *probe = Operation::create(probeState);
    llvm::SmallVector<Type, 1> types;
    LogicalResult inferred =
        llvm::cast<InferTypeOpInterface>(probe).inferReturnTypes(
            ctx, location_, probe->getOperands(), probe->getRawDictionaryAttrs(),
            probe->getPropertiesStorage(), probe->getRegions(), types);
    probe->destroy();
    if (failed(inferred) || types.size() != 1)
      fail(name.str() + " rejects its operands: " + diagnostics.text);
    resultType = types[0];
  }
  // Limits first: a hostile shape (Expand to 2^62, a Tile whose repeats
  // overflow) must not reach the verifier, the folder or the allocator.
  if (auto shaped = dyn_cast<RankedTensorType>(resultType))
    if (std::string problem = checkShape(shaped.getShape()); !problem.empty())
      fail(name.str() + " would make a tensor beyond the importer's limits: " +
           problem);
  OperationState state(location_, name);
  state.addOperands(operands);
  state.addAttributes(attrs);
  state.addTypes(resultType);
  Operation *op = graph_.builder.create(state);
  if (failed(verify(op))) {
    std::string message = diagnostics.text;
    op->erase();
    fail(name.str() + " does not verify: " + message);
  }
  auto type = dyn_cast<RankedTensorType>(resultType);
  // A result without elements holds no data: it is that empty constant
  // (and kernels with no iterations are not compiled).
  if (!isa<tcc::ConstantOp>(op) && type && type.getNumElements() == 0) {
    op->erase();
    return constant(ConstantData::zeros(type));
  }
  // Fold small all-constant ops now, so later nodes can read the result
  // (while the model's budget of computed constants lasts; past it, the
  // op stays for tcc-fold-constants).
  if (!isa<tcc::ConstantOp>(op) && type &&
      type.getNumElements() <= kFoldElementLimit &&
      isComputable(type.getShape())) {
    llvm::SmallVector<ConstantData> values;
    for (Value operand : operands) {
      std::optional<ConstantData> data = constantValueOf(operand);
      if (!data)
        return op->getResult(0);
      values.push_back(std::move(*data));
    }
    if (std::optional<ConstantData> folded = evaluateConstantOp(op, values)) {
      op->erase();
      return constant(*folded);
    }
  }
  return op->getResult(0);
}

Value NodeContext::constant(const ConstantData &data) {
  graph_.computedElements += data.numElements();
  if (graph_.computedElements > kMaxComputedElements)
    fail("the model computes more than " +
         std::to_string(kMaxComputedElements) +
         " elements of constants at import, the importer's limit");
  std::string blobName = node_.name().empty() ? node_.op_type() : node_.name();
  ElementsAttr attr = makeConstantAttr(data, blobName);
  return create<tcc::ConstantOp>({}, {namedAttr("value", attr)}, data.type);
}

Value NodeContext::splat(const ConstantData &element,
                         llvm::ArrayRef<int64_t> shape) {
  if (std::string problem = checkShape(shape); !problem.empty())
    fail(problem);
  if (element.numElements() != 1)
    fail("the fill value must hold one element, not " +
         std::to_string(element.numElements()));
  auto type = RankedTensorType::get(shape, element.type.getElementType());
  DenseElementsAttr attr =
      element.kind() == ElementKind::Bool
          ? DenseElementsAttr::get(type, element.bytes[0] != 0)
          : DenseElementsAttr::getFromRawBuffer(type, element.bytes);
  return create<tcc::ConstantOp>({}, {namedAttr("value", attr)}, type);
}

bool NodeContext::isComputable(llvm::ArrayRef<int64_t> shape) const {
  return checkShape(shape).empty() &&
         ShapedType::getNumElements(shape) <=
             kMaxComputedElements - graph_.computedElements;
}

ConstantData NodeContext::zeros(llvm::ArrayRef<int64_t> shape,
                                Type elementType) const {
  if (std::string problem = checkShape(shape); !problem.empty())
    fail(problem);
  auto type = RankedTensorType::get(shape, elementType);
  if (!isComputable(shape))
    fail("its result, of shape " + shapeText(shape) +
         ", would take the constants the model computes at import past " +
         std::to_string(kMaxComputedElements) +
         " elements, the importer's limit");
  return ConstantData::zeros(type);
}

Value NodeContext::scalar(double value, Type elementType) {
  ConstantData data = ConstantData::zeros(RankedTensorType::get({}, elementType));
  if (isa<FloatType>(elementType)) {
    data.setFloat(0, value);
  } else {
    // Infinities, NaN and values beyond int64 have no integer to become
    // (IsInf's infinity against an integer input, a huge alpha).
    if (!(value >= -0x1p63 && value < 0x1p63))
      fail("the constant " + std::to_string(value) +
           " has no value of its integer element type");
    data.setInt(0, static_cast<int64_t>(value));
  }
  return constant(data);
}

Value NodeContext::i64Vector(llvm::ArrayRef<int64_t> values) {
  ConstantData data = ConstantData::zeros(RankedTensorType::get(
      {static_cast<int64_t>(values.size())}, builder().getI64Type()));
  for (size_t i = 0; i < values.size(); ++i)
    data.setInt(static_cast<int64_t>(i), values[i]);
  return constant(data);
}

Value NodeContext::reshape(Value v, llvm::ArrayRef<int64_t> shape) {
  if (shapeOf(v) == shape)
    return v;
  return create<tcc::ReshapeOp>(
      v, {}, RankedTensorType::get(shape, elementTypeOf(v)));
}

Value NodeContext::broadcastTo(Value v, llvm::ArrayRef<int64_t> shape) {
  if (shapeOf(v) == shape)
    return v;
  return create<tcc::BroadcastToOp>(
      v, {}, RankedTensorType::get(shape, elementTypeOf(v)));
}

Value NodeContext::cast(Value v, Type elementType) {
  if (elementTypeOf(v) == elementType)
    return v;
  return create<tcc::CastOp>(
      v, {}, RankedTensorType::get(shapeOf(v), elementType));
}

Type NodeContext::elementTypeFor(int64_t dataType) const {
  Type t = mlir::tcc::onnx::elementTypeOf(context(), static_cast<int32_t>(dataType));
  if (!t)
    fail("element type " + dataTypeName(static_cast<int32_t>(dataType)) +
         " is not one tcc supports");
  return t;
}

RankedTensorType NodeContext::typeOf(Value v) {
  return llvm::cast<RankedTensorType>(v.getType());
}

std::vector<int64_t>
NodeContext::broadcastShapes(llvm::ArrayRef<int64_t> a,
                             llvm::ArrayRef<int64_t> b) const {
  size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      fail("shapes do not broadcast (dim " + std::to_string(i) + ": " +
           std::to_string(da) + " against " + std::to_string(db) + ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

int64_t NodeContext::normalizeAxis(int64_t axis, int64_t rank,
                                   const char *what) const {
  if (axis < -rank || axis >= rank)
    fail(std::string(what) + " " + std::to_string(axis) +
         " is out of range for rank " + std::to_string(rank));
  return axis < 0 ? axis + rank : axis;
}

std::vector<int64_t> NodeContext::normalizeAxes(std::vector<int64_t> axes,
                                                int64_t rank) const {
  for (int64_t &a : axes)
    a = normalizeAxis(a, rank, "axis");
  std::sort(axes.begin(), axes.end());
  if (std::adjacent_find(axes.begin(), axes.end()) != axes.end())
    fail("axes repeat a dim");
  return axes;
}

NamedAttribute NodeContext::namedAttr(llvm::StringRef name,
                                      Attribute value) const {
  return NamedAttribute(StringAttr::get(context(), name), value);
}
NamedAttribute NodeContext::i64Attr(llvm::StringRef name, int64_t value) const {
  return namedAttr(name, builder().getI64IntegerAttr(value));
}
NamedAttribute NodeContext::f64Attr(llvm::StringRef name, double value) const {
  return namedAttr(name, builder().getF64FloatAttr(value));
}
NamedAttribute NodeContext::boolAttr(llvm::StringRef name, bool value) const {
  return namedAttr(name, builder().getBoolAttr(value));
}
NamedAttribute
NodeContext::i64ArrayAttr(llvm::StringRef name,
                          llvm::ArrayRef<int64_t> values) const {
  return namedAttr(name, builder().getDenseI64ArrayAttr(values));
}
