//===- GraphChecks.h - Structural checks of an ONNX graph -------*- C++ -*-===//

#ifndef TCC_ONNX_LIB_GRAPHCHECKS_H
#define TCC_ONNX_LIB_GRAPHCHECKS_H

#include "onnx.pb.h"

#include <string>
#include <vector>

namespace mlir::tcc::onnx {

/// "node 'name' (OpType)", or "node #i (OpType)" for an unnamed node.
std::string describeNode(const ::onnx::NodeProto &node, int index);

/// Checks that every name the graph uses is defined exactly once (by a
/// graph input, an initializer or a node output), that every graph output
/// is defined, and that the nodes form no cycle. On success `*order` holds
/// the node indices in an order where each node follows its producers
/// (ONNX asks for topologically sorted nodes; not every exporter obeys).
/// Returns "" or the first problem, naming the node or value.
std::string checkGraph(const ::onnx::GraphProto &graph,
                       std::vector<int> *order);

} // namespace mlir::tcc::onnx

#endif // TCC_ONNX_LIB_GRAPHCHECKS_H
