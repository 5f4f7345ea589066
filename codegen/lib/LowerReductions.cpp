//===- LowerReductions.cpp - Reductions, softmax and normalization --------===//
//
// A reduction is a linalg.generic whose loops are the kept dims (parallel,
// outermost) and then the reduced dims (reduction), except that kept dims
// after a reduced one stay innermost when the last dim is kept (see
// ReductionLoops: a pool over NHWC's H and W). Multi-step ops (mean,
// argmax, softmax, layer_norm) chain generics through temporaries of the
// kept dims; the temporaries and the result share the input's leading dim as
// their leading dim whenever that dim is kept, so tcc-tile-kernels can still
// split rows across threads.
//
// Float sums and products accumulate with fastmath<reassoc> (see
// accumulateAdd). f16/bf16 inputs accumulate in f32 and round once at the
// end, as PyTorch's CPU kernels do.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;
using namespace mlir::tcc::lowering;

namespace {

/// The map from loops over `shape` (identity) to a tensor of its kept dims.
AffineMap keptDimsOf(MLIRContext *ctx, const ReductionLoops &loops) {
  SmallVector<AffineExpr> exprs;
  for (int64_t d : loops.kept)
    exprs.push_back(getAffineDimExpr(d, ctx));
  return AffineMap::get(loops.inputShape.size(), 0, exprs, ctx);
}

/// Reduces `input` into a new tensor of the kept dims, starting from `init`;
/// `combine(acc, x)` sees x promoted to the accumulator's type. Extra inputs
/// (`keptInputs`, tensors of the kept dims) arrive after x.
Value reduce(
    OpBuilder &b, Location loc, const ReductionLoops &loops, Value input,
    Value init, ValueRange keptInputs,
    function_ref<Value(OpBuilder &, Location, Value acc, ValueRange)> combine) {
  SmallVector<Value> inputs = {input};
  inputs.append(keptInputs.begin(), keptInputs.end());
  SmallVector<AffineMap> maps = {loops.inputMap()};
  maps.append(keptInputs.size(), loops.keptMap());
  maps.push_back(loops.keptMap());
  Value out = filledTensor(b, loc, loops.keptShape, init);
  return buildGeneric(
      b, loc, inputs, out, maps, loops.iterators(),
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        SmallVector<Value> values = {promote(nb, l, args[0])};
        for (Value v : args.drop_front().drop_back())
          values.push_back(v);
        return {combine(nb, l, args.back(), values)};
      })[0];
}

/// An elementwise generic over tensors of the kept dims.
Value keptElementwise(OpBuilder &b, Location loc, const ReductionLoops &loops,
                      ValueRange inputs, Type element, ScalarBody body) {
  return buildElementwise(b, loc, loops.keptShape, element, inputs, body);
}

//===----------------------------------------------------------------------===//
// reduce_sum / mean / prod / max / min
//===----------------------------------------------------------------------===//

enum class ReduceKind { Sum, Mean, Prod, Max, Min };

