//===- LoweringUtils.h - Shared parts of tcc -> linalg lowering -*- C++ -*-===//
//
// Private to codegen/lib. The lowering is split by op family
// (LowerElementwise, LowerReductions, LowerNN, LowerShape,
// LowerQuantization); this header holds
// what they share: element-type rules, scalar constants, and builders of
// linalg.generic ops on tensors.
//
// Element types. ui8 tensors arrive as signless i8 (arith has no unsigned
// types); each pattern reads the op's own types to choose unsigned
// arithmetic. f16 and bf16 compute in f32 and round once per result, as
// PyTorch's CPU kernels do, and reductions of them accumulate in f32.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_LIB_LOWERINGUTILS_H
#define TCC_CODEGEN_LIB_LOWERINGUTILS_H

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc::lowering {

//===----------------------------------------------------------------------===//
// Element types and scalars
//===----------------------------------------------------------------------===//

/// True for the element types whose integers compare, extend and divide as
/// unsigned: ui8, and i1 (true > false, as in PyTorch).
bool isUnsignedElement(Type element);
bool isHalf(Type element); // f16 or bf16

/// The element type arithmetic runs in: f32 for f16/bf16, else `element`
/// (after conversion: signless).
Type computeType(Type element);
/// `element` as the lowered IR stores it: ui8 becomes i8.
Type storageType(Type element);

/// A scalar of f16/bf16 extended to f32; anything else unchanged.
Value promote(OpBuilder &b, Location loc, Value scalar);
/// An f32 scalar rounded to `storage` when that is f16/bf16.
Value demote(OpBuilder &b, Location loc, Value scalar, Type storage);

Value floatConstant(OpBuilder &b, Location loc, Type type, double value);
Value floatConstant(OpBuilder &b, Location loc, Type type,
                    const APFloat &value);
Value intConstant(OpBuilder &b, Location loc, Type type, const APInt &value);
Value intConstant(OpBuilder &b, Location loc, Type type, int64_t value);
Value indexConstant(OpBuilder &b, Location loc, int64_t value);
/// A whole-number or float constant of a (signless) scalar type.
Value numberConstant(OpBuilder &b, Location loc, Type type, double value);
/// +inf/-inf for floats; the largest/smallest value for integers.
Value highest(OpBuilder &b, Location loc, Type type, bool isUnsigned);
Value lowest(OpBuilder &b, Location loc, Type type, bool isUnsigned);

/// Float or integer arithmetic on scalars of one type.
Value add(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value sub(OpBuilder &b, Location loc, Value lhs, Value rhs);
Value mul(OpBuilder &b, Location loc, Value lhs, Value rhs);
/// Accumulation inside a reduction. Float adds and multiplies carry
/// fastmath<reassoc>, so LLVM may reorder (and vectorize) the sum: the result
/// can differ from a sequential sum by rounding, as PyTorch's own vectorized
/// and blocked reductions do.
Value accumulateAdd(OpBuilder &b, Location loc, Value acc, Value value);
Value accumulateMul(OpBuilder &b, Location loc, Value acc, Value value);
/// Maximum/minimum; float NaN propagates.
Value maximum(OpBuilder &b, Location loc, Value lhs, Value rhs,
              bool isUnsigned);
Value minimum(OpBuilder &b, Location loc, Value lhs, Value rhs,
              bool isUnsigned);

/// Converts a scalar between any two signless element types: like
/// Tensor.to(dtype) (floats to integers truncate toward zero, anything to i1
/// tests for non-zero). `fromUnsigned` makes integer sources zero-extend.
Value convertScalar(OpBuilder &b, Location loc, Value value, Type to,
                    bool fromUnsigned);

/// An index-typed scalar from an integer of any width, clamped to
/// [0, size - 1] (size > 0) so that an out-of-range index reads the nearest
/// valid entry instead of memory outside the tensor.
Value clampedIndex(OpBuilder &b, Location loc, Value integer, int64_t size);

//===----------------------------------------------------------------------===//
// Tensors and linalg.generic
//===----------------------------------------------------------------------===//

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type element);
/// linalg.fill of `scalar` into a new tensor.
Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Value scalar);

/// The map from the result's iteration space to an operand broadcast into it
/// (NumPy rules: dims align on the right, size-1 dims read index 0).
AffineMap broadcastMap(ShapedType operand, ShapedType result);

SmallVector<utils::IteratorType> iteratorTypes(int64_t parallel,
                                               int64_t reduction = 0);

