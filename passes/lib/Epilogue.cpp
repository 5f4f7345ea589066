//===- Epilogue.cpp - GEMM/convolution epilogues --------------------------===//

#include "tcc/Passes/Epilogue.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/ConstantData.h"
#include "tcc/Passes/TargetCapabilities.h"

#include <array>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;

/// The output dimension that bias values index.
static int64_t channelAxis(Operation *anchor) {
  auto type = cast<RankedTensorType>(anchor->getResult(0).getType());
  if (auto conv = dyn_cast<Conv2dOp>(anchor))
    return conv.getLayout() == Layout::NCHW ? 1 : 3;
  if (isa<Conv2dIntegerOp>(anchor))
    return 1; // NCHW
  return type.getRank() - 1;
}

static bool isBias(Value value, Operation *anchor);

bool tcc::isQuantizedAnchor(Operation *op) {
  return isa<MatmulIntegerOp, Conv2dIntegerOp>(op);
}

/// The single value of an integer constant whose elements are all equal.
static std::optional<int64_t> uniformInteger(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  std::optional<ConstantData> data =
      constant ? readConstant(constant.getValue()) : std::nullopt;
  if (!data || data->numElements() == 0 ||
      (data->kind() != ElementKind::Signed &&
       data->kind() != ElementKind::Unsigned))
    return std::nullopt;
  int64_t first = data->getInt(0);
  for (int64_t i = 1; i < data->numElements(); ++i)
    if (data->getInt(i) != first)
      return std::nullopt;
  return first;
}

/// Whether a dequantize's or quantize's parameters are per tensor, an f32
/// scale and a zero point, both constants: the kernels' epilogue form.
static bool constantPerTensorF32(Value scale, Value zeroPoint) {
  auto scaleType = cast<RankedTensorType>(scale.getType());
  return scaleType.getRank() == 0 && scaleType.getElementType().isF32() &&
         scale.getDefiningOp<ConstantOp>() && uniformInteger(zeroPoint) &&
         cast<RankedTensorType>(zeroPoint.getType()).getRank() == 0;
}

/// quantize(add(dequantize(requantized), dequantize(residual))) after a
/// requantize result `current` (each value used once, in the anchor's
/// block; the residual of the result's type; each op per tensor in f32
/// with constant parameters, the product dequantized at the requantize's
/// zero point): appends the three ops and the residual's dequantize to
/// `e`, sets e.residual, e.residualQuantize and `current` to the quantize.
static bool matchQdqResidualAdd(Epilogue &e, Value &current,
                                function_ref<Operation *()> nextUser) {
  Value requantized = current;
  auto dequantize = dyn_cast_or_null<DequantizeOp>(nextUser());
  if (!dequantize || dequantize.getInput() != requantized)
    return false;
  current = dequantize.getResult();
  auto add = dyn_cast_or_null<AddOp>(nextUser());
  current = requantized;
  if (!add || add.getType() != dequantize.getType() ||
      add.getLhs() == add.getRhs())
    return false;
  Value other =
      add.getLhs() == dequantize.getResult() ? add.getRhs() : add.getLhs();
  auto residual = other.getDefiningOp<DequantizeOp>();
  if (!residual || !residual->hasOneUse() ||
      residual->getBlock() != add->getBlock() ||
      residual.getInput().getType() != requantized.getType() ||
      residual.getType() != add.getType() || !add->hasOneUse())
    return false;
  auto quantize = dyn_cast<QuantizeOp>(*add->getUsers().begin());
  if (!quantize || quantize->getBlock() != add->getBlock() ||
      quantize.getType() != requantized.getType())
    return false;
  std::optional<int64_t> requantizeZp =
      uniformInteger(cast<RequantizeOp>(e.rescale).getZeroPoint());
  if (!constantPerTensorF32(dequantize.getScale(),
                            dequantize.getZeroPoint()) ||
      !constantPerTensorF32(residual.getScale(), residual.getZeroPoint()) ||
      !constantPerTensorF32(quantize.getScale(), quantize.getZeroPoint()) ||
      uniformInteger(dequantize.getZeroPoint()) != requantizeZp ||
      !requantizeZp)
    return false;
  e.ops.append({dequantize, residual, add, quantize});
  e.residual = residual.getInput();
  e.residualQuantize = quantize;
  current = quantize.getResult();
  return true;
}

