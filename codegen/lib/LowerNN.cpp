//===- LowerNN.cpp - Matmul, linear, convolution and pooling --------------===//
//
// Contractions become linalg.generic ops with reduction loops innermost;
// convolution and pooling read their input through affine maps
// (`oh * stride + kh * dilation`), after copying it into a padded tensor
// when there is padding (zeros for convolution and average pooling, -inf
// for max pooling). The padded copy is a temporary that bufferization turns
// into a scratch argument: nothing is allocated inside kernels, and no read
// needs a bounds check. Windows of pooling ops iterate over a small "window"
// tensor (its shape gives the loop bounds; its contents are never read), as
// linalg's named pooling ops do.
//
// fp32 matmul and convolution normally run as the runtime's microkernels;
// these forms serve other dtypes and fusion. f16/bf16 accumulate in f32.
// The integer forms (matmul_integer, conv2d_integer) subtract the zero
// points in i32 and accumulate in i32, wrapping as ONNX allows.
//
//===----------------------------------------------------------------------===//

#include "LoweringUtils.h"

using namespace mlir;
using namespace mlir::tcc::lowering;

namespace {

/// init + sum over the reduction loops of lhs * rhs, promoted to the
/// accumulator's type (init's element type).
Value contract(OpBuilder &b, Location loc, Value lhs, Value rhs,
               ArrayRef<AffineMap> maps,
               ArrayRef<utils::IteratorType> iterators, Value init) {
  return buildGeneric(
      b, loc, ValueRange{lhs, rhs}, init, maps, iterators,
      [](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        Value product =
            mul(nb, l, promote(nb, l, args[0]), promote(nb, l, args[1]));
        return {accumulateAdd(nb, l, args[2], product)};
      })[0];
}

/// A tensor of `shape` whose elements are `values` (promoted) read through
/// `map`, or zeros when `values` is null: the starting accumulator of a
/// contraction with an optional bias.
Value biasOrZeros(OpBuilder &b, Location loc, ArrayRef<int64_t> shape, Type acc,
                  Value values, AffineMap map) {
  if (!values)
    return filledTensor(b, loc, shape, numberConstant(b, loc, acc, 0));
  Value init = emptyTensor(b, loc, shape, acc);
  return buildGeneric(
      b, loc, values, init, {map, b.getMultiDimIdentityMap(shape.size())},
      iteratorTypes(shape.size()),
      [](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        return {promote(nb, l, args[0])};
      })[0];
}

//===----------------------------------------------------------------------===//
// matmul / linear
//===----------------------------------------------------------------------===//

/// The indexing of a batched matmul over loops (batch..., m, n, k): lhs
/// [..., m, k], rhs [..., k, n] and the result [..., m, n], with an operand's
/// batch dims of size 1 broadcast like elementwise operands.
struct BatchedMatmulMaps {
  BatchedMatmulMaps(RankedTensorType result, RankedTensorType lhsType,
                    RankedTensorType rhsType) {
    MLIRContext *ctx = result.getContext();
    int64_t rank = result.getRank();
    loops = rank + 1;
    m = getAffineDimExpr(rank - 2, ctx);
    n = getAffineDimExpr(rank - 1, ctx);
    AffineExpr k = getAffineDimExpr(rank, ctx);
    auto batchExprs = [&](RankedTensorType type) {
      SmallVector<AffineExpr> exprs;
      int64_t batchRank = type.getRank() - 2, offset = rank - 2 - batchRank;
      for (int64_t i = 0; i < batchRank; ++i) {
        bool broadcast =
            type.getDimSize(i) == 1 && result.getDimSize(i + offset) != 1;
        exprs.push_back(broadcast ? getAffineConstantExpr(0, ctx)
                                  : getAffineDimExpr(i + offset, ctx));
      }
      return exprs;
    };
    SmallVector<AffineExpr> lhsExprs = batchExprs(lhsType);
    lhsExprs.append({m, k});
    SmallVector<AffineExpr> rhsExprs = batchExprs(rhsType);
    rhsExprs.append({k, n});
    lhs = AffineMap::get(loops, 0, lhsExprs, ctx);
    rhs = AffineMap::get(loops, 0, rhsExprs, ctx);
    this->result = AffineMap::get(
        loops, 0, AffineMap::getMultiDimIdentityMap(rank, ctx).getResults(),
        ctx);
  }

