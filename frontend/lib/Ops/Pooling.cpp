//===- Pooling.cpp - max_pool2d, avg_pool2d, adaptive_avg_pool2d ----------===//
//
// Kernels work on planes: every dim before the last two is a plane index,
// so [C, H, W] and [N, C, H, W] share one code path.
//
// Backward: max pooling adds the gradient at the saved argmax indices
// (max_pool2d_backward, whose own gradient is a gather). Average pooling is
// linear: its backward is the adjoint op (`avg_pool2d_backward`, recorded as an
// op) whose backward is average pooling again, so gradients of any order work.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "MaxPool2x2.h"
#include "NNUtils.h"

#include "../Autograd/Record.h"
#include "../Core/Parallel.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/NN.h"

#include <cmath>
#include <limits>

namespace tcc {
namespace detail {

static const OpDef kMaxPool2d{
    "max_pool2d",
    "max_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] "
    "padding=0, int[2] dilation=1, bool ceil_mode=False) -> Tensor",
    "MaxPool2DWithIndicesBackward0"};
static const OpDef kMaxPool2dWithIndices{
    "max_pool2d_with_indices",
    "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] "
    "stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) "
    "-> (Tensor, Tensor)",
    "MaxPool2DWithIndicesBackward0"};
static const OpDef kMaxPool2dBackward{
    "max_pool2d_backward",
    "max_pool2d_backward(Tensor grad_output, Tensor indices, int[] "
    "input_size) -> Tensor",
    "MaxPool2DWithIndicesBackwardBackward0"};
static const OpDef kAvgPool2d{
    "avg_pool2d",
    "avg_pool2d(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] "
    "padding=0, bool ceil_mode=False, bool count_include_pad=True, int? "
    "divisor_override=None) -> Tensor",
    "AvgPool2DBackward0"};
static const OpDef kAvgPool2dBackward{
    "avg_pool2d_backward",
    "avg_pool2d_backward(Tensor grad_output, int[] input_size, int[2] "
    "kernel_size, int[2] stride, int[2] padding, bool ceil_mode, bool "
    "count_include_pad, int? divisor_override) -> Tensor",
    "AvgPool2DBackwardBackward0"};
static const OpDef kAdaptiveAvgPool2d{
    "adaptive_avg_pool2d",
    "adaptive_avg_pool2d(Tensor self, int[2] output_size) -> Tensor",
    "AdaptiveAvgPool2DBackward0"};
static const OpDef kAdaptiveAvgPool2dBackward{
    "adaptive_avg_pool2d_backward",
    "adaptive_avg_pool2d_backward(Tensor grad_output, int[] input_size, "
    "int[2] output_size) -> Tensor",
    "AdaptiveAvgPool2DBackwardBackward0"};

void registerPoolingOps() {
  for (const OpDef *op :
       {&kMaxPool2d, &kMaxPool2dWithIndices, &kMaxPool2dBackward, &kAvgPool2d,
        &kAvgPool2dBackward, &kAdaptiveAvgPool2d, &kAdaptiveAvgPool2dBackward})
    registerOp(*op);
}

namespace {

int64_t floorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

/// PyTorch's pooling output size, per spatial dim.
int64_t poolOutputSize(int64_t in, int64_t k, int64_t pad, int64_t stride,
                       int64_t dilation, bool ceilMode) {
  int64_t out = floorDiv(in + 2 * pad - dilation * (k - 1) - 1 +
                             (ceilMode ? stride - 1 : 0),
                         stride) +
                1;
  // The last window must start inside the input or its left padding.
  if (ceilMode && (out - 1) * stride >= in + pad)
    --out;
  return out;
}

/// Kernel, stride, padding and dilation of a 2-D pooling, with the
/// input/output geometry.
struct Pool2d {
  DimVector kernel, stride, padding, dilation;
  bool ceilMode = false;
  int64_t planes = 0, h = 0, w = 0, oh = 0, ow = 0;
  DimVector outSizes; // the input's leading dims + [oh, ow]
};

/// `int8Too`: max pooling also takes ui8/i8 (quantized) tensors.
Pool2d poolArgs(const Tensor &self, IntArrayRef kernelSize, IntArrayRef stride,
                IntArrayRef padding, IntArrayRef dilation, bool ceilMode,
                const char *op, bool int8Too = false) {
  checkDefined(self, op);
  checkCpu(self, op);
  Pool2d p;
  p.kernel = expandParam(kernelSize, 2, op, "kernel_size");
  p.stride = stride.empty() ? p.kernel : expandParam(stride, 2, op, "stride");
  p.padding = expandParam(padding, 2, op, "padding");
  p.dilation = expandParam(dilation, 2, op, "dilation");
  p.ceilMode = ceilMode;
  TCC_CHECK(p.kernel[0] > 0 && p.kernel[1] > 0, op,
            ": kernel size should be greater than zero, but got kernel_size=",
            IntArrayRef(p.kernel));
  TCC_CHECK(p.stride[0] > 0 && p.stride[1] > 0, op,
            ": stride should be greater than zero, but got stride=",
            IntArrayRef(p.stride));
  TCC_CHECK(p.dilation[0] > 0 && p.dilation[1] > 0, op,
            ": dilation should be greater than zero, but got dilation=",
            IntArrayRef(p.dilation));
  bool okDims = self.dim() == 3 || self.dim() == 4;
  for (int64_t d = self.dim() - 3; okDims && d < self.dim(); ++d)
    okDims = d < 0 || self.size(d) > 0;
  TCC_CHECK(okDims, op,
            ": expected a 3D or 4D (batch mode) tensor with "
            "non-zero channel and spatial dims, but got input of "
            "size: ",
            self.sizes());
  for (size_t i = 0; i < 2; ++i)
    TCC_CHECK(p.padding[i] >= 0 && p.padding[i] <= p.kernel[i] / 2, op,
              ": pad should be at most half of kernel size, but got padding=",
              IntArrayRef(p.padding),
              " and kernel_size=", IntArrayRef(p.kernel));
  if (!(int8Too && (self.dtype() == kByte || self.dtype() == kChar)))
    checkFloating(self, op, "input");
  p.h = self.size(-2);
  p.w = self.size(-1);
  p.planes = self.numel() / (p.h * p.w);
  p.oh = poolOutputSize(p.h, p.kernel[0], p.padding[0], p.stride[0],
                        p.dilation[0], ceilMode);
  p.ow = poolOutputSize(p.w, p.kernel[1], p.padding[1], p.stride[1],
                        p.dilation[1], ceilMode);
  TCC_CHECK(p.oh > 0 && p.ow > 0, op, ": given input size ", self.sizes(),
            ", the calculated output size (", p.oh, "x", p.ow,
            ") is too small");
  p.outSizes = DimVector(self.sizes());
  p.outSizes[size_t(self.dim() - 2)] = p.oh;
  p.outSizes[size_t(self.dim() - 1)] = p.ow;
  return p;
}

/// Max pooling of one plane whose windows all lie inside it (no padding,
/// dilation 1, no window cut short by ceil_mode), so the window loops need
/// no bounds. KH, KW: the kernel when known at compile time, else 0.
/// Same rule as the general loop: the first maximum, or the last NaN.
template <class T, int KH, int KW>
void maxPoolInteriorPlane(const T *plane, const Pool2d &p, T *out,
                          int64_t *indices) {
  using M = opmath_t<T>;
  const int64_t kh = KH ? KH : p.kernel[0], kw = KW ? KW : p.kernel[1];
  const int64_t sh = p.stride[0], sw = p.stride[1], w = p.w;
  for (int64_t y = 0; y < p.oh; ++y)
    for (int64_t x = 0; x < p.ow; ++x) {
      const int64_t origin = y * sh * w + x * sw;
      int64_t best = origin;
      M bestVal = M(plane[origin]);
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = i == 0 ? 1 : 0; j < kw; ++j) {
          const int64_t at = origin + i * w + j;
          const M v = M(plane[at]);
          // Branch-free (random data makes the choice unpredictable): the
          // index moves by arithmetic, the value is reloaded from it.
          const int64_t take = int64_t((v > bestVal) | (v != v));
          best += take * (at - best);
          bestVal = M(plane[best]);
        }
      out[y * p.ow + x] = T(bestVal);
      indices[y * p.ow + x] = best;
    }
}

/// The vectorized 2x2 / stride 2 kernel where there is one (float32 with
/// AVX-512); false when the caller must run its own loops.
inline bool maxPool2x2Vectorized(const float *x, int64_t planes,
                                 const Pool2d &p, float *out,
                                 int64_t *indices) {
  return maxPool2x2Float(x, planes, p.h, p.w, p.oh, p.ow, out, indices);
}
template <class T>
bool maxPool2x2Vectorized(const T *, int64_t, const Pool2d &, T *, int64_t *) {
  return false;
}

/// Max pooling of one plane, any geometry.
template <class T>
void maxPoolPlane(const T *plane, const Pool2d &p, T *out, int64_t *indices) {
  using M = opmath_t<T>;
  int64_t kh = p.kernel[0], kw = p.kernel[1], sh = p.stride[0],
          sw = p.stride[1], ph = p.padding[0], pw = p.padding[1],
          dh = p.dilation[0], dw = p.dilation[1];
  for (int64_t y = 0; y < p.oh; ++y) {
    int64_t h0 = y * sh - ph;
    int64_t h1 = std::min(h0 + (kh - 1) * dh + 1, p.h);
    while (h0 < 0)
      h0 += dh;
    for (int64_t x0 = 0; x0 < p.ow; ++x0) {
      int64_t w0 = x0 * sw - pw;
      int64_t w1 = std::min(w0 + (kw - 1) * dw + 1, p.w);
      while (w0 < 0)
        w0 += dw;
      int64_t best = h0 * p.w + w0;
      M bestVal = std::numeric_limits<M>::has_infinity
                      ? -std::numeric_limits<M>::infinity()
                      : std::numeric_limits<M>::lowest();
      for (int64_t hh = h0; hh < h1; hh += dh)
        for (int64_t ww = w0; ww < w1; ww += dw) {
          M v = M(plane[hh * p.w + ww]);
          if (v > bestVal || std::isnan(v)) {
            bestVal = v;
            best = hh * p.w + ww;
          }
        }
      out[y * p.ow + x0] = T(bestVal);
      indices[y * p.ow + x0] = best;
    }
  }
}

/// Max pooling; indices are flat positions h * W + w inside each plane.
std::vector<Tensor> maxPoolKernel(const Tensor &self, const Pool2d &p) {
  Tensor x = contiguousCopyIfNeeded(self);
  Tensor out = makeEmpty(p.outSizes, self.dtype());
  Tensor idx = makeEmpty(p.outSizes, kLong);
  const bool interior = p.padding[0] == 0 && p.padding[1] == 0 &&
                        p.dilation[0] == 1 && p.dilation[1] == 1 &&
                        (p.oh - 1) * p.stride[0] + p.kernel[0] <= p.h &&
                        (p.ow - 1) * p.stride[1] + p.kernel[1] <= p.w;
  const bool twoByTwo = p.kernel[0] == 2 && p.kernel[1] == 2;
  const int64_t outPlane = p.oh * p.ow;
  // Floats, and 8-bit integers (quantized tensors: a positive scale keeps
  // the order, so the maximum commutes with dequantization).
  auto typed = [&](auto zero) {
    using T = decltype(zero);
    const T *xp = dataOf<T>(x);
    T *op = dataOf<T>(out);
    int64_t *ip = dataOf<int64_t>(idx);
    int64_t grain = std::max<int64_t>(1, 4096 / std::max<int64_t>(1, outPlane));
    parallelFor(0, p.planes, grain, [&](int64_t b, int64_t e) {
      if (interior && twoByTwo && p.stride[0] == 2 && p.stride[1] == 2 &&
          maxPool2x2Vectorized(xp + b * p.h * p.w, e - b, p, op + b * outPlane,
                               ip + b * outPlane))
        return;
      for (int64_t pl = b; pl < e; ++pl) {
        const T *plane = xp + pl * p.h * p.w;
        T *o = op + pl * outPlane;
        int64_t *i = ip + pl * outPlane;
        if (interior && twoByTwo)
          maxPoolInteriorPlane<T, 2, 2>(plane, p, o, i);
        else if (interior)
          maxPoolInteriorPlane<T, 0, 0>(plane, p, o, i);
        else
          maxPoolPlane(plane, p, o, i);
      }
    });
  };
  TCC_DISPATCH_SWITCH(self.dtype(), "max_pool2d",
                      TCC_FLOATING_CASES([&] { typed(scalar_t()); })
                          TCC_DISPATCH_CASE(Byte, [&] { typed(scalar_t()); })
                              TCC_DISPATCH_CASE(Char,
                                                [&] { typed(scalar_t()); }));
  return {out, idx};
}

/// The gradient of max pooling: each output gradient added at its argmax
/// in the input plane. Recorded as an op whose own gradient gathers.
Tensor maxPoolGrad(const Tensor &grad, const Tensor &indices,
                   IntArrayRef inputSizes, int64_t planes, int64_t hw) {
  return recordOp(
      kMaxPool2dBackward, {grad, indices},
      [&] {
        Tensor g = contiguousCopyIfNeeded(grad);
        Tensor idx = contiguousCopyIfNeeded(indices);
        Tensor out = zeros(inputSizes, grad.options());
        int64_t perPlane = planes ? grad.numel() / planes : 0;
        TCC_DISPATCH_FLOATING_TYPES(grad.dtype(), "max_pool2d_backward", [&] {
          using T = scalar_t;
          using M = opmath_t<T>;
          const T *gp = dataOf<T>(g);
          const int64_t *ip = dataOf<int64_t>(idx);
          T *op = dataOf<T>(out);
          parallelFor(0, planes, 1, [&](int64_t b, int64_t e) {
            for (int64_t pl = b; pl < e; ++pl)
              for (int64_t k = pl * perPlane; k < (pl + 1) * perPlane; ++k) {
                T &dst = op[pl * hw + ip[k]];
                dst = T(M(dst) + M(gp[k]));
              }
          });
        });
        return out;
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector outSizes(grad.sizes());
        return [si = SavedVariable(indices, false), outSizes, planes,
                hw](FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor idx = n.unpack(si).reshape({planes, -1});
          return {g[0].reshape({planes, hw}).gather(1, idx).view(outSizes),
                  Tensor()};
        };
      },
      [&] {
        return AttrList{{"input_size", inputSizes.vec()}};
      });
}

FunctionNode::Formula maxPoolFormula(const Tensor &self, const Tensor &indices,
                                     const Pool2d &p) {
  DimVector in(self.sizes());
  int64_t planes = p.planes, hw = p.h * p.w;
  return [si = SavedVariable(indices, false), in, planes,
          hw](FunctionNode &n, const variable_list &g) -> variable_list {
    if (!g[0].defined())
      return {Tensor()};
    return {maxPoolGrad(g[0], n.unpack(si), in, planes, hw)};
  };
}

AttrList maxPoolAttrs(const Pool2d &p) {
  return AttrList{{"kernel_size", p.kernel.vec()},
                  {"stride", p.stride.vec()},
                  {"padding", p.padding.vec()},
                  {"dilation", p.dilation.vec()},
                  {"ceil_mode", p.ceilMode}};
}

// --- Window means: avg_pool2d and adaptive_avg_pool2d -----------------------

/// The window [h0, h1) x [w0, w1) of each output cell and its divisor.
struct Windows {
  bool adaptive = false;
  int64_t h = 0, w = 0, oh = 0, ow = 0;
  // avg_pool2d only:
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0;
  bool ceilMode = false, countIncludePad = true;
  std::optional<int64_t> divisorOverride;

