//===- QuantizedCalls.cpp - CPU library calls: tcc_qgemm, tcc_qconv2d -----===//

#include "QuantizedCalls.h"

#include "../../ArtifactTypes.h"

#include "tcc/IR/TccOps.h"
#include "tcc/Passes/TargetCapabilities.h"
#include "tcc/runtime/kernels_int8.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/Hashing.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tcc;
namespace artifact = ::tcc::artifact;

namespace {

RankedTensorType typeOf(Value v) { return cast<RankedTensorType>(v.getType()); }

/// The elements of an 8- or 32-bit integer constant, or nullopt.
std::optional<std::vector<int64_t>> constantIntegers(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant)
    return std::nullopt;
  Type element = typeOf(v).getElementType();
  std::vector<uint8_t> bytes = constantBytes(constant.getValue());
  std::vector<int64_t> out;
  if (element.isUnsignedInteger(8)) {
    out.assign(bytes.begin(), bytes.end());
  } else if (element.isSignlessInteger(8)) {
    for (uint8_t b : bytes)
      out.push_back(int8_t(b));
  } else if (element.isSignlessInteger(32)) {
    out.resize(bytes.size() / 4);
    for (size_t i = 0; i < out.size(); ++i) {
      int32_t x;
      std::memcpy(&x, bytes.data() + 4 * i, 4);
      out[i] = x;
    }
  } else {
    return std::nullopt;
  }
  return out;
}