  int64_t loops;
  AffineExpr m, n;
  AffineMap lhs, rhs, result;
};

/// Batched, with batch dims broadcast like elementwise operands.
struct MatmulLowering : TccPattern<tcc::MatmulOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = convertedType(op.getResult());
    auto lhsType = cast<RankedTensorType>(adaptor.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(adaptor.getRhs().getType());
    BatchedMatmulMaps mm(resultType, lhsType, rhsType);
    int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps = {mm.lhs, mm.rhs, mm.result};
    Type element = resultType.getElementType(), acc = computeType(element);
    Value init = filledTensor(rewriter, loc, resultType.getShape(),
                              numberConstant(rewriter, loc, acc, 0));
    Value result = contract(rewriter, loc, adaptor.getLhs(), adaptor.getRhs(),
                            maps, iteratorTypes(rank, 1), init);
    rewriter.replaceOp(op, convertTensor(rewriter, loc, result, element));
    return success();
  }
};

/// y[..., o] = bias[o] + sum_k x[..., k] * w[o, k].
struct LinearLowering : TccPattern<tcc::LinearOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::LinearOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = convertedType(op.getResult());
    int64_t rank = resultType.getRank(), loops = rank + 1;
    SmallVector<AffineExpr> inputExprs, outExprs;
    for (int64_t d = 0; d < rank; ++d)
      outExprs.push_back(getAffineDimExpr(d, ctx));
    inputExprs.assign(outExprs.begin(), outExprs.end() - 1);
    AffineExpr o = getAffineDimExpr(rank - 1, ctx),
               k = getAffineDimExpr(rank, ctx);
    inputExprs.push_back(k);
    Type element = resultType.getElementType(), acc = computeType(element);
    Value init = biasOrZeros(
        rewriter, loc, resultType.getShape(), acc, adaptor.getBias(),
        AffineMap::get(rank, 0, getAffineDimExpr(rank - 1, ctx)));
    Value result =
        contract(rewriter, loc, adaptor.getInput(), adaptor.getWeight(),
                 {AffineMap::get(loops, 0, inputExprs, ctx),
                  AffineMap::get(loops, 0, {o, k}, ctx),
                  AffineMap::get(loops, 0, outExprs, ctx)},
                 iteratorTypes(rank, 1), init);
    rewriter.replaceOp(op, convertTensor(rewriter, loc, result, element));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Images: layouts, padding, windows
//===----------------------------------------------------------------------===//

/// Where batch, channels, height and width sit in an image tensor.
struct ImageDims {
  int64_t channel, height, width;
  explicit ImageDims(tcc::Layout layout)
      : channel(layout == tcc::Layout::NHWC ? 3 : 1),
        height(layout == tcc::Layout::NHWC ? 1 : 2),
        width(layout == tcc::Layout::NHWC ? 2 : 3) {}
};

/// The input copied into a tensor with `padding` (height, width) before
/// each spatial dim and enough after it for every window of the output:
/// at least the same padding, more when ceil_mode windows run past it.
/// The padded image's shape (padding before each spatial dim, and after it
/// as far as the output's windows reach), or none when windows stay inside
/// the image.
std::optional<SmallVector<int64_t>>
paddedShape(Value image, ImageDims dims, ArrayRef<int64_t> outShape,
            ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
            ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation) {
  auto type = cast<RankedTensorType>(image.getType());
  SmallVector<int64_t> shape(type.getShape());
  bool needed = false;
  for (int i = 0; i < 2; ++i) {
    int64_t d = i == 0 ? dims.height : dims.width;
    int64_t reach =
        (outShape[d] - 1) * stride[i] + (kernel[i] - 1) * dilation[i] + 1;
    int64_t size = std::max(shape[d] + 2 * padding[i], reach);
    needed |= padding[i] != 0 || size > shape[d];
    shape[d] = size;
  }
  if (!needed)
    return std::nullopt;
  return shape;
}

bool windowsLeaveImage(Value image, ImageDims dims, ArrayRef<int64_t> outShape,
                       ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
                       ArrayRef<int64_t> padding, ArrayRef<int64_t> dilation) {
  return paddedShape(image, dims, outShape, kernel, stride, padding, dilation)
      .has_value();
}

