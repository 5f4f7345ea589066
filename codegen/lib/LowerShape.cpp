//===- LowerShape.cpp - Constants, views, data movement, indexing ---------===//
//
// Reshape becomes a view (tensor.collapse_shape / expand_shape); transpose,
// broadcast and slice become linalg.generic ops whose input maps do the
// index arithmetic; concat, pad and the index-driven reads (gather,
// index_select, embedding) become a generic over the result that reads
// with tensor.extract at computed, clamped indices, so that no read leaves
// its tensor.
//
// Out-of-range indices: PyTorch raises; a kernel cannot, so gather,
// index_select and embedding clamp every index into [0, size - 1] (an index
// below 0 reads entry 0, one past the end reads the last entry). When the
// indexed dim is empty there is nothing to read and the result is zeros.
//
// Scatter is a copy of its input and then a sequential scf.for nest over the
// updates in row-major order, so duplicates resolve deterministically (the
// last write wins). An update whose index is out of range writes nothing:
// it stores the old value back at a clamped position, never outside.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/ReshapeOpsUtils.h"
#include "mlir/IR/DialectResourceBlobManager.h"

using namespace mlir;
using namespace mlir::tcc::lowering;

namespace {

struct ConstantLowering : TccPattern<tcc::ConstantOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    Attribute value = op.getValue();
    // ui8 data keeps its bytes under the signless i8 type.
    if (cast<TypedAttr>(value).getType() != type) {
      if (auto dense = dyn_cast<DenseElementsAttr>(value))
        value = dense.bitcast(type.getElementType());
      else if (auto blob = dyn_cast<DenseResourceElementsAttr>(value))
        value = DenseResourceElementsAttr::get(type, blob.getRawHandle());
      else
        return rewriter.notifyMatchFailure(op, "unsupported constant kind");
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(op, type,
                                                   cast<TypedAttr>(value));
    return success();
  }
};

/// A view: collapse_shape or expand_shape when one reassociation relates
/// the shapes, else a collapse to 1-D followed by an expand.
struct ReshapeLowering : TccPattern<tcc::ReshapeOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::ReshapeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto from = cast<RankedTensorType>(input.getType());
    RankedTensorType to = convertedType(op.getResult());
    if (from == to) {
      rewriter.replaceOp(op, input);
      return success();
    }
    if (from.getRank() != to.getRank()) {
      if (auto reassociation = getReassociationIndicesForReshape(from, to)) {
        if (from.getRank() > to.getRank())
          rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, to, input,
                                                               *reassociation);
        else
          rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, to, input,
                                                             *reassociation);
        return success();
      }
    }
    auto flatType =
        RankedTensorType::get({from.getNumElements()}, from.getElementType());
    auto all = [](int64_t rank) {
      ReassociationIndices group;
      for (int64_t d = 0; d < rank; ++d)
        group.push_back(d);
      return SmallVector<ReassociationIndices>(rank ? 1 : 0, group);
    };
    Value flat = from.getRank() == 1
                     ? input
                     : rewriter.create<tensor::CollapseShapeOp>(
                           loc, flatType, input, all(from.getRank()));
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(op, to, flat,
                                                       all(to.getRank()));
    return success();
  }
};

struct TransposeLowering : TccPattern<tcc::TransposeOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    ArrayRef<int64_t> permutation = op.getPermutation();
    MLIRContext *ctx = rewriter.getContext();
    // Result dim i is input dim permutation[i].
    SmallVector<AffineExpr> exprs(permutation.size());
    for (auto [i, p] : llvm::enumerate(permutation))
      exprs[p] = getAffineDimExpr(i, ctx);
    rewriter.replaceOp(
        op, buildMappedCopy(rewriter, op.getLoc(), adaptor.getInput(), type,
                            AffineMap::get(type.getRank(), 0, exprs, ctx)));
    return success();
  }
};

