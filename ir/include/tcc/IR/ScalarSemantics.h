//===- ScalarSemantics.h - Pointwise tcc ops as scalar functions -*- C++ -*-===//
//
// The table from each pointwise tcc op to its per-element functions, built on
// tcc/runtime/ScalarOps.h (the one definition of what each op computes). The
// dialect's splat folders and tcc-fold-constants' evaluator both read it, so
// neither holds a copy of an op's semantics.
//
// Floats are computed in double and rounded once to the element type by the
// caller (for +, -, *, / and sqrt of f32/f16/bf16 values that is the
// correctly rounded result). Integers are widened to 64 bits (zero-extended
// when unsigned, i1 included) and truncated back, which is two's complement
// wrap-around.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_SCALARSEMANTICS_H
#define TCC_IR_SCALARSEMANTICS_H

#include "mlir/IR/Operation.h"

#include <functional>
#include <optional>

namespace mlir::tcc {

/// An integer element type as the scalar functions see it.
struct IntElement {
  unsigned width;
  bool isUnsigned; // ui8 and i1 compare, extend and divide unsigned
};

/// The IntElement of `type`, or nullopt when it is no integer type of at
/// most 64 bits (an unsigned 64-bit type has no int64_t form either).
std::optional<IntElement> intElementOf(Type type);

/// One op's per-element functions. A function is empty where the op takes
/// no such elements; an empty result means the value has no exact meaning
/// (an integer division by zero, a clamp bound outside the type), so the
/// caller must not fold. Comparisons and logical ops return 0 or 1.
struct ScalarFunctions {
  std::function<double(double)> floatUnary;
  std::function<std::optional<int64_t>(int64_t, IntElement)> intUnary;
  std::function<double(double, double)> floatBinary;
  std::function<std::optional<int64_t>(int64_t, int64_t, IntElement)>
      intBinary;
};

/// The functions of `op` (with its attributes: clamp's bounds, gelu's
/// form), or nullopt when its kind has no entry.
std::optional<ScalarFunctions> scalarFunctions(Operation *op);

/// Whether ops of kind `name` have an entry in the table.
bool hasScalarFunctions(OperationName name);

/// Pointwise ops that are no function of one element type, each with the
/// reason and the place that defines it instead.
struct NonScalarPointwiseOp {
  StringLiteral name;
  StringLiteral reason;
};
ArrayRef<NonScalarPointwiseOp> nonScalarPointwiseOps();

} // namespace mlir::tcc

#endif // TCC_IR_SCALARSEMANTICS_H
