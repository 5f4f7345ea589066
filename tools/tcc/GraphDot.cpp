//===- GraphDot.cpp - a tcc function as a Graphviz graph ------------------===//
//
// A small DOT writer rather than MLIR's -view-op-graph, whose nodes carry
// every attribute and whose regions become nested clusters of block
// arguments: unreadable for a model of more than a few ops.
//
//===----------------------------------------------------------------------===//

#include "GraphDot.h"

#include "tcc/IR/TccOps.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace tcc {
namespace tool {

namespace {

using namespace mlir;

// A DOT string literal's contents.
std::string escaped(StringRef text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

// "64x32xf32" for tensor<64x32xf32>, "f32" for a 0-d tensor.
std::string typeText(Type type) {
  std::string out;
  llvm::raw_string_ostream os(out);
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    for (int64_t dim : tensor.getShape())
      os << dim << 'x';
    os << tensor.getElementType();
  } else {
    os << type;
  }
  return out;
}

// Where an op came from, short: file:line:col (file without its folders),
// or a name location's name; "" when unknown.
std::string locationText(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (llvm::sys::path::filename(file.getFilename().getValue()) + ":" +
            Twine(file.getLine()) + ":" + Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    return fused.getLocations().empty()
               ? ""
               : locationText(fused.getLocations().front());
  if (auto call = dyn_cast<CallSiteLoc>(loc))
    return locationText(call.getCallee());
  return "";
}

class DotWriter {
public:
  explicit DotWriter(func::FuncOp function) : function_(function) {}

  std::string write() {
    out_ << "digraph \"" << escaped(function_.getSymName()) << "\" {\n"
         << "  rankdir=TB;\n"
         << "  graph [fontname=\"Helvetica\", fontsize=10];\n"
         << "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
            "fontsize=10];\n"
         << "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    for (BlockArgument arg : function_.getArguments()) {
      std::string label = nameOf(function_.getArgAttrOfType<StringAttr>(
                              arg.getArgNumber(), "tcc.name"),
                              "input", arg.getArgNumber()) +
                          "\\n" + escaped(typeText(arg.getType()));
      out_ << "  in" << arg.getArgNumber() << " [shape=ellipse, label=\""
           << label << "\"];\n";
    }
    Block &body = function_.getBody().front();
    for (Operation &op : body.without_terminator())
      writeOp(op, "  ");
    for (Operation &op : body.without_terminator())
      writeEdges(op);
    Operation *ret = body.getTerminator();
    for (OpOperand &result : ret->getOpOperands()) {
      unsigned i = result.getOperandNumber();
      out_ << "  out" << i << " [shape=ellipse, label=\""
           << nameOf(function_.getResultAttrOfType<StringAttr>(i, "tcc.name"),
                     "output", i)
           << "\\n" << escaped(typeText(result.get().getType())) << "\"];\n";
      writeEdge(result.get(), "out" + std::to_string(i));
    }
    out_ << "}\n";
    return out_.str();
  }

private:
  static std::string nameOf(StringAttr name, const char *kind, unsigned i) {
    return name ? escaped(name.getValue()) : kind + std::to_string(i);
  }

  std::string nodeId(Operation *op) {
    auto [it, added] = ids_.try_emplace(op, "");
    if (added)
      it->second = "n" + std::to_string(ids_.size() - 1);
    return it->second;
  }

  // The node whose result `value` is, looking through fusion boundaries:
  // a fusion's block argument is its operand, its result what it yields.
  std::string producer(Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value)) {
      Operation *owner = arg.getOwner()->getParentOp();
      if (auto fusion = dyn_cast<::mlir::tcc::FusionOp>(owner))
        return producer(fusion.getInputs()[arg.getArgNumber()]);
      return "in" + std::to_string(arg.getArgNumber());
    }
    auto result = cast<OpResult>(value);
    if (auto fusion = dyn_cast<::mlir::tcc::FusionOp>(result.getOwner()))
      return producer(fusion.getYield().getOperand(result.getResultNumber()));
    return nodeId(result.getOwner());
  }

  void writeOp(Operation &op, const std::string &indent) {
    if (auto fusion = dyn_cast<::mlir::tcc::FusionOp>(op)) {
      // Clusters must be named cluster*; the ops inside are drawn as any.
      out_ << indent << "subgraph cluster_" << clusters_ << " {\n"
           << indent << "  label=\"tcc.fusion " << clusters_++
           << "\"; style=dashed; color=\"#4060c0\";\n";
      for (Operation &inner : fusion.getBlock().without_terminator())
        writeOp(inner, indent + "  ");
      out_ << indent << "}\n";
      return;
    }
    std::string label = escaped(op.getName().getStringRef());
    if (auto name = op.getAttrOfType<StringAttr>("tcc.name"))
      label += "\\n" + escaped(name.getValue());
    if (std::string where = locationText(op.getLoc()); !where.empty())
      label += "\\n" + escaped(where);
    for (Type type : op.getResultTypes())
      label += "\\n-> " + escaped(typeText(type));
    out_ << indent << nodeId(&op) << " [label=\"" << label << "\"];\n";
  }

  void writeEdges(Operation &op) {
    if (auto fusion = dyn_cast<::mlir::tcc::FusionOp>(op)) {
      for (Operation &inner : fusion.getBlock().without_terminator())
        writeEdges(inner);
      return;
    }
    for (Value operand : op.getOperands())
      writeEdge(operand, nodeId(&op));
  }

  void writeEdge(Value value, const std::string &to) {
    out_ << "  " << producer(value) << " -> " << to << " [label=\""
         << escaped(typeText(value.getType())) << "\"];\n";
  }

  func::FuncOp function_;
  llvm::DenseMap<Operation *, std::string> ids_;
  unsigned clusters_ = 0;
  std::string text_;
  llvm::raw_string_ostream out_{text_};
};

} // namespace

std::string graphToDot(func::FuncOp function) {
  return DotWriter(function).write();
}

} // namespace tool
} // namespace tcc