Value padImage(OpBuilder &b, Location loc, Value image, ImageDims dims,
               ArrayRef<int64_t> outShape, ArrayRef<int64_t> kernel,
               ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
               ArrayRef<int64_t> dilation, Value padValue) {
  std::optional<SmallVector<int64_t>> shape =
      paddedShape(image, dims, outShape, kernel, stride, padding, dilation);
  if (!shape)
    return image;
  SmallVector<int64_t> low(4, 0);
  low[dims.height] = padding[0];
  low[dims.width] = padding[1];
  return padTensor(b, loc, image, low, *shape, padValue);
}

/// A reduction over the windows of `image`: loops are the output's 4 dims
/// (in its layout) then kh, kw; the image is read at
/// (o * stride + k * dilation) in each spatial dim. The accumulator starts
/// as `init` (a tensor of the output's shape).
Value reduceWindows(
    OpBuilder &b, Location loc, Value image, ImageDims dims,
    ArrayRef<int64_t> kernel, ArrayRef<int64_t> stride,
    ArrayRef<int64_t> dilation, Value init,
    function_ref<Value(OpBuilder &, Location, Value acc, Value x)> combine) {
  MLIRContext *ctx = b.getContext();
  SmallVector<AffineExpr> imageExprs;
  for (int64_t d = 0; d < 4; ++d)
    imageExprs.push_back(getAffineDimExpr(d, ctx));
  imageExprs[dims.height] = getAffineDimExpr(dims.height, ctx) * stride[0] +
                            getAffineDimExpr(4, ctx) * dilation[0];
  imageExprs[dims.width] = getAffineDimExpr(dims.width, ctx) * stride[1] +
                           getAffineDimExpr(5, ctx) * dilation[1];
  Value window = emptyTensor(b, loc, kernel, b.getI8Type());
  return buildGeneric(
      b, loc, ValueRange{image, window}, init,
      {AffineMap::get(6, 0, imageExprs, ctx),
       AffineMap::get(
           6, 0, {getAffineDimExpr(4, ctx), getAffineDimExpr(5, ctx)}, ctx),
       AffineMap::get(
           6, 0, AffineMap::getMultiDimIdentityMap(4, ctx).getResults(), ctx)},
      iteratorTypes(4, 2),
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        return {combine(nb, l, args[2], promote(nb, l, args[0]))};
      })[0];
}

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

/// The maps of a direct convolution: loops (n, o, oh, ow, c, kh, kw) for
/// NCHW and (n, oh, ow, o, kh, kw, c) for NHWC, c running over one group's
/// channels; output channel o reads input channel
/// (o / (O / groups)) * (C / groups) + c.
struct ConvolutionMaps {
  AffineMap image, weight, output, outputChannel;

  ConvolutionMaps(MLIRContext *ctx, ImageDims dims, bool nhwc,
                  ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation,
                  int64_t groups, int64_t groupChannels, int64_t groupOutputs) {
    auto d = [&](int64_t i) { return getAffineDimExpr(i, ctx); };
    AffineExpr n = d(0), o = d(dims.channel), oh = d(dims.height),
               ow = d(dims.width);
    AffineExpr c = nhwc ? d(6) : d(4), kh = nhwc ? d(4) : d(5),
               kw = nhwc ? d(5) : d(6);
    AffineExpr inChannel =
        groups == 1 ? c : o.floorDiv(groupOutputs) * groupChannels + c;
    SmallVector<AffineExpr> imageExprs(4);
    imageExprs[0] = n;
    imageExprs[dims.channel] = inChannel;
    imageExprs[dims.height] = oh * stride[0] + kh * dilation[0];
    imageExprs[dims.width] = ow * stride[1] + kw * dilation[1];
    SmallVector<AffineExpr> weightExprs =
        nhwc ? SmallVector<AffineExpr>{o, kh, kw, c}
             : SmallVector<AffineExpr>{o, c, kh, kw};
    image = AffineMap::get(7, 0, imageExprs, ctx);
    weight = AffineMap::get(7, 0, weightExprs, ctx);
    output = AffineMap::get(
        7, 0, AffineMap::getMultiDimIdentityMap(4, ctx).getResults(), ctx);
    outputChannel = AffineMap::get(7, 0, o);
  }
};

