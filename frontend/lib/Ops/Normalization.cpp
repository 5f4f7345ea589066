//===- Normalization.cpp - batch_norm, layer_norm -------------------------===//
//
// Both are composites recorded once (the tracer sees "batch_norm" and
// "layer_norm" with their attributes) and differentiated through the
// reductions and elementwise ops they are made of, to any order.
//
//===----------------------------------------------------------------------===//

#include "NNUtils.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/Ops/NN.h"

namespace tcc {
namespace detail {

static const OpDef kBatchNorm{
    "batch_norm",
    "batch_norm(Tensor input, Tensor? weight, Tensor? bias, Tensor? "
    "running_mean, Tensor? running_var, bool training, float momentum, float "
    "eps) -> Tensor  (composite; training updates running stats in place)",
    ""};
static const OpDef kLayerNorm{
    "layer_norm",
    "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, "
    "Tensor? bias=None, float eps=1e-05) -> Tensor  (composite)",
    ""};

void registerNormalizationOps() {
  for (const OpDef *op : {&kBatchNorm, &kLayerNorm})
    registerOp(*op);
}

namespace {

/// A per-channel [C] tensor viewed to broadcast along dim 1 of `ndim` dims.
Tensor perChannel(const Tensor &t, int64_t ndim) {
  DimVector shape(size_t(ndim), 1);
  shape[1] = -1;
  return t.view(shape);
}

void checkChannelParam(const Tensor &t, int64_t channels, const char *name) {
  if (!t.defined())
    return;
  checkCpu(t, "batch_norm");
  TCC_CHECK(t.dim() == 1 && t.size(0) == channels, "batch_norm: expected ",
            name, " to have ", channels,
            " elements (one per channel), but got ", name, " of size ",
            t.sizes());
}

} // namespace
} // namespace detail

using namespace detail;

Tensor batch_norm(const Tensor &input, const std::optional<Tensor> &weightArg,
                  const std::optional<Tensor> &biasArg,
                  const std::optional<Tensor> &meanArg,
                  const std::optional<Tensor> &varArg, bool training,
                  double momentum, double eps, bool) {
  Tensor weight = valueOr(weightArg), bias = valueOr(biasArg);
  Tensor runningMean = valueOr(meanArg), runningVar = valueOr(varArg);
  checkDefined(input, "batch_norm");
  checkCpu(input, "batch_norm");
  TCC_CHECK(input.dim() >= 2,
            "batch_norm: expected an input with at least 2 "
            "dims [N, C, ...], got input of size ",
            input.sizes());
  checkFloating(input, "batch_norm", "input");
  int64_t channels = input.size(1);
  checkChannelParam(weight, channels, "weight");
  checkChannelParam(bias, channels, "bias");
  checkChannelParam(runningMean, channels, "running_mean");
  checkChannelParam(runningVar, channels, "running_var");
  TCC_CHECK(runningMean.defined() == runningVar.defined(),
            "batch_norm: running_mean and running_var must both be given or "
            "both be absent");
  TCC_CHECK(training || runningMean.defined(),
            "batch_norm: running_mean and running_var must be defined in "
            "evaluation mode");
  DimVector dims;
  for (int64_t d = 0; d < input.dim(); ++d)
    if (d != 1)
      dims.push_back(d);
  int64_t perChannelCount = input.numel() / std::max<int64_t>(channels, 1);
  TCC_CHECK(!training || perChannelCount > 1,
            "Expected more than 1 value per channel when training, got input "
            "size ",
            input.sizes());
  int64_t nd = input.dim();
  return recordComposite(
      kBatchNorm, {input, weight, bias, runningMean, runningVar},
      [&] {
        Tensor y;
        if (training) {
          Tensor mean = input.mean(dims, true);
          Tensor centered = input - mean;
          Tensor var = (centered * centered).mean(dims, true);
          y = centered * (var + eps).rsqrt();
          if (runningMean.defined()) {
            NoGradGuard noGrad;
            double n = double(perChannelCount);
            Tensor m = mean.detach().view({-1});
            Tensor v = var.detach().view({-1}) * (n / (n - 1));
            runningMean.copy_(runningMean * (1 - momentum) + m * momentum);
            runningVar.copy_(runningVar * (1 - momentum) + v * momentum);
          }
        } else {
          y = (input - perChannel(runningMean, nd)) *
              perChannel((runningVar + eps).rsqrt(), nd);
        }
        if (weight.defined())
          y = y * perChannel(weight, nd);
        if (bias.defined())
          y = y + perChannel(bias, nd);
        return y;
      },
      [&] {
        return AttrList{
            {"training", training}, {"momentum", momentum}, {"eps", eps}};
      });
}

Tensor layer_norm(const Tensor &input, IntArrayRef normalized_shape,
                  const std::optional<Tensor> &weightArg,
                  const std::optional<Tensor> &biasArg, double eps, bool) {
  Tensor weight = valueOr(weightArg), bias = valueOr(biasArg);
  checkDefined(input, "layer_norm");
  checkCpu(input, "layer_norm");
  checkFloating(input, "layer_norm", "input");
  int64_t k = int64_t(normalized_shape.size());
  TCC_CHECK(k >= 1, "layer_norm: normalized_shape must have at least one "
                    "dimension");
  bool fits = input.dim() >= k;
  for (int64_t i = 0; fits && i < k; ++i)
    fits = input.size(input.dim() - k + i) == normalized_shape[size_t(i)];
  TCC_CHECK(fits, "Given normalized_shape=", normalized_shape,
            ", expected input with shape [*, ", str(normalized_shape).substr(1),
            ", but got input of size", input.sizes());
  for (const Tensor *p : {&weight, &bias})
    TCC_CHECK(!p->defined() || p->sizes().equals(normalized_shape), "Expected ",
              p == &weight ? "weight" : "bias",
              " to be of same shape as normalized_shape, but got ",
              p == &weight ? "weight" : "bias", " of shape ", p->sizes(),
              " and normalized_shape = ", normalized_shape);
  DimVector dims;
  for (int64_t i = 0; i < k; ++i)
    dims.push_back(input.dim() - k + i);
  std::vector<int64_t> shape = normalized_shape.vec();
  return recordComposite(
      kLayerNorm, {input, weight, bias},
      [&] {
        Tensor mean = input.mean(dims, true);
        Tensor centered = input - mean;
        Tensor var = (centered * centered).mean(dims, true);
        Tensor y = centered * (var + eps).rsqrt();
        if (weight.defined())
          y = y * weight;
        if (bias.defined())
          y = y + bias;
        return y;
      },
      [&] {
        return AttrList{{"normalized_shape", shape}, {"eps", eps}};
      });
}

} // namespace tcc
