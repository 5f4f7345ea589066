//===- Rewrite.cpp - Layers into tcc's integer ops ------------------------===//
//
// conv2d / linear / matmul by a constant:
//
//   %xq  = tcc.quantize %x, %sx, %zx               (unless %x is already
//                                                   the dequantized output
//                                                   of a quantized layer)
//   %acc = tcc.conv2d_integer %xq, %wq, %zx, %zw   (matmul_integer for the
//                                                   others, W^T as [K, N])
//   %acc = tcc.add %acc, %bias_i32
//   %yq  = tcc.requantize %acc, %m, %zy {axis = channel}
//   %y   = tcc.dequantize %yq, %sy, %zy
//
// the form tcc-fold-qdq produces from QDQ and the ONNX importer from
// QLinearConv/QLinearMatMul. Weights are s8, symmetric per output channel
// (zero point 0, values in [-127, 127]); bias is int32 at scale sx * sw[o];
// the multiplier is (sx * sw[o]) / sy, each step rounded to f32 as the int8
// kernels compute it (tcc_int8_requant_scale). add keeps the QDQ form:
//
//   %yq = tcc.quantize (tcc.add (tcc.dequantize %aq) (tcc.dequantize %bq))
//
//===----------------------------------------------------------------------===//

#include "Rewrite.h"

#include "tcc/IR/TccOps.h"
#include "tcc/Passes/ConstantData.h"
#include "tcc/runtime/ScalarOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/DenseMap.h"

#include <cmath>
#include <cstdint>
#include <limits>

namespace tcc {
namespace quant {
namespace detail {

namespace {

using namespace mlir;
namespace mt = mlir::tcc;

std::string str(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

/// Symmetric s8 weights, one scale per channel along `axis`.
struct QuantizedWeights {
  mt::ConstantData values; // i8, the weight's shape
  std::vector<float> scales;
};

QuantizedWeights quantizeWeights(const mt::ConstantData &w, int64_t axis,
                                 const std::string &layer) {
  ArrayRef<int64_t> shape = w.type.getShape();
  int64_t channels = shape[axis], inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d)
    inner *= shape[d];
  auto channelOf = [&](int64_t i) { return (i / inner) % channels; };
  std::vector<double> maxAbs(channels, 0.0);
  for (int64_t i = 0, n = w.numElements(); i < n; ++i) {
    double v = w.getFloat(i);
    if (!std::isfinite(v))
      throw QuantError(layer + ": the weight has a non-finite value (" +
                       str(v) + ")");
    maxAbs[channelOf(i)] = std::max(maxAbs[channelOf(i)], std::fabs(v));
  }
  QuantizedWeights out;
  for (int64_t c = 0; c < channels; ++c) {
    // An all-zero channel is exact at any scale.
    float scale = maxAbs[c] == 0 ? 1.0f : float(maxAbs[c]) / 127.0f;
    if (!std::isnormal(scale))
      throw QuantError(layer + ": the weight scale of channel " +
                       std::to_string(c) + " comes out zero (|w| <= " +
                       str(maxAbs[c]) + ")");
    out.scales.push_back(scale);
  }
  out.values = mt::ConstantData::zeros(
      RankedTensorType::get(w.type.getShape(),
                            IntegerType::get(w.type.getContext(), 8)));
  const scalar::QuantRange symmetric{-127, 127};
  for (int64_t i = 0, n = w.numElements(); i < n; ++i)
    out.values.setInt(i, scalar::quantize<float>(float(w.getFloat(i)),
                                                 out.scales[channelOf(i)], 0,
                                                 symmetric));
  return out;
}

/// [rows, cols] -> [cols, rows].
mt::ConstantData transposed(const mt::ConstantData &m) {
  int64_t rows = m.type.getDimSize(0), cols = m.type.getDimSize(1);
  mt::ConstantData t = mt::ConstantData::zeros(
      RankedTensorType::get({cols, rows}, m.type.getElementType()));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      t.setInt(c * rows + r, m.getInt(r * cols + c));
  return t;
}

class LayerQuantizer {
public:
  LayerQuantizer(func::FuncOp function, IntegerRange type)
      : builder_(function.getContext()), loc_(function.getLoc()),
        type_(type) {
    MLIRContext *ctx = function.getContext();
    activationType_ = type.min == 0
                          ? IntegerType::get(ctx, 8, IntegerType::Unsigned)
                          : IntegerType::get(ctx, 8);
  }

  void quantize(const Layer &layer, const LayerRanges &ranges) {
    builder_.setInsertionPoint(layer.op);
    // Named, so that `tcc inspect` of the compiled model shows the layer.
    loc_ = NameLoc::get(builder_.getStringAttr(layer.name + " int8"),
                        layer.op->getLoc());
    Range out = ranges.output;
    if (layer.relu)
      out.min = 0; // the clamp at the zero point is the ReLU
    AffineParams py = affineParams(out, type_, layer.name + ": output");
    Value y;
    if (layer.kind == "add")
      y = quantizeAdd(layer, ranges, py);
    else
      y = quantizeProduct(layer, ranges, py);
    Value(layer.output).replaceAllUsesWith(y);
    if (layer.relu)
      dead_.push_back(layer.relu);
    dead_.push_back(layer.op);
  }