/// Direct convolution over ConvolutionMaps.
struct Conv2dLowering : TccPattern<tcc::Conv2dOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::Conv2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = convertedType(op.getResult());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    bool nhwc = op.getLayout() == tcc::Layout::NHWC;
    ImageDims dims(op.getLayout());
    ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                      dilation = op.getDilation();
    int64_t groups = op.getGroups();
    int64_t kernel[2] = {weightType.getDimSize(nhwc ? 1 : 2),
                         weightType.getDimSize(nhwc ? 2 : 3)};
    int64_t groupChannels = weightType.getDimSize(nhwc ? 3 : 1);
    int64_t groupOutputs = resultType.getDimSize(dims.channel) / groups;
    Type element = resultType.getElementType(), acc = computeType(element);

    Value image = padImage(rewriter, loc, adaptor.getInput(), dims,
                           resultType.getShape(), kernel, stride, padding,
                           dilation, numberConstant(rewriter, loc, element, 0));

    ConvolutionMaps maps(ctx, dims, nhwc, stride, dilation, groups,
                         groupChannels, groupOutputs);
    Value init = biasOrZeros(
        rewriter, loc, resultType.getShape(), acc, adaptor.getBias(),
        AffineMap::get(4, 0, getAffineDimExpr(dims.channel, ctx)));
    Value result = contract(rewriter, loc, image, adaptor.getWeight(),
                            {maps.image, maps.weight, maps.output},
                            iteratorTypes(4, 3), init);
    rewriter.replaceOp(op, convertTensor(rewriter, loc, result, element));
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Integer matmul and conv2d (docs/quantization.md)
//===----------------------------------------------------------------------===//

/// value - zeroPoint as i32; ui8 operands zero-extend.
Value minusZeroPoint(OpBuilder &b, Location loc, Value value, Value zeroPoint,
                     bool isUnsigned) {
  Type i32 = b.getI32Type();
  auto widen = [&](Value v) -> Value {
    if (isUnsigned)
      return b.create<arith::ExtUIOp>(loc, i32, v);
    return b.create<arith::ExtSIOp>(loc, i32, v);
  };
  return b.create<arith::SubIOp>(loc, widen(value), widen(zeroPoint));
}

bool isUnsignedOperand(Value original) {
  return isUnsignedElement(
      cast<RankedTensorType>(original.getType()).getElementType());
}

/// The map of a zero point that is 0-d (per tensor) or 1-D, read at `dim`.
AffineMap zeroPointMap(Value zeroPoint, int64_t loops, AffineExpr dim) {
  MLIRContext *ctx = dim.getContext();
  if (cast<RankedTensorType>(zeroPoint.getType()).getRank() == 0)
    return AffineMap::get(loops, 0, ArrayRef<AffineExpr>{}, ctx);
  return AffineMap::get(loops, 0, dim);
}

