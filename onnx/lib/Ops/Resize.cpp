//===- Resize.cpp - ONNX Resize -------------------------------------------===//
//
// Resize is separable: each resized axis in turn maps input positions to
// output positions with a fixed number of taps per output position,
//   y[o] = sum_t coeff[o][t] * x[index[o][t]],
// where the index and coefficient tables depend only on sizes and
// attributes, so they are computed here (following ONNX's reference,
// onnx/reference/ops/op_resize.py) and become constants. Each tap is a
// tcc.index_select along the axis times a coefficient column; nearest
// mode, and any axis whose table picks exactly one input per output, is
// one index_select (exact for every element type).
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

/// The tables of one axis: `taps` entries per output position.
struct AxisTables {
  int64_t taps = 0;
  std::vector<int64_t> index;   // [out * taps], clamped into the input
  std::vector<double> coeff;    // [out * taps]
  std::vector<bool> outside;    // [out]: tf_crop_and_resize extrapolates
};

struct ResizeAttrs {
  std::string mode, coordinateMode, nearestMode;
  double cubicA = -0.75, extrapolation = 0.0;
  bool excludeOutside = false, antialias = false;
};

/// Coefficients for the fractional offset `ratio` in (0, 1].
std::vector<double> coefficients(const ResizeAttrs &a, double ratio,
                                 double scale) {
  if (a.mode == "nearest") {
    if (ratio == 1.0)
      return {0, 1};
    const std::string &m = a.nearestMode;
    bool right = m == "round_prefer_floor" ? ratio > 0.5
                 : m == "round_prefer_ceil" ? ratio >= 0.5
                                            : m == "ceil";
    return {double(!right), double(right)};
  }
  if (a.mode == "linear" && !a.antialias)
    return {1 - ratio, ratio};
  if (a.mode == "linear") {
    scale = std::min(scale, 1.0);
    int64_t start = int64_t(std::floor(-1 / scale)) + 1;
    int64_t footprint = 2 - 2 * start;
    std::vector<double> c;
    double sum = 0;
    for (int64_t i = start; i < start + footprint; ++i) {
      double v = std::clamp(1 - std::abs((double(i) - ratio) * scale), 0.0, 1.0);
      c.push_back(v);
      sum += v;
    }
    for (double &v : c)
      v /= sum;
    return c;
  }
  double A = a.cubicA;
  if (!a.antialias) {
    double r = ratio, s = 1 - ratio;
    return {((A * (r + 1) - 5 * A) * (r + 1) + 8 * A) * (r + 1) - 4 * A,
            ((A + 2) * r - (A + 3)) * r * r + 1,
            ((A + 2) * s - (A + 3)) * s * s + 1,
            ((A * (s + 1) - 5 * A) * (s + 1) + 8 * A) * (s + 1) - 4 * A};
  }
  scale = std::min(scale, 1.0);
  auto weight = [&](double x) {
    x = std::abs(x);
    if (x <= 1)
      return (A + 2) * x * x * x - (A + 3) * x * x + 1;
    if (x < 2)
      return A * x * x * x - 5 * A * x * x + 8 * A * x - 4 * A;
    return 0.0;
  };
  int64_t start = int64_t(std::floor(-2 / scale)) + 1;
  std::vector<double> c;
  double sum = 0;
  for (int64_t i = start; i < 2 - start; ++i) {
    c.push_back(weight(scale * (double(i) - ratio)));
    sum += c.back();
  }
  for (double &v : c)
    v /= sum;
  return c;
}

