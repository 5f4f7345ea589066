//===- Normalization.cpp - batch_norm, layer_norm -------------------------===//
//
// Both are recorded once as composites (the tracer sees "batch_norm" and
// "layer_norm" with their attributes). Normalizing with batch statistics
// runs one fused op (native_batch_norm / native_layer_norm: statistics and
// output in two passes) whose backward is a fused kernel too; when the
// backward itself must be differentiable (create_graph) the formula is
// written with tensor ops, recomputing the statistics from the input so
// that higher-order gradients are exact. Batch norm in evaluation mode is
// a per-channel scale and shift.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "NNUtils.h"

#include "../Autograd/Record.h"
#include "../Core/Parallel.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/Ops/NN.h"

#include <array>
#include <cmath>

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

static const OpDef kNativeBatchNorm{
    "native_batch_norm",
    "native_batch_norm(Tensor input, Tensor? weight, Tensor? bias, float eps) "
    "-> (Tensor, Tensor, Tensor)  (normalized with batch statistics; also "
    "the per-channel mean and biased variance)",
    "NativeBatchNormBackward0"};
static const OpDef kNativeLayerNorm{
    "native_layer_norm",
    "native_layer_norm(Tensor input, int[] normalized_shape, Tensor? weight, "
    "Tensor? bias, float eps) -> (Tensor, Tensor, Tensor)  (also the "
    "per-row mean and biased variance)",
    "NativeLayerNormBackward0"};