  /// Erases the replaced float ops and the constants only they used.
  void eraseDead() {
    for (Operation *op : dead_) {
      SmallVector<Value> operands(op->getOperands());
      op->erase();
      for (Value v : operands)
        if (Operation *def = v.getDefiningOp<mt::ConstantOp>())
          if (def->use_empty())
            def->erase();
    }
    dead_.clear();
  }

private:
  struct Quantized {
    Value q;
    AffineParams params;
  };

  static bool same(const AffineParams &a, const AffineParams &b) {
    return a.scale == b.scale && a.zeroPoint == b.zeroPoint;
  }

  Location loc() { return loc_; }

  /// One constant op per value (scales and zero points repeat); layers are
  /// rewritten in program order, so the first one dominates the others.
  Value constant(ElementsAttr value) {
    Value &c = constants_[value];
    if (!c)
      c = builder_.create<mt::ConstantOp>(loc(), value);
    return c;
  }
  Value f32Scalar(float v) {
    return constant(DenseElementsAttr::get(
        RankedTensorType::get({}, builder_.getF32Type()), ArrayRef<float>(v)));
  }
  Value f32Vector(ArrayRef<float> v) {
    return constant(DenseElementsAttr::get(
        RankedTensorType::get({int64_t(v.size())}, builder_.getF32Type()), v));
  }
  /// A splat of `value` of `elementType` and `shape`.
  Value intSplat(Type elementType, ArrayRef<int64_t> shape, int64_t value) {
    unsigned width = elementType.getIntOrFloatBitWidth();
    return constant(DenseElementsAttr::get(
        RankedTensorType::get(shape, elementType),
        ArrayRef<APInt>(APInt(width, uint64_t(value), /*isSigned=*/true))));
  }
  Value blob(const mt::ConstantData &data, const std::string &name) {
    return constant(mt::makeConstantAttr(data, name));
  }

  /// `x` as an integer tensor with params `p`: the integer tensor behind it
  /// when it is a quantized layer's output of the same params, else a new
  /// quantize (shared by later readers of `x`).
  Value quantized(Value x, const AffineParams &p) {
    for (auto *map : {&dequantizedFrom_, &quantizeOf_})
      if (auto it = map->find(x); it != map->end() && same(it->second.params, p))
        return it->second.q;
    Value q = builder_.create<mt::QuantizeOp>(
        loc(), x, f32Scalar(p.scale), intSplat(activationType_, {}, p.zeroPoint),
        builder_.getI64IntegerAttr(1));
    quantizeOf_[x] = {q, p};
    return q;
  }

  /// `x` through its quantized form, in float.
  Value fakeQuantized(Value x, const AffineParams &p) {
    if (auto it = dequantizedFrom_.find(x);
        it != dequantizedFrom_.end() && same(it->second.params, p))
      return x;
    return dequantized(quantized(x, p), p);
  }

  Value dequantized(Value q, const AffineParams &p) {
    Value y = builder_.create<mt::DequantizeOp>(
        loc(), q, f32Scalar(p.scale), intSplat(activationType_, {}, p.zeroPoint),
        builder_.getI64IntegerAttr(1));
    dequantizedFrom_[y] = {q, p};
    return y;
  }

  Value quantizeAdd(const Layer &layer, const LayerRanges &ranges,
                    const AffineParams &py) {
    auto add = cast<mt::AddOp>(layer.op);
    Value a = fakeQuantized(
        add.getLhs(), affineParams(ranges.inputs[0], type_, layer.name + ": lhs"));
    Value b = fakeQuantized(
        add.getRhs(), affineParams(ranges.inputs[1], type_, layer.name + ": rhs"));
    Value sum = builder_.create<mt::AddOp>(loc(), a, b);
    Value q = builder_.create<mt::QuantizeOp>(
        loc(), sum, f32Scalar(py.scale),
        intSplat(activationType_, {}, py.zeroPoint),
        builder_.getI64IntegerAttr(1));
    return dequantized(q, py);
  }

