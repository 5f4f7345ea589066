//===- QuantizationOps.cpp - Quantize, dequantize, integer matmul/conv ----===//
//
// Result-type inference of the quantization ops (TccQuantizationOps.td).
// Scales and zero points are 0-d (per tensor) or 1-D of the size of one dim
// (per channel); docs/quantization.md has the rules.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "mlir/Dialect/Traits.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

namespace {

bool isInt8(Type t) { return t.isUnsignedInteger(8) || t.isSignlessInteger(8); }
bool isQuantized(Type t) { return isInt8(t) || t.isSignlessInteger(32); }

/// Checks a scale (or multiplier) and zero point pair for `input`: one
/// shape, 0-d or [input's dim `axis`].
LogicalResult checkAffineParams(const OpDiag &diag, RankedTensorType input,
                                RankedTensorType scale, StringRef scaleName,
                                RankedTensorType zeroPoint, int64_t axis) {
  if (scale.getShape() != zeroPoint.getShape())
    return diag(scaleName, " ", scale, " and zero_point ", zeroPoint,
                " must have the same shape");
  if (scale.getRank() == 0)
    return success();
  if (scale.getRank() != 1)
    return diag(scaleName,
                " must be 0-d (per tensor) or 1-D (per channel), "
                "got ",
                scale);
  auto dim = normalizeDim(diag, axis, input.getRank(), "axis");
  if (failed(dim))
    return failure();
  if (scale.getDimSize(0) != input.getDimSize(*dim))
    return diag("per-channel ", scaleName, " ", scale, " does not match dim ",
                *dim, " of ", input, " (size ", input.getDimSize(*dim), ")");
  return success();
}

struct AffineTypes {
  RankedTensorType input, scale, zeroPoint;
};

FailureOr<AffineTypes> affineTypes(const OpDiag &diag, Value input, Value scale,
                                   StringRef scaleName, Value zeroPoint,
                                   uint64_t axis) {
  auto in = getStaticTensor(diag, input, "input");
  auto s = getStaticTensor(diag, scale, scaleName);
  auto zp = getStaticTensor(diag, zeroPoint, "zero_point");
  if (failed(in) || failed(s) || failed(zp))
    return failure();
  if (!isa<FloatType>(s->getElementType()))
    return diag(scaleName, " must have a float element type, got ", *s);
  if (failed(checkAffineParams(diag, *in, *s, scaleName, *zp,
                               static_cast<int64_t>(axis))))
    return failure();
  return AffineTypes{*in, *s, *zp};
}

} // namespace

LogicalResult tcc::detail::inferQuantize(const OpDiag &diag, Value input,
                                         Value scale, Value zeroPoint,
                                         uint64_t axis,
                                         SmallVectorImpl<Type> &results) {
  auto t = affineTypes(diag, input, scale, "scale", zeroPoint, axis);
  if (failed(t))
    return failure();
  if (t->input.getElementType() != t->scale.getElementType())
    return diag("scale must have the input's element type ",
                t->input.getElementType(), ", got ", t->scale);
  Type element = t->zeroPoint.getElementType();
  if (!isQuantized(element))
    return diag("zero_point must be ui8, i8 or i32, got ", t->zeroPoint);
  results.push_back(t->input.clone(element));
  return success();
}

LogicalResult tcc::detail::inferDequantize(const OpDiag &diag, Value input,
                                           Value scale, Value zeroPoint,
                                           uint64_t axis,
                                           SmallVectorImpl<Type> &results) {
  auto t = affineTypes(diag, input, scale, "scale", zeroPoint, axis);
  if (failed(t))
    return failure();
  if (!isQuantized(t->input.getElementType()))
    return diag("input must be ui8, i8 or i32, got ", t->input);
  if (t->zeroPoint.getElementType() != t->input.getElementType())
    return diag("zero_point must have the input's element type ",
                t->input.getElementType(), ", got ", t->zeroPoint);
  results.push_back(t->input.clone(t->scale.getElementType()));
  return success();
}

LogicalResult tcc::detail::inferRequantize(const OpDiag &diag, Value input,
                                           Value multiplier, Value zeroPoint,
                                           uint64_t axis,
                                           SmallVectorImpl<Type> &results) {
  auto t = affineTypes(diag, input, multiplier, "multiplier", zeroPoint, axis);
  if (failed(t))
    return failure();
  if (!t->input.getElementType().isSignlessInteger(32))
    return diag("input must be an i32 accumulator, got ", t->input);
  Type element = t->zeroPoint.getElementType();
  if (!isInt8(element))
    return diag("zero_point must be ui8 or i8, got ", t->zeroPoint);
  results.push_back(t->input.clone(element));
  return success();
}