struct BroadcastToLowering : TccPattern<tcc::BroadcastToOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::BroadcastToOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    Value result = buildElementwise(
        rewriter, op.getLoc(), type.getShape(), type.getElementType(),
        adaptor.getInput(),
        [](OpBuilder &, Location, ValueRange args) { return args[0]; });
    rewriter.replaceOp(op, skipIdentityGeneric(rewriter, result));
    return success();
  }
};

struct SliceLowering : TccPattern<tcc::SliceOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::SliceOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    MLIRContext *ctx = rewriter.getContext();
    int64_t rank = type.getRank();
    ArrayRef<int64_t> start = op.getStart(), step = op.getStep();
    // A dim cut short from 0 with step 1 maps to a plain loop dim, from
    // which linalg would take the input's larger size as the loop range (a
    // verifier error): such slices read with tensor.extract in the body.
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    for (int64_t d = 0; d < rank; ++d) {
      if (start[d] != 0 || step[d] != 1 ||
          inputType.getDimSize(d) == type.getDimSize(d))
        continue;
      Value input = adaptor.getInput();
      Value init = emptyTensor(rewriter, op.getLoc(), type.getShape(),
                               type.getElementType());
      Value result = buildGeneric(
          rewriter, op.getLoc(), {}, init,
          rewriter.getMultiDimIdentityMap(rank), iteratorTypes(rank),
          [&](OpBuilder &b, Location l, ValueRange) -> SmallVector<Value> {
            SmallVector<Value> at;
            for (int64_t k = 0; k < rank; ++k)
              at.push_back(b.create<arith::AddIOp>(
                  l,
                  b.create<arith::MulIOp>(l, b.create<linalg::IndexOp>(l, k),
                                          indexConstant(b, l, step[k])),
                  indexConstant(b, l, start[k])));
            return {b.create<tensor::ExtractOp>(l, input, at)};
          })[0];
      rewriter.replaceOp(op, result);
      return success();
    }
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d < rank; ++d)
      exprs.push_back(getAffineDimExpr(d, ctx) * step[d] + start[d]);
    rewriter.replaceOp(
        op, buildMappedCopy(rewriter, op.getLoc(), adaptor.getInput(), type,
                            AffineMap::get(rank, 0, exprs, ctx)));
    return success();
  }
};