/// sum_k (lhs - lhs_zp)(rhs - rhs_zp) in i32 (wrapping), batch dims
/// broadcast as in MatmulLowering.
struct MatmulIntegerLowering : TccPattern<tcc::MatmulIntegerOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::MatmulIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = convertedType(op.getResult());
    auto lhsType = cast<RankedTensorType>(adaptor.getLhs().getType());
    auto rhsType = cast<RankedTensorType>(adaptor.getRhs().getType());
    BatchedMatmulMaps mm(resultType, lhsType, rhsType);
    int64_t rank = resultType.getRank();
    SmallVector<AffineMap> maps = {
        mm.lhs, mm.rhs, zeroPointMap(adaptor.getLhsZeroPoint(), mm.loops, mm.m),
        zeroPointMap(adaptor.getRhsZeroPoint(), mm.loops, mm.n), mm.result};
    bool lhsUnsigned = isUnsignedOperand(op.getLhs()),
         rhsUnsigned = isUnsignedOperand(op.getRhs());
    Value init = filledTensor(
        rewriter, loc, resultType.getShape(),
        intConstant(rewriter, loc, rewriter.getI32Type(), int64_t(0)));
    Value result = buildGeneric(
        rewriter, loc,
        ValueRange{adaptor.getLhs(), adaptor.getRhs(),
                   adaptor.getLhsZeroPoint(), adaptor.getRhsZeroPoint()},
        init, maps, iteratorTypes(rank, 1),
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value a = minusZeroPoint(b, l, args[0], args[2], lhsUnsigned);
          Value c = minusZeroPoint(b, l, args[1], args[3], rhsUnsigned);
          return {b.create<arith::AddIOp>(l, args[4],
                                          b.create<arith::MulIOp>(l, a, c))};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The input minus its zero point (i32), padded with zeros, convolved with
/// the weight minus its per-tensor or per-output-channel zero point.
struct Conv2dIntegerLowering : TccPattern<tcc::Conv2dIntegerOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::Conv2dIntegerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    RankedTensorType resultType = convertedType(op.getResult());
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    auto weightType = cast<RankedTensorType>(adaptor.getWeight().getType());
    ImageDims dims(tcc::Layout::NCHW);
    ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                      dilation = op.getDilation();
    int64_t groups = op.getGroups();
    int64_t kernel[2] = {weightType.getDimSize(2), weightType.getDimSize(3)};
    int64_t groupChannels = weightType.getDimSize(1);
    int64_t groupOutputs = resultType.getDimSize(dims.channel) / groups;
    Type i32 = rewriter.getI32Type();
    bool inputUnsigned = isUnsignedOperand(op.getInput()),
         weightUnsigned = isUnsignedOperand(op.getWeight());

    Value shifted = buildElementwise(
        rewriter, loc, inputType.getShape(), i32,
        ValueRange{adaptor.getInput(), adaptor.getInputZeroPoint()},
        [&](OpBuilder &b, Location l, ValueRange args) {
          return minusZeroPoint(b, l, args[0], args[1], inputUnsigned);
        });
    Value zero = intConstant(rewriter, loc, i32, int64_t(0));
    Value image = padImage(rewriter, loc, shifted, dims, resultType.getShape(),
                           kernel, stride, padding, dilation, zero);
    ConvolutionMaps maps(ctx, dims, /*nhwc=*/false, stride, dilation, groups,
                         groupChannels, groupOutputs);
    Value weightZp = adaptor.getWeightZeroPoint();
    AffineMap weightZpMap =
        cast<RankedTensorType>(weightZp.getType()).getRank() == 0
            ? AffineMap::get(7, 0, ArrayRef<AffineExpr>{}, ctx)
            : maps.outputChannel;
    Value init = filledTensor(rewriter, loc, resultType.getShape(), zero);
    Value result = buildGeneric(
        rewriter, loc, ValueRange{image, adaptor.getWeight(), weightZp}, init,
        {maps.image, maps.weight, weightZpMap, maps.output},
        iteratorTypes(4, 3),
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          Value w = minusZeroPoint(b, l, args[1], args[2], weightUnsigned);
          return {b.create<arith::AddIOp>(
              l, args[3], b.create<arith::MulIOp>(l, args[0], w))};
        })[0];
    rewriter.replaceOp(op, result);
    return success();
  }
};

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

/// The maximum over each window of `image` (padded already) as a parallel
/// generic with one operand per window tap.
Value maxOfTaps(OpBuilder &b, Location loc, Value image, ImageDims dims,
                RankedTensorType resultType, ArrayRef<int64_t> kernel,
                ArrayRef<int64_t> stride, ArrayRef<int64_t> dilation,
                bool isUnsigned) {
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> taps;
  SmallVector<AffineMap> maps;
  for (int64_t i = 0; i < kernel[0]; ++i)
    for (int64_t j = 0; j < kernel[1]; ++j) {
      SmallVector<AffineExpr> exprs;
      for (int64_t d = 0; d < 4; ++d)
        exprs.push_back(getAffineDimExpr(d, ctx));
      exprs[dims.height] =
          getAffineDimExpr(dims.height, ctx) * stride[0] + i * dilation[0];
      exprs[dims.width] =
          getAffineDimExpr(dims.width, ctx) * stride[1] + j * dilation[1];
      taps.push_back(image);
      maps.push_back(AffineMap::get(4, 0, exprs, ctx));
    }
  maps.push_back(AffineMap::getMultiDimIdentityMap(4, ctx));
  Value init = emptyTensor(b, loc, resultType.getShape(),
                           cast<RankedTensorType>(image.getType())
                               .getElementType());
  return buildGeneric(
      b, loc, taps, init, maps, iteratorTypes(4, 0),
      [&](OpBuilder &nb, Location l, ValueRange args) -> SmallVector<Value> {
        Value best = args[0];
        for (size_t t = 1; t < taps.size(); ++t)
          best = maximum(nb, l, best, args[t], isUnsigned);
        return {best};
      })[0];
}