/// Computes the yielded values from the block arguments (inputs, then outputs).
using GenericBody =
    function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange)>;
SmallVector<Value> buildGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                                ValueRange outputs, ArrayRef<AffineMap> maps,
                                ArrayRef<utils::IteratorType> iterators,
                                GenericBody body);

/// A tensor of `type` whose element at index i is input[inputMap(i)] (a
/// transpose, a strided slice), or `input` itself when that is an identity
/// copy.
Value buildMappedCopy(RewriterBase &rewriter, Location loc, Value input,
                      RankedTensorType type, AffineMap inputMap);

/// `result` itself, or the input of the linalg.generic that produced it when
/// that generic only copies the input (same type, identity maps): the
/// generic is erased. Lowerings of identities (ui8 abs, full slices, ...)
/// return their operand rather than leave the canonicalizer to fold the
/// copy into a function argument after the lowering has run.
Value skipIdentityGeneric(RewriterBase &rewriter, Value result);

/// An identity op (dropout, a same-type reshape, ...) lowers to its operand,
/// so a function may return its own argument or one value twice. Each such
/// result gets a buffer of its own (a linalg.copy): bufferization turns
/// results into out-parameters, and MLIR 19's buffer-results-to-out-params
/// dereferences the defining op of every returned buffer.
void copyReturnedArguments(func::ReturnOp ret);

/// Computes one element from the input elements (outputs not passed).
using ScalarBody = function_ref<Value(OpBuilder &, Location, ValueRange)>;
/// A linalg.generic over `shape` that reads every input with broadcasting and
/// computes one element of `element` type with `body`.
Value buildElementwise(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                       Type element, ValueRange inputs, ScalarBody body);

/// `tensor` with every element converted by convertScalar (e.g. an f32
/// accumulator rounded to a bf16 result).
Value convertTensor(OpBuilder &b, Location loc, Value tensor, Type element,
                    bool fromUnsigned = false);

/// A tensor of shape `shape` read at `offsets` past `tensor`'s bounds (in
/// every dim, `low` before and the rest after): positions outside hold
/// `padValue`. Reads are clamped, so nothing outside `tensor` is touched.
Value padTensor(OpBuilder &b, Location loc, Value tensor, ArrayRef<int64_t> low,
                ArrayRef<int64_t> shape, Value padValue);

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// The loops of a reduction: the kept dims of the input first (parallel, in
/// order), then the reduced ones (reduction, in order). Parallel loops
/// outermost make the leading kept dim the kernel's tile dim, and the
/// innermost loop runs along the last reduced dim.
struct ReductionLoops {
  ReductionLoops(MLIRContext *ctx, ArrayRef<int64_t> inputShape,
                 ArrayRef<int64_t> reducedDims);

  /// Input dims -> loops.
  AffineMap inputMap() const;
  /// Loops -> a tensor of the kept dims (`keptShape`).
  AffineMap keptMap() const;
  /// Loops -> the input's shape with reduced dims of size 1 (keepdim).
  AffineMap keepdimMap() const;
  SmallVector<utils::IteratorType> iterators() const;
  int64_t numLoops() const { return kept.size() + reduced.size(); }
  /// Product of the reduced dims' sizes.
  int64_t reducedCount() const;
  /// The loop over input dim `dim`.
  int64_t loopOf(int64_t dim) const;

  MLIRContext *ctx;
  SmallVector<int64_t> inputShape, kept, reduced, keptShape;
  /// The input dim of each loop, outermost first.
  SmallVector<int64_t> loopDims;
};

/// Normalizes a dim in [-rank, rank) (the verifier guarantees the range).
int64_t normalizeDim(int64_t dim, int64_t rank);

//===----------------------------------------------------------------------===//
// Pattern families
//===----------------------------------------------------------------------===//

/// Base of every pattern: the converted result type at hand.
template <typename Op> struct TccPattern : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;
  RankedTensorType convertedType(Value value) const {
    return cast<RankedTensorType>(
        this->getTypeConverter()->convertType(value.getType()));
  }
};

void populateElementwisePatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);
void populateReductionPatterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);
void populateNNPatterns(const TypeConverter &converter,
                        RewritePatternSet &patterns);
void populateShapePatterns(const TypeConverter &converter,
                           RewritePatternSet &patterns);
void populateQuantizationPatterns(const TypeConverter &converter,
                                  RewritePatternSet &patterns);

} // namespace mlir::tcc::lowering

#endif // TCC_CODEGEN_LIB_LOWERINGUTILS_H
