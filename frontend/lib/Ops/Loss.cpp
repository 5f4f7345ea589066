//===- Loss.cpp - mse, l1, smooth_l1, bce, bce_with_logits, nll, cross_entropy
//==//
//
// The binary cross entropies are ops with their own backward formulas (as
// in PyTorch: exact at x = 0 and clamped like the forward). The others are
// composites recorded once under their name and differentiated through the
// ops they are made of.
//
//===----------------------------------------------------------------------===//

#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/Loss.h"

namespace tcc {
namespace detail {

#define TCC_COMPOSITE_LOSS(VAR, NAME, ARGS)                                    \
  static const OpDef VAR{NAME, NAME "(" ARGS ") -> Tensor  (composite)", ""};

TCC_COMPOSITE_LOSS(kMseLoss, "mse_loss",
                   "Tensor self, Tensor target, int reduction=Mean")
TCC_COMPOSITE_LOSS(kL1Loss, "l1_loss",
                   "Tensor self, Tensor target, int reduction=Mean")
TCC_COMPOSITE_LOSS(kSmoothL1Loss, "smooth_l1_loss",
                   "Tensor self, Tensor target, int reduction=Mean, float "
                   "beta=1.0")
TCC_COMPOSITE_LOSS(kNllLoss, "nll_loss",
                   "Tensor self, Tensor target, Tensor? weight=None, int "
                   "reduction=Mean, int ignore_index=-100")
TCC_COMPOSITE_LOSS(kCrossEntropyLoss, "cross_entropy_loss",
                   "Tensor self, Tensor target, Tensor? weight=None, int "
                   "reduction=Mean, int ignore_index=-100, float "
                   "label_smoothing=0.0")
#undef TCC_COMPOSITE_LOSS

static const OpDef kBinaryCrossEntropy{
    "binary_cross_entropy",
    "binary_cross_entropy(Tensor self, Tensor target, Tensor? weight=None, "
    "int reduction=Mean) -> Tensor",
    "BinaryCrossEntropyBackward0"};
static const OpDef kBinaryCrossEntropyWithLogits{
    "binary_cross_entropy_with_logits",
    "binary_cross_entropy_with_logits(Tensor self, Tensor target, Tensor? "
    "weight=None, Tensor? pos_weight=None, int reduction=Mean) -> Tensor",
    "BinaryCrossEntropyWithLogitsBackward0"};

void registerLossOps() {
  for (const OpDef *op :
       {&kMseLoss, &kL1Loss, &kSmoothL1Loss, &kNllLoss, &kCrossEntropyLoss,
        &kBinaryCrossEntropy, &kBinaryCrossEntropyWithLogits})
    registerOp(*op);
}

namespace {

void checkReduction(int64_t reduction, const char *op) {
  TCC_CHECK(reduction >= Reduction::None && reduction < Reduction::END, op,
            ": reduction must be Reduction::None (0), Mean (1) or Sum (2), "
            "got ",
            reduction);
}

Tensor reduce(const Tensor &loss, int64_t reduction) {
  if (reduction == Reduction::Mean)
    return loss.mean();
  if (reduction == Reduction::Sum)
    return loss.sum();
  return loss;
}

/// The per-element gradient factor of a reduction over `numel` elements.
Tensor scaled(const Tensor &g, int64_t reduction, int64_t numel) {
  return reduction == Reduction::Mean ? g / double(numel) : g;
}

void checkPair(const Tensor &self, const Tensor &target, const char *op) {
  checkDefined(self, op);
  checkDefined(target, op);
  checkCpu(self, op);
  checkCpu(target, op);
}

AttrList reductionAttrs(int64_t reduction) {
  return AttrList{{"reduction", reduction}};
}

/// Throws unless every target is in [0, classes) or equals ignoreIndex.
void checkTargets(const Tensor &target, int64_t classes, int64_t ignoreIndex) {
  Tensor t = contiguousCopyIfNeeded(target);
  const int64_t *p = dataOf<int64_t>(t);
  for (int64_t i = 0; i < t.numel(); ++i)
    TCC_CHECK(p[i] == ignoreIndex || (p[i] >= 0 && p[i] < classes), "Target ",
              p[i], " is out of bounds (", classes, " classes).");
}

/// A [C] tensor viewed to broadcast along `dim` of an `ndim`-dim tensor.
Tensor alongDim(const Tensor &t, int64_t dim, int64_t ndim) {
  DimVector shape(size_t(ndim), 1);
  shape[size_t(dim)] = -1;
  return t.view(shape);
}

void checkClassWeight(const Tensor &weight, int64_t classes) {
  if (!weight.defined())
    return;
  checkCpu(weight, "nll_loss");
  TCC_CHECK(weight.dim() == 1 && weight.numel() == classes,
            "weight tensor should be defined either for all ", classes,
            " classes or no classes but got weight tensor of shape: ",
            weight.sizes());
}

/// Shape checks of class-index losses; returns the number of classes.
int64_t checkClassTargets(const Tensor &self, const Tensor &target,
                          const char *op) {
  checkPair(self, target, op);
  TCC_CHECK(self.dim() >= 1, op,
            ": expected input of at least 1 dimension "
            "[C] or [N, C, ...], got a 0-dim tensor");
  TCC_CHECK(target.dtype() == kLong, op,
            ": expected target of dtype Long (class indices), got ",
            target.dtype());
  if (self.dim() == 1) {
    TCC_CHECK(target.dim() == 0, op,
              ": expected a 0-dim target for input of "
              "size ",
              self.sizes(), ", got target of size ", target.sizes());
    return self.size(0);
  }
  TCC_CHECK(target.dim() >= 1 && self.size(0) == target.size(0),
            "Expected input batch_size (", self.size(0),
            ") to match target batch_size (",
            target.dim() >= 1 ? target.size(0) : 0, ").");
  DimVector expected;
  expected.push_back(self.size(0));
  for (int64_t d = 2; d < self.dim(); ++d)
    expected.push_back(self.size(d));
  TCC_CHECK(target.sizes().equals(expected), op, ": expected target size ",
            IntArrayRef(expected), ", got ", target.sizes());
  return self.size(1);
}

/// Per-target weights (0 where ignored), shaped like the target.
Tensor targetWeights(const Tensor &weight, const Tensor &safeTarget,
                     const Tensor &valid, ScalarType dtype) {
  if (!weight.defined())
    return valid.to(dtype);
  Tensor w =
      weight.index_select(0, safeTarget.reshape({-1})).view(safeTarget.sizes());
  return w.masked_fill(valid.logical_not(), 0);
}

} // namespace
} // namespace detail

using namespace detail;

Tensor mse_loss(const Tensor &self, const Tensor &target, int64_t reduction) {
  checkPair(self, target, "mse_loss");
  checkReduction(reduction, "mse_loss");
  return recordComposite(
      kMseLoss, {self, target},
      [&] {
        Tensor d = self - target;
        return reduce(d * d, reduction);
      },
      [&] { return reductionAttrs(reduction); });
}

Tensor l1_loss(const Tensor &self, const Tensor &target, int64_t reduction) {
  checkPair(self, target, "l1_loss");
  checkReduction(reduction, "l1_loss");
  return recordComposite(
      kL1Loss, {self, target},
      [&] { return reduce((self - target).abs(), reduction); },
      [&] { return reductionAttrs(reduction); });
}

Tensor smooth_l1_loss(const Tensor &self, const Tensor &target,
                      int64_t reduction, double beta) {
  checkPair(self, target, "smooth_l1_loss");
  checkReduction(reduction, "smooth_l1_loss");
  TCC_CHECK(beta >= 0,
            "smooth_l1_loss does not support negative values for "
            "beta, got ",
            beta);
  return recordComposite(
      kSmoothL1Loss, {self, target},
      [&] {
        Tensor d = self - target;
        Tensor ad = d.abs();
        if (beta == 0)
          return reduce(ad, reduction);
        return reduce(where(ad < beta, d * d * (0.5 / beta), ad - 0.5 * beta),
                      reduction);
      },
      [&] {
        AttrList a = reductionAttrs(reduction);
        a.push_back({"beta", beta});
        return a;
      });
}

Tensor binary_cross_entropy(const Tensor &self, const Tensor &target,
                            const std::optional<Tensor> &weightArg,
                            int64_t reduction) {
  Tensor weight = valueOr(weightArg);
  checkPair(self, target, "binary_cross_entropy");
  checkReduction(reduction, "binary_cross_entropy");
  checkFloating(self, "binary_cross_entropy", "input");
  TCC_CHECK(target.sizes().equals(self.sizes()), "Using a target size (",
            target.sizes(), ") that is different to the input size (",
            self.sizes(),
            ") is deprecated. Please ensure they have the same size.");
  int64_t numel = self.numel();
  return recordOp(
      kBinaryCrossEntropy, {self, target, weight},
      [&] {
        Tensor outside = (self < 0).logical_or(self > 1);
        TCC_CHECK(!outside.any().item<bool>(),
                  "binary_cross_entropy: all elements of input should be "
                  "between 0 and 1");
        Tensor logx = self.log().clamp_min(-100);
        Tensor log1mx = (1 - self).log().clamp_min(-100);
        Tensor loss = -(target * logx + (1 - target) * log1mx);
        if (weight.defined())
          loss = loss * weight;
        return reduce(loss, reduction);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return
            [sx = SavedVariable(self, false), st = SavedVariable(target, false),
             sw = SavedVariable(weight, false), reduction,
             numel](FunctionNode &n, const variable_list &g) -> variable_list {
              Tensor x = n.unpack(sx), t = n.unpack(st), w = n.unpack(sw);
              Tensor go = scaled(g[0], reduction, numel);
              Tensor gw = w.defined() ? go * w : go;
              variable_list r(3);
              if (n.needs_input_grad(0))
                r[0] = gw * (x - t) / ((1 - x) * x).clamp_min(1e-12);
              Tensor logx = x.log().clamp_min(-100);
              Tensor log1mx = (1 - x).log().clamp_min(-100);
              if (n.needs_input_grad(1))
                r[1] = gw * (log1mx - logx);
              if (n.needs_input_grad(2))
                r[2] = go * -(t * logx + (1 - t) * log1mx);
              return r;
            };
      },
      [&] { return reductionAttrs(reduction); });
}

namespace {
/// log(1 + exp(-x)), stable for any x.
Tensor softplusOfNegative(const Tensor &x) {
  return (-x).clamp_min(0) + (-x.abs()).exp().log1p();
}
} // namespace

Tensor binary_cross_entropy_with_logits(const Tensor &self,
                                        const Tensor &target,
                                        const std::optional<Tensor> &weightArg,
                                        const std::optional<Tensor> &posArg,
                                        int64_t reduction) {
  Tensor weight = valueOr(weightArg), posWeight = valueOr(posArg);
  const char *op = "binary_cross_entropy_with_logits";
  checkPair(self, target, op);
  checkReduction(reduction, op);
  checkFloating(self, op, "input");
  TCC_CHECK(target.sizes().equals(self.sizes()), "Target size (",
            target.sizes(), ") must be the same as input size (", self.sizes(),
            ")");
  int64_t numel = self.numel();
  return recordOp(
      kBinaryCrossEntropyWithLogits, {self, target, weight, posWeight},
      [&] {
        Tensor sp = softplusOfNegative(self);
        Tensor loss =
            posWeight.defined()
                ? (1 - target) * self + (1 + (posWeight - 1) * target) * sp
                : (1 - target) * self + sp;
        if (weight.defined())
          loss = loss * weight;
        return reduce(loss, reduction);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return
            [sx = SavedVariable(self, false), st = SavedVariable(target, false),
             sw = SavedVariable(weight, false),
             sp = SavedVariable(posWeight, false), reduction,
             numel](FunctionNode &n, const variable_list &g) -> variable_list {
              Tensor x = n.unpack(sx), t = n.unpack(st), w = n.unpack(sw),
                     pw = n.unpack(sp);
              Tensor go = scaled(g[0], reduction, numel);
              Tensor gw = w.defined() ? go * w : go;
              Tensor soft = softplusOfNegative(x);
              variable_list r(4);
              if (n.needs_input_grad(0))
                r[0] = pw.defined()
                           ? gw * ((1 + (pw - 1) * t) * x.sigmoid() - pw * t)
                           : gw * (x.sigmoid() - t);
              if (n.needs_input_grad(1))
                r[1] = pw.defined() ? gw * ((pw - 1) * soft - x) : gw * -x;
              if (n.needs_input_grad(2)) {
                Tensor loss = pw.defined()
                                  ? (1 - t) * x + (1 + (pw - 1) * t) * soft
                                  : (1 - t) * x + soft;
                r[2] = go * loss;
              }
              if (n.needs_input_grad(3))
                r[3] = gw * t * soft;
              return r;
            };
      },
      [&] { return reductionAttrs(reduction); });
}

Tensor nll_loss(const Tensor &self, const Tensor &target,
                const std::optional<Tensor> &weightArg, int64_t reduction,
                int64_t ignore_index) {
  Tensor weight = valueOr(weightArg);
  checkReduction(reduction, "nll_loss");
  int64_t classes = checkClassTargets(self, target, "nll_loss");
  checkClassWeight(weight, classes);
  {
    BelowAutograd below;
    checkTargets(target, classes, ignore_index);
  }
  return recordComposite(
      kNllLoss, {self, target, weight},
      [&] {
        bool single = self.dim() == 1;
        Tensor x = single ? self.unsqueeze(0) : self;
        Tensor t = single ? target.unsqueeze(0) : target;
        Tensor valid = t != ignore_index;
        Tensor safe = t.masked_fill(valid.logical_not(), 0);
        Tensor picked = x.gather(1, safe.unsqueeze(1)).squeeze(1);
        Tensor w = targetWeights(weight, safe, valid, self.dtype());
        Tensor loss = -picked * w;
        if (reduction == Reduction::None)
          return single ? loss.squeeze(0) : loss;
        if (reduction == Reduction::Sum)
          return loss.sum();
        return loss.sum() / w.sum();
      },
      [&] {
        return AttrList{{"reduction", reduction},
                        {"ignore_index", ignore_index}};
      });
}

Tensor cross_entropy_loss(const Tensor &self, const Tensor &target,
                          const std::optional<Tensor> &weightArg,
                          int64_t reduction, int64_t ignore_index,
                          double label_smoothing) {
  Tensor weight = valueOr(weightArg);
  const char *op = "cross_entropy_loss";
  checkPair(self, target, op);
  checkReduction(reduction, op);
  TCC_CHECK(
      label_smoothing >= 0 && label_smoothing <= 1,
      "label_smoothing must be between 0.0 and 1.0. Got: ", label_smoothing);
  checkFloating(self, op, "input");
  TCC_CHECK(self.dim() >= 1, op,
            ": expected input of at least 1 dimension "
            "[C] or [N, C, ...], got a 0-dim tensor");
  int64_t classDim = self.dim() == 1 ? 0 : 1;
  int64_t classes = self.size(classDim);
  bool probabilities = target.is_floating_point();
  if (probabilities) {
    TCC_CHECK(target.sizes().equals(self.sizes()), op,
              ": class-probability targets must have the input's size ",
              self.sizes(), ", got target of size ", target.sizes());
    TCC_CHECK(ignore_index == -100, op,
              ": ignore_index is not supported for floating point target");
  } else {
    checkClassTargets(self, target, op);
    BelowAutograd below;
    checkTargets(target, classes, ignore_index);
  }
  checkClassWeight(weight, classes);
  double eps = label_smoothing;
  return recordComposite(
      kCrossEntropyLoss, {self, target, weight},
      [&] {
        Tensor logp = self.log_softmax(classDim);
        Tensor wb = weight.defined() ? alongDim(weight, classDim, self.dim())
                                     : Tensor();
        if (probabilities) {
          Tensor t =
              eps > 0 ? target * (1 - eps) + eps / double(classes) : target;
          Tensor prod = wb.defined() ? logp * t * wb : logp * t;
          Tensor loss = -prod.sum(classDim);
          if (reduction == Reduction::Mean)
            return loss.sum() / double(std::max<int64_t>(loss.numel(), 1));
          return reduce(loss, reduction);
        }
        Tensor nll = nll_loss(logp, target, weight, reduction, ignore_index);
        if (eps == 0)
          return nll;
        // Label smoothing: mix in the (weighted) mean over all classes.
        Tensor ignored = target == ignore_index;
        Tensor smooth = -(wb.defined() ? logp * wb : logp).sum(classDim);
        smooth = smooth.masked_fill(ignored, 0);
        Tensor ret;
        if (reduction == Reduction::Mean) {
          Tensor valid = ignored.logical_not();
          Tensor safe = target.masked_fill(ignored, 0);
          ret = smooth.sum() /
                targetWeights(weight, safe, valid, self.dtype()).sum();
        } else {
          ret = reduce(smooth, reduction);
        }
        return nll * (1 - eps) + ret * (eps / double(classes));
      },
      [&] {
        return AttrList{{"reduction", reduction},
                        {"ignore_index", ignore_index},
                        {"label_smoothing", label_smoothing}};
      });
}

} // namespace tcc
