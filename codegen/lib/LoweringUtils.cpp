//===- LoweringUtils.cpp - Shared pieces of the tcc -> linalg lowering ----===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"

#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::tcc::lowering;

//===----------------------------------------------------------------------===//
// Element types and scalars
//===----------------------------------------------------------------------===//

bool tcc::lowering::isUnsignedElement(Type element) {
  return element.isUnsignedInteger() || element.isInteger(1);
}

bool tcc::lowering::isHalf(Type element) {
  return element.isF16() || element.isBF16();
}

Type tcc::lowering::storageType(Type element) {
  if (auto integer = dyn_cast<IntegerType>(element);
      integer && !integer.isSignless())
    return IntegerType::get(element.getContext(), integer.getWidth());
  return element;
}

Type tcc::lowering::computeType(Type element) {
  element = storageType(element);
  return isHalf(element) ? Float32Type::get(element.getContext()) : element;
}

Value tcc::lowering::promote(OpBuilder &b, Location loc, Value scalar) {
  if (!isHalf(scalar.getType()))
    return scalar;
  return b.create<arith::ExtFOp>(loc, b.getF32Type(), scalar);
}

Value tcc::lowering::demote(OpBuilder &b, Location loc, Value scalar,
                            Type storage) {
  if (!isHalf(storage) || scalar.getType() == storage)
    return scalar;
  return b.create<arith::TruncFOp>(loc, storage, scalar);
}

Value tcc::lowering::floatConstant(OpBuilder &b, Location loc, Type type,
                                   const APFloat &value) {
  APFloat converted = value;
  bool losesInfo;
  converted.convert(cast<FloatType>(type).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
  return b.create<arith::ConstantOp>(loc, b.getFloatAttr(type, converted));
}

Value tcc::lowering::floatConstant(OpBuilder &b, Location loc, Type type,
                                   double value) {
  return floatConstant(b, loc, type, APFloat(value));
}

Value tcc::lowering::intConstant(OpBuilder &b, Location loc, Type type,
                                 const APInt &value) {
  return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(type, value));
}

Value tcc::lowering::intConstant(OpBuilder &b, Location loc, Type type,
                                 int64_t value) {
  unsigned width = type.getIntOrFloatBitWidth();
  return intConstant(b, loc, type,
                     APInt(64, value, /*isSigned=*/true).trunc(width));
}

Value tcc::lowering::indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return b.create<arith::ConstantIndexOp>(loc, value);
}

Value tcc::lowering::numberConstant(OpBuilder &b, Location loc, Type type,
                                    double value) {
  if (isa<FloatType>(type))
    return floatConstant(b, loc, type, value);
  return intConstant(b, loc, type, static_cast<int64_t>(value));
}

static Value extreme(OpBuilder &b, Location loc, Type type, bool isUnsigned,
                     bool high) {
  if (auto floatType = dyn_cast<FloatType>(type))
    return floatConstant(b, loc, type,
                         APFloat::getInf(floatType.getFloatSemantics(), !high));
  unsigned width = type.getIntOrFloatBitWidth();
  APInt value = isUnsigned ? (high ? APInt::getMaxValue(width)
                                   : APInt::getMinValue(width))
                           : (high ? APInt::getSignedMaxValue(width)
                                   : APInt::getSignedMinValue(width));
  return intConstant(b, loc, type, value);
}

Value tcc::lowering::highest(OpBuilder &b, Location loc, Type type,
                             bool isUnsigned) {
  return extreme(b, loc, type, isUnsigned, /*high=*/true);
}

Value tcc::lowering::lowest(OpBuilder &b, Location loc, Type type,
                            bool isUnsigned) {
  return extreme(b, loc, type, isUnsigned, /*high=*/false);
}

Value tcc::lowering::add(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::AddFOp>(loc, lhs, rhs);
  return b.create<arith::AddIOp>(loc, lhs, rhs);
}

Value tcc::lowering::sub(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::SubFOp>(loc, lhs, rhs);
  return b.create<arith::SubIOp>(loc, lhs, rhs);
}

Value tcc::lowering::mul(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::MulFOp>(loc, lhs, rhs);
  return b.create<arith::MulIOp>(loc, lhs, rhs);
}

Value tcc::lowering::accumulateAdd(OpBuilder &b, Location loc, Value acc,
                                   Value value) {
  if (isa<FloatType>(acc.getType()))
    return b.create<arith::AddFOp>(loc, acc, value,
                                   arith::FastMathFlags::reassoc);
  return b.create<arith::AddIOp>(loc, acc, value);
}

Value tcc::lowering::accumulateMul(OpBuilder &b, Location loc, Value acc,
                                   Value value) {
  if (isa<FloatType>(acc.getType()))
    return b.create<arith::MulFOp>(loc, acc, value,
                                   arith::FastMathFlags::reassoc);
  return b.create<arith::MulIOp>(loc, acc, value);
}

