//===- Autograd.h - backward, grad and anomaly mode -------------*- C++ -*-===//

#ifndef TCC_FRONTEND_AUTOGRAD_AUTOGRAD_H
#define TCC_FRONTEND_AUTOGRAD_AUTOGRAD_H

#include "tcc/Frontend/Autograd/Node.h"
#include "tcc/Frontend/GradMode.h"

#include <optional>

namespace tcc {
namespace autograd {

/// Accumulates the gradients of `tensors` into the .grad() of the leaves
/// (or of `inputs`, when given). `grad_tensors` may be empty for scalar
/// outputs. `retain_graph` defaults to `create_graph`.
void backward(const variable_list &tensors,
              const variable_list &grad_tensors = {},
              std::optional<bool> retain_graph = std::nullopt,
              bool create_graph = false, const variable_list &inputs = {});

/// Gradients of `outputs` with respect to `inputs`, returned rather than
/// accumulated. With `create_graph` the result is itself differentiable.
/// An input that `outputs` do not depend on is an error unless
/// `allow_unused`, in which case its gradient is undefined.
variable_list grad(const variable_list &outputs, const variable_list &inputs,
                   const variable_list &grad_outputs = {},
                   std::optional<bool> retain_graph = std::nullopt,
                   bool create_graph = false, bool allow_unused = false);

/// While enabled, the engine checks every gradient a node returns and names
/// the node whose backward produced NaN.
namespace impl {
/// The node that adds gradients into a leaf's .grad() (libtorch's
/// torch::autograd::impl::grad_accumulator): the node the leaf's edges in a
/// graph point at, so a walk of the graph tells which leaves it reaches.
/// Null for tensors that are not leaves requiring grad.
std::shared_ptr<Node> grad_accumulator(const Tensor &leaf);
} // namespace impl

struct AnomalyMode {
  static bool is_enabled();
  static void set_enabled(bool enabled);
};

class DetectAnomalyGuard {
public:
  DetectAnomalyGuard() : prev_(AnomalyMode::is_enabled()) {
    AnomalyMode::set_enabled(true);
  }
  ~DetectAnomalyGuard() { AnomalyMode::set_enabled(prev_); }
  DetectAnomalyGuard(const DetectAnomalyGuard &) = delete;
  DetectAnomalyGuard &operator=(const DetectAnomalyGuard &) = delete;

private:
  bool prev_;
};

} // namespace autograd
} // namespace tcc

#endif // TCC_FRONTEND_AUTOGRAD_AUTOGRAD_H