std::optional<std::vector<float>> constantF32(Value v) {
  auto constant = v.getDefiningOp<ConstantOp>();
  if (!constant || !typeOf(v).getElementType().isF32())
    return std::nullopt;
  std::vector<uint8_t> bytes = constantBytes(constant.getValue());
  std::vector<float> out(bytes.size() / 4);
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

/// The one value of a constant whose elements are all equal.
std::optional<int64_t> uniform(Value v) {
  std::optional<std::vector<int64_t>> values = constantIntegers(v);
  if (!values || values->empty())
    return std::nullopt;
  for (int64_t x : *values)
    if (x != values->front())
      return std::nullopt;
  return values->front();
}

/// Per-channel parameters of an affine quantization op: 0-d, or 1-D along
/// `channelAxis` of its input with `channels` values.
bool perChannelAlong(Value param, int64_t axisAttr, int64_t rank,
                     int64_t channelAxis, int64_t channels) {
  auto type = typeOf(param);
  if (type.getRank() == 0)
    return true;
  int64_t axis = axisAttr < 0 ? axisAttr + rank : axisAttr;
  return type.getRank() == 1 && axis == channelAxis &&
         type.getDimSize(0) == channels;
}

/// The one value of a 0-d f32 constant that is finite and positive.
std::optional<float> scalarScale(Value v) {
  std::optional<std::vector<float>> values = constantF32(v);
  if (!values || values->size() != 1 || typeOf(v).getRank() != 0 ||
      !std::isfinite(values->front()) || !(values->front() > 0.0f))
    return std::nullopt;
  return values->front();
}

/// The per-tensor parameters of the QDQ residual add that ends `e`
/// (quantize(add(dequantize(requantized), dequantize(residual)))), into
/// `q`, whose output zero point so far is the requantize's: that becomes
/// the product's, the quantize's the output's.
bool qdqResidualOf(const Epilogue &e, function_ref<Value(Value)> outside,
                   artifact::QEpilogueT &q) {
  auto quantize = cast<QuantizeOp>(e.residualQuantize);
  auto add = quantize.getInput().getDefiningOp<AddOp>();
  Value requantized = e.rescale->getResult(0);
  DequantizeOp product, residual;
  for (Value operand : {add.getLhs(), add.getRhs()}) {
    auto dequantize = operand.getDefiningOp<DequantizeOp>();
    if (dequantize && dequantize.getInput() == requantized && !product)
      product = dequantize;
    else
      residual = dequantize;
  }
  if (!product || !residual || !quantize.getType().getElementType().isInteger(8) ||
      !typeOf(add.getResult()).getElementType().isF32())
    return false;
  std::optional<float> productScale = scalarScale(outside(product.getScale())),
                       residualScale = scalarScale(outside(residual.getScale())),
                       outputScale = scalarScale(outside(quantize.getScale()));
  std::optional<int64_t> productZp = uniform(outside(product.getZeroPoint())),
                         residualZp = uniform(outside(residual.getZeroPoint())),
                         outputZp = uniform(outside(quantize.getZeroPoint()));
  if (!productScale || !residualScale || !outputScale || !productZp ||
      !residualZp || !outputZp || *productZp != q.output_zero_point ||
      typeOf(product.getZeroPoint()).getRank() != 0 ||
      typeOf(residual.getZeroPoint()).getRank() != 0 ||
      typeOf(quantize.getZeroPoint()).getRank() != 0)
    return false;
  q.residual_qdq = true;
  q.product_zero_point = q.output_zero_point;
  q.product_scale = *productScale;
  q.residual_zero_point = static_cast<int32_t>(*residualZp);
  q.residual_scale = *residualScale;
  q.output_scale = *outputScale;
  q.output_zero_point = static_cast<int32_t>(*outputZp);
  return true;
}

/// The QEpilogue of `e` over `channels` output channels along
/// `channelAxis`, or nullopt when the kernels cannot apply it. Buffers are
/// bound by the caller once every check has passed.
std::optional<artifact::QEpilogueT>
qepilogueOf(const Epilogue &e, function_ref<Value(Value)> outside,
            int64_t channelAxis, int64_t channels) {
  artifact::QEpilogueT q;
  q.output = artifact::QOutput::I32;
  if (!e.rescale)
    return q;
  int64_t rank = typeOf(e.rescale->getOperand(0)).getRank();
  Value scale, zeroPoint;
  int64_t axis = 0;
  if (auto requantize = dyn_cast<RequantizeOp>(e.rescale)) {
    q.output = requantize.getType().getElementType().isUnsignedInteger(8)
                   ? artifact::QOutput::U8
                   : artifact::QOutput::S8;
    scale = requantize.getMultiplier();
    zeroPoint = requantize.getZeroPoint();
    axis = static_cast<int64_t>(requantize.getAxis());
  } else {
    auto dequantize = cast<DequantizeOp>(e.rescale);
    if (!dequantize.getType().getElementType().isF32())
      return std::nullopt;
    q.output = artifact::QOutput::F32;
    scale = dequantize.getScale();
    zeroPoint = dequantize.getZeroPoint();
    axis = static_cast<int64_t>(dequantize.getAxis());
  }
  scale = outside(scale);
  zeroPoint = outside(zeroPoint);
  if (!perChannelAlong(scale, axis, rank, channelAxis, channels))
    return std::nullopt;
  std::optional<std::vector<float>> scales = constantF32(scale);
  std::optional<int64_t> zp = uniform(zeroPoint);
  if (!scales || !zp)
    return std::nullopt;
  for (float s : *scales)
    if (!std::isfinite(s) || !(s > 0.0f))
      return std::nullopt;
  if (q.output == artifact::QOutput::F32 && *zp != 0)
    return std::nullopt;
  q.scales = std::move(*scales);
  q.output_zero_point = static_cast<int32_t>(*zp);
  q.relu = e.activation == EpilogueActivation::Relu;
  if (e.residualQuantize && !qdqResidualOf(e, outside, q))
    return std::nullopt;
  return q;
}

/// Weight values less their zero point (per tensor, or per output channel
/// `o` of `channelOf(i)`), as int8; nullopt when one leaves int8.
std::optional<std::vector<int8_t>>
symmetricWeight(ArrayRef<uint8_t> raw, bool isUnsigned,
                const std::vector<int64_t> &zeroPoints,
                function_ref<int64_t(size_t)> channelOf) {
  std::vector<int8_t> out(raw.size());
  for (size_t i = 0; i < raw.size(); ++i) {
    int64_t w = isUnsigned ? int64_t(raw[i]) : int64_t(int8_t(raw[i]));
    int64_t zp = zeroPoints[zeroPoints.size() == 1 ? 0 : channelOf(i)];
    int64_t v = w - zp;
    if (v < -128 || v > 127)
      return std::nullopt;
    out[i] = int8_t(v);
  }
  return out;
}

/// Whether every weight less its zero point fits int8 (checked before any
/// step is added, so a refusal leaves the plan unchanged).
bool weightFits(Value weight, const std::vector<int64_t> &zeroPoints,
                int64_t channels, function_ref<int64_t(size_t)> channelOf) {
  std::optional<std::vector<int64_t>> values = constantIntegers(weight);
  if (!values ||
      (zeroPoints.size() != 1 && int64_t(zeroPoints.size()) != channels))
    return false;
  for (size_t i = 0; i < values->size(); ++i) {
    int64_t zp = zeroPoints[zeroPoints.size() == 1 ? 0 : channelOf(i)];
    if ((*values)[i] - zp < -128 || (*values)[i] - zp > 127)
      return false;
  }
  return true;
}

/// The forms a weight is derived in: each with its own constant.
enum class WeightForm : uint64_t { GemmB = 1, ConvOhwi = 2, Depthwise = 3 };

/// A distinct derived-constant key for each (form, zero points).
uint64_t derivedKey(WeightForm form, const std::vector<int64_t> &zeroPoints) {
  return static_cast<uint64_t>(llvm::hash_combine(
      static_cast<uint64_t>(form),
      llvm::hash_combine_range(zeroPoints.begin(), zeroPoints.end())));
}

/// `size` bytes that `pack` writes at a 64-byte aligned address.
std::optional<std::vector<uint8_t>>
packAligned(size_t size, function_ref<bool(void *)> pack) {
  std::vector<uint8_t> scratch(size + 64);
  void *aligned = reinterpret_cast<void *>(
      (reinterpret_cast<uintptr_t>(scratch.data()) + 63) & ~uintptr_t(63));
  if (!pack(aligned))
    return std::nullopt;
  const auto *bytes = static_cast<const uint8_t *>(aligned);
  return std::vector<uint8_t>(bytes, bytes + size);
}

/// Binds the epilogue's bias (an i32 value per output channel) and
/// residual.
void bindBuffers(PlanBuilder &plan, const Epilogue &e,
                 function_ref<Value(Value)> outside, artifact::QEpilogueT &q) {
  if (e.bias) {
    q.bias = static_cast<int32_t>(plan.bufferOf(outside(e.bias)));
    plan.reads(q.bias);
  }
  if (e.residual) {
    q.residual = static_cast<int32_t>(plan.bufferOf(outside(e.residual)));
    plan.reads(q.residual);
  }
}

bool lowerMatmulInteger(PlanBuilder &plan, MatmulIntegerOp op,
                        const Epilogue &e, function_ref<Value(Value)> outside,
                        Value result) {
  auto lhs = typeOf(op.getLhs()), rhs = typeOf(op.getRhs());
  if (lhs.getRank() < 2 || rhs.getRank() != 2 || lhs.getNumElements() == 0 ||
      rhs.getNumElements() == 0)
    return false;
  int64_t k = rhs.getDimSize(0), n = rhs.getDimSize(1);
  if (k > TCC_INT8_MAX_K)
    return false;
  Value weight = outside(op.getRhs());
  std::optional<int64_t> aZeroPoint = uniform(outside(op.getLhsZeroPoint()));
  std::optional<std::vector<int64_t>> bZeroPoints =
      constantIntegers(outside(op.getRhsZeroPoint()));
  // [K, N] row-major: element i is in column i % n.
  auto columnOf = [&](size_t i) { return int64_t(i) % n; };
  if (!aZeroPoint || !bZeroPoints ||
      !weightFits(weight, *bZeroPoints, n, columnOf))
    return false;
  std::optional<artifact::QEpilogueT> q =
      qepilogueOf(e, outside, lhs.getRank() - 1, n);
  if (!q)
    return false;
  bool bUnsigned = rhs.getElementType().isUnsignedInteger(8);
  std::vector<int64_t> zps = *bZeroPoints;
  std::optional<uint32_t> packed = plan.derivedConstant(
      weight, derivedKey(WeightForm::GemmB, zps),
      [&](ArrayRef<uint8_t> raw) -> std::optional<std::vector<uint8_t>> {
        std::optional<std::vector<int8_t>> b =
            symmetricWeight(raw, bUnsigned, zps, columnOf);
        if (!b)
          return std::nullopt;
        return packAligned(tcc_qgemm_packed_b_size(k, n), [&](void *dst) {
          return tcc_qgemm_pack_b(k, n, b->data(), n, /*trans_b=*/0, dst) ==
                 TCC_KERNEL_OK;
        });
      });
  if (!packed)
    return false;
  artifact::QgemmT gemm;
  gemm.m = lhs.getNumElements() / k;
  gemm.n = n;
  gemm.k = k;
  gemm.a = plan.bufferOf(outside(op.getLhs()));
  plan.reads(gemm.a);
  gemm.lda = k;
  gemm.a_signed = !lhs.getElementType().isUnsignedInteger(8);
  gemm.a_zero_point = static_cast<int32_t>(*aZeroPoint);
  gemm.b = *packed;
  plan.reads(gemm.b);
  bindBuffers(plan, e, outside, *q);
  gemm.epilogue = std::make_unique<artifact::QEpilogueT>(std::move(*q));
  gemm.c = plan.resultBuffer(result);
  gemm.ldc = n;
  artifact::OpUnion step;
  step.Set(std::move(gemm));
  plan.addLibraryStep(std::move(step));
  return true;
}

/// What a conv2d_integer group needs of its constants, checked without
/// touching the plan.
struct ConvParams {
  int64_t channels, outChannels, kh, kw, patch, perChannel;
  bool depthwise;
  int64_t xZeroPoint;
  std::vector<int64_t> wZeroPoints;
  artifact::QEpilogueT epilogue;
};

/// The parameters of the qconv2d step of `op`'s group `e`, or nullopt
/// when the kernels cannot compute it (lowerConv2dInteger then adds
/// nothing).
std::optional<ConvParams> convParams(Conv2dIntegerOp op, const Epilogue &e,
                                     function_ref<Value(Value)> outside) {
  auto input = typeOf(op.getInput()), weight = typeOf(op.getWeight());
  if (input.getNumElements() == 0 ||
      op.getType().getNumElements() == 0)
    return std::nullopt;
  ConvParams p;
  p.channels = input.getDimSize(1);
  p.outChannels = weight.getDimSize(0);
  p.kh = weight.getDimSize(2);
  p.kw = weight.getDimSize(3);
  int64_t groups = op.getGroups();
  p.depthwise = groups > 1;
  if (p.depthwise && !(groups == p.channels && p.outChannels == p.channels &&
                       weight.getDimSize(1) == 1))
    return std::nullopt; // grouped convolutions other than depthwise
  p.patch = p.depthwise ? p.kh * p.kw : p.kh * p.kw * p.channels;
  if (!p.depthwise && p.patch > TCC_INT8_MAX_K)
    return std::nullopt;
  std::optional<int64_t> xZeroPoint = uniform(outside(op.getInputZeroPoint()));
  std::optional<std::vector<int64_t>> wZeroPoints =
      constantIntegers(outside(op.getWeightZeroPoint()));
  p.perChannel = weight.getNumElements() / p.outChannels;
  int64_t perChannel = p.perChannel;
  auto channelOf = [&](size_t i) { return int64_t(i) / perChannel; };
  if (!xZeroPoint || !wZeroPoints ||
      !weightFits(outside(op.getWeight()), *wZeroPoints, p.outChannels,
                  channelOf))
    return std::nullopt;
  std::optional<artifact::QEpilogueT> q =
      qepilogueOf(e, outside, /*channelAxis=*/1, p.outChannels);
  if (!q)
    return std::nullopt;
  p.xZeroPoint = *xZeroPoint;
  p.wZeroPoints = std::move(*wZeroPoints);
  p.epilogue = std::move(*q);
  return p;
}

/// A quantized convolution group as the planner lowers it: a lone
/// conv2d_integer, or a fusion of one and its epilogue chain, with the
/// fusion's view of values outside it.
struct ConvGroup {
  Conv2dIntegerOp conv;
  Epilogue epilogue;
  std::function<Value(Value)> outside;
};

std::optional<ConvGroup> convGroupOf(Operation *op,
                                     const TargetCapabilities &target) {
  if (auto conv = dyn_cast_or_null<Conv2dIntegerOp>(op)) {
    Epilogue single;
    single.anchor = conv;
    single.ops.push_back(conv);
    return ConvGroup{conv, single, [](Value v) { return v; }};
  }
  auto fusion = dyn_cast_or_null<FusionOp>(op);
  if (!fusion || fusion.getNumResults() != 1)
    return std::nullopt;
  SmallVector<Operation *> inner;
  for (Operation &o : fusion.getBlock().without_terminator())
    inner.push_back(&o);
  std::optional<Epilogue> e = matchEpilogueGroup(inner, target);
  if (!e || !isa<Conv2dIntegerOp>(e->anchor))
    return std::nullopt;
  Block *block = &fusion.getBlock();
  auto outside = [fusion, block](Value v) mutable -> Value {
    if (auto arg = dyn_cast<BlockArgument>(v))
      if (arg.getOwner() == block)
        return fusion.getOperand(arg.getArgNumber());
    return v;
  };
  return ConvGroup{cast<Conv2dIntegerOp>(e->anchor), *e, outside};
}

/// An 8-bit NCHW max pool of the entry function: one that may run NHWC
/// in a chain of int8 convolutions (pooling compares stored values, so it
/// needs no quantization parameters).
bool isInt8MaxPool(Operation *op) {
  auto pool = dyn_cast_or_null<MaxPool2dOp>(op);
  return pool && pool.getLayout() == Layout::NCHW &&
         isa<func::FuncOp>(pool->getParentOp()) &&
         typeOf(pool.getInput()).getElementType().isInteger(8);
}

/// Whether every user of `value` is a quantized convolution group that
/// becomes a qconv2d step reading `value` as its input and nothing else,
/// or an 8-bit max pool (isInt8MaxPool) whose result only such groups
/// read: then `value` may be stored NHWC, as the kernels read it, and no
/// step converts it. (A value returned, reshaped or read by other ops
/// stays NCHW, the IR's layout.)
bool onlyInt8ConvsRead(Value value, const TargetCapabilities &target) {
  if (value.use_empty())
    return false;
  for (OpOperand &use : value.getUses()) {
    Operation *owner = use.getOwner();
    if (isInt8MaxPool(owner)) {
      if (!onlyInt8ConvsRead(owner->getResult(0), target))
        return false;
      continue;
    }
    std::optional<ConvGroup> group = convGroupOf(owner, target);
    if (!group)
      return false;
    // The value reaches the group's convolution as its input, or its
    // epilogue as the residual, only.
    if (owner == group->conv.getOperation()) {
      if (use.getOperandNumber() != 0)
        return false;
    } else {
      BlockArgument inside =
          owner->getRegion(0).front().getArgument(use.getOperandNumber());
      if (!inside.hasOneUse() ||
          (&*inside.getUses().begin() != &group->conv->getOpOperand(0) &&
           group->epilogue.residual != inside))
        return false;
    }
    if (!convParams(group->conv, group->epilogue, group->outside))
      return false;
  }
  return true;
}

/// Whether `value` is stored NHWC: computed by a qconv2d step, or by an
/// 8-bit max pool of such a value, and read only by such steps and pools.
bool storedNhwc(Value value, const TargetCapabilities &target) {
  Operation *producer = value.getDefiningOp();
  if (isInt8MaxPool(producer))
    return storedNhwc(producer->getOperand(0), target) &&
           onlyInt8ConvsRead(value, target);
  std::optional<ConvGroup> group = convGroupOf(producer, target);
  return group && convParams(group->conv, group->epilogue, group->outside) &&
         onlyInt8ConvsRead(value, target);
}

bool lowerConv2dInteger(PlanBuilder &plan, Conv2dIntegerOp op,
                        const Epilogue &e, function_ref<Value(Value)> outside,
                        Value result, const TargetCapabilities &target) {
  std::optional<ConvParams> p = convParams(op, e, outside);
  if (!p)
    return false;
  auto input = typeOf(op.getInput()), weight = typeOf(op.getWeight());
  int64_t channels = p->channels, outChannels = p->outChannels, kh = p->kh,
          kw = p->kw, patch = p->patch, perChannel = p->perChannel;
  bool depthwise = p->depthwise;
  auto channelOf = [&](size_t i) { return int64_t(i) / perChannel; };
  Value weightValue = outside(op.getWeight());
  std::optional<artifact::QEpilogueT> q = std::move(p->epilogue);
  bool wUnsigned = weight.getElementType().isUnsignedInteger(8);
  std::vector<int64_t> zps = p->wZeroPoints;
  int64_t inPerGroup = weight.getDimSize(1);
  // OIHW weights less their zero point, as the kernels read them: OHWI
  // packed for tcc_qconv2d, [kh][kw][C] for the depthwise kernel.
  auto derive =
      [&](ArrayRef<uint8_t> raw) -> std::optional<std::vector<uint8_t>> {
    std::optional<std::vector<int8_t>> w =
        symmetricWeight(raw, wUnsigned, zps, channelOf);
    if (!w)
      return std::nullopt;
    std::vector<int8_t> reordered(w->size());
    for (int64_t o = 0; o < outChannels; ++o)
      for (int64_t c = 0; c < inPerGroup; ++c)
        for (int64_t y = 0; y < kh; ++y)
          for (int64_t x = 0; x < kw; ++x) {
            int8_t v = (*w)[((o * inPerGroup + c) * kh + y) * kw + x];
            if (depthwise)
              reordered[(y * kw + x) * outChannels + o] = v;
            else
              reordered[((o * kh + y) * kw + x) * inPerGroup + c] = v;
          }
    if (depthwise)
      return std::vector<uint8_t>(reordered.begin(), reordered.end());
    return packAligned(
        tcc_qgemm_packed_b_size(patch, outChannels), [&](void *dst) {
          return tcc_qgemm_pack_b(patch, outChannels, reordered.data(), patch,
                                  /*trans_b=*/1, dst) == TCC_KERNEL_OK;
        });
  };
  std::optional<uint32_t> packed = plan.derivedConstant(
      weightValue,
      derivedKey(depthwise ? WeightForm::Depthwise : WeightForm::ConvOhwi, zps),
      derive);
  if (!packed)
    return false;
  // Between int8 convolutions (and the max pools among them) activations
  // stay NHWC, the kernels' layout: a result only such steps read is
  // written NHWC, and an input computed by such a step is read as it was
  // written.
  Value inputValue = outside(op.getInput());
  artifact::Qconv2dT conv;
  conv.nchw_input = !storedNhwc(inputValue, target);
  conv.nchw_output = !onlyInt8ConvsRead(result, target);
  conv.nchw_residual = e.residual && !storedNhwc(outside(e.residual), target);
  conv.depthwise = depthwise;
  conv.batch = input.getDimSize(0);
  conv.in_channels = channels;
  conv.in_height = input.getDimSize(2);
  conv.in_width = input.getDimSize(3);
  conv.out_channels = outChannels;
  conv.kernel_height = kh;
  conv.kernel_width = kw;
  ArrayRef<int64_t> stride = op.getStride(), padding = op.getPadding(),
                    dilation = op.getDilation();
  conv.stride_h = stride[0];
  conv.stride_w = stride[1];
  conv.pad_h = padding[0];
  conv.pad_w = padding[1];
  conv.dilation_h = dilation[0];
  conv.dilation_w = dilation[1];
  conv.input_signed = !input.getElementType().isUnsignedInteger(8);
  conv.input_zero_point = static_cast<int32_t>(p->xZeroPoint);
  conv.input = plan.bufferOf(inputValue);
  plan.reads(conv.input);
  conv.weight = *packed;
  plan.reads(conv.weight);
  bindBuffers(plan, e, outside, *q);
  conv.epilogue = std::make_unique<artifact::QEpilogueT>(std::move(*q));
  conv.output = plan.resultBuffer(result);
  artifact::OpUnion step;
  step.Set(std::move(conv));
  plan.addLibraryStep(std::move(step));
  return true;
}

} // namespace

bool cpu::lowerQuantizedCall(PlanBuilder &plan, const Epilogue &e,
                             function_ref<Value(Value)> outside, Value result,
                             const TargetCapabilities &target) {
  if (auto matmul = dyn_cast<MatmulIntegerOp>(e.anchor))
    return lowerMatmulInteger(plan, matmul, e, outside, result);
  if (auto conv = dyn_cast<Conv2dIntegerOp>(e.anchor))
    return lowerConv2dInteger(plan, conv, e, outside, result, target);
  return false;
}

bool cpu::runsChannelsLast(Operation *op, const TargetCapabilities &target) {
  return isInt8MaxPool(op) && storedNhwc(op->getResult(0), target);
}