/// An integer operand and its zero point: ui8/i8, the same element type,
/// and a zero point that is 0-d or [size] (per `per`); only 0-d when size
/// is negative.
static LogicalResult checkIntegerOperand(const OpDiag &diag,
                                         RankedTensorType operand,
                                         StringRef name,
                                         RankedTensorType zeroPoint,
                                         int64_t size, StringRef per) {
  if (!isInt8(operand.getElementType()))
    return diag(name, " must be ui8 or i8, got ", operand);
  if (zeroPoint.getElementType() != operand.getElementType())
    return diag(name, "_zero_point must have the element type of ", name, " ",
                operand.getElementType(), ", got ", zeroPoint);
  if (zeroPoint.getRank() == 0 ||
      (zeroPoint.getRank() == 1 && zeroPoint.getDimSize(0) == size))
    return success();
  if (size < 0)
    return diag(name, "_zero_point must be 0-d, got ", zeroPoint);
  return diag(name, "_zero_point must be 0-d or [", size, "] (per ", per,
              "), got ", zeroPoint);
}

LogicalResult tcc::detail::inferMatmulInteger(const OpDiag &diag,
                                              Value lhsValue, Value rhsValue,
                                              Value lhsZpValue,
                                              Value rhsZpValue,
                                              SmallVectorImpl<Type> &results) {
  auto lhs = getStaticTensor(diag, lhsValue, "lhs");
  auto rhs = getStaticTensor(diag, rhsValue, "rhs");
  auto lhsZp = getStaticTensor(diag, lhsZpValue, "lhs_zero_point");
  auto rhsZp = getStaticTensor(diag, rhsZpValue, "rhs_zero_point");
  if (failed(lhs) || failed(rhs) || failed(lhsZp) || failed(rhsZp))
    return failure();
  if (lhs->getRank() < 2 || rhs->getRank() < 2)
    return diag("operands must have rank 2 or more, got ", *lhs, " and ", *rhs);
  ArrayRef<int64_t> a = lhs->getShape(), b = rhs->getShape();
  if (failed(checkIntegerOperand(diag, *lhs, "lhs", *lhsZp, a[a.size() - 2],
                                 "row")) ||
      failed(
          checkIntegerOperand(diag, *rhs, "rhs", *rhsZp, b.back(), "column")))
    return failure();
  if (a.back() != b[b.size() - 2])
    return diag("contraction dimensions differ: ", *lhs, " and ", *rhs);
  SmallVector<int64_t> shape;
  if (!OpTrait::util::getBroadcastedShape(a.drop_back(2), b.drop_back(2),
                                          shape))
    return diag("batch dimensions of ", *lhs, " and ", *rhs,
                " do not broadcast");
  shape.push_back(a[a.size() - 2]);
  shape.push_back(b.back());
  results.push_back(
      RankedTensorType::get(shape, IntegerType::get(lhs->getContext(), 32)));
  return success();
}

LogicalResult tcc::detail::inferConv2dInteger(const OpDiag &diag,
                                              Conv2dIntegerOp::Adaptor adaptor,
                                              SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, adaptor.getInput(), "input");
  auto weight = getStaticTensor(diag, adaptor.getWeight(), "weight");
  auto inputZp =
      getStaticTensor(diag, adaptor.getInputZeroPoint(), "input_zero_point");
  auto weightZp =
      getStaticTensor(diag, adaptor.getWeightZeroPoint(), "weight_zero_point");
  if (failed(input) || failed(weight) || failed(inputZp) || failed(weightZp))
    return failure();
  // input and weight may differ (ui8 x i8): only the input is compared.
  SmallVector<RankedTensorType> types = {*input};
  auto shape = inferConv2dShape(diag, *input, *weight, adaptor.getStride(),
                                adaptor.getPadding(), adaptor.getDilation(),
                                static_cast<int64_t>(adaptor.getGroups()),
                                Layout::NCHW, Value(), types);
  if (failed(shape))
    return failure();
  if (failed(checkIntegerOperand(diag, *input, "input", *inputZp, -1, "")) ||
      failed(checkIntegerOperand(diag, *weight, "weight", *weightZp,
                                 weight->getDimSize(0), "output channel")))
    return failure();
  results.push_back(
      RankedTensorType::get(*shape, IntegerType::get(input->getContext(), 32)));
  return success();
}
