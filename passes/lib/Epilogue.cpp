//===- Epilogue.cpp - GEMM/convolution epilogues --------------------------===//

#include "tcc/Passes/Epilogue.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/ConstantData.h"
#include "tcc/Passes/TargetCapabilities.h"

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
  if (auto requantize = dyn_cast_or_null<RequantizeOp>(user)) {
    e.rescale = requantize;
    e.ops.push_back(requantize);
    current = requantize.getResult();
    auto max = dyn_cast_or_null<MaximumOp>(nextUser());
    if (max && max.getType() == current.getType() &&
        target.appliesActivation(EpilogueActivation::Relu)) {
      Value other = max.getLhs() == current ? max.getRhs() : max.getLhs();
      std::optional<int64_t> zp = uniformInteger(requantize.getZeroPoint());
      std::optional<int64_t> floor = uniformInteger(other);
      if (zp && floor && *zp == *floor) {
        e.activation = EpilogueActivation::Relu;
        e.ops.push_back(max);
      }
    }
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
  if (compute.empty() || !target.isEpilogueAnchor(compute.front()))
    return std::nullopt;
  Epilogue e = matchEpilogue(compute.front(), target);
  if (e.ops != compute)
    return std::nullopt;
  return e;
}
