//===- NNOps.cpp - Linear algebra, conv, pooling, reductions, norms -------===//
//
// Shape rules follow PyTorch (ATen's shape checks), including its output
// size formulas for convolution and pooling. Sizes from attributes can be
// anything, so every computation on them is overflow-checked.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "mlir/Dialect/Traits.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

//===----------------------------------------------------------------------===//
// Matmul and linear
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferMatmul(const OpDiag &diag, Value lhsValue,
                                       Value rhsValue,
                                       SmallVectorImpl<Type> &results) {
  auto lhs = getStaticTensor(diag, lhsValue, "lhs");
  auto rhs = getStaticTensor(diag, rhsValue, "rhs");
  if (failed(lhs) || failed(rhs))
    return failure();
  if (lhs->getRank() < 2 || rhs->getRank() < 2)
    return diag("operands must have rank 2 or more, got ", *lhs, " and ", *rhs);
  if (failed(requireSameElementType(diag, {*lhs, *rhs})))
    return failure();
  ArrayRef<int64_t> a = lhs->getShape(), b = rhs->getShape();
  if (a.back() != b[b.size() - 2])
    return diag("contraction dimensions differ: ", *lhs, " and ", *rhs);
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(a.drop_back(2), b.drop_back(2),
                                          shape))
    return diag("batch dimensions of ", *lhs, " and ", *rhs,
                " do not broadcast");
  shape.push_back(a[a.size() - 2]);
  shape.push_back(b.back());
  results.push_back(RankedTensorType::get(shape, lhs->getElementType()));
  return success();
}

