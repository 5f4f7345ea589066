//===- Node.h - A step of the backward graph --------------------*- C++ -*-===//
//
// Every differentiable op that runs with grad mode on and an input that
// requires grad creates one Node: `y.grad_fn()`. Its next edges point at the
// nodes of the op's inputs (or at AccumulateGrad for leaves). The engine
// (Engine.cpp) calls `apply` with the gradients of the op's outputs and gets
// the gradients of its inputs.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_AUTOGRAD_NODE_H
#define TCC_FRONTEND_AUTOGRAD_NODE_H

#include "tcc/Frontend/Tensor.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tcc {
namespace autograd {

using variable_list = std::vector<Tensor>;
using tensor_list = std::vector<Tensor>;
class Node;

/// Where a gradient goes: input `input_nr` of `function`.
struct Edge {
  Edge() = default;
  Edge(std::shared_ptr<Node> fn, uint32_t nr)
      : function(std::move(fn)), input_nr(nr) {}
  bool is_valid() const { return function != nullptr; }
  std::shared_ptr<Node> function;
  uint32_t input_nr = 0;
};

/// Shape and dtype of a forward input, so the engine can reduce a broadcast
/// gradient back to the input's shape and dtype.
struct InputMetadata {
  DimVector sizes;
  ScalarType dtype = kFloat;
};

using TensorHook = std::function<Tensor(const Tensor &)>;

class Node : public std::enable_shared_from_this<Node> {
public:
  Node();
  virtual ~Node();
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;

  /// "MulBackward0", "AccumulateGrad", ...
  virtual std::string name() const = 0;
  /// Gradients of the forward inputs from gradients of the forward outputs.
  virtual variable_list apply(variable_list &&grad_outputs) = 0;
  /// Frees saved tensors (after a backward without retain_graph).
  virtual void release_variables() {}

  const std::vector<Edge> &next_edges() const { return nextEdges_; }
  const Edge &next_edge(size_t i) const { return nextEdges_[i]; }
  size_t num_outputs() const { return nextEdges_.size(); }
  /// Number of forward outputs (gradients this node receives).
  uint32_t num_inputs() const { return numInputs_; }
  void set_num_inputs(uint32_t n) { numInputs_ = n; }
  bool needs_input_grad(size_t i) const {
    return i < nextEdges_.size() && nextEdges_[i].is_valid();
  }
  uint64_t sequence_nr() const { return sequenceNr_; }

  void add_next_edge(Edge e, InputMetadata meta) {
    nextEdges_.push_back(std::move(e));
    inputMeta_.push_back(std::move(meta));
  }
  const InputMetadata &input_metadata(size_t i) const { return inputMeta_[i]; }

  /// Hooks on the gradient of forward output `output_nr` (tensor hooks of
  /// non-leaf tensors); `retain` hooks run after the user's.
  struct PreHook {
    unsigned id;
    uint32_t output_nr;
    TensorHook fn;
  };
  std::vector<PreHook> &pre_hooks() { return preHooks_; }
  std::vector<PreHook> &retain_grad_hooks() { return retainHooks_; }

private:
  std::vector<Edge> nextEdges_;
  std::vector<InputMetadata> inputMeta_;
  std::vector<PreHook> preHooks_;
  std::vector<PreHook> retainHooks_;
  uint64_t sequenceNr_;
  uint32_t numInputs_ = 1;
};

/// Drops a reference to a node. The last reference to a node is released
/// from a loop rather than by recursion, so destroying a graph of any depth
/// does not overflow the stack.
void releaseNode(std::shared_ptr<Node> &&node);

/// Per-tensor autograd state; allocated for tensors that require grad or
/// have a grad_fn.
struct AutogradMeta {
  AutogradMeta() = default;
  AutogradMeta(const AutogradMeta &) = delete;
  AutogradMeta &operator=(const AutogradMeta &) = delete;
  /// Releases grad_fn without recursion (see releaseNode).
  ~AutogradMeta();

  Tensor grad;
  std::shared_ptr<Node> grad_fn;
  std::weak_ptr<Node> grad_accumulator; // leaves only
  uint32_t output_nr = 0;
  bool requires_grad = false;
  bool retains_grad = false;
  struct LeafHook {
    unsigned id;
    TensorHook fn;
  };
  std::vector<LeafHook> hooks; // leaves only; non-leaf hooks live on grad_fn
  struct PostAccumulateHook {
    unsigned id;
    std::function<void(const Tensor &)> fn;
  };
  std::vector<PostAccumulateHook> post_accumulate_hooks; // leaves only
};

} // namespace autograd
} // namespace tcc

#endif // TCC_FRONTEND_AUTOGRAD_NODE_H