  /// Returns false for a window with no input element.
  bool window(int64_t y, int64_t x, int64_t &h0, int64_t &h1, int64_t &w0,
              int64_t &w1, int64_t &divisor) const {
    if (adaptive) {
      h0 = y * h / oh;
      h1 = ((y + 1) * h + oh - 1) / oh;
      w0 = x * w / ow;
      w1 = ((x + 1) * w + ow - 1) / ow;
      divisor = (h1 - h0) * (w1 - w0);
      return true;
    }
    h0 = y * sh - ph;
    w0 = x * sw - pw;
    h1 = std::min(h0 + kh, h + ph);
    w1 = std::min(w0 + kw, w + pw);
    int64_t poolSize = (h1 - h0) * (w1 - w0);
    h0 = std::max<int64_t>(h0, 0);
    w0 = std::max<int64_t>(w0, 0);
    h1 = std::min(h1, h);
    w1 = std::min(w1, w);
    if (h0 >= h1 || w0 >= w1)
      return false;
    divisor = divisorOverride   ? *divisorOverride
              : countIncludePad ? poolSize
                                : (h1 - h0) * (w1 - w0);
    return true;
  }
};

DimVector withSpatial(IntArrayRef sizes, int64_t h, int64_t w) {
  DimVector s(sizes);
  s[s.size() - 2] = h;
  s[s.size() - 1] = w;
  return s;
}

/// out[y, x] = sum of the window / divisor, per plane.
Tensor windowMean(const Tensor &self, const Windows &win, const char *name) {
  Tensor x = contiguousCopyIfNeeded(self);
  Tensor out =
      makeEmpty(withSpatial(self.sizes(), win.oh, win.ow), self.dtype());
  int64_t planes = self.numel() / (win.h * win.w);
  TCC_DISPATCH_FLOATING_TYPES(self.dtype(), name, [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    const T *xp = dataOf<T>(x);
    T *op = dataOf<T>(out);
    parallelFor(0, planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        const T *plane = xp + pl * win.h * win.w;
        for (int64_t y = 0; y < win.oh; ++y)
          for (int64_t xo = 0; xo < win.ow; ++xo) {
            int64_t h0, h1, w0, w1, div;
            M sum = 0;
            if (win.window(y, xo, h0, h1, w0, w1, div)) {
              for (int64_t hh = h0; hh < h1; ++hh)
                for (int64_t ww = w0; ww < w1; ++ww)
                  sum += M(plane[hh * win.w + ww]);
              sum /= M(div);
            }
            op[(pl * win.oh + y) * win.ow + xo] = T(sum);
          }
      }
    });
  });
  return out;
}