/// The chain of a quantized anchor: i32 bias, then requantize (and
/// maximum with its zero point) or dequantize (and relu).
static Epilogue matchQuantizedEpilogue(Operation *anchor,
                                       const TargetCapabilities &target) {
  Epilogue e;
  e.anchor = anchor;
  e.ops.push_back(anchor);
  Value current = anchor->getResult(0);
  auto nextUser = [&]() -> Operation * {
    if (!current.hasOneUse())
      return nullptr;
    Operation *user = *current.getUsers().begin();
    return user->getBlock() == anchor->getBlock() ? user : nullptr;
  };
  Operation *user = nextUser();
  if (auto add = dyn_cast_or_null<AddOp>(user);
      add && add.getType() == current.getType()) {
    Value other = add.getLhs() == current ? add.getRhs() : add.getLhs();
    if (other != current && isBias(other, anchor)) {
      e.bias = other;
      e.ops.push_back(add);
      current = add.getResult();
      user = nextUser();
    }
  }
  // ReLU in the quantized domain: maximum(current, zero point).
  auto matchQuantizedRelu = [&](Value zeroPoint) {
    auto max = dyn_cast_or_null<MaximumOp>(nextUser());
    if (!max || max.getType() != current.getType() ||
        !target.appliesActivation(EpilogueActivation::Relu))
      return;
    Value other = max.getLhs() == current ? max.getRhs() : max.getLhs();
    std::optional<int64_t> zp = uniformInteger(zeroPoint);
    std::optional<int64_t> floor = uniformInteger(other);
    if (zp && floor && *zp == *floor) {
      e.activation = EpilogueActivation::Relu;
      e.ops.push_back(max);
      current = max.getResult();
    }
  };
  if (auto requantize = dyn_cast_or_null<RequantizeOp>(user)) {
    e.rescale = requantize;
    e.ops.push_back(requantize);
    current = requantize.getResult();
    matchQuantizedRelu(requantize.getZeroPoint());
    if (e.activation == EpilogueActivation::None &&
        matchQdqResidualAdd(e, current, nextUser))
      matchQuantizedRelu(
          cast<QuantizeOp>(e.residualQuantize).getZeroPoint());
  } else if (auto dequantize = dyn_cast_or_null<DequantizeOp>(user)) {
    e.rescale = dequantize;
    e.ops.push_back(dequantize);
    current = dequantize.getResult();
    auto relu = dyn_cast_or_null<ReluOp>(nextUser());
    if (relu && target.appliesActivation(EpilogueActivation::Relu)) {
      e.activation = EpilogueActivation::Relu;
      e.ops.push_back(relu);
    }
  }
  return e;
}

/// Whether `value` broadcasts into the anchor's output as one value per
/// output channel ([C], [C,1,1], [1,...,C], ...).
static bool isBias(Value value, Operation *anchor) {
  auto out = cast<RankedTensorType>(anchor->getResult(0).getType());
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getElementType() != out.getElementType() ||
      type.getRank() > out.getRank())
    return false;
  int64_t axis = channelAxis(anchor), offset = out.getRank() - type.getRank();
  bool sawChannels = false;
  for (int64_t i = 0; i < type.getRank(); ++i) {
    int64_t size = type.getDimSize(i);
    if (i + offset == axis) {
      if (size != out.getDimSize(axis))
        return false;
      sawChannels = true;
    } else if (size != 1) {
      return false;
    }
  }
  return sawChannels;
}

static std::optional<EpilogueActivation> activationOf(Operation *op,
                                                      double &min, double &max) {
  if (isa<ReluOp>(op))
    return EpilogueActivation::Relu;
  if (isa<SiluOp>(op))
    return EpilogueActivation::Silu;
  if (isa<SigmoidOp>(op))
    return EpilogueActivation::Sigmoid;
  if (isa<TanhOp>(op))
    return EpilogueActivation::Tanh;
  if (auto gelu = dyn_cast<GeluOp>(op))
    return gelu.getApproximate() == GeluApproximation::tanh
               ? EpilogueActivation::GeluTanh
               : EpilogueActivation::Gelu;
  if (auto clamp = dyn_cast<ClampOp>(op)) {
    double inf = std::numeric_limits<double>::infinity();
    min = clamp.getMin() ? clamp.getMin()->convertToDouble() : -inf;
    max = clamp.getMax() ? clamp.getMax()->convertToDouble() : inf;
    return EpilogueActivation::Clamp;
  }
  return std::nullopt;
}

/// SiLU as exporters without a SiLU op spell it: mul(x, sigmoid(x)), the
/// two ops `x` is used by. Returns them (sigmoid first) or null.
static std::optional<std::pair<Operation *, Operation *>>
matchSpelledSilu(Value x) {
  SmallVector<Operation *, 2> users(x.getUsers());
  if (users.size() != 2)
    return std::nullopt;
  if (!isa<SigmoidOp>(users[0]))
    std::swap(users[0], users[1]);
  auto sigmoid = dyn_cast<SigmoidOp>(users[0]);
  auto mul = dyn_cast<MulOp>(users[1]);
  if (!sigmoid || !mul || !sigmoid->hasOneUse() ||
      *sigmoid->getUsers().begin() != mul.getOperation() ||
      sigmoid.getType() != x.getType() || mul.getType() != x.getType() ||
      sigmoid->getBlock() != mul->getBlock())
    return std::nullopt;
  Value other = mul.getLhs() == x ? mul.getRhs() : mul.getLhs();
  if (other != sigmoid.getResult() || mul.getLhs() == mul.getRhs())
    return std::nullopt;
  return std::make_pair(sigmoid.getOperation(), mul.getOperation());
}