/// The input coordinate of output position `y`, or nullopt for a mode the
/// importer does not know.
std::optional<double> sourceCoordinate(const ResizeAttrs &a, double y,
                                       double scale, int64_t in,
                                       int64_t outInt, double roiStart,
                                       double roiEnd) {
  double outWidth = scale * double(in);
  const std::string &m = a.coordinateMode;
  if (m == "align_corners")
    return outWidth == 1 ? 0.0 : y * double(in - 1) / (outWidth - 1);
  if (m == "asymmetric")
    return y / scale;
  if (m == "tf_crop_and_resize") {
    double x = outWidth == 1
                   ? (roiEnd - roiStart) * double(in - 1) / 2
                   : y * (roiEnd - roiStart) * double(in - 1) / (outWidth - 1);
    return x + roiStart * double(in - 1);
  }
  if (m == "pytorch_half_pixel")
    return outWidth == 1 ? -0.5 : (y + 0.5) / scale - 0.5;
  if (m == "half_pixel")
    return (y + 0.5) / scale - 0.5;
  if (m == "half_pixel_symmetric") {
    double adjustment = double(outInt) / outWidth;
    double offset = double(in) / 2 * (1 - adjustment);
    return offset + (y + 0.5) / scale - 0.5;
  }
  if (m == "tf_half_pixel_for_nn") // opsets 11 and 12
    return (y + 0.5) / scale;
  return std::nullopt;
}

AxisTables axisTables(NodeContext &n, const ResizeAttrs &a, int64_t in,
                      int64_t out, double scale, double roiStart,
                      double roiEnd) {
  AxisTables t;
  for (int64_t o = 0; o < out; ++o) {
    std::optional<double> x =
        sourceCoordinate(a, double(o), scale, in, out, roiStart, roiEnd);
    if (!x)
      n.fail("coordinate_transformation_mode '" + a.coordinateMode +
             "' is not supported");
    t.outside.push_back(a.coordinateMode == "tf_crop_and_resize" &&
                        (*x < 0 || *x > double(in - 1)));
    double floorX = std::floor(*x);
    // The ratio is in (0, 1]: an integer coordinate prefers the left pixel.
    double ratio = *x == floorX ? 1.0 : *x - floorX;
    std::vector<double> c = coefficients(a, ratio, scale);
    int64_t taps = c.size();
    if (t.taps == 0)
      t.taps = taps;
    if (taps != t.taps)
      n.fail("internal error: the resize kernel changes size");
    // The taps nearest to x, ties to the smaller index (the reference's
    // neighbour search on an edge-padded input).
    int64_t pad = (taps + 1) / 2;
    double padded = *x + double(pad);
    int64_t p = int64_t(std::floor(padded));
    double frac = padded - double(p);
    int64_t offset = taps % 2 == 0
                         ? (frac == 0 ? -(taps / 2) : -(taps / 2) + 1)
                         : (frac <= 0.5 ? -((taps - 1) / 2) : -((taps - 1) / 2) + 1);
    int64_t start = p + offset - pad;
    if (a.excludeOutside) {
      double sum = 0;
      for (int64_t k = 0; k < taps; ++k) {
        if (start + k < 0 || start + k >= in)
          c[k] = 0;
        sum += c[k];
      }
      for (double &v : c)
        v /= sum == 0 ? 1 : sum;
    }
    for (int64_t k = 0; k < taps; ++k) {
      t.index.push_back(std::clamp<int64_t>(start + k, 0, in - 1));
      t.coeff.push_back(c[k]);
    }
  }
  return t;
}

