//===- Linear.cpp - linear: x W^T + b -------------------------------------===//
//
// float32 runs the runtime's sgemm with W read transposed and the bias fused
// into its epilogue; other dtypes copy W^T once and use the core's GEMM.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/NN.h"

namespace tcc {
namespace detail {

static const OpDef kLinear{
    "linear",
    "linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor",
    "LinearBackward0"};

void registerLinearOps() { registerOp(kLinear); }

namespace {

Tensor linearKernel(const Tensor &input, const Tensor &weight,
                    const Tensor &bias) {
  int64_t n = weight.size(0), k = weight.size(1);
  DimVector outSizes(input.sizes());
  outSizes.back() = n;
  int64_t m = 1;
  for (size_t i = 0; i + 1 < input.sizes().size(); ++i)
    m *= input.sizes()[i];
  Tensor out = makeEmpty(outSizes, input.dtype());
  if (out.numel() == 0)
    return out;
  if (k == 0) {
    if (bias.defined())
      copyInto(out, bias);
    else
      out.zero_();
    return out;
  }
  Tensor x = contiguousCopyIfNeeded(input);
  if (input.dtype() == kFloat) {
    Tensor w = contiguousCopyIfNeeded(weight);
    Tensor b = bias.defined() ? contiguousCopyIfNeeded(bias) : Tensor();
    tcc_epilogue ep{};
    ep.alpha = 1;
    ep.bias = b.defined() ? dataOf<float>(b) : nullptr;
    tcc_sgemm_args g{};
    g.m = m;
    g.n = n;
    g.k = k;
    g.a = dataOf<float>(x);
    g.lda = k;
    g.b = dataOf<float>(w);
    g.ldb = k;
    g.trans_b = 1;
    g.c = dataOf<float>(out);
    g.ldc = n;
    g.epilogue = b.defined() ? &ep : nullptr;
    runSgemm(g);
    return out;
  }
  Tensor wt = contiguousCopy(weight.t());
  if (bias.defined())
    copyInto(out, bias);
  TCC_DISPATCH_FLOATING_TYPES(input.dtype(), "linear", [&] {
    gemmRowMajor<scalar_t>(m, n, k, dataOf<scalar_t>(x), k,
                           dataOf<scalar_t>(wt), n, dataOf<scalar_t>(out), n,
                           bias.defined());
  });
  return out;
}

} // namespace
} // namespace detail

using namespace detail;

Tensor linear(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &biasArg) {
  Tensor bias = valueOr(biasArg);
  checkDefined(input, "linear");
  checkDefined(weight, "linear");
  checkCpu(input, "linear");
  checkCpu(weight, "linear");
  TCC_CHECK(weight.dim() == 2,
            "linear(): weight must be 2-D [out_features, "
            "in_features], got weight of size ",
            weight.sizes());
  TCC_CHECK(input.dim() >= 1, "linear(): input must have at least 1 "
                              "dimension, got a 0-dim tensor");
  TCC_CHECK(input.size(-1) == weight.size(1),
            "mat1 and mat2 shapes cannot be multiplied (",
            input.numel() / std::max<int64_t>(input.size(-1), 1), "x",
            input.size(-1), " and ", weight.size(1), "x", weight.size(0), ")");
  TCC_CHECK(input.dtype() == weight.dtype(),
            "linear(): expected input and weight to have the same dtype, but "
            "got ",
            input.dtype(), " and ", weight.dtype());
  checkFloating(input, "linear", "input");
  if (bias.defined()) {
    checkCpu(bias, "linear");
    TCC_CHECK(bias.dim() == 1 && bias.size(0) == weight.size(0),
              "linear(): expected bias of size [", weight.size(0),
              "] to match weight of size ", weight.sizes(),
              ", but got bias of size ", bias.sizes());
    TCC_CHECK(bias.dtype() == weight.dtype(),
              "linear(): expected bias and weight to have the same dtype, "
              "but got ",
              bias.dtype(), " and ", weight.dtype());
  }
  return recordOp(
      kLinear, {input, weight, bias},
      [&] { return linearKernel(input, weight, bias); },
      [&](const Tensor &) -> FunctionNode::Formula {
        int64_t in = weight.size(1), out = weight.size(0);
        return [sx = SavedVariable(input, false),
                sw = SavedVariable(weight, false), in,
                out](FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(3);
          Tensor g2 = g[0].reshape({-1, out});
          if (n.needs_input_grad(0))
            r[0] = g[0].matmul(n.unpack(sw));
          if (n.needs_input_grad(1))
            r[1] = g2.t().mm(n.unpack(sx).reshape({-1, in}));
          if (n.needs_input_grad(2))
            r[2] = g2.sum(0);
          return r;
        };
      },
      noAttrs);
}

} // namespace tcc