Value tcc::lowering::maximum(OpBuilder &b, Location loc, Value lhs, Value rhs,
                             bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::MaximumFOp>(loc, lhs, rhs);
  if (isUnsigned)
    return b.create<arith::MaxUIOp>(loc, lhs, rhs);
  return b.create<arith::MaxSIOp>(loc, lhs, rhs);
}

Value tcc::lowering::minimum(OpBuilder &b, Location loc, Value lhs, Value rhs,
                             bool isUnsigned) {
  if (isa<FloatType>(lhs.getType()))
    return b.create<arith::MinimumFOp>(loc, lhs, rhs);
  if (isUnsigned)
    return b.create<arith::MinUIOp>(loc, lhs, rhs);
  return b.create<arith::MinSIOp>(loc, lhs, rhs);
}

Value tcc::lowering::convertScalar(OpBuilder &b, Location loc, Value value,
                                   Type to, bool fromUnsigned) {
  Type from = value.getType();
  if (from == to)
    return value;
  if (to.isInteger(1)) {
    Value zero = numberConstant(b, loc, from, 0);
    if (isa<FloatType>(from)) // NaN counts as non-zero, as in PyTorch
      return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, value,
                                     zero);
    return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, value, zero);
  }
  Type f32 = b.getF32Type();
  if (auto fromFloat = dyn_cast<FloatType>(from)) {
    value = promote(b, loc, value);
    fromFloat = cast<FloatType>(value.getType());
    if (auto toFloat = dyn_cast<FloatType>(to)) {
      // Half targets round from f32, as c10::Half/BFloat16 construct from
      // float (so f64 -> bf16 rounds twice, like PyTorch).
      Type wide = isHalf(to) ? f32 : to;
      if (fromFloat.getWidth() > cast<FloatType>(wide).getWidth())
        value = b.create<arith::TruncFOp>(loc, wide, value);
      else if (fromFloat.getWidth() < cast<FloatType>(wide).getWidth())
        value = b.create<arith::ExtFOp>(loc, wide, value);
      return demote(b, loc, value, to);
    }
    // Toward zero; 8-bit targets convert through i32 and wrap, as a C++
    // static_cast compiles on x86 (out-of-range values are not defined).
    unsigned width = to.getIntOrFloatBitWidth();
    if (width >= 32)
      return b.create<arith::FPToSIOp>(loc, to, value);
    Value wide = b.create<arith::FPToSIOp>(loc, b.getI32Type(), value);
    return b.create<arith::TruncIOp>(loc, to, wide);
  }
  if (auto toFloat = dyn_cast<FloatType>(to)) {
    Type target = isHalf(to) ? f32 : to;
    Value converted =
        fromUnsigned
            ? b.create<arith::UIToFPOp>(loc, target, value).getResult()
            : b.create<arith::SIToFPOp>(loc, target, value).getResult();
    return demote(b, loc, converted, to);
  }
  unsigned fromWidth = from.getIntOrFloatBitWidth(),
           toWidth = to.getIntOrFloatBitWidth();
  if (fromWidth > toWidth)
    return b.create<arith::TruncIOp>(loc, to, value);
  if (fromUnsigned)
    return b.create<arith::ExtUIOp>(loc, to, value);
  return b.create<arith::ExtSIOp>(loc, to, value);
}

Value tcc::lowering::clampedIndex(OpBuilder &b, Location loc, Value integer,
                                  int64_t size) {
  Value index = integer;
  if (!index.getType().isIndex())
    index = b.create<arith::IndexCastOp>(loc, b.getIndexType(), integer);
  index = b.create<arith::MaxSIOp>(loc, index, indexConstant(b, loc, 0));
  return b.create<arith::MinSIOp>(loc, index, indexConstant(b, loc, size - 1));
}

//===----------------------------------------------------------------------===//
// Tensors and linalg.generic
//===----------------------------------------------------------------------===//

Value tcc::lowering::emptyTensor(OpBuilder &b, Location loc,
                                 ArrayRef<int64_t> shape, Type element) {
  return b.create<tensor::EmptyOp>(loc, shape, element);
}

Value tcc::lowering::filledTensor(OpBuilder &b, Location loc,
                                  ArrayRef<int64_t> shape, Value scalar) {
  Value empty = emptyTensor(b, loc, shape, scalar.getType());
  return b.create<linalg::FillOp>(loc, scalar, empty).result();
}

AffineMap tcc::lowering::broadcastMap(ShapedType operand, ShapedType result) {
  MLIRContext *ctx = result.getContext();
  int64_t offset = result.getRank() - operand.getRank();
  SmallVector<AffineExpr> exprs;
  for (int64_t i = 0; i < operand.getRank(); ++i) {
    bool broadcast =
        operand.getDimSize(i) == 1 && result.getDimSize(i + offset) != 1;
    exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                              : getAffineDimExpr(i + offset, ctx));
  }
  return AffineMap::get(result.getRank(), 0, exprs, ctx);
}