LogicalResult tcc::detail::inferLinear(const OpDiag &diag, Value inputValue,
                                       Value weightValue, Value biasValue,
                                       SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  auto weight = getStaticTensor(diag, weightValue, "weight");
  if (failed(input) || failed(weight))
    return failure();
  SmallVector<RankedTensorType> types = {*input, *weight};
  if (input->getRank() < 1)
    return diag("input must have rank 1 or more, got ", *input);
  if (weight->getRank() != 2)
    return diag("weight must be [out, in], got ", *weight);
  int64_t out = weight->getDimSize(0), in = weight->getDimSize(1);
  if (input->getShape().back() != in)
    return diag("input's last dim ", input->getShape().back(),
                " does not match weight ", *weight, " (expected ", in, ")");
  if (biasValue) {
    auto bias = getStaticTensor(diag, biasValue, "bias");
    if (failed(bias))
      return failure();
    if (bias->getRank() != 1 || bias->getDimSize(0) != out)
      return diag("bias must be [", out, "], got ", *bias);
    types.push_back(*bias);
  }
  if (failed(requireSameElementType(diag, types)))
    return failure();
  SmallVector<int64_t> shape(input->getShape().drop_back());
  shape.push_back(out);
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

/// Where height, width and channels sit in an image tensor of `layout`.
struct ImageDims {
  int64_t channel, height, width;
};
static ImageDims getImageDims(Layout layout) {
  return layout == Layout::NHWC ? ImageDims{3, 1, 2} : ImageDims{1, 2, 3};
}

/// Checks that an attribute holds 2 values, each at least `min`.
static LogicalResult checkPair(const OpDiag &diag, ArrayRef<int64_t> values,
                               StringRef name, int64_t min) {
  if (values.size() != 2)
    return diag("'", name, "' must have 2 values (height, width), got ",
                values.size());
  for (int64_t v : values)
    if (v < min)
      return diag("'", name, "' values must be at least ", min, ", got ", v);
  return success();
}

static LogicalResult overflow(const OpDiag &diag, StringRef what) {
  return diag(what, " overflows int64_t");
}

/// PyTorch's output size of a sliding window along one spatial axis
/// (ATen's pooling_output_shape, which conv2d matches without ceil_mode).
static FailureOr<int64_t> windowOutputSize(const OpDiag &diag, StringRef axis,
                                           int64_t size, int64_t kernel,
                                           int64_t stride, int64_t pad,
                                           int64_t dilation, bool ceilMode) {
  // span = dilation * (kernel - 1) + 1 and padded = size + 2 * pad.
  std::optional<int64_t> span = llvm::checkedMul(dilation, kernel - 1);
  if (span)
    span = llvm::checkedAdd(*span, int64_t(1));
  std::optional<int64_t> twoPad = llvm::checkedMul(pad, int64_t(2));
  std::optional<int64_t> padded =
      twoPad ? llvm::checkedAdd(size, *twoPad) : std::nullopt;
  if (!span || !padded)
    return overflow(diag, (axis + " window arithmetic").str());
  int64_t numerator = *padded - *span; // both non-negative: cannot overflow
  if (ceilMode) {
    std::optional<int64_t> n = llvm::checkedAdd(numerator, stride - 1);
    if (!n)
      return overflow(diag, (axis + " window arithmetic").str());
    numerator = *n;
  }
  // Floor division, as ATen's div_rtn.
  int64_t out = numerator / stride;
  if (numerator % stride != 0 && numerator < 0)
    --out;
  ++out;
  if (ceilMode && out > 0) {
    // The last window must start inside the input or the left padding.
    std::optional<int64_t> lastStart = llvm::checkedMul(out - 1, stride);
    if (!lastStart || *lastStart >= size + pad)
      --out;
  }
  if (out < 1)
    return diag("computed output ", axis, " ", out, " is less than 1 (input ",
                size, ", padding ", pad, ", kernel ", kernel, ", dilation ",
                dilation, ", stride ", stride, ")");
  return out;
}

FailureOr<SmallVector<int64_t>> tcc::detail::inferConv2dShape(
    const OpDiag &diag, RankedTensorType input, RankedTensorType weight,
    ArrayRef<int64_t> stride, ArrayRef<int64_t> padding,
    ArrayRef<int64_t> dilation, int64_t groups, Layout layout, Value biasValue,
    SmallVectorImpl<RankedTensorType> &types) {
  StringRef inName = layout == Layout::NHWC ? "[N, H, W, C]" : "[N, C, H, W]";
  StringRef wName = layout == Layout::NHWC ? "[O, kH, kW, C/groups]"
                                           : "[O, C/groups, kH, kW]";
  if (input.getRank() != 4)
    return diag("input must be ", inName, ", got ", input);
  if (weight.getRank() != 4)
    return diag("weight must be ", wName, ", got ", weight);
  if (failed(checkPair(diag, stride, "stride", 1)) ||
      failed(checkPair(diag, padding, "padding", 0)) ||
      failed(checkPair(diag, dilation, "dilation", 1)))
    return failure();
  if (groups < 1)
    return diag("'groups' must be at least 1, got ", groups);

  ImageDims in = getImageDims(layout);
  // The weight's dims in the same order as the image's: O, I, kH, kW.
  ImageDims w =
      layout == Layout::NHWC ? ImageDims{3, 1, 2} : ImageDims{1, 2, 3};
  int64_t channels = input.getDimSize(in.channel);
  int64_t outChannels = weight.getDimSize(0);
  int64_t kernelH = weight.getDimSize(w.height);
  int64_t kernelW = weight.getDimSize(w.width);
  std::optional<int64_t> expected =
      llvm::checkedMul(weight.getDimSize(w.channel), groups);
  if (!expected || *expected != channels)
    return diag("weight ", weight, " with groups = ", groups,
                " expects input channels = ", weight.getDimSize(w.channel),
                " * ", groups, ", but input ", input, " has ", channels);
  if (outChannels % groups != 0)
    return diag("output channels ", outChannels,
                " are not divisible by groups = ", groups);
  if (kernelH < 1 || kernelW < 1)
    return diag("kernel dims must be at least 1, got weight ", weight);
  if (biasValue) {
    auto bias = getStaticTensor(diag, biasValue, "bias");
    if (failed(bias))
      return failure();
    if (bias->getRank() != 1 || bias->getDimSize(0) != outChannels)
      return diag("bias must be [", outChannels, "], got ", *bias);
    types.push_back(*bias);
  }
  if (failed(requireSameElementType(diag, types)))
    return failure();

  auto outH =
      windowOutputSize(diag, "height", input.getDimSize(in.height), kernelH,
                       stride[0], padding[0], dilation[0], false);
  if (failed(outH))
    return failure();
  auto outW =
      windowOutputSize(diag, "width", input.getDimSize(in.width), kernelW,
                       stride[1], padding[1], dilation[1], false);
  if (failed(outW))
    return failure();
  SmallVector<int64_t> shape(4);
  shape[0] = input.getDimSize(0);
  shape[in.channel] = outChannels;
  shape[in.height] = *outH;
  shape[in.width] = *outW;
  return shape;
}

LogicalResult tcc::detail::inferConv2d(const OpDiag &diag,
                                       Conv2dOp::Adaptor adaptor,
                                       SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, adaptor.getInput(), "input");
  auto weight = getStaticTensor(diag, adaptor.getWeight(), "weight");
  if (failed(input) || failed(weight))
    return failure();
  SmallVector<RankedTensorType> types = {*input, *weight};
  auto shape = inferConv2dShape(diag, *input, *weight, adaptor.getStride(),
                                adaptor.getPadding(), adaptor.getDilation(),
                                static_cast<int64_t>(adaptor.getGroups()),
                                adaptor.getLayout(), adaptor.getBias(), types);
  if (failed(shape))
    return failure();
  results.push_back(RankedTensorType::get(*shape, input->getElementType()));
  return success();
}

