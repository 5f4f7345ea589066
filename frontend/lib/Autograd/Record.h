//===- Record.h - The one step every public op goes through ---------------===//
//
// A public op is written as
//
//   static const OpDef kMul{"mul", "mul(Tensor self, Tensor other) -> Tensor",
//                           "MulBackward0"};
//   Tensor mul(const Tensor &a, const Tensor &b) {
//     return recordOp(kMul, {a, b},
//         [&] { return <kernel>; },                       // forward
//         [&](const Tensor &out) { return <backward>; },  // formula
//         [&] { return AttrList{...}; });                 // attributes
//   }
//
// `recordOp` runs the kernel with grad mode off and the observer paused (so
// kernels may call other public ops freely), then (a) when grad mode is on
// and an input requires grad, builds the backward node from the formula and
// attaches it to the output, and (b) reports the call to the trace observer.
// The formula and attribute builders only run when needed.
//
// A backward formula is a callable `variable_list(FunctionNode &, const
// variable_list &grads)` capturing SavedVariables; it is written with
// differentiable tensor ops so that higher-order gradients work. It may
// return gradients in the broadcast shape or another dtype: the engine sums
// them to the input's shape and converts them to the input's dtype.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_LIB_AUTOGRAD_RECORD_H
#define TCC_LIB_AUTOGRAD_RECORD_H

#include "tcc/Frontend/Autograd/Autograd.h"
#include "tcc/Frontend/Autograd/SavedVariable.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/OpObserver.h"

#include <functional>

namespace tcc {
namespace detail {

using autograd::SavedVariable;
using autograd::variable_list;

/// The backward node of a built-in op.
class FunctionNode : public autograd::Node {
public:
  using Formula =
      std::function<variable_list(FunctionNode &, const variable_list &)>;
  FunctionNode(const char *name, Formula formula)
      : name_(name), formula_(std::move(formula)) {}
  std::string name() const override { return name_; }
  variable_list apply(variable_list &&grads) override;
  void release_variables() override { formula_ = nullptr; }