/// ReLU between two casts, bf16 (or fp16) `x` -> f32 -> relu -> x's type,
/// as tcc-autocast leaves it after a low-precision GEMM when the next GEMM
/// reads the activation: the three ops, or none. Rounding commutes with
/// ReLU and the casts are exact, so relu in x's type computes the same.
static std::optional<std::array<Operation *, 3>>
matchReluThroughCasts(Value x) {
  auto type = cast<RankedTensorType>(x.getType());
  if ((!type.getElementType().isBF16() && !type.getElementType().isF16()) ||
      !x.hasOneUse())
    return std::nullopt;
  auto widen = dyn_cast<CastOp>(*x.getUsers().begin());
  if (!widen ||
      !cast<RankedTensorType>(widen.getType()).getElementType().isF32() ||
      !widen->hasOneUse())
    return std::nullopt;
  auto relu = dyn_cast<ReluOp>(*widen->getUsers().begin());
  if (!relu || !relu->hasOneUse())
    return std::nullopt;
  auto narrow = dyn_cast<CastOp>(*relu->getUsers().begin());
  if (!narrow || narrow.getType() != x.getType())
    return std::nullopt;
  Block *block = x.getParentBlock();
  for (Operation *op :
       {widen.getOperation(), relu.getOperation(), narrow.getOperation()})
    if (op->getBlock() != block)
      return std::nullopt;
  return std::array<Operation *, 3>{widen, relu, narrow};
}

Epilogue tcc::matchEpilogue(Operation *anchor,
                            const TargetCapabilities &target) {
  if (isQuantizedAnchor(anchor))
    return matchQuantizedEpilogue(anchor, target);
  Epilogue e;
  e.anchor = anchor;
  e.ops.push_back(anchor);
  bool haveBias = false;
  if (auto linear = dyn_cast<LinearOp>(anchor))
    haveBias = static_cast<bool>(linear.getBias());
  if (auto conv = dyn_cast<Conv2dOp>(anchor))
    haveBias = static_cast<bool>(conv.getBias());
  Value current = anchor->getResult(0);
  double min = 0, max = 0;
  while (e.activation == EpilogueActivation::None) {
    if (auto silu = matchSpelledSilu(current);
        silu && silu->first->getBlock() == anchor->getBlock() &&
        target.appliesActivation(EpilogueActivation::Silu)) {
      e.activation = EpilogueActivation::Silu;
      e.ops.push_back(silu->first);
      e.ops.push_back(silu->second);
      current = silu->second->getResult(0);
      break;
    }
    if (auto relu = matchReluThroughCasts(current);
        relu && target.appliesActivation(EpilogueActivation::Relu)) {
      e.activation = EpilogueActivation::Relu;
      e.ops.append(relu->begin(), relu->end());
      current = relu->back()->getResult(0);
      break;
    }
    if (!current.hasOneUse())
      break;
    // The user may have no result at all (func.return).
    Operation *user = *current.getUsers().begin();
    if (user->getBlock() != anchor->getBlock() || user->getNumResults() != 1 ||
        user->getResult(0).getType() != current.getType())
      break;
    if (auto add = dyn_cast<AddOp>(user)) {
      Value other = add.getLhs() == current ? add.getRhs() : add.getLhs();
      if (other == current)
        break;
      if (!haveBias && isBias(other, anchor)) {
        e.bias = other;
        haveBias = true;
      } else if (!e.residual && other.getType() == current.getType()) {
        e.residual = other;
      } else {
        break;
      }
    } else if (auto act = activationOf(user, min, max);
               act && target.appliesActivation(*act)) {
      e.activation = *act;
      e.clampMin = min;
      e.clampMax = max;
    } else {
      break;
    }
    e.ops.push_back(user);
    current = user->getResult(0);
  }
  return e;
}

std::optional<Epilogue>
tcc::matchEpilogueGroup(ArrayRef<Operation *> ops,
                        const TargetCapabilities &target) {
  SmallVector<Operation *> compute;
  for (Operation *op : ops)
    if (!isa<ConstantOp>(op))
      compute.push_back(op);
  // A QDQ residual add's dequantize of the residual may come before the
  // anchor in program order; every other member follows it.
  auto anchor = llvm::find_if(compute, [&](Operation *op) {
    return target.isEpilogueAnchor(op);
  });
  if (anchor == compute.end())
    return std::nullopt;
  Epilogue e = matchEpilogue(*anchor, target);
  if (e.ops.size() != compute.size() ||
      !llvm::all_of(compute, [&](Operation *op) {
        return llvm::is_contained(e.ops, op);
      }))
    return std::nullopt;
  return e;
}