/// Shared by max and average pooling.
static LogicalResult
inferPool2d(const OpDiag &diag, Value inputValue, DenseI64ArrayAttr kernelAttr,
            DenseI64ArrayAttr strideAttr, ArrayRef<int64_t> padding,
            ArrayRef<int64_t> dilation, bool ceilMode, Layout layout,
            SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  if (failed(input))
    return failure();
  if (input->getRank() != 4)
    return diag("input must be ",
                layout == Layout::NHWC ? "[N, H, W, C]" : "[N, C, H, W]",
                ", got ", *input);
  if (!kernelAttr || !strideAttr)
    return diag("requires attributes 'kernel_size' and 'stride'");
  ArrayRef<int64_t> kernel = kernelAttr.asArrayRef(),
                    stride = strideAttr.asArrayRef();
  if (failed(checkPair(diag, kernel, "kernel_size", 1)) ||
      failed(checkPair(diag, stride, "stride", 1)) ||
      failed(checkPair(diag, padding, "padding", 0)) ||
      failed(checkPair(diag, dilation, "dilation", 1)))
    return failure();
  for (int i = 0; i < 2; ++i)
    if (padding[i] > kernel[i] / 2)
      return diag("padding ", padding[i], " is more than half the kernel size ",
                  kernel[i]);
  ImageDims dims = getImageDims(layout);
  SmallVector<int64_t> shape(input->getShape());
  auto outH = windowOutputSize(diag, "height", shape[dims.height], kernel[0],
                               stride[0], padding[0], dilation[0], ceilMode);
  if (failed(outH))
    return failure();
  auto outW = windowOutputSize(diag, "width", shape[dims.width], kernel[1],
                               stride[1], padding[1], dilation[1], ceilMode);
  if (failed(outW))
    return failure();
  shape[dims.height] = *outH;
  shape[dims.width] = *outW;
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

LogicalResult tcc::detail::inferMaxPool2d(const OpDiag &diag,
                                          MaxPool2dOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  return inferPool2d(diag, adaptor.getInput(),
                     adaptor.getProperties().kernel_size,
                     adaptor.getProperties().stride, adaptor.getPadding(),
                     adaptor.getDilation(), adaptor.getCeilMode(),
                     adaptor.getLayout(), results);
}

LogicalResult tcc::detail::inferAvgPool2d(const OpDiag &diag,
                                          AvgPool2dOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  if (std::optional<uint64_t> divisor = adaptor.getDivisorOverride())
    if (*divisor == 0)
      return diag("'divisor_override' must not be 0");
  const int64_t noDilation[] = {1, 1};
  return inferPool2d(
      diag, adaptor.getInput(), adaptor.getProperties().kernel_size,
      adaptor.getProperties().stride, adaptor.getPadding(), noDilation,
      adaptor.getCeilMode(), adaptor.getLayout(), results);
}

LogicalResult
tcc::detail::inferAdaptiveAvgPool2d(const OpDiag &diag,
                                    AdaptiveAvgPool2dOp::Adaptor adaptor,
                                    SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  Layout layout = adaptor.getLayout();
  if (input->getRank() != 4)
    return diag("input must be ",
                layout == Layout::NHWC ? "[N, H, W, C]" : "[N, C, H, W]",
                ", got ", *input);
  DenseI64ArrayAttr outputSize = adaptor.getProperties().output_size;
  if (!outputSize)
    return diag("requires attribute 'output_size'");
  if (failed(checkPair(diag, outputSize.asArrayRef(), "output_size", 1)))
    return failure();
  ImageDims dims = getImageDims(layout);
  SmallVector<int64_t> shape(input->getShape());
  for (int64_t d : {dims.channel, dims.height, dims.width})
    if (shape[d] == 0)
      return diag("input ", *input,
                  " must be non-empty in every non-batch dim");
  shape[dims.height] = outputSize[0];
  shape[dims.width] = outputSize[1];
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferReduce(const OpDiag &diag, Value inputValue,
                                       DenseI64ArrayAttr dimsAttr, bool keepdim,
                                       bool requireNonEmpty,
                                       SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  if (failed(input))
    return failure();
  if (!dimsAttr)
    return diag("requires attribute 'dims'");
  if (dimsAttr.empty())
    return diag("'dims' must list at least one dim (all dims for a full "
                "reduction)");
  auto dims = normalizeDims(diag, dimsAttr.asArrayRef(), input->getRank());
  if (failed(dims))
    return failure();
  SmallVector<int64_t> shape;
  for (auto [d, size] : llvm::enumerate(input->getShape())) {
    bool reduced = llvm::is_contained(*dims, static_cast<int64_t>(d));
    if (reduced && requireNonEmpty && size == 0)
      return diag("cannot reduce dim ", d, " of size 0 (no identity)");
    if (!reduced)
      shape.push_back(size);
    else if (keepdim)
      shape.push_back(1);
  }
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

/// Rewrites `dims` in place to sorted non-negative form; true if it changed.
template <typename Op> static bool canonicalizeDims(Op op) {
  int64_t rank = op.getInput().getType().getRank();
  SmallVector<int64_t> dims;
  for (int64_t d : op.getDims())
    dims.push_back(d < 0 ? d + rank : d);
  llvm::sort(dims);
  if (ArrayRef<int64_t>(dims) == op.getDims())
    return false;
  op.setDims(dims);
  return true;
}

/// A reduction over size-1 dims with keepdim changes nothing.
template <typename Op> static OpFoldResult foldReduce(Op op) {
  if (canonicalizeDims(op))
    return op.getResult();
  if (op.getKeepdim() && op.getInput().getType() == op.getType())
    return op.getInput();
  return {};
}

OpFoldResult ReduceSumOp::fold(FoldAdaptor) { return foldReduce(*this); }
OpFoldResult ReduceMeanOp::fold(FoldAdaptor) { return foldReduce(*this); }
OpFoldResult ReduceProdOp::fold(FoldAdaptor) { return foldReduce(*this); }
OpFoldResult ReduceMaxOp::fold(FoldAdaptor) { return foldReduce(*this); }
OpFoldResult ReduceMinOp::fold(FoldAdaptor) { return foldReduce(*this); }

LogicalResult tcc::detail::inferArgReduce(const OpDiag &diag, Value inputValue,
                                          IntegerAttr dimAttr, bool keepdim,
                                          SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  if (failed(input))
    return failure();
  if (!dimAttr)
    return diag("requires attribute 'dim'");
  auto dim = normalizeDim(diag, dimAttr.getInt(), input->getRank());
  if (failed(dim))
    return failure();
  if (input->getDimSize(*dim) == 0)
    return diag("cannot reduce dim ", *dim, " of size 0 (no identity)");
  SmallVector<int64_t> shape(input->getShape());
  if (keepdim)
    shape[*dim] = 1;
  else
    shape.erase(shape.begin() + *dim);
  results.push_back(
      RankedTensorType::get(shape, IntegerType::get(input->getContext(), 64)));
  return success();
}

OpFoldResult ArgmaxOp::fold(FoldAdaptor) {
  return canonicalizeDim(*this, getInput().getType().getRank()) ? getResult()
                                                                : Value();
}
OpFoldResult ArgminOp::fold(FoldAdaptor) {
  return canonicalizeDim(*this, getInput().getType().getRank()) ? getResult()
                                                                : Value();
}

//===----------------------------------------------------------------------===//
// Softmax and normalization
//===----------------------------------------------------------------------===//

template <typename Op> static LogicalResult verifySoftmax(Op op) {
  OpDiag diag{op.getLoc(), op.getOperationName()};
  return normalizeDim(diag, static_cast<int64_t>(op.getDim()),
                      op.getInput().getType().getRank());
}

LogicalResult SoftmaxOp::verify() { return verifySoftmax(*this); }
LogicalResult LogSoftmaxOp::verify() { return verifySoftmax(*this); }
OpFoldResult SoftmaxOp::fold(FoldAdaptor) {
  return canonicalizeDim(*this, getType().getRank()) ? getResult() : Value();
}
OpFoldResult LogSoftmaxOp::fold(FoldAdaptor) {
  return canonicalizeDim(*this, getType().getRank()) ? getResult() : Value();
}

static LogicalResult checkEps(const OpDiag &diag, const APFloat &eps) {
  double value = eps.convertToDouble();
  if (!(value >= 0.0))
    return diag("'eps' must be at least 0, got ", value);
  return success();
}

LogicalResult tcc::detail::inferLayerNorm(const OpDiag &diag,
                                          LayerNormOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  DenseI64ArrayAttr normalizedAttr = adaptor.getProperties().normalized_shape;
  if (!normalizedAttr)
    return diag("requires attribute 'normalized_shape'");
  ArrayRef<int64_t> normalized = normalizedAttr.asArrayRef();
  if (normalized.empty() ||
      static_cast<int64_t>(normalized.size()) > input->getRank() ||
      input->getShape().take_back(normalized.size()) != normalized)
    return diag("'normalized_shape' [", normalized,
                "] must be non-empty and equal the last dims of input ",
                *input);
  SmallVector<RankedTensorType> types = {*input};
  for (auto [value, name] : {std::pair{adaptor.getWeight(), "weight"},
                             {adaptor.getBias(), "bias"}}) {
    if (!value)
      continue;
    auto type = getStaticTensor(diag, value, name);
    if (failed(type))
      return failure();
    if (type->getShape() != normalized)
      return diag(name, " must have shape [", normalized, "], got ", *type);
    types.push_back(*type);
  }
  if (failed(requireSameElementType(diag, types)) ||
      failed(checkEps(diag, adaptor.getEps())))
    return failure();
  results.push_back(*input);
  return success();
}

LogicalResult tcc::detail::inferBatchNorm(const OpDiag &diag,
                                          BatchNormOp::Adaptor adaptor,
                                          SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, adaptor.getInput(), "input");
  if (failed(input))
    return failure();
  if (input->getRank() < 2)
    return diag("input must be [N, C, ...] (rank 2 or more), got ", *input);
  int64_t channels = input->getDimSize(1);
  SmallVector<RankedTensorType> types = {*input};
  for (auto [value, name] : {std::pair{adaptor.getWeight(), "weight"},
                             {adaptor.getBias(), "bias"},
                             {adaptor.getRunningMean(), "running_mean"},
                             {adaptor.getRunningVar(), "running_var"}}) {
    auto type = getStaticTensor(diag, value, name);
    if (failed(type))
      return failure();
    if (type->getRank() != 1 || type->getDimSize(0) != channels)
      return diag(name, " must be [", channels,
                  "] (the input's channels), got ", *type);
    types.push_back(*type);
  }
  if (failed(requireSameElementType(diag, types)) ||
      failed(checkEps(diag, adaptor.getEps())))
    return failure();
  results.push_back(*input);
  return success();
}