  Tensor unpack(const SavedVariable &v) { return v.unpack(shared_from_this()); }

private:
  const char *name_;
  Formula formula_;
};

/// Runs kernels below autograd and tracing.
struct BelowAutograd {
  AutoGradMode noGrad{false};
  RecordPauseGuard pause;
};

inline bool anyRequiresGrad(TensorList inputs) {
  for (const Tensor &t : inputs)
    if (t.defined() && t.requires_grad())
      return true;
  return false;
}

/// Whether an op on `inputs` must build a backward node.
inline bool needsGrad(TensorList inputs) {
  return GradMode::is_enabled() && anyRequiresGrad(inputs);
}

/// Edges from `node` to the producers of `inputs`.
void collectNextEdges(autograd::Node &node, TensorList inputs);
/// Makes `node` the grad_fn of `out` (output `outputNr`).
void setHistory(const Tensor &out, const std::shared_ptr<autograd::Node> &node,
                uint32_t outputNr);
/// Reports an op call to the observer.
void notifyObserver(const OpDef &op, TensorList inputs, const AttrList &attrs,
                    TensorList outputs, bool inplace);
/// A new backward node for `op`, wired to `inputs`.
std::shared_ptr<FunctionNode> makeNode(const OpDef &op, TensorList inputs,
                                       FunctionNode::Formula formula);

inline AttrList noAttrs() { return {}; }

/// The formula of ops whose gradient is the output gradient unchanged (the
/// engine reduces it to the input's shape and dtype).
FunctionNode::Formula passThrough();

/// Single-output op. See the file comment.
template <class Kernel, class Backward, class Attrs>
Tensor recordOp(const OpDef &op, TensorList inputs, Kernel &&kernel,
                Backward &&backward, Attrs &&attrs) {
  Tensor out;
  {
    BelowAutograd below;
    out = kernel();
  }
  if (op.backward[0] && needsGrad(inputs) && isFloatingType(out.dtype())) {
    bool aliasesInput = false;
    for (const Tensor &t : inputs)
      aliasesInput = aliasesInput || t.is_same(out);
    if (!aliasesInput)
      setHistory(out, makeNode(op, inputs, backward(out)), 0);
  }
  if (isRecording()) {
    AttrList a = attrs();
    notifyObserver(op, inputs, a, {out}, false);
  }
  return out;
}

/// An op whose result never requires grad (comparisons, argmax, ...).
template <class Kernel, class Attrs>
Tensor recordNonDifferentiable(const OpDef &op, TensorList inputs,
                               Kernel &&kernel, Attrs &&attrs) {
  Tensor out;
  {
    BelowAutograd below;
    out = kernel();
  }
  if (isRecording()) {
    AttrList a = attrs();
    notifyObserver(op, inputs, a, {out}, false);
  }
  return out;
}

/// Multi-output op; outputs[i] gets grad history when differentiable[i].
template <class Kernel, class Backward, class Attrs>
std::vector<Tensor> recordMulti(const OpDef &op, TensorList inputs,
                                Kernel &&kernel, Backward &&backward,
                                Attrs &&attrs,
                                std::initializer_list<bool> differentiable) {
  std::vector<Tensor> outs;
  {
    BelowAutograd below;
    outs = kernel();
  }
  if (op.backward[0] && needsGrad(inputs)) {
    auto node = makeNode(op, inputs, backward(outs));
    node->set_num_inputs(uint32_t(outs.size()));
    size_t i = 0;
    for (bool d : differentiable) {
      if (d && isFloatingType(outs[i].dtype()))
        setHistory(outs[i], node, uint32_t(i));
      ++i;
    }
  }
  if (isRecording()) {
    AttrList a = attrs();
    notifyObserver(op, inputs, a, outs, false);
  }
  return outs;
}

/// A composite op: `body` runs ordinary public ops (their autograd nodes
/// make the gradient); the observer sees only this op.
template <class Body, class Attrs>
Tensor recordComposite(const OpDef &op, TensorList inputs, Body &&body,
                       Attrs &&attrs) {
  if (!isRecording())
    return body();
  Tensor out;
  {
    RecordPauseGuard pause;
    out = body();
  }
  AttrList a = attrs();
  notifyObserver(op, inputs, a, {out}, false);
  return out;
}

/// Checks that `self` may be modified in place with grad mode on.
void checkInplace(const Tensor &self, TensorList others);

/// In-place op `self.op_(others)`. Without grad, `inplace()` writes into
/// self. With grad, `functional(selfValue)` computes the result out of
/// place (building the graph); the result is copied into self and self takes
/// over its history. `savesSelf` says whether the formula keeps self's old
/// value (then it is computed on a copy, since self is about to change).
template <class Inplace, class Functional, class Attrs>
const Tensor &recordInplace(const OpDef &op, const Tensor &self,
                            TensorList inputs, Inplace &&inplace,
                            Functional &&functional, Attrs &&attrs,
                            bool savesSelf = true);

void inplaceWithGrad(const Tensor &self, TensorList inputs,
                     const std::function<Tensor(const Tensor &)> &functional,
                     bool savesSelf);

template <class Inplace, class Functional, class Attrs>
const Tensor &recordInplace(const OpDef &op, const Tensor &self,
                            TensorList inputs, Inplace &&inplace,
                            Functional &&functional, Attrs &&attrs,
                            bool savesSelf) {
  checkInplace(self, inputs);
  // The observer keys values by tensor identity, so reporting after the
  // write still names self's old value as the input.
  bool recording = isRecording();
  if (needsGrad(inputs)) {
    RecordPauseGuard pause;
    inplaceWithGrad(self, inputs, functional, savesSelf);
  } else {
    BelowAutograd below;
    inplace();
    self.unsafeGetTensorImpl()->bumpVersion();
  }
  if (recording) {
    AttrList a = attrs();
    notifyObserver(op, inputs, a, {self}, true);
  }
  return self;
}

} // namespace detail
} // namespace tcc

#endif // TCC_LIB_AUTOGRAD_RECORD_H
