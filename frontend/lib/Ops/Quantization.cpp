//===- Quantization.cpp - quantize, dequantize, integer matmul and conv ---===//
//
// The reference kernels of the quantization ops (docs/quantization.md):
// plain loops over contiguous copies, each element computed by the scalar
// rules of tcc/runtime/ScalarOps.h. Integer products accumulate in int64
// and wrap to int32 once, which equals int32 wrap-around accumulation in
// any order.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "NNUtils.h"

#include "TensorIterator.h"

#include "../Autograd/Record.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Quantization.h"
#include "tcc/runtime/ScalarOps.h"

namespace tcc {
namespace detail {

static const OpDef kQuantize{
    "quantize",
    "quantize(Tensor self, Tensor scale, Tensor zero_point, int axis=1) -> "
    "Tensor",
    ""};
static const OpDef kDequantize{
    "dequantize",
    "dequantize(Tensor self, Tensor scale, Tensor zero_point, int axis=1) -> "
    "Tensor",
    ""};
static const OpDef kMatmulInteger{
    "matmul_integer",
    "matmul_integer(Tensor self, Tensor other, Tensor self_zero_point, Tensor "
    "other_zero_point) -> Tensor",
    ""};
static const OpDef kConv2dInteger{
    "conv2d_integer",
    "conv2d_integer(Tensor input, Tensor weight, Tensor input_zero_point, "
    "Tensor weight_zero_point, int[2] stride=1, int[2] padding=0, int[2] "
    "dilation=1, int groups=1) -> Tensor",
    ""};
static const OpDef kRequantize{
    "requantize",
    "requantize(Tensor self, Tensor multiplier, Tensor zero_point, int "
    "axis=1) -> Tensor",
    ""};

void registerQuantizationOps() {
  for (const OpDef *op : {&kQuantize, &kDequantize, &kMatmulInteger,
                          &kConv2dInteger, &kRequantize})
    registerOp(*op);
}

namespace {

bool isQuantizedInteger(ScalarType t) {
  return t == kByte || t == kChar || t == kInt;
}
bool isInt8(ScalarType t) { return t == kByte || t == kChar; }

scalar::QuantRange rangeOf(ScalarType t) {
  switch (t) {
  case kByte:
    return scalar::quantRange(8, true);
  case kChar:
    return scalar::quantRange(8, false);
  default:
    return scalar::quantRange(32, false);
  }
}

/// The values of an integer tensor, widened to int64, in row-major order.
std::vector<int64_t> longsOf(const Tensor &t) {
  Tensor c = contiguousCopyIfNeeded(t.to(kLong));
  const int64_t *p =
      static_cast<const int64_t *>(c.unsafeGetTensorImpl()->data());
  return std::vector<int64_t>(p, p + c.numel());
}

/// The values of a float tensor as double, in row-major order.
std::vector<double> doublesOf(const Tensor &t) {
  Tensor c = contiguousCopyIfNeeded(t.to(kDouble));
  const double *p =
      static_cast<const double *>(c.unsafeGetTensorImpl()->data());
  return std::vector<double>(p, p + c.numel());
}

/// Writes int64 values (already in range; int32 wraps) into a new tensor
/// of `dtype` (uint8, int8 or int32).
template <class T>
void storeAs(const Tensor &out, const std::vector<int64_t> &values) {
  T *p = dataOf<T>(out);
  for (size_t i = 0; i < values.size(); ++i)
    p[i] = T(std::make_unsigned_t<T>(uint64_t(values[i])));
}
Tensor integersTensor(IntArrayRef shape, ScalarType dtype,
                      const std::vector<int64_t> &values) {
  Tensor out = makeEmpty(shape, dtype);
  if (dtype == kByte)
    storeAs<uint8_t>(out, values);
  else if (dtype == kChar)
    storeAs<int8_t>(out, values);
  else
    storeAs<int32_t>(out, values);
  return out;
}

/// Where the scale and zero point of element `flat` of a row-major tensor
/// sit: index 0 per tensor, the coordinate along `axis` per channel.
struct ChannelOf {
  int64_t size = 1, inner = 1;
  int64_t operator()(int64_t flat) const {
    return size == 1 ? 0 : (flat / inner) % size;
  }
};

/// Checks the quantization parameters of `t` and where they apply.
ChannelOf checkParams(const char *op, const Tensor &t, const Tensor &scale,
                      const char *scaleName, const Tensor &zeroPoint,
                      int64_t axis) {
  TCC_CHECK(scale.sizes().equals(zeroPoint.sizes()), op, ": ", scaleName, " ",
            scale.sizes(), " and zero_point ", zeroPoint.sizes(),
            " must have the same shape");
  TCC_CHECK(scale.dim() <= 1, op, ": ", scaleName,
            " must be 0-d (per tensor) or 1-D (per channel), got ",
            scale.sizes());
  if (scale.dim() == 0)
    return {};
  TCC_CHECK(axis >= -t.dim() && axis < t.dim(), op, ": axis ", axis,
            " is out of range for a tensor of rank ", t.dim());
  if (axis < 0)
    axis += t.dim();
  TCC_CHECK(scale.size(0) == t.size(axis), op, ": per-channel ", scaleName,
            " has ", scale.size(0), " values but dim ", axis, " of ", t.sizes(),
            " has ", t.size(axis));
  ChannelOf c;
  c.size = t.size(axis);
  for (int64_t d = axis + 1; d < t.dim(); ++d)
    c.inner *= t.size(d);
  return c;
}

/// x / scale rounded to T (Half and BFloat16 divide in float), as double.
template <class T>
std::vector<double> quotients(const Tensor &x, const Tensor &scale,
                              ChannelOf channel) {
  using M = opmath_t<T>;
  Tensor xc = contiguousCopyIfNeeded(x), sc = contiguousCopyIfNeeded(scale);
  const T *xp = static_cast<const T *>(xc.unsafeGetTensorImpl()->data());
  const T *sp = static_cast<const T *>(sc.unsafeGetTensorImpl()->data());
  std::vector<double> q(size_t(x.numel()));
  for (int64_t i = 0; i < x.numel(); ++i)
    q[i] = double(T(M(xp[i]) / M(sp[channel(i)])));
  return q;
}

Tensor quantizeKernel(const Tensor &x, const Tensor &scale,
                      const Tensor &zeroPoint, ChannelOf channel) {
  std::vector<double> q;
  TCC_DISPATCH_SWITCH(x.dtype(), "quantize", TCC_FLOATING_CASES([&] {
                        q = quotients<scalar_t>(x, scale, channel);
                      }));
  std::vector<int64_t> zp = longsOf(zeroPoint), out(q.size());
  scalar::QuantRange range = rangeOf(zeroPoint.dtype());
  for (size_t i = 0; i < q.size(); ++i)
    out[i] = scalar::roundToQuantized(q[i], zp[channel(int64_t(i))], range);
  return integersTensor(x.sizes(), zeroPoint.dtype(), out);
}

Tensor dequantizeKernel(const Tensor &q, const Tensor &scale,
                        const Tensor &zeroPoint, ChannelOf channel) {
  std::vector<int64_t> values = longsOf(q), zp = longsOf(zeroPoint);
  Tensor out = makeEmpty(q.sizes(), scale.dtype());
  TCC_DISPATCH_SWITCH(
      scale.dtype(), "dequantize", TCC_FLOATING_CASES([&] {
        using M = opmath_t<scalar_t>;
        Tensor sc = contiguousCopyIfNeeded(scale);
        const scalar_t *sp =
            static_cast<const scalar_t *>(sc.unsafeGetTensorImpl()->data());
        scalar_t *op = dataOf<scalar_t>(out);
        for (size_t i = 0; i < values.size(); ++i) {
          int64_t c = channel(int64_t(i));
          op[i] = scalar_t(scalar::dequantize<M>(values[i], zp[c], M(sp[c])));
        }
      }));
  return out;
}

void checkInt8Operand(const char *op, const Tensor &t, const char *name,
                      const Tensor &zeroPoint, const char *zpName) {
  TCC_CHECK(isInt8(t.dtype()), op, ": ", name, " must be uint8 or int8, got ",
            t.dtype());
  TCC_CHECK(zeroPoint.dtype() == t.dtype(), op, ": ", zpName,
            " must have the dtype of ", name, " (", t.dtype(), "), got ",
            zeroPoint.dtype());
}

/// A zero point that is [] or [size]: its value for index i.
std::vector<int64_t> zeroPoints(const char *op, const Tensor &zeroPoint,
                                const char *name, int64_t size,
                                const char *per) {
  TCC_CHECK(zeroPoint.dim() == 0 ||
                (zeroPoint.dim() == 1 && zeroPoint.size(0) == size),
            op, ": ", name, " must be [] or [", size, "] (per ", per, "), got ",
            zeroPoint.sizes());
  std::vector<int64_t> values = longsOf(zeroPoint);
  if (zeroPoint.dim() == 0)
    values.assign(size_t(size), values[0]);
  return values;
}

} // namespace
} // namespace detail

using namespace detail;

Tensor quantize(const Tensor &x, const Tensor &scale, const Tensor &zeroPoint,
                int64_t axis) {
  checkCpu(x, "quantize");
  TCC_CHECK(isFloatingType(x.dtype()),
            "quantize: input must be a floating point tensor, got ", x.dtype());
  TCC_CHECK(scale.dtype() == x.dtype(),
            "quantize: scale must have the "
            "input's dtype (",
            x.dtype(), "), got ", scale.dtype());
  TCC_CHECK(isQuantizedInteger(zeroPoint.dtype()),
            "quantize: zero_point must be uint8, int8 or int32, got ",
            zeroPoint.dtype());
  ChannelOf channel =
      checkParams("quantize", x, scale, "scale", zeroPoint, axis);
  return recordNonDifferentiable(
      kQuantize, {x, scale, zeroPoint},
      [&] { return quantizeKernel(x, scale, zeroPoint, channel); },
      [&] {
        return AttrList{{"axis", axis}};
      });
}

Tensor dequantize(const Tensor &q, const Tensor &scale, const Tensor &zeroPoint,
                  int64_t axis) {
  checkCpu(q, "dequantize");
  TCC_CHECK(isQuantizedInteger(q.dtype()),
            "dequantize: input must be uint8, int8 or int32, got ", q.dtype());
  TCC_CHECK(zeroPoint.dtype() == q.dtype(),
            "dequantize: zero_point must "
            "have the input's dtype (",
            q.dtype(), "), got ", zeroPoint.dtype());
  TCC_CHECK(isFloatingType(scale.dtype()),
            "dequantize: scale must be a floating point tensor, got ",
            scale.dtype());
  ChannelOf channel =
      checkParams("dequantize", q, scale, "scale", zeroPoint, axis);
  return recordNonDifferentiable(
      kDequantize, {q, scale, zeroPoint},
      [&] { return dequantizeKernel(q, scale, zeroPoint, channel); },
      [&] {
        return AttrList{{"axis", axis}};
      });
}

Tensor matmul_integer(const Tensor &a, const Tensor &b,
                      const Tensor &aZeroPoint, const Tensor &bZeroPoint) {
  const char *op = "matmul_integer";
  checkCpu(a, op);
  checkInt8Operand(op, a, "a", aZeroPoint, "a_zero_point");
  checkInt8Operand(op, b, "b", bZeroPoint, "b_zero_point");
  TCC_CHECK(a.dim() >= 2 && b.dim() >= 2, op,
            ": operands must have rank 2 or more, got ", a.sizes(), " and ",
            b.sizes());
  int64_t m = a.size(-2), k = a.size(-1), n = b.size(-1);
  TCC_CHECK(b.size(-2) == k, op, ": shapes ", a.sizes(), " and ", b.sizes(),
            " cannot be multiplied");
  DimVector batch = broadcastShape(a.sizes().slice(0, a.dim() - 2),
                                   b.sizes().slice(0, b.dim() - 2));
  std::vector<int64_t> azp =
      zeroPoints(op, aZeroPoint, "a_zero_point", m, "row");
  std::vector<int64_t> bzp =
      zeroPoints(op, bZeroPoint, "b_zero_point", n, "column");
  return recordNonDifferentiable(
      kMatmulInteger, {a, b, aZeroPoint, bZeroPoint},
      [&] {
        DimVector as = batch, bs = batch, outShape = batch;
        for (int64_t d : {m, k})
          as.push_back(d);
        for (int64_t d : {k, n})
          bs.push_back(d);
        for (int64_t d : {m, n})
          outShape.push_back(d);
        std::vector<int64_t> av = longsOf(a.expand(as)),
                             bv = longsOf(b.expand(bs));
        int64_t batches = 1;
        for (int64_t d : batch)
          batches *= d;
        std::vector<int64_t> out(size_t(batches * m * n));
        for (int64_t t = 0; t < batches; ++t)
          for (int64_t i = 0; i < m; ++i)
            for (int64_t j = 0; j < n; ++j) {
              int64_t sum = 0;
              for (int64_t p = 0; p < k; ++p)
                sum += (av[(t * m + i) * k + p] - azp[i]) *
                       (bv[(t * k + p) * n + j] - bzp[j]);
              out[(t * m + i) * n + j] = sum;
            }
        return integersTensor(outShape, kInt, out);
      },
      noAttrs);
}

Tensor conv2d_integer(const Tensor &input, const Tensor &weight,
                      const Tensor &inputZeroPoint,
                      const Tensor &weightZeroPoint, IntArrayRef strideArg,
                      IntArrayRef paddingArg, IntArrayRef dilationArg,
                      int64_t groups) {
  const char *op = "conv2d_integer";
  checkCpu(input, op);
  checkInt8Operand(op, input, "input", inputZeroPoint, "input_zero_point");
  checkInt8Operand(op, weight, "weight", weightZeroPoint, "weight_zero_point");
  TCC_CHECK(input.dim() == 4, op, ": input must be [N, C, H, W], got ",
            input.sizes());
  TCC_CHECK(weight.dim() == 4, op,
            ": weight must be [O, C / groups, kH, kW], "
            "got ",
            weight.sizes());
  DimVector stride = expandParam(strideArg, 2, op, "stride");
  DimVector padding = expandParam(paddingArg, 2, op, "padding");
  DimVector dilation = expandParam(dilationArg, 2, op, "dilation");
  for (int i = 0; i < 2; ++i)
    TCC_CHECK(stride[i] >= 1 && dilation[i] >= 1 && padding[i] >= 0, op,
              ": stride and dilation must be at least 1 and padding at "
              "least 0, got stride ",
              IntArrayRef(stride), ", padding ", IntArrayRef(padding),
              ", dilation ", IntArrayRef(dilation));
  int64_t batch = input.size(0), channels = input.size(1);
  int64_t outChannels = weight.size(0), groupChannels = weight.size(1);
  int64_t kh = weight.size(2), kw = weight.size(3);
  TCC_CHECK(groups >= 1 && groupChannels * groups == channels &&
                outChannels % groups == 0,
            op, ": weight ", weight.sizes(), " with groups = ", groups,
            " does not fit input ", input.sizes());
  TCC_CHECK(inputZeroPoint.dim() == 0, op,
            ": input_zero_point must be 0-d, got ", inputZeroPoint.sizes());
  std::vector<int64_t> wzp = zeroPoints(
      op, weightZeroPoint, "weight_zero_point", outChannels, "output channel");
  int64_t outSize[2];
  for (int i = 0; i < 2; ++i) {
    int64_t size = input.size(2 + i), kernel = weight.size(2 + i);
    int64_t span = dilation[i] * (kernel - 1) + 1;
    outSize[i] = (size + 2 * padding[i] - span) / stride[i] + 1;
    TCC_CHECK(size + 2 * padding[i] >= span, op, ": the kernel ",
              weight.sizes(), " does not fit the padded input ", input.sizes());
  }
  return recordNonDifferentiable(
      kConv2dInteger, {input, weight, inputZeroPoint, weightZeroPoint},
      [&] {
        std::vector<int64_t> x = longsOf(input), w = longsOf(weight);
        int64_t xzp = longsOf(inputZeroPoint)[0];
        int64_t h = input.size(2), wd = input.size(3);
        int64_t oh = outSize[0], ow = outSize[1];
        int64_t perGroup = outChannels / groups;
        std::vector<int64_t> out(size_t(batch * outChannels * oh * ow));
        for (int64_t nb = 0; nb < batch; ++nb)
          for (int64_t o = 0; o < outChannels; ++o) {
            int64_t firstChannel = (o / perGroup) * groupChannels;
            for (int64_t y = 0; y < oh; ++y)
              for (int64_t xo = 0; xo < ow; ++xo) {
                int64_t sum = 0;
                for (int64_t c = 0; c < groupChannels; ++c)
                  for (int64_t i = 0; i < kh; ++i)
                    for (int64_t j = 0; j < kw; ++j) {
                      int64_t iy = y * stride[0] + i * dilation[0] - padding[0];
                      int64_t ix =
                          xo * stride[1] + j * dilation[1] - padding[1];
                      if (iy < 0 || iy >= h || ix < 0 || ix >= wd)
                        continue; // reads the zero point: adds nothing
                      int64_t xv =
                          x[((nb * channels + firstChannel + c) * h + iy) * wd +
                            ix];
                      int64_t wv =
                          w[((o * groupChannels + c) * kh + i) * kw + j];
                      sum += (xv - xzp) * (wv - wzp[o]);
                    }
                out[((nb * outChannels + o) * oh + y) * ow + xo] = sum;
              }
          }
        return integersTensor({batch, outChannels, oh, ow}, kInt, out);
      },
      [&] {
        return AttrList{{"stride", stride.vec()},
                        {"padding", padding.vec()},
                        {"dilation", dilation.vec()},
                        {"groups", groups}};
      });
}

Tensor requantize(const Tensor &acc, const Tensor &multiplier,
                  const Tensor &zeroPoint, int64_t axis) {
  const char *op = "requantize";
  checkCpu(acc, op);
  TCC_CHECK(acc.dtype() == kInt, op, ": input must be int32, got ",
            acc.dtype());
  TCC_CHECK(isFloatingType(multiplier.dtype()), op,
            ": multiplier must be a floating point tensor, got ",
            multiplier.dtype());
  TCC_CHECK(isInt8(zeroPoint.dtype()), op,
            ": zero_point must be uint8 or int8, got ", zeroPoint.dtype());
  ChannelOf channel =
      checkParams(op, acc, multiplier, "multiplier", zeroPoint, axis);
  return recordNonDifferentiable(
      kRequantize, {acc, multiplier, zeroPoint},
      [&] {
        std::vector<int64_t> values = longsOf(acc), zp = longsOf(zeroPoint);
        std::vector<double> mult = doublesOf(multiplier);
        scalar::QuantRange range = rangeOf(zeroPoint.dtype());
        // f16/bf16 multipliers are exact in f32, their compute type.
        const bool inDouble = multiplier.dtype() == kDouble;
        std::vector<int64_t> out(values.size());
        for (size_t i = 0; i < values.size(); ++i) {
          int64_t c = channel(int64_t(i));
          int32_t acc = int32_t(values[i]);
          out[i] = inDouble
                       ? scalar::requantize(acc, mult[c], zp[c], range)
                       : scalar::requantize(acc, float(mult[c]), zp[c], range);
        }
        return integersTensor(acc.sizes(), zeroPoint.dtype(), out);
      },
      [&] {
        return AttrList{{"axis", axis}};
      });
}

} // namespace tcc
