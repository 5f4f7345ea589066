//===- OpHelpers.h - Shared inference, verification, folding ----*- C++ -*-===//
//
// Private to ir/lib/IR. Result-type inference runs before ODS's operand and
// attribute checks, so every helper here validates what it reads and reports
// through OpDiag instead of asserting.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_LIB_OPHELPERS_H
#define TCC_IR_LIB_OPHELPERS_H

#include "tcc/IR/TccOps.h"

#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/APInt.h"

namespace mlir::tcc::detail {

/// Emits "'tcc.x' op ..." at an optional location (inference may run with
/// none, e.g. when a pass builds an op speculatively).
struct OpDiag {
  std::optional<Location> loc;
  StringRef opName;

  template <typename... Args> LogicalResult operator()(Args &&...args) const {
    return emitOptionalError(loc, "'", opName, "' op ",
                             std::forward<Args>(args)...);
  }
};

/// `value`'s type as a statically shaped ranked tensor, or a diagnostic.
FailureOr<RankedTensorType> getStaticTensor(const OpDiag &diag, Value value,
                                            StringRef what);

/// `dim` in [-rank, rank) made non-negative, or a diagnostic.
FailureOr<int64_t> normalizeDim(const OpDiag &diag, int64_t dim, int64_t rank,
                                StringRef what = "dim");

/// `dims` made non-negative; rejects out-of-range and repeated dims.
FailureOr<SmallVector<int64_t>>
normalizeDims(const OpDiag &diag, ArrayRef<int64_t> dims, int64_t rank);

/// Fails unless every tensor in `types` has `types[0]`'s element type.
LogicalResult requireSameElementType(const OpDiag &diag,
                                     ArrayRef<RankedTensorType> types);

// Inference, one function per op (or op family); see the op descriptions in
// the .td files for the rules. Required attributes arrive as attributes that
// may be null: inference can run before ODS has checked they are present.
LogicalResult inferBroadcast(const OpDiag &diag, ArrayRef<Value> operands,
                             Type resultElement,
                             SmallVectorImpl<Type> &results);
LogicalResult inferSelect(const OpDiag &diag, Value condition, Value onTrue,
                          Value onFalse, SmallVectorImpl<Type> &results);
LogicalResult inferMatmul(const OpDiag &diag, Value lhs, Value rhs,
                          SmallVectorImpl<Type> &results);
LogicalResult inferLinear(const OpDiag &diag, Value input, Value weight,
                          Value bias, SmallVectorImpl<Type> &results);
LogicalResult inferConv2d(const OpDiag &diag, Conv2dOp::Adaptor adaptor,
                          SmallVectorImpl<Type> &results);
/// The result shape of a 2-D convolution in `layout`; checks the optional
/// bias ([O]) and that `types` (with the bias appended) share one element
/// type. Shared by conv2d and conv2d_integer.
FailureOr<SmallVector<int64_t>>
inferConv2dShape(const OpDiag &diag, RankedTensorType input,
                 RankedTensorType weight, ArrayRef<int64_t> stride,
                 ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation,
                 int64_t groups, Layout layout, Value bias,
                 SmallVectorImpl<RankedTensorType> &types);
LogicalResult inferQuantize(const OpDiag &diag, Value input, Value scale,
                            Value zeroPoint, uint64_t axis,
                            SmallVectorImpl<Type> &results);
LogicalResult inferDequantize(const OpDiag &diag, Value input, Value scale,
                              Value zeroPoint, uint64_t axis,
                              SmallVectorImpl<Type> &results);
LogicalResult inferRequantize(const OpDiag &diag, Value input, Value multiplier,
                              Value zeroPoint, uint64_t axis,
                              SmallVectorImpl<Type> &results);
LogicalResult inferMatmulInteger(const OpDiag &diag, Value lhs, Value rhs,
                                 Value lhsZeroPoint, Value rhsZeroPoint,
                                 SmallVectorImpl<Type> &results);
LogicalResult inferConv2dInteger(const OpDiag &diag,
                                 Conv2dIntegerOp::Adaptor adaptor,
                                 SmallVectorImpl<Type> &results);
LogicalResult inferMaxPool2d(const OpDiag &diag, MaxPool2dOp::Adaptor adaptor,
                             SmallVectorImpl<Type> &results);
LogicalResult inferAvgPool2d(const OpDiag &diag, AvgPool2dOp::Adaptor adaptor,
                             SmallVectorImpl<Type> &results);
LogicalResult inferAdaptiveAvgPool2d(const OpDiag &diag,
                                     AdaptiveAvgPool2dOp::Adaptor adaptor,
                                     SmallVectorImpl<Type> &results);
LogicalResult inferReduce(const OpDiag &diag, Value input,
                          DenseI64ArrayAttr dims, bool keepdim,
                          bool requireNonEmpty, SmallVectorImpl<Type> &results);
LogicalResult inferArgReduce(const OpDiag &diag, Value input, IntegerAttr dim,
                             bool keepdim, SmallVectorImpl<Type> &results);
LogicalResult inferLayerNorm(const OpDiag &diag, LayerNormOp::Adaptor adaptor,
                             SmallVectorImpl<Type> &results);
LogicalResult inferBatchNorm(const OpDiag &diag, BatchNormOp::Adaptor adaptor,
                             SmallVectorImpl<Type> &results);
LogicalResult inferTranspose(const OpDiag &diag, Value input,
                             DenseI64ArrayAttr permutation,
                             SmallVectorImpl<Type> &results);
LogicalResult inferSlice(const OpDiag &diag, Value input,
                         DenseI64ArrayAttr start, DenseI64ArrayAttr end,
                         DenseI64ArrayAttr step,
                         SmallVectorImpl<Type> &results);
LogicalResult inferConcat(const OpDiag &diag, ValueRange inputs,
                          IntegerAttr dim, SmallVectorImpl<Type> &results);
LogicalResult inferGather(const OpDiag &diag, Value input, Value index,
                          IntegerAttr dim, SmallVectorImpl<Type> &results);
LogicalResult inferScatter(const OpDiag &diag, Value input, Value index,
                           Value updates, IntegerAttr dim,
                           ScatterReductionAttr reduction,
                           SmallVectorImpl<Type> &results);
LogicalResult inferIndexSelect(const OpDiag &diag, Value input, Value index,
                               IntegerAttr dim, SmallVectorImpl<Type> &results);
LogicalResult inferEmbedding(const OpDiag &diag, Value indices, Value weight,
                             SmallVectorImpl<Type> &results);
LogicalResult inferPad(const OpDiag &diag, Value input, DenseI64ArrayAttr pad,
                       llvm::APFloat value, SmallVectorImpl<Type> &results);

// Folding helpers.

/// The splat value of a constant operand attribute, or null.
Attribute getSplatValue(Attribute operand);

/// Whether `attr` is a splat of float 0 / 1 or integer 0 / 1.
bool isSplatOf(Attribute attr, int64_t value);

/// The right identities `x op c == x` for every x, NaN and -0.0 included.
enum class Identity {
  AddZero, // floats: -0.0 (x + +0.0 turns -0.0 into +0.0); integers: 0
  SubZero, // floats: +0.0 (x - -0.0 turns -0.0 into +0.0); integers: 0
  One,     // 1 (x * 1, x / 1, pow(x, 1))
};

/// Whether `attr` is a splat holding `identity` (never for i1).
bool isSplatIdentity(Attribute attr, Identity identity);

/// A splat of `type` holding `value` (FloatAttr or IntegerAttr), or null.
Attribute makeSplat(ShapedType type, Attribute value);

/// Whether `value` is a whole number that `elementType` (an integer type)
/// represents exactly.
bool fitsIntegerType(double value, Type elementType);

/// Rewrites an op's negative `dim` attribute in place to the canonical
/// non-negative form; true if it changed (the folder then returns the op's
/// own result to report an in-place update).
template <typename Op> bool canonicalizeDim(Op op, int64_t rank) {
  auto dim = static_cast<int64_t>(op.getDim());
  if (dim >= 0)
    return false;
  op.setDim(static_cast<uint64_t>(dim + rank));
  return true;
}

} // namespace mlir::tcc::detail

#endif // TCC_IR_LIB_OPHELPERS_H