/// The adjoint of windowMean: each output gradient spread over its window.
Tensor windowMeanAdjoint(const Tensor &grad, IntArrayRef inputSizes,
                         const Windows &win, const char *name) {
  Tensor g = contiguousCopyIfNeeded(grad);
  Tensor out = zeros(inputSizes, grad.options());
  int64_t planes = out.numel() / (win.h * win.w);
  TCC_DISPATCH_FLOATING_TYPES(grad.dtype(), name, [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    const T *gp = dataOf<T>(g);
    T *op = dataOf<T>(out);
    parallelFor(0, planes, 1, [&](int64_t b, int64_t e) {
      for (int64_t pl = b; pl < e; ++pl) {
        T *plane = op + pl * win.h * win.w;
        for (int64_t y = 0; y < win.oh; ++y)
          for (int64_t xo = 0; xo < win.ow; ++xo) {
            int64_t h0, h1, w0, w1, div;
            if (!win.window(y, xo, h0, h1, w0, w1, div))
              continue;
            M v = M(gp[(pl * win.oh + y) * win.ow + xo]) / M(div);
            for (int64_t hh = h0; hh < h1; ++hh)
              for (int64_t ww = w0; ww < w1; ++ww)
                plane[hh * win.w + ww] = T(M(plane[hh * win.w + ww]) + v);
          }
      }
    });
  });
  return out;
}