SmallVector<utils::IteratorType>
tcc::lowering::iteratorTypes(int64_t parallel, int64_t reduction) {
  SmallVector<utils::IteratorType> iterators(parallel,
                                             utils::IteratorType::parallel);
  iterators.append(reduction, utils::IteratorType::reduction);
  return iterators;
}

SmallVector<Value>
tcc::lowering::buildGeneric(OpBuilder &b, Location loc, ValueRange inputs,
                            ValueRange outputs, ArrayRef<AffineMap> maps,
                            ArrayRef<utils::IteratorType> iterators,
                            GenericBody body) {
  auto generic = b.create<linalg::GenericOp>(
      loc, outputs.getTypes(), inputs, outputs, maps, iterators,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        nested.create<linalg::YieldOp>(nestedLoc,
                                       body(nested, nestedLoc, args));
      });
  return SmallVector<Value>(generic.getResults().begin(),
                            generic.getResults().end());
}

void tcc::lowering::copyReturnedArguments(func::ReturnOp ret) {
  OpBuilder b(ret);
  llvm::SmallPtrSet<Value, 4> seen;
  for (OpOperand &operand : ret->getOpOperands()) {
    Value value = operand.get();
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || (!isa<BlockArgument>(value) && seen.insert(value).second))
      continue;
    Value init = b.create<tensor::EmptyOp>(ret.getLoc(), type.getShape(),
                                           type.getElementType());
    operand.set(
        b.create<linalg::CopyOp>(ret.getLoc(), value, init).getResult(0));
  }
}

Value tcc::lowering::buildMappedCopy(RewriterBase &rewriter, Location loc,
                                     Value input, RankedTensorType type,
                                     AffineMap inputMap) {
  int64_t rank = type.getRank();
  Value init = emptyTensor(rewriter, loc, type.getShape(), type.getElementType());
  Value result =
      buildGeneric(rewriter, loc, input, init,
                   {inputMap, rewriter.getMultiDimIdentityMap(rank)},
                   iteratorTypes(rank),
                   [](OpBuilder &, Location, ValueRange args) {
                     return SmallVector<Value>{args[0]};
                   })[0];
  return skipIdentityGeneric(rewriter, result);
}

Value tcc::lowering::skipIdentityGeneric(RewriterBase &rewriter, Value result) {
  auto generic = result.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumDpsInputs() != 1 ||
      generic.getNumResults() != 1)
    return result;
  auto yield = cast<linalg::YieldOp>(generic.getBody()->getTerminator());
  Value input = generic.getDpsInputs()[0];
  bool copies = yield.getOperand(0) == generic.getBody()->getArgument(0) &&
                input.getType() == result.getType() &&
                llvm::all_of(generic.getIndexingMapsArray(),
                             [](AffineMap map) { return map.isIdentity(); });
  if (!copies)
    return result;
  rewriter.eraseOp(generic);
  return input;
}

Value tcc::lowering::buildElementwise(OpBuilder &b, Location loc,
                                      ArrayRef<int64_t> shape, Type element,
                                      ValueRange inputs, ScalarBody body) {
  auto resultType = RankedTensorType::get(shape, element);
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(broadcastMap(cast<ShapedType>(input.getType()), resultType));
  maps.push_back(b.getMultiDimIdentityMap(shape.size()));
  Value init = emptyTensor(b, loc, shape, element);
  return buildGeneric(b, loc, inputs, init, maps, iteratorTypes(shape.size()),
                      [&](OpBuilder &nested, Location nestedLoc,
                          ValueRange args) -> SmallVector<Value> {
                        return {body(nested, nestedLoc, args.drop_back())};
                      })[0];
}

Value tcc::lowering::convertTensor(OpBuilder &b, Location loc, Value tensor,
                                   Type element, bool fromUnsigned) {
  auto type = cast<RankedTensorType>(tensor.getType());
  if (type.getElementType() == element)
    return tensor;
  return buildElementwise(
      b, loc, type.getShape(), element, tensor,
      [&](OpBuilder &nested, Location nestedLoc, ValueRange args) {
        return convertScalar(nested, nestedLoc, args[0], element, fromUnsigned);
      });
}