/// Resizes dim `axis` of `x` by the tables.
Value applyTables(NodeContext &n, Value x, int64_t axis, const AxisTables &t,
                  double extrapolation) {
  auto shape = NodeContext::shapeOf(x);
  int64_t out = t.outside.size();
  Type type = NodeContext::elementTypeOf(x);
  // A table that picks one input per output is a single gather.
  bool single = true;
  std::vector<int64_t> picked;
  for (int64_t o = 0; o < out && single; ++o) {
    int64_t chosen = -1;
    for (int64_t k = 0; k < t.taps; ++k) {
      double c = t.coeff[o * t.taps + k];
      if (c == 1.0 && chosen < 0)
        chosen = t.index[o * t.taps + k];
      else if (c != 0.0)
        single = false;
    }
    single &= chosen >= 0;
    picked.push_back(chosen);
  }
  // Coefficient columns broadcast along the dims after the axis.
  std::vector<int64_t> columnShape(shape.size() - axis, 1);
  columnShape[0] = out;
  Value y;
  if (single) {
    y = n.create<tcc::IndexSelectOp>({x, n.i64Vector(picked)},
                                     {n.i64Attr("dim", axis)});
  } else {
    if (!isa<FloatType>(type))
      n.fail("interpolating (mode '" + std::string("linear or cubic") +
             "') needs a floating-point input");
    for (int64_t k = 0; k < t.taps; ++k) {
      std::vector<int64_t> index;
      ConstantData column = ConstantData::zeros(RankedTensorType::get(columnShape, type));
      bool allZero = true;
      for (int64_t o = 0; o < out; ++o) {
        index.push_back(t.index[o * t.taps + k]);
        column.setFloat(o, t.coeff[o * t.taps + k]);
        allZero &= t.coeff[o * t.taps + k] == 0.0;
      }
      if (allZero)
        continue;
      Value tap = n.create<tcc::IndexSelectOp>({x, n.i64Vector(index)},
                                               {n.i64Attr("dim", axis)});
      tap = n.create<tcc::MulOp>({tap, n.constant(column)});
      y = y ? n.create<tcc::AddOp>({y, tap}) : tap;
    }
    if (!y) { // every coefficient is 0
      std::vector<int64_t> outShape(shape);
      outShape[axis] = out;
      y = n.broadcastTo(n.scalar(0.0, type), outShape);
    }
  }
  if (std::find(t.outside.begin(), t.outside.end(), true) != t.outside.end()) {
    ConstantData mask = ConstantData::zeros(
        RankedTensorType::get(columnShape, n.builder().getI1Type()));
    for (int64_t o = 0; o < out; ++o)
      mask.setInt(o, t.outside[o]);
    y = n.create<tcc::SelectOp>(
        {n.constant(mask), n.scalar(extrapolation, type), y});
  }
  return y;
}