  Value quantizeProduct(const Layer &layer, const LayerRanges &ranges,
                        const AffineParams &py) {
    Operation *op = layer.op;
    Value x = op->getOperand(0), weight = op->getOperand(1), bias;
    if (op->getNumOperands() > 2)
      bias = op->getOperand(2);
    AffineParams px =
        affineParams(ranges.inputs[0], type_, layer.name + ": input");
    Value xq = quantized(x, px);

    auto wConst = weight.getDefiningOp<mt::ConstantOp>();
    std::optional<mt::ConstantData> w = mt::readConstant(wConst.getValue());
    if (!w)
      throw QuantError(layer.name + ": the weight's data is missing");
    // Output channels: dim 0 of OIHW and of linear's [out, in]; dim 1 of a
    // matmul's [K, N].
    bool isMatmul = layer.kind == "matmul";
    QuantizedWeights wq = quantizeWeights(*w, isMatmul ? 1 : 0, layer.name);
    std::string blobName = mt::deriveBlobName({wConst.getValue()}, ".int8");
    Type i8 = builder_.getIntegerType(8);
    Value wZero = intSplat(i8, {}, 0);
    int64_t channels = int64_t(wq.scales.size());

    Value acc;
    int64_t channelAxis;
    if (auto conv = dyn_cast<mt::Conv2dOp>(op)) {
      NamedAttribute attrs[] = {
          builder_.getNamedAttr("stride", builder_.getDenseI64ArrayAttr(
                                              conv.getStride())),
          builder_.getNamedAttr("padding", builder_.getDenseI64ArrayAttr(
                                               conv.getPadding())),
          builder_.getNamedAttr("dilation", builder_.getDenseI64ArrayAttr(
                                                conv.getDilation())),
          builder_.getNamedAttr("groups",
                                builder_.getI64IntegerAttr(conv.getGroups()))};
      acc = builder_.create<mt::Conv2dIntegerOp>(
          loc(),
          ValueRange{xq, blob(wq.values, blobName),
                     intSplat(activationType_, {}, px.zeroPoint), wZero},
          attrs);
      channelAxis = 1;
    } else {
      // matmul_integer's right operand is [K, N]: linear's W^T.
      mt::ConstantData b = isMatmul ? wq.values : transposed(wq.values);
      acc = builder_.create<mt::MatmulIntegerOp>(
          loc(), ValueRange{xq, blob(b, blobName),
                            intSplat(activationType_, {}, px.zeroPoint), wZero});
      channelAxis = cast<RankedTensorType>(acc.getType()).getRank() - 1;
    }

    if (bias) {
      auto bConst = bias.getDefiningOp<mt::ConstantOp>();
      std::optional<mt::ConstantData> bv = mt::readConstant(bConst.getValue());
      if (!bv)
        throw QuantError(layer.name + ": the bias's data is missing");
      SmallVector<int64_t> shape(
          cast<RankedTensorType>(acc.getType()).getRank(), 1);
      shape[channelAxis] = channels;
      if (isa<mt::LinearOp>(op))
        shape.assign({channels});
      mt::ConstantData q = mt::ConstantData::zeros(
          RankedTensorType::get(shape, builder_.getIntegerType(32)));
      for (int64_t c = 0; c < channels; ++c) {
        float biasScale = px.scale * wq.scales[c];
        double v = std::nearbyint(bv->getFloat(c) / double(biasScale));
        if (!(std::fabs(v) <= double(std::numeric_limits<int32_t>::max())))
          throw QuantError(layer.name + ": bias[" + std::to_string(c) +
                           "] = " + str(bv->getFloat(c)) +
                           " overflows int32 at scale " + str(biasScale));
        q.setInt(c, int64_t(v));
      }
      acc = builder_.create<mt::AddOp>(
          loc(), acc,
          blob(q, mt::deriveBlobName({bConst.getValue()}, ".int32")));
    }

    std::vector<float> multipliers;
    for (float sw : wq.scales) {
      float m = (px.scale * sw) / py.scale;
      if (!std::isnormal(m))
        throw QuantError(layer.name + ": the requantization multiplier (" +
                         str(px.scale) + " * " + str(sw) + ") / " +
                         str(py.scale) + " is not a normal float");
      multipliers.push_back(m);
    }
    Value yq = builder_.create<mt::RequantizeOp>(
        loc(), acc, f32Vector(multipliers),
        intSplat(activationType_, {channels}, py.zeroPoint),
        builder_.getI64IntegerAttr(channelAxis));
    return dequantized(yq, py);
  }

  OpBuilder builder_;
  Location loc_;
  IntegerRange type_;
  Type activationType_;
  /// Dequantized outputs of quantized layers, and their integer tensors.
  llvm::DenseMap<Value, Quantized> dequantizedFrom_;
  /// Quantizes made for float values.
  llvm::DenseMap<Value, Quantized> quantizeOf_;
  llvm::DenseMap<Attribute, Value> constants_;
  std::vector<Operation *> dead_;
};

} // namespace

void quantizeLayers(func::FuncOp function, const std::vector<Layer> &layers,
                    const std::vector<LayerRanges> &ranges,
                    const std::vector<bool> &int8,
                    IntegerRange activationType) {
  LayerQuantizer quantizer(function, activationType);
  for (size_t i = 0; i < layers.size(); ++i)
    if (int8[i])
      quantizer.quantize(layers[i], ranges[i]);
  quantizer.eraseDead();
}

} // namespace detail
} // namespace quant
} // namespace tcc