Value tcc::lowering::padTensor(OpBuilder &b, Location loc, Value tensor,
                               ArrayRef<int64_t> low, ArrayRef<int64_t> shape,
                               Value padValue) {
  auto type = cast<RankedTensorType>(tensor.getType());
  ArrayRef<int64_t> inShape = type.getShape();
  // Nothing to read: every position is padding.
  if (type.getNumElements() == 0)
    return filledTensor(b, loc, shape, padValue);
  int64_t rank = type.getRank();
  Value init = emptyTensor(b, loc, shape, type.getElementType());
  return buildGeneric(
      b, loc, {}, init, b.getMultiDimIdentityMap(rank), iteratorTypes(rank),
      [&](OpBuilder &nb, Location l, ValueRange) -> SmallVector<Value> {
        Value inside;
        SmallVector<Value> indices;
        for (int64_t d = 0; d < rank; ++d) {
          Value i = nb.create<linalg::IndexOp>(l, d);
          if (low[d] == 0 && shape[d] <= inShape[d]) {
            indices.push_back(i); // always in bounds
            continue;
          }
          Value source =
              nb.create<arith::SubIOp>(l, i, indexConstant(nb, l, low[d]));
          Value geZero = nb.create<arith::CmpIOp>(
              l, arith::CmpIPredicate::sge, source, indexConstant(nb, l, 0));
          Value ltSize =
              nb.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, source,
                                       indexConstant(nb, l, inShape[d]));
          Value ok = nb.create<arith::AndIOp>(l, geZero, ltSize);
          inside = inside ? nb.create<arith::AndIOp>(l, inside, ok) : ok;
          indices.push_back(clampedIndex(nb, l, source, inShape[d]));
        }
        Value value = nb.create<tensor::ExtractOp>(l, tensor, indices);
        if (inside)
          value = nb.create<arith::SelectOp>(l, inside, value, padValue);
        return {value};
      })[0];
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

int64_t tcc::lowering::normalizeDim(int64_t dim, int64_t rank) {
  return dim < 0 ? dim + rank : dim;
}

ReductionLoops::ReductionLoops(MLIRContext *ctx, ArrayRef<int64_t> shape,
                               ArrayRef<int64_t> reducedDims)
    : ctx(ctx), inputShape(shape) {
  int64_t rank = shape.size();
  SmallVector<bool> isReduced(rank, false);
  for (int64_t d : reducedDims)
    isReduced[normalizeDim(d, rank)] = true;
  for (int64_t d = 0; d < rank; ++d) {
    (isReduced[d] ? reduced : kept).push_back(d);
    if (!isReduced[d])
      keptShape.push_back(shape[d]);
  }
  // Kept dims first, reduced dims innermost; but when the input's last dim
  // is kept (a reduction over H and W of NHWC), the kept dims after the
  // first reduced one go inside the reduction loops, so the innermost loop
  // walks contiguous memory instead of striding over it. The outermost
  // loop stays a kept dim where one other than the last exists (the one
  // tcc-tile-kernels splits across threads).
  bool lastKept = rank > 0 && !isReduced[rank - 1];
  if (!lastKept || reduced.empty()) {
    llvm::append_range(loopDims, kept);
    llvm::append_range(loopDims, reduced);
    return;
  }
  int64_t firstReduced = reduced.front();
  SmallVector<int64_t> outer, inner;
  for (int64_t d : kept)
    (d < firstReduced ? outer : inner).push_back(d);
  if (outer.empty() && inner.size() > 1)
    outer.push_back(inner.front());
  for (int64_t d : outer)
    llvm::erase(inner, d);
  llvm::append_range(loopDims, outer);
  llvm::append_range(loopDims, reduced);
  llvm::append_range(loopDims, inner);
}

int64_t ReductionLoops::loopOf(int64_t dim) const {
  return llvm::find(loopDims, dim) - loopDims.begin();
}

AffineMap ReductionLoops::inputMap() const {
  SmallVector<AffineExpr> exprs(inputShape.size());
  for (auto [loop, d] : llvm::enumerate(loopDims))
    exprs[d] = getAffineDimExpr(loop, ctx);
  return AffineMap::get(numLoops(), 0, exprs, ctx);
}

AffineMap ReductionLoops::keptMap() const {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : kept)
    exprs.push_back(getAffineDimExpr(loopOf(d), ctx));
  return AffineMap::get(numLoops(), 0, exprs, ctx);
}

AffineMap ReductionLoops::keepdimMap() const {
  SmallVector<AffineExpr> exprs(inputShape.size(),
                                getAffineConstantExpr(0, ctx));
  for (int64_t d : kept)
    exprs[d] = getAffineDimExpr(loopOf(d), ctx);
  return AffineMap::get(numLoops(), 0, exprs, ctx);
}

SmallVector<utils::IteratorType> ReductionLoops::iterators() const {
  SmallVector<utils::IteratorType> types;
  for (int64_t d : loopDims)
    types.push_back(llvm::is_contained(reduced, d)
                        ? utils::IteratorType::reduction
                        : utils::IteratorType::parallel);
  return types;
}

int64_t ReductionLoops::reducedCount() const {
  int64_t count = 1;
  for (int64_t d : reduced)
    count *= inputShape[d];
  return count;
}