void registerNormalizationOps() {
  for (const OpDef *op :
       {&kBatchNorm, &kLayerNorm, &kNativeBatchNorm, &kNativeLayerNorm})
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

/// How a normalization lays out its input: `outer` x `groups` x `inner`
/// contiguous elements. Batch norm: [N, C, spatial], statistics per channel
/// (group) over outer and inner, parameters per channel. Layer norm:
/// [rows, 1, K] seen as groups = rows, statistics per row, parameters per
/// element of the row.
struct NormLayout {
  int64_t outer = 1, groups = 1, inner = 1;
  bool perChannelParams = true; // batch norm; else layer norm
  int64_t count() const { return outer * inner; }
  /// Calls f(offset) for every element of group g.
  template <class F> void forEach(int64_t g, F &&f) const {
    for (int64_t o = 0; o < outer; ++o) {
      int64_t base = (o * groups + g) * inner;
      for (int64_t i = 0; i < inner; ++i)
        f(base + i, i);
    }
  }
};

NormLayout batchNormLayout(const Tensor &x) {
  NormLayout l;
  l.outer = x.size(0);
  l.groups = x.size(1);
  l.inner = x.numel() / std::max<int64_t>(l.outer * l.groups, 1);
  return l;
}

NormLayout layerNormLayout(const Tensor &x, int64_t normalizedNumel) {
  NormLayout l;
  l.groups = normalizedNumel ? x.numel() / normalizedNumel : 0;
  l.inner = normalizedNumel;
  l.perChannelParams = false;
  return l;
}

/// y = (x - mean) / sqrt(var + eps) * w + b per group; returns y, mean,
/// var (biased), the statistics shaped [groups].
std::vector<Tensor> normForwardKernel(const Tensor &input, const Tensor &weight,
                                      const Tensor &bias, double eps,
                                      const NormLayout &l) {
  Tensor x = contiguousCopyIfNeeded(input);
  Tensor w = weight.defined() ? contiguousCopyIfNeeded(weight) : Tensor();
  Tensor b = bias.defined() ? contiguousCopyIfNeeded(bias) : Tensor();
  Tensor y = makeEmpty(input.sizes(), input.dtype());
  Tensor mean = makeEmpty({l.groups}, input.dtype());
  Tensor var = makeEmpty({l.groups}, input.dtype());
  TCC_DISPATCH_FLOATING_TYPES(input.dtype(), "normalization", [&] {
    using T = scalar_t;
    const T *xp = dataOf<T>(x);
    const T *wp = w.defined() ? dataOf<T>(w) : nullptr;
    const T *bp = b.defined() ? dataOf<T>(b) : nullptr;
    T *yp = dataOf<T>(y), *mp = dataOf<T>(mean), *vp = dataOf<T>(var);
    double n = double(l.count());
    parallelFor(0, l.groups, 1, [&](int64_t g0, int64_t g1) {
      for (int64_t g = g0; g < g1; ++g) {
        double sum = 0, sq = 0;
        l.forEach(g, [&](int64_t k, int64_t) { sum += double(xp[k]); });
        double mu = sum / n;
        l.forEach(g, [&](int64_t k, int64_t) {
          double d = double(xp[k]) - mu;
          sq += d * d;
        });
        double v = sq / n, invstd = 1 / std::sqrt(v + eps);
        mp[g] = T(mu);
        vp[g] = T(v);
        l.forEach(g, [&](int64_t k, int64_t i) {
          int64_t pi = l.perChannelParams ? g : i;
          double scale = wp ? double(wp[pi]) * invstd : invstd;
          double shift = bp ? double(bp[pi]) : 0.0;
          yp[k] = T((double(xp[k]) - mu) * scale + shift);
        });
      }
    });
  });
  return {y, mean, var};
}

/// The gradients of normForwardKernel without a graph: per group, with
/// xhat = (x - mean) * invstd and gw = g * w,
///   dx = invstd * (gw - mean(gw) - xhat * mean(gw * xhat)),
/// and dw, db the sums of g * xhat and g over what shares a parameter.
variable_list normBackwardKernel(const Tensor &grad, const Tensor &input,
                                 const Tensor &weight, const Tensor &mean,
                                 const Tensor &var, double eps,
                                 const NormLayout &l,
                                 const std::array<bool, 3> &needed) {
  Tensor g = contiguousCopyIfNeeded(grad), x = contiguousCopyIfNeeded(input);
  Tensor w = weight.defined() ? contiguousCopyIfNeeded(weight) : Tensor();
  int64_t params = l.perChannelParams ? l.groups : l.inner;
  Tensor dx = needed[0] ? makeEmpty(input.sizes(), input.dtype()) : Tensor();
  Tensor dw = needed[1] ? makeEmpty({params}, input.dtype()) : Tensor();
  Tensor db = needed[2] ? makeEmpty({params}, input.dtype()) : Tensor();
  TCC_DISPATCH_FLOATING_TYPES(input.dtype(), "normalization backward", [&] {
    using T = scalar_t;
    const T *gp = dataOf<T>(g), *xp = dataOf<T>(x);
    const T *wp = w.defined() ? dataOf<T>(w) : nullptr;
    const T *mp = dataOf<T>(mean), *vp = dataOf<T>(var);
    double n = double(l.count());
    auto invstdOf = [&](int64_t grp) {
      return 1 / std::sqrt(double(vp[grp]) + eps);
    };
    if (needed[0]) {
      T *dxp = dataOf<T>(dx);
      parallelFor(0, l.groups, 1, [&](int64_t g0, int64_t g1) {
        for (int64_t grp = g0; grp < g1; ++grp) {
          double mu = double(mp[grp]), invstd = invstdOf(grp);
          double sumGw = 0, sumGwXhat = 0;
          l.forEach(grp, [&](int64_t k, int64_t i) {
            double wv = wp ? double(wp[l.perChannelParams ? grp : i]) : 1.0;
            double gw = double(gp[k]) * wv;
            sumGw += gw;
            sumGwXhat += gw * (double(xp[k]) - mu) * invstd;
          });
          double a = sumGw / n, c = sumGwXhat / n;
          l.forEach(grp, [&](int64_t k, int64_t i) {
            double wv = wp ? double(wp[l.perChannelParams ? grp : i]) : 1.0;
            double xhat = (double(xp[k]) - mu) * invstd;
            dxp[k] = T(invstd * (double(gp[k]) * wv - a - xhat * c));
          });
        }
      });
    }
    if (!needed[1] && !needed[2])
      return;
    T *dwp = needed[1] ? dataOf<T>(dw) : nullptr;
    T *dbp = needed[2] ? dataOf<T>(db) : nullptr;
    if (l.perChannelParams) { // one parameter per group
      parallelFor(0, l.groups, 1, [&](int64_t g0, int64_t g1) {
        for (int64_t grp = g0; grp < g1; ++grp) {
          double mu = double(mp[grp]), invstd = invstdOf(grp);
          double sg = 0, sgx = 0;
          l.forEach(grp, [&](int64_t k, int64_t) {
            sg += double(gp[k]);
            sgx += double(gp[k]) * (double(xp[k]) - mu) * invstd;
          });
          if (dwp)
            dwp[grp] = T(sgx);
          if (dbp)
            dbp[grp] = T(sg);
        }
      });
      return;
    }
    // One parameter per position in the row: sum over rows.
    parallelFor(0, l.inner, 64, [&](int64_t i0, int64_t i1) {
      std::vector<double> sg(size_t(i1 - i0), 0.0), sgx(size_t(i1 - i0), 0.0);
      for (int64_t grp = 0; grp < l.groups; ++grp) {
        double mu = double(mp[grp]), invstd = invstdOf(grp);
        for (int64_t i = i0; i < i1; ++i) {
          int64_t k = grp * l.inner + i;
          sg[size_t(i - i0)] += double(gp[k]);
          sgx[size_t(i - i0)] += double(gp[k]) * (double(xp[k]) - mu) * invstd;
        }
      }
      for (int64_t i = i0; i < i1; ++i) {
        if (dwp)
          dwp[i] = T(sgx[size_t(i - i0)]);
        if (dbp)
          dbp[i] = T(sg[size_t(i - i0)]);
      }
    });
  });
  return {dx, dw, db};
}

/// The same gradients written with tensor ops (statistics recomputed from
/// x), for a differentiable backward. `dims` are the reduced dims and
/// `paramShape` views weight/bias for broadcasting against x.
variable_list normBackwardOps(const Tensor &g, const Tensor &x, const Tensor &w,
                              double eps, IntArrayRef dims,
                              IntArrayRef paramDims, IntArrayRef paramShape,
                              const std::array<bool, 3> &needed) {
  Tensor mean = x.mean(dims, true);
  Tensor xc = x - mean;
  Tensor invstd = ((xc * xc).mean(dims, true) + eps).rsqrt();
  Tensor xhat = xc * invstd;
  variable_list r(3);
  if (needed[0]) {
    Tensor gw = w.defined() ? g * w.view(paramShape) : g;
    r[0] = invstd *
           (gw - gw.mean(dims, true) - xhat * (gw * xhat).mean(dims, true));
  }
  // No dims to sum over (layer norm of a single row): already per element.
  if (needed[1])
    r[1] = paramDims.empty() ? g * xhat : (g * xhat).sum(paramDims);
  if (needed[2])
    r[2] = paramDims.empty() ? g : g.sum(paramDims);
  return r;
}

/// The recorded fused normalization with batch statistics.
std::vector<Tensor> nativeNorm(const OpDef &op, const Tensor &input,
                               const Tensor &weight, const Tensor &bias,
                               double eps, const NormLayout &l, DimVector dims,
                               DimVector paramDims, DimVector paramShape,
                               DimVector paramSizes, AttrList attrs) {
  return recordMulti(
      op, {input, weight, bias},
      [&] { return normForwardKernel(input, weight, bias, eps, l); },
      [&](const std::vector<Tensor> &outs) -> FunctionNode::Formula {
        return [sx = SavedVariable(input, false),
                sw = SavedVariable(weight, false),
                sm = SavedVariable(outs[1], false),
                sv = SavedVariable(outs[2], false), eps, l, dims, paramDims,
                paramShape, paramSizes](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          std::array<bool, 3> needed{n.needs_input_grad(0),
                                     n.needs_input_grad(1),
                                     n.needs_input_grad(2)};
          if (!g[0].defined())
            return variable_list(3);
          Tensor x = n.unpack(sx), w = n.unpack(sw);
          variable_list r =
              GradMode::is_enabled() // create_graph: stay differentiable
                  ? normBackwardOps(g[0], x, w, eps, dims, paramDims,
                                    paramShape, needed)
                  : normBackwardKernel(g[0], x, w, n.unpack(sm), n.unpack(sv),
                                       eps, l, needed);
          for (size_t i = 1; i < 3; ++i) // weight and bias shapes
            if (r[i].defined())
              r[i] = r[i].reshape(paramSizes);
          return r;
        };
      },
      [&] { return attrs; }, {true, false, false});
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
  DimVector channelShape(size_t(nd), 1);
  channelShape[1] = -1;
  return recordComposite(
      kBatchNorm, {input, weight, bias, runningMean, runningVar},
      [&] {
        if (training) {
          std::vector<Tensor> o =
              nativeNorm(kNativeBatchNorm, input, weight, bias, eps,
                         batchNormLayout(input), dims, dims, channelShape,
                         DimVector{channels}, AttrList{{"eps", eps}});
          if (runningMean.defined()) {
            NoGradGuard noGrad;
            double n = double(perChannelCount);
            runningMean.copy_(runningMean * (1 - momentum) + o[1] * momentum);
            runningVar.copy_(runningVar * (1 - momentum) +
                             o[2] * (momentum * n / (n - 1)));
          }
          return o[0];
        }
        Tensor scale = (runningVar + eps).rsqrt();
        if (weight.defined())
          scale = scale * weight;
        Tensor y = input * perChannel(scale, nd);
        Tensor shift = runningMean * scale;
        shift = bias.defined() ? bias - shift : -shift;
        return y + perChannel(shift, nd);
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
        int64_t numel = 1;
        for (int64_t v : shape)
          numel *= v;
        DimVector rowDims;
        for (int64_t d = 0; d < input.dim() - k; ++d)
          rowDims.push_back(d);
        return nativeNorm(
            kNativeLayerNorm, input, weight, bias, eps,
            layerNormLayout(input, numel), dims, rowDims,
            DimVector(IntArrayRef(shape)), DimVector(IntArrayRef(shape)),
            AttrList{{"normalized_shape", shape}, {"eps", eps}})[0];
      },
      [&] {
        return AttrList{{"normalized_shape", shape}, {"eps", eps}};
      });
}

} // namespace tcc
