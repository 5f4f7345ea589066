//===- AccumulateGrad.h - The node that writes a leaf's .grad() -----------===//

#ifndef TCC_LIB_AUTOGRAD_ACCUMULATEGRAD_H
#define TCC_LIB_AUTOGRAD_ACCUMULATEGRAD_H

#include "tcc/Frontend/Autograd/Node.h"

namespace tcc {
namespace autograd {

class AccumulateGrad : public Node {
public:
  explicit AccumulateGrad(Tensor variable) : variable(std::move(variable)) {}
  std::string name() const override { return "AccumulateGrad"; }
  variable_list apply(variable_list &&grads) override;
  /// Adds `grad` to the leaf's .grad() (after the leaf's hooks).
  static void accumulate(const Tensor &leaf, Tensor grad);

  Tensor variable;
};

/// The leaf's AccumulateGrad node (created on first use, held weakly).
std::shared_ptr<Node> gradAccumulator(const Tensor &leaf);
/// The edge a gradient for `t` flows into: its grad_fn or accumulator.
Edge gradientEdge(const Tensor &t);
AutogradMeta &autogradMeta(const Tensor &t);

} // namespace autograd
} // namespace tcc

#endif // TCC_LIB_AUTOGRAD_ACCUMULATEGRAD_H