AttrList windowAttrs(const Windows &win) {
  if (win.adaptive)
    return AttrList{{"output_size", std::vector<int64_t>{win.oh, win.ow}}};
  return AttrList{{"kernel_size", std::vector<int64_t>{win.kh, win.kw}},
                  {"stride", std::vector<int64_t>{win.sh, win.sw}},
                  {"padding", std::vector<int64_t>{win.ph, win.pw}},
                  {"ceil_mode", win.ceilMode},
                  {"count_include_pad", win.countIncludePad},
                  {"divisor_override", win.divisorOverride
                                           ? AttrValue(*win.divisorOverride)
                                           : AttrValue()}};
}

Tensor windowMeanOp(const Tensor &self, const Windows &win);

/// The recorded adjoint op; its gradient is the forward op again.
Tensor windowMeanAdjointOp(const Tensor &grad, IntArrayRef inputSizes,
                           const Windows &win) {
  const OpDef &def =
      win.adaptive ? kAdaptiveAvgPool2dBackward : kAvgPool2dBackward;
  return recordOp(
      def, {grad},
      [&] { return windowMeanAdjoint(grad, inputSizes, win, def.name); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [win](FunctionNode &, const variable_list &g) -> variable_list {
          return {windowMeanOp(g[0], win)};
        };
      },
      [&] {
        AttrList a{{"input_size", inputSizes.vec()}};
        for (detail::Attr &x : windowAttrs(win))
          a.push_back(std::move(x));
        return a;
      });
}

