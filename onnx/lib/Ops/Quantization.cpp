//===- Quantization.cpp - ONNX QDQ, QLinear and integer ops ---------------===//
//
// QuantizeLinear, DequantizeLinear, MatMulInteger, ConvInteger,
// QLinearMatMul, QLinearConv and DynamicQuantizeLinear on tcc's explicit
// quantization ops (docs/quantization.md). Scales and zero points of one
// element become 0-d (per tensor); 1-D ones apply along `axis`; blocked
// ones (block_size > 0) are expanded to the input's shape. The element
// types tcc lacks (16-bit, 4-bit, 2-bit and float8 integers) are refused
// naming the node.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "OpTable.h"
#include "Spatial.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

bool isQuantizedType(Type t) {
  return t.isUnsignedInteger(8) || t.isSignlessInteger(8) ||
         t.isSignlessInteger(32);
}
bool isInt8Type(Type t) {
  return t.isUnsignedInteger(8) || t.isSignlessInteger(8);
}

std::string typeName(Type t) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << t;
  return text;
}

/// A 0-d zero of `element`.
Value zeroOf(NodeContext &n, Type element) { return n.scalar(0.0, element); }

/// A scale or zero point: one element becomes 0-d; otherwise it must be
/// 1-D (per channel).
Value normalizeParam(NodeContext &n, Value v, const char *what) {
  auto shape = NodeContext::shapeOf(v);
  int64_t count = 1;
  for (int64_t d : shape)
    count *= d;
  if (count == 1)
    return n.reshape(v, {});
  if (shape.size() != 1)
    n.fail(std::string(what) +
           " must have one element or be 1-D (per "
           "axis), got rank " +
           std::to_string(shape.size()));
  return v;
}

/// The zero point input `index`, or a zero of `element` shaped like `scale`.
Value zeroPointOr(NodeContext &n, size_t index, Type element, Value scale) {
  if (n.hasInput(index))
    return normalizeParam(n, n.input(index), "the zero point");
  return n.splat(n.zeros({}, element), NodeContext::shapeOf(scale));
}

/// QuantizeLinear's or DequantizeLinear's input, scale and zero point in
/// the form tcc.quantize and tcc.dequantize take, and their `axis`.
struct AffineParams {
  Value x, scale, zp;
  int64_t axis;
};

/// Blocked quantization (opset 21's block_size > 0): the scale (input 1)
/// and zero point (input 2) have x's shape except along `axis`, where
/// each entry covers `blockSize` consecutive elements and the last block
/// may be shorter. tcc's ops take per-tensor or per-axis parameters only,
/// so both are expanded to x's shape (an index_select by the table
/// i / blockSize) and x and both are flattened to 1-D: the per-axis op on
/// axis 0 then applies its scalar rule (ScalarOps.h) to each element with
/// that element's own scale and zero point, bit for bit the per-axis path.
AffineParams blockedParams(NodeContext &n, Value x, Type zpType,
                           int64_t blockSize, const char *scaleName) {
  auto blockText = "block_size " + std::to_string(blockSize);
  int64_t rank = NodeContext::rankOf(x);
  if (rank == 0)
    n.fail("blocked quantization (" + blockText +
           ") needs an input of rank 1 or more, got a scalar");
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 1), rank, "axis");
  llvm::ArrayRef<int64_t> xShape = NodeContext::shapeOf(x);
  std::vector<int64_t> blocks(xShape.begin(), xShape.end());
  // ceil(n / blockSize), without overflow for any blockSize.
  blocks[axis] = xShape[axis] == 0 ? 0 : (xShape[axis] - 1) / blockSize + 1;
  int64_t count = 1;
  for (int64_t d : xShape)
    count *= d;
  std::vector<int64_t> blockOf(size_t(xShape[axis]));
  for (size_t i = 0; i < blockOf.size(); ++i)
    blockOf[i] = int64_t(i) / blockSize;
  Value table = n.i64Vector(blockOf);
  auto expand = [&](Value param, const std::string &what) {
    if (NodeContext::shapeOf(param) != llvm::ArrayRef<int64_t>(blocks))
      n.fail(what + " has shape " + shapeText(NodeContext::shapeOf(param)) +
             "; with " + blockText + " along axis " + std::to_string(axis) +
             " of an input of shape " + shapeText(xShape) + " it must be " +
             shapeText(blocks));
    Value full =
        n.create<tcc::IndexSelectOp>({param, table}, {n.i64Attr("dim", axis)});
    return n.reshape(full, {count});
  };
  Value scale = expand(n.input(1), scaleName);
  Value zp = n.hasInput(2) ? expand(n.input(2), "the zero point")
                           : n.splat(n.zeros({}, zpType), {count});
  return {n.reshape(x, {count}), scale, zp, 0};
}

