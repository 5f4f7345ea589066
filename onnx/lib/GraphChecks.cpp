//===- GraphChecks.cpp - Structural checks of an ONNX graph ---------------===//

#include "GraphChecks.h"

#include <deque>
#include <unordered_map>
#include <unordered_set>

using namespace mlir::tcc;

std::string mlir::tcc::onnx::describeNode(const ::onnx::NodeProto &node, int index) {
  std::string name = node.name().empty() ? "#" + std::to_string(index)
                                         : "'" + node.name() + "'";
  return "node " + name + " (" + node.op_type() + ")";
}

std::string mlir::tcc::onnx::checkGraph(const ::onnx::GraphProto &graph,
                             std::vector<int> *order) {
  // Who defines each name: -1 for inputs and initializers, else the node.
  std::unordered_map<std::string, int> producer;
  std::unordered_set<std::string> inputs;
  for (const auto &input : graph.input()) {
    if (input.name().empty())
      return "a graph input has no name";
    if (!inputs.insert(input.name()).second)
      return "graph input '" + input.name() + "' is listed twice";
    producer[input.name()] = -1;
  }
  std::unordered_set<std::string> initializers;
  for (const auto &init : graph.initializer()) {
    if (init.name().empty())
      return "an initializer has no name";
    if (!initializers.insert(init.name()).second)
      return "initializer '" + init.name() + "' is defined twice";
    producer[init.name()] = -1; // may also be an input (a default value)
  }
  for (const auto &init : graph.sparse_initializer())
    return "sparse initializer '" + init.values().name() +
           "' is not supported (tcc has no sparse tensors)";
  int numNodes = graph.node_size();
  for (int i = 0; i < numNodes; ++i) {
    const auto &node = graph.node(i);
    for (const std::string &out : node.output()) {
      if (out.empty())
        continue; // an optional output left out
      auto [it, inserted] = producer.emplace(out, i);
      if (!inserted)
        return describeNode(node, i) + " defines '" + out + "', which " +
               (it->second < 0 ? std::string("is already a graph input or "
                                             "initializer")
                               : "is already " +
                                     describeNode(graph.node(it->second),
                                                  it->second) +
                                     "'s output") +
               "; every value must be defined once";
    }
  }
  // Kahn's algorithm over node -> node edges, keeping the file's order
  // among ready nodes.
  std::vector<int> waiting(numNodes, 0);
  std::vector<std::vector<int>> consumers(numNodes);
  for (int i = 0; i < numNodes; ++i) {
    const auto &node = graph.node(i);
    for (const std::string &in : node.input()) {
      if (in.empty())
        continue; // an optional input left out
      auto it = producer.find(in);
      if (it == producer.end())
        return describeNode(node, i) + " uses '" + in +
               "', which no graph input, initializer or node defines";
      if (it->second >= 0) {
        if (it->second == i)
          return describeNode(node, i) + " uses its own output '" + in + "'";
        ++waiting[i];
        consumers[it->second].push_back(i);
      }
    }
  }
  std::deque<int> ready;
  for (int i = 0; i < numNodes; ++i)
    if (waiting[i] == 0)
      ready.push_back(i);
  order->clear();
  while (!ready.empty()) {
    int n = ready.front();
    ready.pop_front();
    order->push_back(n);
    for (int c : consumers[n])
      if (--waiting[c] == 0)
        ready.push_back(c);
  }
  if (static_cast<int>(order->size()) != numNodes) {
    for (int i = 0; i < numNodes; ++i)
      if (waiting[i] != 0)
        return "the graph has a cycle through " +
               describeNode(graph.node(i), i);
  }
  std::unordered_set<std::string> outputs;
  for (const auto &output : graph.output()) {
    if (!producer.count(output.name()))
      return "graph output '" + output.name() + "' is never defined";
    if (!outputs.insert(output.name()).second)
      return "graph output '" + output.name() + "' is listed twice";
  }
  if (graph.output_size() == 0)
    return "the graph has no outputs";
  return "";
}
