//===- NodeContext.h - What an op importer sees of one node -----*- C++ -*-===//
//
// An op importer (Ops/*.cpp) gets a NodeContext for the node it translates:
// the node's inputs as SSA values (and their contents when they are
// constants), its attributes, and helpers that build tcc ops. Ops are built
// without MLIR's aborting builders: `create` infers the result type with the
// dialect's inference, verifies the op, and folds it into a constant when
// all its operands are small constants (so shape subgraphs such as
// Shape -> Gather -> Concat -> Reshape become constants as they are built).
// Any failure throws ImportFailure naming the node; it is caught by the
// importer, never unwound through an MLIR frame.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_ONNX_LIB_NODECONTEXT_H
#define TCC_ONNX_LIB_NODECONTEXT_H

#include "onnx.pb.h"

#include "tcc/Passes/ConstantData.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Value.h"

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace mlir::tcc::onnx {

/// The most elements of constants the importer computes itself over one
/// model (a Range, a folded Gather, folded shape arithmetic), and the most
/// it expands from a splat to read it; more is refused, so a hostile model
/// cannot make the importer allocate without bound, however many nodes it
/// has. Splats of any allowed size are built without expanding them.
constexpr int64_t kMaxComputedElements = int64_t(1) << 24;

/// An import error; `message` names the node, value or file.
struct ImportFailure {
  std::string message;
};
[[noreturn]] void throwImportFailure(std::string message);

/// The state shared by the nodes of one graph: values by ONNX name, and the
/// builder appending to the function body.
struct GraphState {
  MLIRContext *context;
  OpBuilder builder;
  std::unordered_map<std::string, Value> values;
  /// Elements of the constants computed so far (NodeContext::constant).
  int64_t computedElements = 0;
  explicit GraphState(MLIRContext *ctx) : context(ctx), builder(ctx) {}
};

class NodeContext {
public:
  NodeContext(GraphState &graph, const ::onnx::NodeProto &node, int index,
              int64_t opset);

  const ::onnx::NodeProto &node() const { return node_; }
  int64_t opset() const { return opset_; }
  /// "node 'name' (OpType)".
  std::string describe() const;

  // --- Inputs ----------------------------------------------------------------
  size_t numInputs() const { return node_.input_size(); }
  /// Whether input `i` is given (present and not the empty name).
  bool hasInput(size_t i) const;
  /// Input `i`; fails when it is absent.
  Value input(size_t i) const;
  /// Input `i`, or null when absent.
  Value optionalInput(size_t i) const;
  /// The contents of input `i` when it is a constant (an initializer, a
  /// Constant node, or folded), else nullopt.
  std::optional<ConstantData> constantInput(size_t i) const;
  /// The integer contents of input `i`, which must be a constant; `what`
  /// names it in the error ("shape", "axes").
  std::vector<int64_t> intsInput(size_t i, const char *what) const;
  /// The float contents of a constant input (scalars such as Clip's min).
  std::vector<double> floatsInput(size_t i, const char *what) const;
  /// A constant input that must hold exactly one number.
  double floatScalarInput(size_t i, const char *what) const;

  // --- Attributes ------------------------------------------------------------
  const ::onnx::AttributeProto *attr(llvm::StringRef name) const;
  bool hasAttr(llvm::StringRef name) const { return attr(name) != nullptr; }
  int64_t intAttr(llvm::StringRef name, int64_t dflt) const;
  /// A required int attribute.
  int64_t intAttr(llvm::StringRef name) const;
  float floatAttr(llvm::StringRef name, float dflt) const;
  std::vector<int64_t> intsAttr(llvm::StringRef name,
                                std::vector<int64_t> dflt = {}) const;
  std::vector<float> floatsAttr(llvm::StringRef name,
                                std::vector<float> dflt = {}) const;
  std::string stringAttr(llvm::StringRef name, std::string dflt = "") const;
  /// A tensor attribute's contents.
  ConstantData tensorAttr(llvm::StringRef name) const;
  /// Fails naming the first attribute of the node not in `known`, so that
  /// an attribute the importer would silently ignore is refused instead.
  void checkAttrs(std::initializer_list<llvm::StringRef> known) const;

  // --- Outputs ---------------------------------------------------------------
  size_t numOutputs() const { return node_.output_size(); }
  /// Whether output `i` is used (present and named).
  bool wantsOutput(size_t i) const;
  void setOutput(size_t i, Value v);

  // --- Building --------------------------------------------------------------
  /// Builds a tcc op; the result type is inferred when not given. Fails
  /// when the result's shape is beyond the importer's limits (checkShape).
  template <class OpTy>
  Value create(ValueRange operands, llvm::ArrayRef<NamedAttribute> attrs = {},
               Type resultType = {}) {
    return createOp(OpTy::getOperationName(), operands, attrs, resultType);
  }
  Value createOp(llvm::StringRef name, ValueRange operands,
                 llvm::ArrayRef<NamedAttribute> attrs, Type resultType);
  /// A constant holding `data`; its elements count against
  /// kMaxComputedElements.
  Value constant(const ConstantData &data);
  /// A constant of `shape` with every element equal to `element`'s single
  /// element, built without expanding it (ConstantOfShape, masks).
  Value splat(const ConstantData &element, llvm::ArrayRef<int64_t> shape);
  /// Whether the importer computes a constant of `shape` itself: within
  /// checkShape, and within what is left of kMaxComputedElements.
  bool isComputable(llvm::ArrayRef<int64_t> shape) const;
  /// Zero-filled data for a constant the op importer computes itself;
  /// fails unless isComputable(shape).
  ConstantData zeros(llvm::ArrayRef<int64_t> shape, Type elementType) const;
  /// A 0-dim constant of `elementType` holding `value`.
  Value scalar(double value, Type elementType);
  /// A 1-D i64 constant.
  Value i64Vector(llvm::ArrayRef<int64_t> values);
  /// tcc.reshape unless `v` already has `shape`.
  Value reshape(Value v, llvm::ArrayRef<int64_t> shape);
  /// tcc.broadcast_to unless `v` already has `shape`.
  Value broadcastTo(Value v, llvm::ArrayRef<int64_t> shape);
  /// tcc.cast unless `v` already has `elementType`.
  Value cast(Value v, Type elementType);

  /// The tcc element type of ONNX data type `dataType`; fails when tcc has
  /// none.
  Type elementTypeFor(int64_t dataType) const;

  static RankedTensorType typeOf(Value v);
  static llvm::ArrayRef<int64_t> shapeOf(Value v) {
    return typeOf(v).getShape();
  }
  static int64_t rankOf(Value v) { return typeOf(v).getRank(); }
  static Type elementTypeOf(Value v) { return typeOf(v).getElementType(); }
  /// The numpy-style broadcast of two shapes; fails when they do not
  /// broadcast.
  std::vector<int64_t> broadcastShapes(llvm::ArrayRef<int64_t> a,
                                       llvm::ArrayRef<int64_t> b) const;
  /// `axis` in [-rank, rank) made non-negative; fails naming `what`.
  int64_t normalizeAxis(int64_t axis, int64_t rank, const char *what) const;
  /// Each of `axes` normalized, sorted; fails when one repeats a dim.
  std::vector<int64_t> normalizeAxes(std::vector<int64_t> axes,
                                     int64_t rank) const;

  MLIRContext *context() const { return graph_.context; }
  Builder builder() const { return Builder(graph_.context); }
  Location location() const { return location_; }
  NamedAttribute namedAttr(llvm::StringRef name, Attribute value) const;
  NamedAttribute i64Attr(llvm::StringRef name, int64_t value) const;
  NamedAttribute f64Attr(llvm::StringRef name, double value) const;
  NamedAttribute boolAttr(llvm::StringRef name, bool value) const;
  NamedAttribute i64ArrayAttr(llvm::StringRef name,
                              llvm::ArrayRef<int64_t> values) const;

  /// Throws ImportFailure: "<node>: why".
  [[noreturn]] void fail(const std::string &why) const;

private:
  GraphState &graph_;
  const ::onnx::NodeProto &node_;
  int index_;
  int64_t opset_;
  Location location_;
};

/// The contents of `v` when it is defined by a tcc.constant, else nullopt
/// (also for a splat of more than kMaxComputedElements elements, which
/// would have to be expanded).
std::optional<ConstantData> constantValueOf(Value v);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_NODECONTEXT_H