/// The parameters of QuantizeLinear or DequantizeLinear (inputs 1 and 2)
/// for input `x`; a missing zero point is a zero of `zpType`.
AffineParams affineParams(NodeContext &n, Value x, Type zpType,
                          const char *scaleName) {
  int64_t blockSize = n.intAttr("block_size", 0);
  if (blockSize < 0)
    n.fail("block_size must be 0 or positive, got " +
           std::to_string(blockSize));
  if (blockSize > 0)
    return blockedParams(n, x, zpType, blockSize, scaleName);
  Value scale = normalizeParam(n, n.input(1), scaleName);
  Value zp = zeroPointOr(n, 2, zpType, scale);
  int64_t axis = NodeContext::rankOf(scale) == 0
                     ? 1
                     : n.normalizeAxis(n.intAttr("axis", 1),
                                       NodeContext::rankOf(x), "axis");
  return {x, scale, zp, axis};
}

void quantizeLinear(NodeContext &n) {
  n.checkAttrs({"axis", "saturate", "block_size", "output_dtype", "precision"});
  if (n.hasAttr("precision") && n.intAttr("precision") != 0)
    n.fail("the 'precision' attribute is not supported");
  Value x = n.input(0);
  // x may be int32 (opset 19+): it is divided as a float of scale's type.
  Type scaleType = NodeContext::elementTypeOf(n.input(1));
  if (!isa<FloatType>(NodeContext::elementTypeOf(x)))
    x = n.cast(x, scaleType);
  Type outType = n.builder().getIntegerType(8, /*isSigned=*/false);
  if (n.hasInput(2))
    outType = NodeContext::elementTypeOf(n.input(2));
  else if (n.hasAttr("output_dtype") && n.intAttr("output_dtype") != 0)
    outType = n.elementTypeFor(n.intAttr("output_dtype"));
  if (!isQuantizedType(outType))
    n.fail("quantizing to " + typeName(outType) +
           " is not supported (uint8, int8 and int32 are)");
  // saturate only applies to float8 outputs, which are refused above.
  AffineParams p = affineParams(n, x, outType, "y_scale");
  Value scale = n.cast(p.scale, NodeContext::elementTypeOf(x));
  Value y = n.create<tcc::QuantizeOp>({p.x, scale, p.zp},
                                      {n.i64Attr("axis", p.axis)});
  n.setOutput(0, n.reshape(y, NodeContext::shapeOf(x)));
}

void dequantizeLinear(NodeContext &n) {
  n.checkAttrs({"axis", "block_size", "output_dtype"});
  Value x = n.input(0);
  Type inType = NodeContext::elementTypeOf(x);
  if (!isQuantizedType(inType))
    n.fail("dequantizing " + typeName(inType) +
           " is not supported (uint8, int8 and int32 are)");
  AffineParams p = affineParams(n, x, inType, "x_scale");
  Value y = n.create<tcc::DequantizeOp>({p.x, p.scale, p.zp},
                                        {n.i64Attr("axis", p.axis)});
  y = n.reshape(y, NodeContext::shapeOf(x));
  if (n.hasAttr("output_dtype") && n.intAttr("output_dtype") != 0)
    y = n.cast(y, n.elementTypeFor(n.intAttr("output_dtype")));
  n.setOutput(0, y);
}