/// The maximum over each window of the NHWC `image` read in place: a tap
/// outside the image (in the padding, or past it where ceil_mode windows
/// reach) reads the clamped position and takes `lowest` instead, as a
/// padded copy would give. One loop nest over the output remains, which
/// the tiling pass splits across threads; a padded copy's loops start with
/// the padded height, the output's with its own, and stay one tile.
Value maxOfClampedTaps(OpBuilder &b, Location loc, Value image, ImageDims dims,
                       RankedTensorType resultType, ArrayRef<int64_t> kernel,
                       ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
                       ArrayRef<int64_t> dilation, Value lowestValue,
                       bool isUnsigned) {
  auto imageType = cast<RankedTensorType>(image.getType());
  const int64_t size[2] = {imageType.getDimSize(dims.height),
                           imageType.getDimSize(dims.width)};
  Value init = emptyTensor(b, loc, resultType.getShape(),
                           resultType.getElementType());
  return buildGeneric(
      b, loc, ValueRange{}, init,
      {AffineMap::getMultiDimIdentityMap(4, b.getContext())},
      iteratorTypes(4),
      [&](OpBuilder &nb, Location l, ValueRange) -> SmallVector<Value> {
        auto c = [&](int64_t v) { return indexConstant(nb, l, v); };
        SmallVector<Value> out;
        for (int64_t d = 0; d < 4; ++d)
          out.push_back(nb.create<linalg::IndexOp>(l, d));
        Value best;
        for (int64_t ky = 0; ky < kernel[0]; ++ky)
          for (int64_t kx = 0; kx < kernel[1]; ++kx) {
            SmallVector<Value> at(out);
            Value inside;
            for (int i = 0; i < 2; ++i) {
              const int64_t d = i == 0 ? dims.height : dims.width;
              const int64_t tap = (i == 0 ? ky : kx) * dilation[i];
              Value position = nb.create<arith::AddIOp>(
                  l, nb.create<arith::MulIOp>(l, out[d], c(stride[i])),
                  c(tap - padding[i]));
              // Unsigned: a negative position is out of range too.
              Value ok = nb.create<arith::CmpIOp>(
                  l, arith::CmpIPredicate::ult, position, c(size[i]));
              inside = inside ? nb.create<arith::AndIOp>(l, inside, ok) : ok;
              at[d] = clampedIndex(nb, l, position, size[i]);
            }
            Value x = nb.create<arith::SelectOp>(
                l, inside, nb.create<tensor::ExtractOp>(l, image, at),
                lowestValue);
            best = best ? maximum(nb, l, best, x, isUnsigned) : x;
          }
        return {best};
      })[0];
}

/// Padded positions (and those past the input that ceil_mode windows reach)
/// read -inf (an 8-bit type's lowest value), so they never win; NaN wins,
/// as in PyTorch.
struct MaxPool2dLowering : TccPattern<tcc::MaxPool2dOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::MaxPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = convertedType(op.getResult());
    Type element = resultType.getElementType(), acc = computeType(element);
    bool isUnsigned = isUnsignedOperand(op.getInput());
    ImageDims dims(op.getLayout());
    if (isa<IntegerType>(element) && op.getLayout() == tcc::Layout::NHWC &&
        windowsLeaveImage(adaptor.getInput(), dims, resultType.getShape(),
                          op.getKernelSize(), op.getStride(), op.getPadding(),
                          op.getDilation())) {
      rewriter.replaceOp(
          op, maxOfClampedTaps(rewriter, loc, adaptor.getInput(), dims,
                               resultType, op.getKernelSize(), op.getStride(),
                               op.getPadding(), op.getDilation(),
                               lowest(rewriter, loc, element, isUnsigned),
                               isUnsigned));
      return success();
    }
    Value image =
        padImage(rewriter, loc, adaptor.getInput(), dims, resultType.getShape(),
                 op.getKernelSize(), op.getStride(), op.getPadding(),
                 op.getDilation(), lowest(rewriter, loc, element, isUnsigned));
    if (isa<IntegerType>(element)) {
      // 8-bit windows as one parallel loop nest reading each tap as an
      // operand: the innermost loop runs over output columns, which
      // vectorizes, where reduction loops over a 3x3 window do not.
      rewriter.replaceOp(
          op, maxOfTaps(rewriter, loc, image, dims, resultType,
                        op.getKernelSize(), op.getStride(), op.getDilation(),
                        isUnsigned));
      return success();
    }
    Value init = filledTensor(rewriter, loc, resultType.getShape(),
                              lowest(rewriter, loc, acc, isUnsigned));
    Value result = reduceWindows(
        rewriter, loc, image, dims, op.getKernelSize(), op.getStride(),
        op.getDilation(), init,
        [isUnsigned](OpBuilder &b, Location l, Value a, Value x) {
          return maximum(b, l, a, x, isUnsigned);
        });
    rewriter.replaceOp(op, convertTensor(rewriter, loc, result, element));
    return success();
  }
};

