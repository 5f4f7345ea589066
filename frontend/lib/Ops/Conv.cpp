//===- Conv.cpp - conv2d, conv_transpose2d, conv1d ------------------------===//
//
// conv2d: float32 at inference runs the runtime's tcc_conv2d (implicit
// GEMM, bias fused in its epilogue). Training (the weight needs a
// gradient) and other dtypes run the columns path of ConvColumns.h: im2col
// of a chunk of images, then one GEMM per group; in training the columns of
// the batch are kept for the weight gradient, which then is one GEMM per
// group with no im2col of its own.
// conv_transpose2d: GEMM (W^T x) then col2im, per chunk of images, in
// every dtype.
//
// The backward formulas are recorded ops, so they differentiate again:
// d(input) of conv2d is conv_transpose2d of the gradient, d(weight) is
// conv2d_weight_grad (im2col of the input times the gradient), and
// conversely for conv_transpose2d.
//
//===----------------------------------------------------------------------===//

#include "ConvColumns.h"
#include "Dispatch.h"
#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/NN.h"

#include <cstring>
#include <vector>

namespace tcc {
namespace detail {

static const OpDef kConv2d{
    "conv2d",
    "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, "
    "int[2] padding=0, int[2] dilation=1, int groups=1) -> Tensor",
    "ConvolutionBackward0"};
static const OpDef kConvTranspose2d{
    "conv_transpose2d",
    "conv_transpose2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] "
    "stride=1, int[2] padding=0, int[2] output_padding=0, int groups=1, "
    "int[2] dilation=1) -> Tensor",
    "ConvolutionBackward0"};
static const OpDef kConv1d{
    "conv1d",
    "conv1d(Tensor input, Tensor weight, Tensor? bias=None, int[1] stride=1, "
    "int[1] padding=0, int[1] dilation=1, int groups=1) -> Tensor  "
    "(composite: conv2d on a unit height)",
    ""};
static const OpDef kConv2dWeightGrad{
    "conv2d_weight_grad",
    "conv2d_weight_grad(Tensor input, Tensor grad_output, int[2] kernel_size, "
    "int[2] stride, int[2] padding, int[2] dilation, int groups) -> Tensor  "
    "(the weight gradient of conv2d)",
    "Conv2DWeightGradBackward0"};

void registerConvOps() {
  for (const OpDef *op :
       {&kConv2d, &kConvTranspose2d, &kConv1d, &kConv2dWeightGrad})
    registerOp(*op);
}

namespace {

/// out[n][ch][...] += bias[ch] over `channels` planes of `pixels`.
template <class T>
void addBias(T *out, const T *bias, int64_t n, int64_t channels,
             int64_t pixels) {
  for (int64_t s = 0; s < n; ++s)
    for (int64_t ch = 0; ch < channels; ++ch) {
      T *p = out + (s * channels + ch) * pixels;
      for (int64_t i = 0; i < pixels; ++i)
        p[i] = T(p[i] + bias[ch]);
    }
}

bool fitsConvKernel(const ConvGeometry &g) {
  const int64_t limit = int64_t(1) << 31;
  for (int64_t v : {g.n, g.c, g.h, g.w, g.o, g.kh, g.kw, g.sh, g.sw, g.ph, g.pw,
                    g.dh, g.dw, g.groups})
    if (v >= limit)
      return false;
  return g.c > 0 && g.h > 0 && g.w > 0 && g.kh > 0 && g.kw > 0;
}

void conv2dFloatKernel(const Tensor &x, const Tensor &w, const Tensor &bias,
                       const Tensor &out, const ConvGeometry &g) {
  tcc_conv2d_args a{};
  a.batch = g.n;
  a.in_channels = g.c;
  a.in_height = g.h;
  a.in_width = g.w;
  a.out_channels = g.o;
  a.kernel_height = g.kh;
  a.kernel_width = g.kw;
  a.stride_h = g.sh;
  a.stride_w = g.sw;
  a.pad_h = g.ph;
  a.pad_w = g.pw;
  a.dilation_h = g.dh;
  a.dilation_w = g.dw;
  a.groups = g.groups;
  a.layout = TCC_LAYOUT_NCHW;
  a.input = dataOf<float>(x);
  a.weight = dataOf<float>(w);
  a.output = dataOf<float>(out);
  tcc_epilogue ep{};
  ep.alpha = 1;
  if (bias.defined()) {
    ep.bias = dataOf<float>(bias);
    a.epilogue = &ep;
  }
  tcc_parallel par = eagerKernelParallel();
  size_t bytes = tcc_conv2d_workspace_size(&a, &par);
  Tensor workspace;
  if (bytes > 0) {
    workspace = makeEmpty({int64_t(bytes)}, kByte);
    a.workspace = dataOf<uint8_t>(workspace);
  }
  tcc_kernel_status st = tcc_conv2d(&a, &par);
  TCC_CHECK(st == TCC_KERNEL_OK,
            "conv2d kernel failed: ", tcc_kernels_last_error());
}

/// A scratch buffer of `elements` values of `dtype` from the caching
/// allocator (not zeroed).
Tensor scratch(int64_t elements, ScalarType dtype) {
  return makeEmpty({elements}, dtype);
}

/// conv2d as one GEMM per group and chunk of images over the chunk's
/// columns (ConvColumns.h). When `keepColumns` is set, the whole batch is
/// one chunk and its columns are returned there for the weight gradient.
void conv2dColumnsKernel(const Tensor &x, const Tensor &w, const Tensor &b,
                         const Tensor &out, const ConvGeometry &g,
                         Tensor *keepColumns) {
  const int64_t chunk = keepColumns ? g.n : columnsChunk(g);
  const int64_t pixels = g.pixels(), kdim = g.kdim(), og = g.og();
  Tensor columns = scratch(g.columnRows() * chunk * pixels, x.dtype());
  Tensor product = scratch(chunk > 1 ? g.o * chunk * pixels : 0, x.dtype());
  TCC_DISPATCH_FLOATING_TYPES(x.dtype(), "conv2d", [&] {
    using T = scalar_t;
    const T *xp = dataOf<T>(x), *wp = dataOf<T>(w);
    const T *bp = b.defined() ? dataOf<T>(b) : nullptr;
    T *cp = dataOf<T>(columns), *pp = dataOf<T>(product);
    for (int64_t first = 0; first < g.n; first += chunk) {
      const int64_t count = std::min(chunk, g.n - first), ld = count * pixels;
      im2colBatch(xp, g, first, count, cp);
      // One image's product is its output already; more are interleaved.
      T *target = count == 1 ? dataOf<T>(out) + first * g.o * pixels : pp;
      for (int64_t grp = 0; grp < g.groups; ++grp)
        gemmRowMajor<T>(og, ld, kdim, wp + grp * og * kdim, kdim,
                        cp + grp * kdim * ld, ld, target + grp * og * ld, ld,
                        false);
      if (count > 1)
        scatterPlanes(pp, bp, g.o, pixels, first, count, dataOf<T>(out));
      else if (bp)
        addBias(target, bp, 1, g.o, pixels);
    }
  });
  if (keepColumns)
    *keepColumns = columns;
}

/// Whether conv2d should build the columns of the whole batch and keep them
/// for the weight gradient: only while they fit the columns budget.
bool keepsColumns(const ConvGeometry &g) {
  return g.n > 0 && g.kdim() > 0 && g.n <= columnsChunk(g) &&
         g.columnRows() * g.pixels() * g.n <= kColumnsBudget;
}

/// conv2d's kernel. float32 without kept columns runs the runtime's
/// tcc_conv2d (implicit GEMM, no columns in memory); otherwise the columns
/// path runs, and stores the batch's columns in `keepColumns` when given.
Tensor conv2dKernel(const Tensor &input, const Tensor &weight,
                    const Tensor &bias, const ConvGeometry &g,
                    Tensor *keepColumns) {
  Tensor out = makeEmpty({g.n, g.o, g.oh, g.ow}, input.dtype());
  if (out.numel() == 0)
    return out;
  Tensor x = contiguousCopyIfNeeded(input), w = contiguousCopyIfNeeded(weight);
  Tensor b = bias.defined() ? contiguousCopyIfNeeded(bias) : Tensor();
  if (g.kdim() == 0) {
    if (b.defined())
      copyInto(out, b.view({1, g.o, 1, 1}));
    else
      out.zero_();
    return out;
  }
  if (!keepColumns && input.dtype() == kFloat && fitsConvKernel(g)) {
    conv2dFloatKernel(x, w, b, out, g);
    return out;
  }
  conv2dColumnsKernel(x, w, b, out, g, keepColumns);
  return out;
}

/// conv_transpose2d with `g` describing the conv2d it is the adjoint of:
/// input is [n, o, oh, ow], weight [o, c / groups, kh, kw], out [n, c, h, w].
/// Per chunk of images: the columns' gradient W_g^T @ input_g (one GEMM per
/// group), then col2im into the output.
Tensor convTranspose2dKernel(const Tensor &input, const Tensor &weight,
                             const Tensor &bias, const ConvGeometry &g) {
  Tensor out = makeEmpty({g.n, g.c, g.h, g.w}, input.dtype());
  if (out.numel() == 0)
    return out;
  Tensor x = contiguousCopyIfNeeded(input), w = contiguousCopyIfNeeded(weight);
  Tensor b = bias.defined() ? contiguousCopyIfNeeded(bias) : Tensor();
  const int64_t kdim = g.kdim(), og = g.og(), pixels = g.pixels();
  if (kdim == 0 || og == 0) {
    out.zero_();
  } else {
    const int64_t chunk = columnsChunk(g, kCacheColumnsBudget);
    Tensor wt = scratch(g.groups * kdim * og, input.dtype());
    Tensor planes =
        scratch(chunk > 1 ? g.o * chunk * pixels : 0, input.dtype());
    Tensor columns = scratch(g.columnRows() * chunk * pixels, input.dtype());
    TCC_DISPATCH_FLOATING_TYPES(input.dtype(), "conv_transpose2d", [&] {
      using T = scalar_t;
      const T *wp = dataOf<T>(w);
      T *wtp = dataOf<T>(wt), *pp = dataOf<T>(planes), *cp = dataOf<T>(columns);
      // W_g^T [kdim, og] per group, contiguous.
      for (int64_t grp = 0; grp < g.groups; ++grp)
        for (int64_t oc = 0; oc < og; ++oc)
          for (int64_t kk = 0; kk < kdim; ++kk)
            wtp[(grp * kdim + kk) * og + oc] = wp[(grp * og + oc) * kdim + kk];
      for (int64_t first = 0; first < g.n; first += chunk) {
        const int64_t count = std::min(chunk, g.n - first), ld = count * pixels;
        const T *planesOf =
            gatherPlanes(dataOf<T>(x), g.o, pixels, first, count, pp);
        for (int64_t grp = 0; grp < g.groups; ++grp)
          gemmRowMajor<T>(kdim, ld, og, wtp + grp * kdim * og, og,
                          planesOf + grp * og * ld, ld, cp + grp * kdim * ld,
                          ld, false);
        col2imBatch(cp, g, first, count, dataOf<T>(out));
      }
    });
  }
  if (b.defined()) {
    TCC_DISPATCH_FLOATING_TYPES(input.dtype(), "conv_transpose2d", [&] {
      addBias(dataOf<scalar_t>(out), dataOf<scalar_t>(b), g.n, g.c, g.h * g.w);
    });
  }
  return out;
}

/// The output padding of conv_transpose2d that restores the input size of
/// the conv2d `g` describes.
std::pair<int64_t, int64_t> restoringOutputPadding(const ConvGeometry &g) {
  return {g.h - ((g.oh - 1) * g.sh - 2 * g.ph + g.dh * (g.kh - 1) + 1),
          g.w - ((g.ow - 1) * g.sw - 2 * g.pw + g.dw * (g.kw - 1) + 1)};
}

/// C[m, n] (+)= A[m, k] @ B^T for a row-major B [n, k]: the runtime's
/// sgemm reads B transposed; other dtypes transpose it into `scratch`.
template <class T>
void gemmTransposedB(int64_t m, int64_t n, int64_t k, const T *a, const T *b,
                     T *c, bool accumulate, std::vector<T> &scratch) {
  if constexpr (std::is_same<T, float>::value) {
    tcc_epilogue ep{};
    ep.alpha = 1;
    ep.residual = c;
    ep.ld_residual = n;
    ep.beta = 1;
    tcc_sgemm_args args{};
    args.m = m;
    args.n = n;
    args.k = k;
    args.a = a;
    args.lda = k;
    args.b = b;
    args.ldb = k;
    args.trans_b = 1;
    args.c = c;
    args.ldc = n;
    args.epilogue = accumulate ? &ep : nullptr;
    runSgemm(args);
  } else {
    scratch.resize(size_t(n * k));
    for (int64_t r = 0; r < n; ++r)
      for (int64_t p = 0; p < k; ++p)
        scratch[size_t(p * n + r)] = b[r * k + p];
    gemmRowMajor<T>(m, n, k, a, k, scratch.data(), n, c, n, accumulate);
  }
}

/// dW_g [og, kdim] = sum over images and pixels of grad_g [og, P] @
/// columns_g^T, computed transposed, dW_g^T = columns_g @ grad_g^T: per
/// chunk of images and group one GEMM whose transposed operand (packed by
/// transposing) is the gradient, og rows, rather than the kdim rows of the
/// columns. `columns`, when defined, holds the whole batch's columns of
/// `input` (kept by the forward conv2d).
Tensor weightGradKernel(const Tensor &input, const Tensor &grad,
                        const ConvGeometry &g, const Tensor &columns) {
  Tensor out = makeEmpty({g.o, g.cg(), g.kh, g.kw}, input.dtype());
  const int64_t pixels = g.pixels(), kdim = g.kdim(), og = g.og();
  if (out.numel() == 0)
    return out;
  if (g.n == 0 || pixels == 0)
    return out.zero_();
  Tensor x = contiguousCopyIfNeeded(input), go = contiguousCopyIfNeeded(grad);
  const int64_t chunk = columns.defined() ? g.n : columnsChunk(g);
  Tensor cols = columns.defined()
                    ? columns
                    : scratch(g.columnRows() * chunk * pixels, input.dtype());
  Tensor planes = scratch(chunk > 1 ? g.o * chunk * pixels : 0, input.dtype());
  Tensor transposedOut = scratch(g.o * kdim, input.dtype());
  TCC_DISPATCH_FLOATING_TYPES(input.dtype(), "conv2d_weight_grad", [&] {
    using T = scalar_t;
    std::vector<T> transposed;
    T *cp = dataOf<T>(cols), *pp = dataOf<T>(planes), *op = dataOf<T>(out),
      *tp = dataOf<T>(transposedOut);
    for (int64_t first = 0; first < g.n; first += chunk) {
      const int64_t count = std::min(chunk, g.n - first), ld = count * pixels;
      if (!columns.defined())
        im2colBatch(dataOf<T>(x), g, first, count, cp);
      const T *planesOf =
          gatherPlanes(dataOf<T>(go), g.o, pixels, first, count, pp);
      for (int64_t grp = 0; grp < g.groups; ++grp)
        gemmTransposedB<T>(kdim, og, ld, cp + grp * kdim * ld,
                           planesOf + grp * og * ld, tp + grp * kdim * og,
                           first > 0, transposed);
    }
    for (int64_t grp = 0; grp < g.groups; ++grp)
      for (int64_t oc = 0; oc < og; ++oc)
        for (int64_t kk = 0; kk < kdim; ++kk)
          op[(grp * og + oc) * kdim + kk] = tp[(grp * kdim + kk) * og + oc];
  });
  return out;
}

/// d(loss)/d(weight) of conv2d(input, w) with output gradient `grad`,
/// recorded as an op: it is bilinear, so its own gradients are the
/// convolutions of the other operand with the incoming gradient.
/// `columns`: as weightGradKernel's (undefined to build them here).
Tensor convWeightGrad(const Tensor &input, const Tensor &grad,
                      const ConvGeometry &g, const Tensor &columns = Tensor()) {
  return recordOp(
      kConv2dWeightGrad, {input, grad},
      [&] { return weightGradKernel(input, grad, g, columns); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return
            [sx = SavedVariable(input, false), sg = SavedVariable(grad, false),
             g](FunctionNode &n, const variable_list &gw) -> variable_list {
              variable_list r(2);
              if (n.needs_input_grad(0)) {
                auto [oph, opw] = restoringOutputPadding(g);
                r[0] = conv_transpose2d(n.unpack(sg), gw[0], std::nullopt,
                                        {g.sh, g.sw}, {g.ph, g.pw}, {oph, opw},
                                        g.groups, {g.dh, g.dw});
              }
              if (n.needs_input_grad(1))
                r[1] = conv2d(n.unpack(sx), gw[0], std::nullopt, {g.sh, g.sw},
                              {g.ph, g.pw}, {g.dh, g.dw}, g.groups);
              return r;
            };
      },
      [&] {
        return AttrList{{"kernel_size", std::vector<int64_t>{g.kh, g.kw}},
                        {"stride", std::vector<int64_t>{g.sh, g.sw}},
                        {"padding", std::vector<int64_t>{g.ph, g.pw}},
                        {"dilation", std::vector<int64_t>{g.dh, g.dw}},
                        {"groups", g.groups}};
      });
}

/// The bias gradient of a convolution: the output gradient summed over
/// images and pixels, as two reductions of adjacent dims (pixels, then
/// images) that read it in place; one over dims {0, 2, 3} would first copy
/// it into a permuted layout.
Tensor biasGrad(const Tensor &go) { return go.sum({2, 3}).sum(0); }

struct ConvArgs {
  DimVector stride, padding, dilation;
  int64_t groups;
};

ConvArgs convArgs(IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation,
                  int64_t groups, const char *op) {
  ConvArgs a{expandParam(stride, 2, op, "stride"),
             expandParam(padding, 2, op, "padding"),
             expandParam(dilation, 2, op, "dilation"), groups};
  TCC_CHECK(groups > 0, op, ": non-positive groups is not supported");
  for (int64_t s : a.stride)
    TCC_CHECK(s > 0, op, ": non-positive stride is not supported");
  for (int64_t p : a.padding)
    TCC_CHECK(p >= 0, op, ": negative padding is not supported");
  for (int64_t d : a.dilation)
    TCC_CHECK(d > 0, op, ": dilation should be greater than zero");
  return a;
}

void checkConvTensors(const Tensor &input, const Tensor &weight,
                      const Tensor &bias, const char *op) {
  checkDefined(input, op);
  checkDefined(weight, op);
  checkCpu(input, op);
  checkCpu(weight, op);
  TCC_CHECK(weight.dim() == 4, op,
            ": expected a 4-D weight, but got weight "
            "of size ",
            weight.sizes());
  TCC_CHECK(input.dim() == 3 || input.dim() == 4,
            "Expected 3D (unbatched) "
            "or 4D (batched) input to ",
            op, ", but got input of size: ", input.sizes());
  checkFloating(input, op, "input");
  TCC_CHECK(input.dtype() == weight.dtype(), op, ": input type (",
            input.dtype(), ") and weight type (", weight.dtype(),
            ") should be the same");
  if (bias.defined()) {
    checkCpu(bias, op);
    TCC_CHECK(bias.dtype() == weight.dtype(), op, ": bias type (", bias.dtype(),
              ") and weight type (", weight.dtype(), ") should be the same");
  }
}

std::string pair(int64_t a, int64_t b) { return str("(", a, " x ", b, ")"); }

Tensor conv2dBatched(const Tensor &input, const Tensor &weight,
                     const Tensor &bias, const ConvArgs &a) {
  ConvGeometry g{};
  g.n = input.size(0);
  g.c = input.size(1);
  g.h = input.size(2);
  g.w = input.size(3);
  g.o = weight.size(0);
  g.kh = weight.size(2);
  g.kw = weight.size(3);
  g.sh = a.stride[0];
  g.sw = a.stride[1];
  g.ph = a.padding[0];
  g.pw = a.padding[1];
  g.dh = a.dilation[0];
  g.dw = a.dilation[1];
  g.groups = a.groups;
  TCC_CHECK(g.o % g.groups == 0, "Given groups=", g.groups,
            ", expected weight to be divisible by ", g.groups,
            " at dimension 0, but got weight of size ", weight.sizes(),
            " instead");
  TCC_CHECK(g.c == weight.size(1) * g.groups, "Given groups=", g.groups,
            ", weight of size ", weight.sizes(), ", expected input",
            input.sizes(), " to have ", weight.size(1) * g.groups,
            " channels, but got ", g.c, " channels instead");
  TCC_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == g.o),
            "Given weight of size ", weight.sizes(),
            ", expected bias to be 1-dimensional with ", g.o,
            " elements, but got bias of size ", bias.sizes(), " instead");
  int64_t spanH = g.dh * (g.kh - 1) + 1, spanW = g.dw * (g.kw - 1) + 1;
  int64_t paddedH = g.h + 2 * g.ph, paddedW = g.w + 2 * g.pw;
  TCC_CHECK(paddedH >= spanH && paddedW >= spanW,
            "Calculated padded input size per channel: ",
            pair(paddedH, paddedW), ". Kernel size: ", pair(spanH, spanW),
            ". Kernel size can't be greater than actual input size");
  g.oh = (paddedH - spanH) / g.sh + 1;
  g.ow = (paddedW - spanW) / g.sw + 1;
  // Training: the weight gradient will need the input's columns, so the
  // forward keeps the ones it builds (when they fit the budget).
  Tensor columns;
  bool keep =
      GradMode::is_enabled() && weight.requires_grad() && keepsColumns(g);
  return recordOp(
      kConv2d, {input, weight, bias},
      [&] {
        return conv2dKernel(input, weight, bias, g, keep ? &columns : nullptr);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sx = SavedVariable(input, false),
                sw = SavedVariable(weight, false), g,
                columns](FunctionNode &n,
                         const variable_list &grads) -> variable_list {
          variable_list r(3);
          const Tensor &go = grads[0];
          if (n.needs_input_grad(0)) {
            auto [oph, opw] = restoringOutputPadding(g);
            r[0] = conv_transpose2d(go, n.unpack(sw), std::nullopt,
                                    {g.sh, g.sw}, {g.ph, g.pw}, {oph, opw},
                                    g.groups, {g.dh, g.dw});
          }
          if (n.needs_input_grad(1))
            r[1] = convWeightGrad(n.unpack(sx), go, g, columns);
          if (n.needs_input_grad(2))
            r[2] = biasGrad(go);
          return r;
        };
      },
      [&] {
        return AttrList{{"stride", a.stride.vec()},
                        {"padding", a.padding.vec()},
                        {"dilation", a.dilation.vec()},
                        {"groups", a.groups}};
      });
}