/// A matmul operand and its zero point: vectors gain a dim; the zero point
/// (absent: 0) must be per tensor or 1-D of `size` (per row of A, per
/// column of B).
Value matmulZeroPoint(NodeContext &n, size_t index, Value operand, int64_t size,
                      const char *what) {
  Type element = NodeContext::elementTypeOf(operand);
  if (!n.hasInput(index))
    return zeroOf(n, element);
  Value zp = normalizeParam(n, n.input(index), what);
  if (NodeContext::rankOf(zp) == 1 && NodeContext::shapeOf(zp)[0] != size)
    n.fail(std::string(what) + " must have one element or " +
           std::to_string(size) + " (one per " +
           (index == 2 ? "row of A" : "column of B") + ")");
  return zp;
}

/// (a - a_zp) @ (b - b_zp) in i32, numpy.matmul's shapes; `inputs` are
/// the indices of a, a_zp, b, b_zp. Returns the product and whether
/// vector operands were widened (to undo on the result).
struct IntegerProduct {
  Value acc;
  bool aVector, bVector;
};
IntegerProduct integerMatmul(NodeContext &n, Value a, Value b, size_t aZpIndex,
                             size_t bZpIndex) {
  if (!isInt8Type(NodeContext::elementTypeOf(a)) ||
      !isInt8Type(NodeContext::elementTypeOf(b)))
    n.fail("A and B must be uint8 or int8");
  auto as = NodeContext::shapeOf(a), bs = NodeContext::shapeOf(b);
  if (as.empty() || bs.empty())
    n.fail("A and B must have rank 1 or more");
  IntegerProduct p{Value(), as.size() == 1, bs.size() == 1};
  if (p.aVector)
    a = n.reshape(a, {1, as[0]});
  if (p.bVector)
    b = n.reshape(b, {bs[0], 1});
  int64_t m = NodeContext::shapeOf(a)[NodeContext::rankOf(a) - 2];
  int64_t cols = NodeContext::shapeOf(b).back();
  Value aZp = matmulZeroPoint(n, aZpIndex, a, m, "a_zero_point");
  Value bZp = matmulZeroPoint(n, bZpIndex, b, cols, "b_zero_point");
  p.acc = n.create<tcc::MatmulIntegerOp>({a, b, aZp, bZp});
  return p;
}

/// Removes the dims vector operands gained.
Value unwidened(NodeContext &n, Value y, const IntegerProduct &p) {
  if (!p.aVector && !p.bVector)
    return y;
  std::vector<int64_t> shape(NodeContext::shapeOf(y));
  if (p.bVector)
    shape.pop_back();
  if (p.aVector)
    shape.erase(shape.end() - (p.bVector ? 1 : 2));
  return n.reshape(y, shape);
}

void matMulInteger(NodeContext &n) {
  n.checkAttrs({});
  IntegerProduct p = integerMatmul(n, n.input(0), n.input(1), 2, 3);
  n.setOutput(0, unwidened(n, p.acc, p));
}

/// (s_a * s_b) / s_y in the scales' float type, 0-d or 1-D.
Value multiplierOf(NodeContext &n, Value aScale, Value bScale, Value yScale) {
  Type t = NodeContext::elementTypeOf(aScale);
  Value product = n.create<tcc::MulOp>({aScale, n.cast(bScale, t)});
  return n.create<tcc::DivOp>({product, n.cast(yScale, t)});
}