/// Divides window sums by a divisor computed from the output position.
Value divideWindows(
    OpBuilder &b, Location loc, Value sums, ImageDims dims, Type element,
    function_ref<Value(OpBuilder &, Location, Value oh, Value ow)> divisor) {
  auto type = cast<RankedTensorType>(sums.getType());
  Type acc = type.getElementType();
  return buildElementwise(
      b, loc, type.getShape(), element, sums,
      [&](OpBuilder &nb, Location l, ValueRange args) {
        Value oh = nb.create<linalg::IndexOp>(l, dims.height);
        Value ow = nb.create<linalg::IndexOp>(l, dims.width);
        Value count = nb.create<arith::SIToFPOp>(
            l, acc,
            nb.create<arith::IndexCastOp>(l, nb.getI64Type(),
                                          divisor(nb, l, oh, ow)));
        return demote(nb, l, nb.create<arith::DivFOp>(l, args[0], count),
                      element);
      });
}

/// Sums windows over zero padding, then divides as ATen's avg_pool2d does:
/// by divisor_override, else by the window clipped to the padded input
/// (count_include_pad), else by the input positions it covers.
struct AvgPool2dLowering : TccPattern<tcc::AvgPool2dOp> {
  using TccPattern::TccPattern;

  LogicalResult
  matchAndRewrite(tcc::AvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType resultType = convertedType(op.getResult());
    auto inputType = cast<RankedTensorType>(adaptor.getInput().getType());
    Type element = resultType.getElementType(), acc = computeType(element);
    ImageDims dims(op.getLayout());
    ArrayRef<int64_t> kernel = op.getKernelSize(), stride = op.getStride(),
                      padding = op.getPadding();
    const int64_t noDilation[] = {1, 1};
    Value image = padImage(
        rewriter, loc, adaptor.getInput(), dims, resultType.getShape(), kernel,
        stride, padding, noDilation, numberConstant(rewriter, loc, element, 0));
    Value init = filledTensor(rewriter, loc, resultType.getShape(),
                              numberConstant(rewriter, loc, acc, 0));
    Value sums =
        reduceWindows(rewriter, loc, image, dims, kernel, stride, noDilation,
                      init, [](OpBuilder &b, Location l, Value a, Value x) {
                        return accumulateAdd(b, l, a, x);
                      });
    int64_t size[2] = {inputType.getDimSize(dims.height),
                       inputType.getDimSize(dims.width)};
    std::optional<uint64_t> override = op.getDivisorOverride();
    bool includePad = op.getCountIncludePad();
    auto divisor = [&](OpBuilder &b, Location l, Value oh, Value ow) -> Value {
      if (override)
        return indexConstant(b, l, static_cast<int64_t>(*override));
      Value count;
      for (int i = 0; i < 2; ++i) {
        auto c = [&](int64_t v) { return indexConstant(b, l, v); };
        Value o = i == 0 ? oh : ow;
        Value start = b.create<arith::SubIOp>(
            l, b.create<arith::MulIOp>(l, o, c(stride[i])), c(padding[i]));
        Value end = b.create<arith::MinSIOp>(
            l, b.create<arith::AddIOp>(l, start, c(kernel[i])),
            c(size[i] + padding[i]));
        Value extent;
        if (includePad) {
          extent = b.create<arith::SubIOp>(l, end, start);
        } else {
          Value first = b.create<arith::MaxSIOp>(l, start, c(0));
          Value last = b.create<arith::MinSIOp>(l, end, c(size[i]));
          extent = b.create<arith::SubIOp>(l, last, first);
        }
        count = count ? b.create<arith::MulIOp>(l, count, extent) : extent;
      }
      return count;
    };
    rewriter.replaceOp(
        op, divideWindows(rewriter, loc, sums, dims, element, divisor));
    return success();
  }
};

/// Output cell i of a spatial dim of size H averages input rows
/// [floor(i * H / out), ceil((i + 1) * H / out)). The windows differ in size,
/// so each sums a window of the largest size with the rows past its own end
/// masked out, reading at clamped indices.
struct AdaptiveAvgPool2dLowering : TccPattern<tcc::AdaptiveAvgPool2dOp> {
  using TccPattern::TccPattern;