Tensor convTranspose2dBatched(const Tensor &input, const Tensor &weight,
                              const Tensor &bias, const ConvArgs &a,
                              const DimVector &outputPadding) {
  // g describes the conv2d whose adjoint this is.
  ConvGeometry g{};
  g.n = input.size(0);
  g.o = input.size(1);
  g.oh = input.size(2);
  g.ow = input.size(3);
  g.kh = weight.size(2);
  g.kw = weight.size(3);
  g.groups = a.groups;
  g.c = weight.size(1) * a.groups;
  g.sh = a.stride[0];
  g.sw = a.stride[1];
  g.ph = a.padding[0];
  g.pw = a.padding[1];
  g.dh = a.dilation[0];
  g.dw = a.dilation[1];
  TCC_CHECK(weight.size(0) % g.groups == 0, "Given groups=", g.groups,
            ", expected weight to be divisible by ", g.groups,
            " at dimension 0, but got weight of size ", weight.sizes(),
            " instead");
  TCC_CHECK(g.o == weight.size(0), "Given transposed=1, weight of size ",
            weight.sizes(), ", expected input", input.sizes(), " to have ",
            weight.size(0), " channels, but got ", g.o, " channels instead");
  TCC_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == g.c),
            "Given transposed=1, weight of size ", weight.sizes(),
            ", expected bias to be 1-dimensional with ", g.c,
            " elements, but got bias of size ", bias.sizes(), " instead");
  for (size_t i = 0; i < 2; ++i)
    TCC_CHECK(outputPadding[i] >= 0 && (outputPadding[i] < a.stride[i] ||
                                        outputPadding[i] < a.dilation[i]),
              "conv_transpose2d: output padding must be smaller than either "
              "stride or dilation, but got output_padding=",
              IntArrayRef(outputPadding), ", stride=", IntArrayRef(a.stride),
              ", dilation=", IntArrayRef(a.dilation));
  g.h = (g.oh - 1) * g.sh - 2 * g.ph + g.dh * (g.kh - 1) + outputPadding[0] + 1;
  g.w = (g.ow - 1) * g.sw - 2 * g.pw + g.dw * (g.kw - 1) + outputPadding[1] + 1;
  TCC_CHECK(g.h > 0 && g.w > 0,
            "Given input size per channel: ", pair(g.oh, g.ow),
            ". Calculated output size per channel: ", pair(g.h, g.w),
            ". Output size is too small");
  return recordOp(
      kConvTranspose2d, {input, weight, bias},
      [&] { return convTranspose2dKernel(input, weight, bias, g); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return
            [sx = SavedVariable(input, false),
             sw = SavedVariable(weight, false),
             g](FunctionNode &n, const variable_list &grads) -> variable_list {
              variable_list r(3);
              const Tensor &go = grads[0];
              if (n.needs_input_grad(0)) {
                Tensor gi = conv2d(go, n.unpack(sw), std::nullopt, {g.sh, g.sw},
                                   {g.ph, g.pw}, {g.dh, g.dw}, g.groups);
                if (gi.size(2) != g.oh || gi.size(3) != g.ow)
                  gi = gi.narrow(2, 0, g.oh).narrow(3, 0, g.ow);
                r[0] = gi;
              }
              if (n.needs_input_grad(1))
                r[1] = convWeightGrad(go, n.unpack(sx), g);
              if (n.needs_input_grad(2))
                r[2] = biasGrad(go);
              return r;
            };
      },
      [&] {
        return AttrList{{"stride", a.stride.vec()},
                        {"padding", a.padding.vec()},
                        {"output_padding", outputPadding.vec()},
                        {"groups", a.groups},
                        {"dilation", a.dilation.vec()}};
      });
}

