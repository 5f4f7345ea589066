//===- TccTraits.h - Op traits of the tcc dialect ---------------*- C++ -*-===//

#ifndef TCC_IR_TCCTRAITS_H
#define TCC_IR_TCCTRAITS_H

#include "mlir/IR/OpDefinition.h"

namespace mlir::tcc::detail {
/// Fails, naming the operand or result, when a tensor's element count or byte
/// size overflows int64_t.
LogicalResult verifyBoundedTensorSizes(Operation *op);
} // namespace mlir::tcc::detail

namespace mlir::OpTrait::tcc {
/// Every operand and result tensor has an element count and byte size that
/// fit in int64_t.
template <typename ConcreteType>
class BoundedTensorSizes : public TraitBase<ConcreteType, BoundedTensorSizes> {
public:
  static LogicalResult verifyTrait(Operation *op) {
    return ::mlir::tcc::detail::verifyBoundedTensorSizes(op);
  }
};

/// Each result element depends only on the operand elements at the same
/// (broadcast) position: the op can join an elementwise fusion group.
template <typename ConcreteType>
class Pointwise : public TraitBase<ConcreteType, Pointwise> {};
} // namespace mlir::OpTrait::tcc

#endif // TCC_IR_TCCTRAITS_H