  static int64_t start(int64_t i, int64_t size, int64_t out) {
    return i * size / out;
  }
  static int64_t end(int64_t i, int64_t size, int64_t out) {
    return ((i + 1) * size + out - 1) / out;
  }

  LogicalResult
  matchAndRewrite(tcc::AdaptiveAvgPool2dOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    auto inputType = cast<RankedTensorType>(input.getType());
    RankedTensorType resultType = convertedType(op.getResult());
    Type element = resultType.getElementType(), acc = computeType(element);
    ImageDims dims(op.getLayout());
    int64_t size[2] = {inputType.getDimSize(dims.height),
                       inputType.getDimSize(dims.width)};
    int64_t out[2] = {resultType.getDimSize(dims.height),
                      resultType.getDimSize(dims.width)};
    int64_t window[2] = {1, 1};
    for (int i = 0; i < 2; ++i)
      for (int64_t o = 0; o < out[i]; ++o)
        window[i] = std::max(window[i], end(o, size[i], out[i]) -
                                            start(o, size[i], out[i]));

    auto bounds = [&](OpBuilder &b, Location l, Value o, int i) {
      auto c = [&](int64_t v) { return indexConstant(b, l, v); };
      Value first = b.create<arith::DivUIOp>(
          l, b.create<arith::MulIOp>(l, o, c(size[i])), c(out[i]));
      Value last = b.create<arith::DivUIOp>(
          l,
          b.create<arith::AddIOp>(
              l,
              b.create<arith::MulIOp>(l, b.create<arith::AddIOp>(l, o, c(1)),
                                      c(size[i])),
              c(out[i] - 1)),
          c(out[i]));
      return std::pair{first, last};
    };

    Value init = filledTensor(rewriter, loc, resultType.getShape(),
                              numberConstant(rewriter, loc, acc, 0));
    Value windowTensor =
        emptyTensor(rewriter, loc, window, rewriter.getI8Type());
    MLIRContext *ctx = rewriter.getContext();
    Value sums = buildGeneric(
        rewriter, loc, windowTensor, init,
        {AffineMap::get(
             6, 0, {getAffineDimExpr(4, ctx), getAffineDimExpr(5, ctx)}, ctx),
         AffineMap::get(6, 0,
                        AffineMap::getMultiDimIdentityMap(4, ctx).getResults(),
                        ctx)},
        iteratorTypes(4, 2),
        [&](OpBuilder &b, Location l, ValueRange args) -> SmallVector<Value> {
          SmallVector<Value> at;
          for (int64_t d = 0; d < 4; ++d)
            at.push_back(b.create<linalg::IndexOp>(l, d));
          Value inside;
          for (int i = 0; i < 2; ++i) {
            int64_t d = i == 0 ? dims.height : dims.width;
            auto [first, last] = bounds(b, l, at[d], i);
            Value position = b.create<arith::AddIOp>(
                l, first, b.create<linalg::IndexOp>(l, 4 + i));
            Value ok = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::ult,
                                               position, last);
            inside = inside ? b.create<arith::AndIOp>(l, inside, ok) : ok;
            at[d] = clampedIndex(b, l, position, size[i]);
          }
          Value x = promote(b, l, b.create<tensor::ExtractOp>(l, input, at));
          Value sum = accumulateAdd(b, l, args[1], x);
          return {b.create<arith::SelectOp>(l, inside, sum, args[1])};
        })[0];
    auto divisor = [&](OpBuilder &b, Location l, Value oh, Value ow) -> Value {
      auto [h0, h1] = bounds(b, l, oh, 0);
      auto [w0, w1] = bounds(b, l, ow, 1);
      return b.create<arith::MulIOp>(l, b.create<arith::SubIOp>(l, h1, h0),
                                     b.create<arith::SubIOp>(l, w1, w0));
    };
    rewriter.replaceOp(
        op, divideWindows(rewriter, loc, sums, dims, element, divisor));
    return success();
  }
};

} // namespace

void tcc::lowering::populateNNPatterns(const TypeConverter &converter,
                                       RewritePatternSet &patterns) {
  patterns.add<MatmulLowering, LinearLowering, Conv2dLowering,
               MatmulIntegerLowering, Conv2dIntegerLowering, MaxPool2dLowering,
               AvgPool2dLowering, AdaptiveAvgPool2dLowering>(
      converter, patterns.getContext());
}