/// Runs `f` on a batched input; an unbatched [C, H, W] input gets a batch
/// dim of 1 added and removed.
template <class F> Tensor withBatchDim(const Tensor &input, int64_t dims, F f) {
  if (input.dim() == dims)
    return f(input);
  return f(input.unsqueeze(0)).squeeze(0);
}

} // namespace
} // namespace detail

using namespace detail;

Tensor conv2d(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &biasArg, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  Tensor bias = valueOr(biasArg);
  checkConvTensors(input, weight, bias, "conv2d");
  ConvArgs a = convArgs(stride, padding, dilation, groups, "conv2d");
  return withBatchDim(input, 4, [&](const Tensor &x) {
    return conv2dBatched(x, weight, bias, a);
  });
}

Tensor detail::conv2dPaddingMode(const Tensor &input, const Tensor &weight,
                                 const std::optional<Tensor> &bias,
                                 IntArrayRef stride, std::string_view padding,
                                 IntArrayRef dilation, int64_t groups) {
  TCC_CHECK(padding == "valid" || padding == "same",
            "Invalid padding string: '", std::string(padding),
            "' (expected 'valid' or 'same')");
  if (padding == "valid")
    return conv2d(input, weight, bias, stride, 0, dilation, groups);
  checkDefined(weight, "conv2d");
  TCC_CHECK(weight.dim() == 4,
            "conv2d: expected a 4-D weight, but got "
            "weight of size ",
            weight.sizes());
  DimVector s = expandParam(stride, 2, "conv2d", "stride");
  DimVector d = expandParam(dilation, 2, "conv2d", "dilation");
  TCC_CHECK(s[0] == 1 && s[1] == 1,
            "padding='same' is not supported for strided convolutions");
  // Total padding d * (k - 1) per dim; an odd total puts the extra element
  // on the right/bottom (as PyTorch does), through an explicit pad.
  DimVector left(2), extra(2);
  for (size_t i = 0; i < 2; ++i) {
    int64_t total = d[i] * (weight.size(int64_t(i) + 2) - 1);
    left[i] = total / 2;
    extra[i] = total - 2 * left[i];
  }
  Tensor x = input;
  if (extra[0] || extra[1])
    x = constant_pad_nd(input, {0, extra[1], 0, extra[0]});
  return conv2d(x, weight, bias, s, left, d, groups);
}