template <typename Op, ReduceKind kind> struct ReduceLowering : TccPattern<Op> {
  using TccPattern<Op>::TccPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = this->convertedType(op.getResult());
    Type element = resultType.getElementType();
    Type acc = computeType(element);
    bool isUnsigned =
        isUnsignedElement(op.getInput().getType().getElementType());
    ReductionLoops loops(rewriter.getContext(), inputType.getShape(),
                         op.getDims());

    Value init;
    switch (kind) {
    case ReduceKind::Sum:
    case ReduceKind::Mean:
      init = numberConstant(rewriter, loc, acc, 0);
      break;
    case ReduceKind::Prod:
      init = numberConstant(rewriter, loc, acc, 1);
      break;
    case ReduceKind::Max:
      init = lowest(rewriter, loc, acc, isUnsigned);
      break;
    case ReduceKind::Min:
      init = highest(rewriter, loc, acc, isUnsigned);
      break;
    }
    auto combine = [&](OpBuilder &b, Location l, Value a, ValueRange v) {
      switch (kind) {
      case ReduceKind::Sum:
      case ReduceKind::Mean:
        return accumulateAdd(b, l, a, v[0]);
      case ReduceKind::Prod:
        return accumulateMul(b, l, a, v[0]);
      case ReduceKind::Max:
        return maximum(b, l, a, v[0], isUnsigned);
      case ReduceKind::Min:
        return minimum(b, l, a, v[0], isUnsigned);
      }
      llvm_unreachable("reduce kind");
    };

    // Straight into the result when nothing follows the accumulation.
    if (acc == element && kind != ReduceKind::Mean) {
      AffineMap outMap = op.getKeepdim() ? loops.keepdimMap() : loops.keptMap();
      Value out = filledTensor(rewriter, loc, resultType.getShape(), init);
      rewriter.replaceOp(
          op, buildGeneric(rewriter, loc, input, out,
                           {loops.inputMap(), outMap}, loops.iterators(),
                           [&](OpBuilder &b, Location l,
                               ValueRange args) -> SmallVector<Value> {
                             return {combine(b, l, args[1], args[0])};
                           })[0]);
      return success();
    }

    Value reduced = reduce(rewriter, loc, loops, input, init, {}, combine);
    double count = static_cast<double>(loops.reducedCount());
    // The result (kept dims, or with size-1 dims for keepdim) reads the
    // accumulator through a projection.
    SmallVector<AffineExpr> exprs;
    for (auto [i, size] : llvm::enumerate(resultType.getShape()))
      if (!op.getKeepdim() || !llvm::is_contained(loops.reduced, int64_t(i)))
        exprs.push_back(rewriter.getAffineDimExpr(i));
    int64_t rank = resultType.getRank();
    Value out = emptyTensor(rewriter, loc, resultType.getShape(), element);
    rewriter.replaceOp(
        op, buildGeneric(
                rewriter, loc, reduced, out,
                {AffineMap::get(rank, 0, exprs, rewriter.getContext()),
                 rewriter.getMultiDimIdentityMap(rank)},
                iteratorTypes(rank),
                [&](OpBuilder &b, Location l,
                    ValueRange args) -> SmallVector<Value> {
                  Value v = args[0];
                  if (kind == ReduceKind::Mean) // 0 / 0 = NaN for an empty mean
                    v = b.create<arith::DivFOp>(
                        l, v, floatConstant(b, l, acc, count));
                  return {demote(b, l, v, element)};
                })[0]);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// argmax / argmin
//===----------------------------------------------------------------------===//

/// One pass along `dim` carrying the best value (a temporary) and its index
/// (the result). Only a strictly better element replaces the best, so the
/// first index wins ties; NaN counts as better than any number, so the
/// first NaN wins, as in PyTorch.
template <typename Op, bool isMax> struct ArgReduceLowering : TccPattern<Op> {
  using TccPattern<Op>::TccPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = this->convertedType(op.getResult());
    Type acc = computeType(inputType.getElementType());
    bool isUnsigned =
        isUnsignedElement(op.getInput().getType().getElementType());
    int64_t dim = normalizeDim(op.getDim(), inputType.getRank());
    ReductionLoops loops(rewriter.getContext(), inputType.getShape(), {dim});

    Value bestInit = isMax ? lowest(rewriter, loc, acc, isUnsigned)
                           : highest(rewriter, loc, acc, isUnsigned);
    Value best = filledTensor(rewriter, loc, loops.keptShape, bestInit);
    Value index = filledTensor(
        rewriter, loc, resultType.getShape(),
        intConstant(rewriter, loc, resultType.getElementType(), 0));
    AffineMap indexMap = op.getKeepdim() ? loops.keepdimMap() : loops.keptMap();
    int64_t reducedLoop = loops.loopOf(dim);
    SmallVector<Value> results = buildGeneric(
        rewriter, loc, input, ValueRange{best, index},
        {loops.inputMap(), loops.keptMap(), indexMap}, loops.iterators(),
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value x = promote(b, l, args[0]), current = args[1];
          Value better;
          if (isa<FloatType>(acc)) {
            better = b.create<arith::CmpFOp>(l,
                                             isMax ? arith::CmpFPredicate::OGT
                                                   : arith::CmpFPredicate::OLT,
                                             x, current);
            Value xNan =
                b.create<arith::CmpFOp>(l, arith::CmpFPredicate::UNO, x, x);
            Value currentNumber = b.create<arith::CmpFOp>(
                l, arith::CmpFPredicate::ORD, current, current);
            better = b.create<arith::OrIOp>(
                l, better, b.create<arith::AndIOp>(l, xNan, currentNumber));
          } else {
            using P = arith::CmpIPredicate;
            P predicate = isMax ? (isUnsigned ? P::ugt : P::sgt)
                                : (isUnsigned ? P::ult : P::slt);
            better = b.create<arith::CmpIOp>(l, predicate, x, current);
          }
          Value i = b.create<arith::IndexCastOp>(
              l, b.getI64Type(), b.create<linalg::IndexOp>(l, reducedLoop));
          return {b.create<arith::SelectOp>(l, better, x, current),
                  b.create<arith::SelectOp>(l, better, i, args[2])};
        });
    rewriter.replaceOp(op, results[1]);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// softmax / log_softmax
//===----------------------------------------------------------------------===//

/// Numerically stable: m = max(x), s = sum(exp(x - m)), then
/// softmax = exp(x - m) * (1 / s) and log_softmax = (x - m) - log(s), as
/// ATen's vectorized kernels compute them. The exponentials, the row
/// temporaries and the result are all indexed by the input's leading dim, so
/// a softmax along any other dim still tiles by rows.
template <typename Op, bool isLog> struct SoftmaxLowering : TccPattern<Op> {
  using TccPattern<Op>::TccPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type element = type.getElementType(), acc = computeType(element);
    int64_t dim = normalizeDim(op.getDim(), type.getRank());
    ReductionLoops loops(ctx, type.getShape(), {dim});

    Value max =
        reduce(rewriter, loc, loops, input, lowest(rewriter, loc, acc, false),
               {}, [](OpBuilder &b, Location l, Value a, ValueRange v) {
                 return maximum(b, l, a, v[0], false);
               });
    int64_t rank = type.getRank();
    AffineMap kept = keptDimsOf(ctx, loops);
    Value zero = floatConstant(rewriter, loc, acc, 0.0);
    auto reciprocal = [](OpBuilder &b, Location l, ValueRange v) -> Value {
      return b.create<arith::DivFOp>(
          l, floatConstant(b, l, v[0].getType(), 1.0), v[0]);
    };
    if (!isLog && acc == element) {
      // exp(x - max) is stored in the result while it is summed, then scaled
      // in place: one exp per element.
      SmallVector<Value> expAndSum = buildGeneric(
          rewriter, loc, ValueRange{input, max},
          ValueRange{emptyTensor(rewriter, loc, type.getShape(), element),
                     filledTensor(rewriter, loc, loops.keptShape, zero)},
          {loops.inputMap(), loops.keptMap(), loops.inputMap(),
           loops.keptMap()},
          loops.iterators(),
          [](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
            Value e = b.create<math::ExpOp>(
                l, b.create<arith::SubFOp>(l, args[0], args[1]));
            return {e, accumulateAdd(b, l, args[3], e)};
          });
      Value scale =
          keptElementwise(rewriter, loc, loops, expAndSum[1], acc, reciprocal);
      rewriter.replaceOp(
          op,
          buildGeneric(rewriter, loc, scale, expAndSum[0],
                       {kept, rewriter.getMultiDimIdentityMap(rank)},
                       iteratorTypes(rank),
                       [](OpBuilder &b, Location l,
                          ValueRange args) -> SmallVector<Value> {
                         return {b.create<arith::MulFOp>(l, args[1], args[0])};
                       })[0]);
      return success();
    }

    // f16/bf16 (whose result cannot hold the f32 exponentials) and
    // log_softmax: sum first, then recompute from x.
    Value sum = reduce(rewriter, loc, loops, input, zero, max,
                       [](OpBuilder &b, Location l, Value a, ValueRange v) {
                         Value shifted = b.create<arith::SubFOp>(l, v[0], v[1]);
                         return accumulateAdd(
                             b, l, a, b.create<math::ExpOp>(l, shifted));
                       });
    Value scale =
        keptElementwise(rewriter, loc, loops, sum, acc,
                        [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                          if (isLog)
                            return b.create<math::LogOp>(l, v[0]);
                          return reciprocal(b, l, v);
                        });

    Value out = emptyTensor(rewriter, loc, type.getShape(), element);
    rewriter.replaceOp(
        op,
        buildGeneric(
            rewriter, loc, ValueRange{input, max, scale}, out,
            {rewriter.getMultiDimIdentityMap(rank), kept, kept,
             rewriter.getMultiDimIdentityMap(rank)},
            iteratorTypes(rank),
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value shifted =
                  b.create<arith::SubFOp>(l, promote(b, l, args[0]), args[1]);
              Value y =
                  isLog
                      ? b.create<arith::SubFOp>(l, shifted, args[2]).getResult()
                      : b.create<arith::MulFOp>(
                             l, b.create<math::ExpOp>(l, shifted), args[2])
                            .getResult();
              return {demote(b, l, y, element)};
            })[0]);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// layer_norm / batch_norm
//===----------------------------------------------------------------------===//

/// Two passes over each row for an accurate variance: mean = sum(x) / n,
/// var = sum((x - mean)^2) / n (biased, as PyTorch), then
/// y = (x - mean) * (1 / sqrt(var + eps)) [* weight] [+ bias]. The mean and
/// variance accumulate in f64, as the eager layer_norm's do: in f32 the
/// squares overflow once a row holds values past 1.8e19, and a row holding
/// FLT_MAX would come out as its bias instead of the finite normalized row.
struct LayerNormLowering : TccPattern<tcc::LayerNormOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::LayerNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type element = type.getElementType(), acc = rewriter.getF64Type();
    auto widen = [&](OpBuilder &b, Location l, Value v) -> Value {
      return v.getType() == acc ? v : b.create<arith::ExtFOp>(l, acc, v);
    };
    int64_t rank = type.getRank();
    int64_t normalized = op.getNormalizedShape().size();
    SmallVector<int64_t> dims;
    for (int64_t d = rank - normalized; d < rank; ++d)
      dims.push_back(d);
    ReductionLoops loops(ctx, type.getShape(), dims);
    double count = static_cast<double>(loops.reducedCount());
    double eps = op.getEps().convertToDouble();

    Value zero = floatConstant(rewriter, loc, acc, 0.0);
    Value sum = reduce(rewriter, loc, loops, input, zero, {},
                       [&](OpBuilder &b, Location l, Value a, ValueRange v) {
                         return accumulateAdd(b, l, a, widen(b, l, v[0]));
                       });
    Value mean =
        keptElementwise(rewriter, loc, loops, sum, acc,
                        [&](OpBuilder &b, Location l, ValueRange v) -> Value {
                          return b.create<arith::DivFOp>(
                              l, v[0], floatConstant(b, l, acc, count));
                        });
    Value squares = reduce(
        rewriter, loc, loops, input, zero, mean,
        [&](OpBuilder &b, Location l, Value a, ValueRange v) {
          Value centered = b.create<arith::SubFOp>(l, widen(b, l, v[0]), v[1]);
          return accumulateAdd(b, l, a,
                               b.create<arith::MulFOp>(l, centered, centered));
        });
    Value rstd = keptElementwise(
        rewriter, loc, loops, squares, acc,
        [&](OpBuilder &b, Location l, ValueRange v) -> Value {
          Value var =
              b.create<arith::DivFOp>(l, v[0], floatConstant(b, l, acc, count));
          Value denominator = b.create<math::SqrtOp>(
              l,
              b.create<arith::AddFOp>(l, var, floatConstant(b, l, acc, eps)));
          return b.create<arith::DivFOp>(l, floatConstant(b, l, acc, 1.0),
                                         denominator);
        });

    // The pass over the elements runs in the compute type, at the input's
    // full vector width (f64 would halve it).
    Type compute = computeType(element);
    auto narrow = [&](Value stat) -> Value {
      if (compute == acc)
        return stat;
      return keptElementwise(
          rewriter, loc, loops, stat, compute,
          [&](OpBuilder &b, Location l, ValueRange v) -> Value {
            return b.create<arith::TruncFOp>(l, compute, v[0]);
          });
    };
    AffineMap kept = keptDimsOf(ctx, loops);
    SmallVector<Value> inputs = {input, narrow(mean), narrow(rstd)};
    SmallVector<AffineMap> maps = {rewriter.getMultiDimIdentityMap(rank), kept,
                                   kept};
    Value weight = adaptor.getWeight(), bias = adaptor.getBias();
    for (Value affine : {weight, bias})
      if (affine) {
        inputs.push_back(affine);
        maps.push_back(broadcastMap(cast<ShapedType>(affine.getType()), type));
      }
    maps.push_back(rewriter.getMultiDimIdentityMap(rank));
    Value out = emptyTensor(rewriter, loc, type.getShape(), element);
    rewriter.replaceOp(
        op,
        buildGeneric(
            rewriter, loc, inputs, out, maps, iteratorTypes(rank),
            [&](OpBuilder &b, Location l,
                ValueRange args) -> SmallVector<Value> {
              Value centered =
                  b.create<arith::SubFOp>(l, promote(b, l, args[0]), args[1]);
              Value y = b.create<arith::MulFOp>(l, centered, args[2]);
              unsigned next = 3;
              if (weight)
                y = b.create<arith::MulFOp>(l, y, promote(b, l, args[next++]));
              if (bias)
                y = b.create<arith::AddFOp>(l, y, promote(b, l, args[next++]));
              return {demote(b, l, y, element)};
            })[0]);
    return success();
  }
};