/// avg_pool2d or adaptive_avg_pool2d, recorded.
Tensor windowMeanOp(const Tensor &self, const Windows &win) {
  const OpDef &def = win.adaptive ? kAdaptiveAvgPool2d : kAvgPool2d;
  return recordOp(
      def, {self}, [&] { return windowMean(self, win, def.name); },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector in(self.sizes());
        return
            [win, in](FunctionNode &, const variable_list &g) -> variable_list {
              return {windowMeanAdjointOp(g[0], in, win)};
            };
      },
      [&] { return windowAttrs(win); });
}

} // namespace
} // namespace detail

using namespace detail;

std::tuple<Tensor, Tensor>
max_pool2d_with_indices(const Tensor &self, IntArrayRef kernel_size,
                        IntArrayRef stride, IntArrayRef padding,
                        IntArrayRef dilation, bool ceil_mode) {
  Pool2d p = poolArgs(self, kernel_size, stride, padding, dilation, ceil_mode,
                      "max_pool2d_with_indices", /*int8Too=*/true);
  std::vector<Tensor> outs = recordMulti(
      kMaxPool2dWithIndices, {self}, [&] { return maxPoolKernel(self, p); },
      [&](const std::vector<Tensor> &o) {
        return maxPoolFormula(self, o[1], p);
      },
      [&] { return maxPoolAttrs(p); }, {true, false});
  return {outs[0], outs[1]};
}

