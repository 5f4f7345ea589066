//===- SavedVariable.h - A tensor kept for the backward pass ----*- C++ -*-===//
//
// Backward formulas keep their inputs and outputs as SavedVariables. A saved
// output does not hold its own grad_fn (that would be a reference cycle:
// output -> grad_fn -> saved output); `unpack` restores it from the node that
// unpacks it, as PyTorch's SavedVariable does. The version of the data at
// save time is recorded, so an in-place change before backward is reported.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_AUTOGRAD_SAVEDVARIABLE_H
#define TCC_FRONTEND_AUTOGRAD_SAVEDVARIABLE_H

#include "tcc/Frontend/Autograd/Node.h"

namespace tcc {
namespace autograd {

class SavedVariable {
public:
  SavedVariable() = default;
  SavedVariable(const Tensor &tensor, bool is_output);

  /// The saved tensor; `saved_for` is the node that owns this variable (it
  /// becomes the grad_fn of an unpacked output). Throws if the data were
  /// freed or changed in place since they were saved.
  Tensor unpack(const std::shared_ptr<Node> &saved_for = nullptr) const;
  void reset_data();
  bool defined() const { return wasDefined_; }

private:
  Tensor data_;
  uint32_t savedVersion_ = 0;
  uint32_t outputNr_ = 0;
  bool isOutput_ = false;
  bool requiresGrad_ = false;
  bool wasDefined_ = false;
  bool released_ = false;
  std::string producer_; // grad_fn name of the saved tensor, for errors
};

} // namespace autograd
} // namespace tcc

#endif // TCC_FRONTEND_AUTOGRAD_SAVEDVARIABLE_H