void qLinearMatMul(NodeContext &n) {
  n.checkAttrs({});
  Value aScale = normalizeParam(n, n.input(1), "a_scale");
  Value bScale = normalizeParam(n, n.input(4), "b_scale");
  Value yScale = normalizeParam(n, n.input(6), "y_scale");
  if (NodeContext::rankOf(aScale) != 0 || NodeContext::rankOf(yScale) != 0)
    n.fail("per-row a_scale and per-channel y_scale are not supported (only "
           "b_scale may be per column)");
  IntegerProduct p = integerMatmul(n, n.input(0), n.input(3), 2, 5);
  Value multiplier = multiplierOf(n, aScale, bScale, yScale);
  Value yZp = normalizeParam(n, n.input(7), "y_zero_point");
  if (NodeContext::rankOf(yZp) != 0)
    n.fail("y_zero_point must have one element");
  int64_t rank = NodeContext::rankOf(p.acc);
  if (NodeContext::rankOf(multiplier) == 1)
    yZp = n.broadcastTo(yZp, NodeContext::shapeOf(multiplier));
  Value y = n.create<tcc::RequantizeOp>({p.acc, multiplier, yZp},
                                        {n.i64Attr("axis", rank - 1)});
  n.setOutput(0, unwidened(n, y, p));
}

/// ConvInteger and QLinearConv's integer part: 2-D only. Asymmetric
/// padding pads with the input's zero point, which must then be constant.
Value integerConv(NodeContext &n, Value x, Value xZp, Value w, Value wZp) {
  if (!isInt8Type(NodeContext::elementTypeOf(x)) ||
      !isInt8Type(NodeContext::elementTypeOf(w)))
    n.fail("the input and weight must be uint8 or int8");
  if (NodeContext::rankOf(x) != 4 || NodeContext::rankOf(w) != 4)
    n.fail("only 2-D integer convolutions (4-D input and weight) are "
           "supported");
  std::vector<int64_t> kernel = dimsFrom(w, 2);
  if (n.hasAttr("kernel_shape") && n.intsAttr("kernel_shape") != kernel)
    n.fail("kernel_shape does not match the weight's shape");
  Window win = readWindow(n, NodeContext::shapeOf(x), kernel);
  int64_t groups = n.intAttr("group", 1);
  std::vector<int64_t> padding = win.padBegin;
  if (win.padBegin != win.padEnd) {
    std::optional<ConstantData> zp = constantValueOf(xZp);
    if (!zp)
      n.fail("asymmetric padding needs a constant x_zero_point");
    x = padTrailing(n, x, win.padBegin, win.padEnd, double(zp->getInt(0)));
    std::fill(padding.begin(), padding.end(), 0);
  }
  int64_t outChannels = NodeContext::shapeOf(w)[0];
  if (NodeContext::rankOf(wZp) == 1 &&
      NodeContext::shapeOf(wZp)[0] != outChannels)
    n.fail("w_zero_point must have one element or " +
           std::to_string(outChannels) + " (one per output channel)");
  return n.create<tcc::Conv2dIntegerOp>(
      {x, w, xZp, wZp},
      {n.i64ArrayAttr("stride", win.stride), n.i64ArrayAttr("padding", padding),
       n.i64ArrayAttr("dilation", win.dilation), n.i64Attr("groups", groups)});
}

const std::initializer_list<llvm::StringRef> kConvAttrs = {
    "auto_pad", "dilations", "group", "kernel_shape", "pads", "strides"};

void convInteger(NodeContext &n) {
  n.checkAttrs(kConvAttrs);
  Value x = n.input(0), w = n.input(1);
  Value xZp = n.hasInput(2) ? normalizeParam(n, n.input(2), "x_zero_point")
                            : zeroOf(n, NodeContext::elementTypeOf(x));
  if (NodeContext::rankOf(xZp) != 0)
    n.fail("x_zero_point must have one element");
  Value wZp = n.hasInput(3) ? normalizeParam(n, n.input(3), "w_zero_point")
                            : zeroOf(n, NodeContext::elementTypeOf(w));
  n.setOutput(0, integerConv(n, x, xZp, w, wZp));
}