/// Each result element reads the input that holds its position along `dim`
/// (a chain of selects over clamped reads of every non-empty input).
struct ConcatLowering : TccPattern<tcc::ConcatOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::ConcatOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    int64_t rank = type.getRank();
    int64_t dim = normalizeDim(op.getDim(), rank);
    SmallVector<std::pair<Value, int64_t>> parts; // input, offset along dim
    int64_t offset = 0;
    for (Value input : adaptor.getInputs()) {
      int64_t size = cast<RankedTensorType>(input.getType()).getDimSize(dim);
      if (size > 0)
        parts.push_back({input, offset});
      offset += size;
    }
    Location loc = op.getLoc();
    Value init =
        emptyTensor(rewriter, loc, type.getShape(), type.getElementType());
    if (parts.empty() || type.getNumElements() == 0) {
      rewriter.replaceOp(op, init);
      return success();
    }
    Value result = buildGeneric(
        rewriter, loc, {}, init, rewriter.getMultiDimIdentityMap(rank),
        iteratorTypes(rank),
        [&](OpBuilder &b, Location l, ValueRange) -> SmallVector<Value> {
          SmallVector<Value> indices;
          for (int64_t d = 0; d < rank; ++d)
            indices.push_back(b.create<linalg::IndexOp>(l, d));
          Value position = indices[dim];
          auto read = [&](auto part) -> Value {
            auto [input, start] = part;
            int64_t size =
                cast<RankedTensorType>(input.getType()).getDimSize(dim);
            SmallVector<Value> at = indices;
            at[dim] = clampedIndex(b, l,
                                   b.create<arith::SubIOp>(
                                       l, position, indexConstant(b, l, start)),
                                   size);
            return b.create<tensor::ExtractOp>(l, input, at);
          };
          Value value = read(parts.back());
          for (int64_t k = parts.size() - 2; k >= 0; --k) {
            Value inPart = b.create<arith::CmpIOp>(
                l, arith::CmpIPredicate::slt, position,
                indexConstant(b, l, parts[k + 1].second));
            value = b.create<arith::SelectOp>(l, inPart, read(parts[k]), value);
          }
          return {value};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// A generic over the result that reads `source` at the loop indices, with
/// `dim` replaced by a clamped index taken from `index` (read through
/// `indexMap`). `resultDimOf(d)` names the loop that indexes source dim d.
Value indexedRead(OpBuilder &b, Location loc, RankedTensorType resultType,
                  Value source, int64_t dim, Value index, AffineMap indexMap,
                  function_ref<int64_t(int64_t)> loopOfSourceDim) {
  auto sourceType = cast<RankedTensorType>(source.getType());
  Type element = resultType.getElementType();
  if (sourceType.getDimSize(dim) == 0) // nothing to read
    return filledTensor(b, loc, resultType.getShape(),
                        numberConstant(b, loc, element, 0));
  int64_t rank = resultType.getRank();
  Value init = emptyTensor(b, loc, resultType.getShape(), element);
  return buildGeneric(
      b, loc, index, init, {indexMap, b.getMultiDimIdentityMap(rank)},
      iteratorTypes(rank),
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        SmallVector<Value> at;
        for (int64_t d = 0; d < sourceType.getRank(); ++d)
          at.push_back(
              d == dim
                  ? clampedIndex(nb, l, args[0], sourceType.getDimSize(dim))
                  : nb.create<linalg::IndexOp>(l, loopOfSourceDim(d))
                        .getResult());
        return {nb.create<tensor::ExtractOp>(l, source, at)};
      })[0];
}

struct GatherLowering : TccPattern<tcc::GatherOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::GatherOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    int64_t rank = type.getRank();
    int64_t dim = normalizeDim(op.getDim(), rank);
    rewriter.replaceOp(op,
                       indexedRead(rewriter, op.getLoc(), type,
                                   adaptor.getInput(), dim, adaptor.getIndex(),
                                   rewriter.getMultiDimIdentityMap(rank),
                                   [](int64_t d) { return d; }));
    return success();
  }
};

/// `acc <reduction> update` for one element of a scatter (not 'none'), in
/// the promoted compute type (f16/bf16 as f32).
Value combineScatter(OpBuilder &b, Location loc, tcc::ScatterReduction kind,
                     Value x, Value y, bool isUnsigned) {
  Value r;
  switch (kind) {
  case tcc::ScatterReduction::add:
    r = add(b, loc, x, y);
    break;
  case tcc::ScatterReduction::mul:
    r = mul(b, loc, x, y);
    break;
  case tcc::ScatterReduction::max:
    r = maximum(b, loc, x, y, isUnsigned);
    break;
  default:
    r = minimum(b, loc, x, y, isUnsigned);
    break;
  }
  return r;
}