Tensor max_pool2d(const Tensor &self, IntArrayRef kernel_size,
                  IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                  bool ceil_mode) {
  Pool2d p = poolArgs(self, kernel_size, stride, padding, dilation, ceil_mode,
                      "max_pool2d", /*int8Too=*/true);
  Tensor indices;
  return recordOp(
      kMaxPool2d, {self},
      [&] {
        std::vector<Tensor> o = maxPoolKernel(self, p);
        indices = o[1];
        return o[0];
      },
      [&](const Tensor &) { return maxPoolFormula(self, indices, p); },
      [&] { return maxPoolAttrs(p); });
}

Tensor avg_pool2d(const Tensor &self, IntArrayRef kernel_size,
                  IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad,
                  std::optional<int64_t> divisor_override) {
  Pool2d p =
      poolArgs(self, kernel_size, stride, padding, 1, ceil_mode, "avg_pool2d");
  TCC_CHECK(!divisor_override || *divisor_override != 0,
            "avg_pool2d: divisor must be not zero");
  Windows win;
  win.h = p.h;
  win.w = p.w;
  win.oh = p.oh;
  win.ow = p.ow;
  win.kh = p.kernel[0];
  win.kw = p.kernel[1];
  win.sh = p.stride[0];
  win.sw = p.stride[1];
  win.ph = p.padding[0];
  win.pw = p.padding[1];
  win.ceilMode = ceil_mode;
  win.countIncludePad = count_include_pad;
  win.divisorOverride = divisor_override;
  return windowMeanOp(self, win);
}

Tensor adaptive_avg_pool2d(const Tensor &self, IntArrayRef output_size) {
  checkDefined(self, "adaptive_avg_pool2d");
  checkCpu(self, "adaptive_avg_pool2d");
  TCC_CHECK(output_size.size() == 2,
            "adaptive_avg_pool2d: output_size must "
            "be 2, got ",
            output_size);
  bool okDims = self.dim() == 3 || self.dim() == 4;
  for (int64_t d = self.dim() - 3; okDims && d < self.dim(); ++d)
    okDims = d < 0 || self.size(d) > 0;
  TCC_CHECK(okDims,
            "adaptive_avg_pool2d(): Expected 3D or 4D tensor with "
            "non-zero channel and spatial dims, but got input of "
            "size: ",
            self.sizes());
  TCC_CHECK(output_size[0] > 0 && output_size[1] > 0,
            "adaptive_avg_pool2d: elements of output_size must be greater "
            "than 0, but got output_size=",
            output_size);
  checkFloating(self, "adaptive_avg_pool2d", "input");
  Windows win;
  win.adaptive = true;
  win.h = self.size(-2);
  win.w = self.size(-1);
  win.oh = output_size[0];
  win.ow = output_size[1];
  return windowMeanOp(self, win);
}

} // namespace tcc