void qLinearConv(NodeContext &n) {
  n.checkAttrs(kConvAttrs);
  Value xScale = normalizeParam(n, n.input(1), "x_scale");
  Value xZp = normalizeParam(n, n.input(2), "x_zero_point");
  Value wScale = normalizeParam(n, n.input(4), "w_scale");
  Value wZp = normalizeParam(n, n.input(5), "w_zero_point");
  Value yScale = normalizeParam(n, n.input(6), "y_scale");
  Value yZp = normalizeParam(n, n.input(7), "y_zero_point");
  if (NodeContext::rankOf(xScale) != 0 || NodeContext::rankOf(xZp) != 0 ||
      NodeContext::rankOf(yScale) != 0 || NodeContext::rankOf(yZp) != 0)
    n.fail("x and y must be quantized per tensor (only w may be per "
           "channel)");
  Value acc = integerConv(n, n.input(0), xZp, n.input(3), wZp);
  if (n.hasInput(8)) {
    Value bias = n.input(8);
    if (!NodeContext::elementTypeOf(bias).isSignlessInteger(32))
      n.fail("B must be int32");
    int64_t out = NodeContext::shapeOf(acc)[1];
    if (NodeContext::shapeOf(bias) != llvm::ArrayRef<int64_t>{out})
      n.fail("B must have " + std::to_string(out) + " elements");
    acc = n.create<tcc::AddOp>({acc, n.reshape(bias, {1, out, 1, 1})});
  }
  Value multiplier = multiplierOf(n, xScale, wScale, yScale);
  if (NodeContext::rankOf(multiplier) == 1)
    yZp = n.broadcastTo(yZp, NodeContext::shapeOf(multiplier));
  n.setOutput(0, n.create<tcc::RequantizeOp>({acc, multiplier, yZp},
                                             {n.i64Attr("axis", 1)}));
}

/// The reduction of `x` over all its dims to a 0-d value.
template <class OpTy> Value reduceAll(NodeContext &n, Value x) {
  std::vector<int64_t> all(NodeContext::rankOf(x));
  for (size_t i = 0; i < all.size(); ++i)
    all[i] = int64_t(i);
  if (all.empty())
    return x;
  return n.create<OpTy>(x, {n.i64ArrayAttr("dims", all)});
}

/// ONNX's formula: the range [min(x, 0), max(x, 0)] mapped onto [0, 255]
/// (scale 1 for an empty range); the zero point is
/// saturate(round(-min / scale)).
void dynamicQuantizeLinear(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  Type f32 = n.builder().getF32Type();
  if (NodeContext::elementTypeOf(x) != f32)
    n.fail("x must be float32");
  Value zero = n.scalar(0.0, f32);
  Value lo =
      n.create<tcc::MinimumOp>({reduceAll<tcc::ReduceMinOp>(n, x), zero});
  Value hi =
      n.create<tcc::MaximumOp>({reduceAll<tcc::ReduceMaxOp>(n, x), zero});
  // An all-zero x has scale 1 (ONNX's reference), not 0.
  Value range = n.create<tcc::SubOp>({hi, lo});
  Value empty = n.create<tcc::EqOp>({range, zero});
  range = n.create<tcc::SelectOp>({empty, n.scalar(1.0, f32), range});
  Value scale = n.create<tcc::DivOp>({range, n.scalar(255.0, f32)});
  Type u8 = n.builder().getIntegerType(8, /*isSigned=*/false);
  Value u8Zero = zeroOf(n, u8);
  Value shifted =
      n.create<tcc::SubOp>({zero, n.create<tcc::DivOp>({lo, scale})});
  Value zp = n.create<tcc::QuantizeOp>({shifted, n.scalar(1.0, f32), u8Zero});
  n.setOutput(0, n.create<tcc::QuantizeOp>({x, scale, zp}));
  n.setOutput(1, scale);
  n.setOutput(2, zp);
}

} // namespace

void mlir::tcc::onnx::registerQuantizationOps(OpTable &t) {
  t.add("QuantizeLinear", 10, quantizeLinear);
  t.add("DequantizeLinear", 10, dequantizeLinear);
  t.add("MatMulInteger", 10, matMulInteger);
  t.add("ConvInteger", 10, convInteger);
  t.add("QLinearMatMul", 10, qLinearMatMul);
  t.add("QLinearConv", 10, qLinearConv);
  t.add("DynamicQuantizeLinear", 11, dynamicQuantizeLinear);
}