struct ScatterLowering : TccPattern<tcc::ScatterOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::ScatterOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = convertedType(op.getResult());
    Type element = type.getElementType();
    bool isUnsigned = isUnsignedElement(op.getType().getElementType());
    int64_t rank = type.getRank();
    int64_t dim = normalizeDim(op.getDim(), rank);
    int64_t size = type.getDimSize(dim);
    auto indexType = cast<RankedTensorType>(adaptor.getIndex().getType());
    // A copy of the input of its own, so the loop never writes the input.
    Value copy = rewriter
                     .create<linalg::CopyOp>(
                         loc, adaptor.getInput(),
                         emptyTensor(rewriter, loc, type.getShape(), element))
                     ->getResult(0);
    if (indexType.getNumElements() == 0 || size == 0) {
      rewriter.replaceOp(op, copy);
      return success();
    }
    SmallVector<Value> lbs(rank, indexConstant(rewriter, loc, 0)),
        steps(rank, indexConstant(rewriter, loc, 1)), ubs;
    for (int64_t d = 0; d < rank; ++d)
      ubs.push_back(indexConstant(rewriter, loc, indexType.getDimSize(d)));
    Value index = adaptor.getIndex(), updates = adaptor.getUpdates();
    tcc::ScatterReduction kind = op.getReduction();
    scf::LoopNest nest = scf::buildLoopNest(
        rewriter, loc, lbs, ubs, steps, ValueRange{copy},
        [&](OpBuilder &b, Location l, ValueRange ivs,
            ValueRange acc) -> scf::ValueVector {
          Value raw = b.create<tensor::ExtractOp>(l, index, ivs);
          Value target = b.create<arith::IndexCastOp>(l, b.getIndexType(), raw);
          Value inRange = b.create<arith::AndIOp>(
              l,
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sge, target,
                                      indexConstant(b, l, 0)),
              b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt, target,
                                      indexConstant(b, l, size)));
          SmallVector<Value> at(ivs.begin(), ivs.end());
          at[dim] = clampedIndex(b, l, target, size);
          Value old = b.create<tensor::ExtractOp>(l, acc[0], at);
          Value update = b.create<tensor::ExtractOp>(l, updates, ivs);
          Value combined =
              kind == tcc::ScatterReduction::none
                  ? update
                  : demote(b, l,
                           combineScatter(b, l, kind, promote(b, l, old),
                                          promote(b, l, update), isUnsigned),
                           element);
          Value value = b.create<arith::SelectOp>(l, inRange, combined, old);
          return {b.create<tensor::InsertOp>(l, value, acc[0], at)};
        });
    rewriter.replaceOp(op, nest.results);
    return success();
  }
};

struct IndexSelectLowering : TccPattern<tcc::IndexSelectOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::IndexSelectOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    int64_t rank = type.getRank();
    int64_t dim = normalizeDim(op.getDim(), rank);
    auto indexType = cast<RankedTensorType>(adaptor.getIndex().getType());
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    if (indexType.getRank() == 1)
      exprs.push_back(getAffineDimExpr(dim, ctx));
    rewriter.replaceOp(
        op, indexedRead(rewriter, op.getLoc(), type, adaptor.getInput(), dim,
                        adaptor.getIndex(), AffineMap::get(rank, 0, exprs, ctx),
                        [](int64_t d) { return d; }));
    return success();
  }
};

struct EmbeddingLowering : TccPattern<tcc::EmbeddingOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::EmbeddingOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    int64_t rank = type.getRank(); // indices' rank + 1
    MLIRContext *ctx = rewriter.getContext();
    SmallVector<AffineExpr> exprs;
    for (int64_t d = 0; d + 1 < rank; ++d)
      exprs.push_back(getAffineDimExpr(d, ctx));
    // weight[indices[i...], j]: row from the index, column from the last loop.
    rewriter.replaceOp(op,
                       indexedRead(rewriter, op.getLoc(), type,
                                   adaptor.getWeight(), 0, adaptor.getIndices(),
                                   AffineMap::get(rank, 0, exprs, ctx),
                                   [rank](int64_t) { return rank - 1; }));
    return success();
  }
};

struct PadLowering : TccPattern<tcc::PadOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::PadOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = convertedType(op.getResult());
    int64_t rank = type.getRank();
    ArrayRef<int64_t> pad = op.getPad(); // last dim first: left, right, ...
    SmallVector<int64_t> low(rank, 0);
    for (size_t i = 0; i < pad.size() / 2; ++i)
      low[rank - 1 - i] = pad[2 * i];
    Value value = numberConstant(rewriter, op.getLoc(), type.getElementType(),
                                 op.getValue().convertToDouble());
    rewriter.replaceOp(op, padTensor(rewriter, op.getLoc(), adaptor.getInput(),
                                     low, type.getShape(), value));
    return success();
  }
};

} // namespace

void tcc::lowering::populateShapePatterns(const TypeConverter &converter,
                                          RewritePatternSet &patterns) {
  patterns
      .add<ConstantLowering, ReshapeLowering, TransposeLowering,
           BroadcastToLowering, SliceLowering, ConcatLowering, GatherLowering,
           ScatterLowering, IndexSelectLowering, EmbeddingLowering, PadLowering>(
          converter, patterns.getContext());
}