/// Inference form, per element as ATen's batch_norm_cpu_inference computes
/// it: alpha = weight / sqrt(var + eps), beta = bias - mean * alpha,
/// y = x * alpha + beta. One generic over the input, so tiles stay per batch
/// row.
struct BatchNormLowering : TccPattern<tcc::BatchNormOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::BatchNormOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto type = cast<RankedTensorType>(input.getType());
    Type element = type.getElementType(), acc = computeType(element);
    int64_t rank = type.getRank();
    double eps = op.getEps().convertToDouble();
    AffineMap channel = AffineMap::get(rank, 0, rewriter.getAffineDimExpr(1));
    AffineMap identity = rewriter.getMultiDimIdentityMap(rank);
    Value out = emptyTensor(rewriter, loc, type.getShape(), element);
    rewriter.replaceOp(
        op, buildGeneric(
                rewriter, loc,
                ValueRange{input, adaptor.getWeight(), adaptor.getBias(),
                           adaptor.getRunningMean(), adaptor.getRunningVar()},
                out, {identity, channel, channel, channel, channel, identity},
                iteratorTypes(rank),
                [&](OpBuilder &b, Location l,
                    ValueRange args) -> SmallVector<Value> {
                  SmallVector<Value> v;
                  for (Value arg : args.drop_back())
                    v.push_back(promote(b, l, arg));
                  Value denominator = b.create<math::SqrtOp>(
                      l, b.create<arith::AddFOp>(
                             l, v[4], floatConstant(b, l, acc, eps)));
                  Value alpha = b.create<arith::DivFOp>(l, v[1], denominator);
                  Value beta = b.create<arith::SubFOp>(
                      l, v[2], b.create<arith::MulFOp>(l, v[3], alpha));
                  Value y = b.create<arith::AddFOp>(
                      l, b.create<arith::MulFOp>(l, v[0], alpha), beta);
                  return {demote(b, l, y, element)};
                })[0]);
    return success();
  }
};

} // namespace

void tcc::lowering::populateReductionPatterns(const TypeConverter &converter,
                                              RewritePatternSet &patterns) {
  using namespace tcc;
  patterns.add<
      ReduceLowering<ReduceSumOp, ReduceKind::Sum>,
      ReduceLowering<ReduceMeanOp, ReduceKind::Mean>,
      ReduceLowering<ReduceProdOp, ReduceKind::Prod>,
      ReduceLowering<ReduceMaxOp, ReduceKind::Max>,
      ReduceLowering<ReduceMinOp, ReduceKind::Min>,
      ArgReduceLowering<ArgmaxOp, true>, ArgReduceLowering<ArgminOp, false>,
      SoftmaxLowering<SoftmaxOp, false>, SoftmaxLowering<LogSoftmaxOp, true>,
      LayerNormLowering, BatchNormLowering>(converter, patterns.getContext());
}