void resize(NodeContext &n) {
  n.checkAttrs({"antialias", "axes", "coordinate_transformation_mode",
                "cubic_coeff_a", "exclude_outside", "extrapolation_value",
                "keep_aspect_ratio_policy", "mode", "nearest_mode"});
  ResizeAttrs a;
  a.mode = n.stringAttr("mode", "nearest");
  a.coordinateMode = n.stringAttr("coordinate_transformation_mode", "half_pixel");
  a.nearestMode = n.stringAttr("nearest_mode", "round_prefer_floor");
  a.cubicA = n.floatAttr("cubic_coeff_a", -0.75f);
  a.extrapolation = n.floatAttr("extrapolation_value", 0.0f);
  a.excludeOutside = n.intAttr("exclude_outside", 0);
  a.antialias = n.intAttr("antialias", 0);
  if (a.mode != "nearest" && a.mode != "linear" && a.mode != "cubic")
    n.fail("mode '" + a.mode + "' is not nearest, linear or cubic");
  if (a.nearestMode != "round_prefer_floor" && a.nearestMode != "round_prefer_ceil" &&
      a.nearestMode != "floor" && a.nearestMode != "ceil")
    n.fail("nearest_mode '" + a.nearestMode + "' is not supported");
  if (a.antialias && a.mode == "nearest")
    n.fail("antialias applies to linear and cubic modes only");
  if (a.coordinateMode == "tf_half_pixel_for_nn" && n.opset() >= 13)
    n.fail("coordinate_transformation_mode 'tf_half_pixel_for_nn' was "
           "removed in opset 13");
  std::string policy = n.stringAttr("keep_aspect_ratio_policy", "stretch");
  if (policy != "stretch" && policy != "not_larger" && policy != "not_smaller")
    n.fail("keep_aspect_ratio_policy '" + policy + "' is not supported");

  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  int64_t rank = shape.size();
  std::vector<int64_t> axes;
  if (n.hasAttr("axes")) {
    for (int64_t d : n.intsAttr("axes"))
      axes.push_back(n.normalizeAxis(d, rank, "axis"));
  } else {
    for (int64_t d = 0; d < rank; ++d)
      axes.push_back(d);
  }
  size_t count = axes.size();
  // Inputs given as empty tensors count as absent.
  auto given = [&](size_t i) {
    std::optional<ConstantData> c = n.hasInput(i) ? n.constantInput(i) : std::nullopt;
    return n.hasInput(i) && !(c && c->numElements() == 0);
  };
  std::vector<double> roi(2 * count);
  for (size_t i = 0; i < count; ++i)
    roi[count + i] = 1.0;
  if (a.coordinateMode == "tf_crop_and_resize") {
    if (!given(1))
      n.fail("tf_crop_and_resize needs roi");
    roi = n.floatsInput(1, "roi");
    if (roi.size() != 2 * count)
      n.fail("roi has " + std::to_string(roi.size()) + " values for " +
             std::to_string(count) + " axes");
  }
  std::vector<double> scales(count);
  std::vector<int64_t> outSizes(count);
  if (given(2) == given(3))
    n.fail("exactly one of scales and sizes must be given");
  if (given(2)) {
    std::vector<double> s = n.floatsInput(2, "scales");
    if (s.size() != count)
      n.fail("scales has " + std::to_string(s.size()) + " values for " +
             std::to_string(count) + " axes");
    for (size_t i = 0; i < count; ++i) {
      if (!(s[i] > 0) || s[i] * double(shape[axes[i]]) > double(kMaxElements))
        n.fail("scales must be positive, and give dims of at most 2^40");
      scales[i] = s[i];
      outSizes[i] = int64_t(s[i] * double(shape[axes[i]]));
    }
  } else {
    std::vector<int64_t> s = n.intsInput(3, "sizes");
    if (s.size() != count)
      n.fail("sizes has " + std::to_string(s.size()) + " values for " +
             std::to_string(count) + " axes");
    for (size_t i = 0; i < count; ++i) {
      if (s[i] < 0 || s[i] > kMaxElements)
        n.fail("sizes must be in [0, 2^40]");
      if (shape[axes[i]] == 0)
        n.fail("resizing an empty dim is not supported");
      scales[i] = double(s[i]) / double(shape[axes[i]]);
    }
    outSizes = s;
    if (policy != "stretch") {
      double scale = scales[0];
      for (double v : scales)
        scale = policy == "not_larger" ? std::min(scale, v) : std::max(scale, v);
      for (size_t i = 0; i < count; ++i) {
        if (scale * double(shape[axes[i]]) > double(kMaxElements))
          n.fail("keep_aspect_ratio_policy gives a dim above 2^40");
        scales[i] = scale;
        outSizes[i] = int64_t(scale * double(shape[axes[i]]) + 0.5);
      }
    }
  }
  for (size_t i = 0; i < count; ++i) {
    int64_t in = shape[axes[i]], out = outSizes[i];
    bool identity = std::abs(scales[i] - 1.0) < 1e-9 && out == in &&
                    roi[i] == 0.0 && roi[count + i] == 1.0;
    if (identity)
      continue;
    if (in == 0 || out == 0)
      n.fail("resizing to or from an empty dim is not supported");
    checkTableSize(n, out, "the interpolation table of axis " +
                               std::to_string(axes[i]));
    AxisTables t = axisTables(n, a, in, out, scales[i], roi[i], roi[count + i]);
    x = applyTables(n, x, axes[i], t, a.extrapolation);
  }
  n.setOutput(0, x);
}

} // namespace

void mlir::tcc::onnx::registerResizeOps(OpTable &t) { t.add("Resize", 11, resize); }