Tensor conv1d(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &biasArg, IntArrayRef stride,
              IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  Tensor bias = valueOr(biasArg);
  checkDefined(input, "conv1d");
  checkDefined(weight, "conv1d");
  TCC_CHECK(weight.dim() == 3,
            "conv1d: expected a 3-D weight, but got "
            "weight of size ",
            weight.sizes());
  TCC_CHECK(input.dim() == 2 || input.dim() == 3,
            "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got "
            "input of size: ",
            input.sizes());
  DimVector s = expandParam(stride, 1, "conv1d", "stride");
  DimVector p = expandParam(padding, 1, "conv1d", "padding");
  DimVector d = expandParam(dilation, 1, "conv1d", "dilation");
  return recordComposite(
      kConv1d, {input, weight, bias},
      [&] {
        int64_t h = input.dim() - 1; // the unit height goes before length
        return conv2d(input.unsqueeze(h), weight.unsqueeze(2), biasArg,
                      {1, s[0]}, {0, p[0]}, {1, d[0]}, groups)
            .squeeze(h);
      },
      [&] {
        return AttrList{{"stride", s.vec()},
                        {"padding", p.vec()},
                        {"dilation", d.vec()},
                        {"groups", groups}};
      });
}

Tensor detail::conv1dPaddingMode(const Tensor &input, const Tensor &weight,
                                 const std::optional<Tensor> &bias,
                                 IntArrayRef stride, std::string_view padding,
                                 IntArrayRef dilation, int64_t groups) {
  TCC_CHECK(padding == "valid" || padding == "same",
            "Invalid padding string: '", std::string(padding),
            "' (expected 'valid' or 'same')");
  if (padding == "valid")
    return conv1d(input, weight, bias, stride, 0, dilation, groups);
  checkDefined(weight, "conv1d");
  TCC_CHECK(weight.dim() == 3,
            "conv1d: expected a 3-D weight, but got "
            "weight of size ",
            weight.sizes());
  DimVector s = expandParam(stride, 1, "conv1d", "stride");
  DimVector d = expandParam(dilation, 1, "conv1d", "dilation");
  TCC_CHECK(s[0] == 1,
            "padding='same' is not supported for strided convolutions");
  int64_t total = d[0] * (weight.size(2) - 1);
  Tensor x = total % 2 ? constant_pad_nd(input, {0, 1}) : input;
  return conv1d(x, weight, bias, s, total / 2, d, groups);
}

Tensor conv_transpose2d(const Tensor &input, const Tensor &weight,
                        const std::optional<Tensor> &biasArg,
                        IntArrayRef stride, IntArrayRef padding,
                        IntArrayRef output_padding, int64_t groups,
                        IntArrayRef dilation) {
  Tensor bias = valueOr(biasArg);
  checkConvTensors(input, weight, bias, "conv_transpose2d");
  ConvArgs a = convArgs(stride, padding, dilation, groups, "conv_transpose2d");
  DimVector op =
      expandParam(output_padding, 2, "conv_transpose2d", "output_padding");
  return withBatchDim(input, 4, [&](const Tensor &x) {
    return convTranspose2dBatched(x, weight, bias, a, op);
  });
}

} // namespace tcc
