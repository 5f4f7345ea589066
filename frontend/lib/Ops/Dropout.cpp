//===- Dropout.cpp - dropout and feature (channel) dropout ----------------===//
//
// The keep mask is drawn from the global generator (one uniform draw per
// element, or per channel for feature dropout, in row-major order), so
// manual_seed reproduces it. The gradient is the output gradient where the
// mask keeps, scaled by 1/(1-p).
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "NNUtils.h"

#include "../Autograd/Record.h"
#include "../Core/Random.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/NN.h"

#include <algorithm>

namespace tcc {
namespace detail {

static const OpDef kDropout{
    "dropout", "dropout(Tensor input, float p, bool train) -> Tensor",
    "NativeDropoutBackward0"};
static const OpDef kFeatureDropout{
    "feature_dropout",
    "feature_dropout(Tensor input, float p, bool train) -> Tensor",
    "FeatureDropoutBackward0"};

void registerDropoutOps() {
  for (const OpDef *op : {&kDropout, &kFeatureDropout})
    registerOp(*op);
}

namespace {

/// A bool mask of `sizes` whose elements are true with probability 1 - p.
Tensor keepMask(IntArrayRef sizes, double p) {
  Tensor mask = makeEmpty(sizes, kBool);
  bool *m = dataOf<bool>(mask);
  Generator &gen = globalGenerator();
  auto lock = gen.lock();
  constexpr int64_t kBlock = 256; // draws per bulk fill
  uint64_t draws[kBlock];
  for (int64_t i = 0; i < mask.numel(); i += kBlock) {
    const int64_t n = std::min(kBlock, mask.numel() - i);
    gen.fill(draws, n);
    for (int64_t j = 0; j < n; ++j)
      m[i + j] = Generator::toUniform(draws[j]) >= p;
  }
  return mask;
}

/// out = input * mask * scale, with the mask broadcast to the input.
Tensor applyMask(const Tensor &input, const Tensor &mask, double scale) {
  return where(mask, input * scale, zeros({}, input.dtype()));
}

Tensor dropoutImpl(const OpDef &op, const Tensor &input, double p, bool train,
                   IntArrayRef maskSizes) {
  if (!train || p == 0 || input.numel() == 0)
    return input;
  double scale = p == 1 ? 0.0 : 1.0 / (1.0 - p);
  Tensor mask;
  return recordOp(
      op, {input},
      [&] {
        mask = keepMask(maskSizes, p);
        return applyMask(input, mask, scale);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sm = SavedVariable(mask, false), scale](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          return {applyMask(g[0], n.unpack(sm), scale)};
        };
      },
      [&] {
        return AttrList{{"p", p}, {"train", train}};
      });
}

void checkDropout(const Tensor &input, double p, const char *op) {
  checkDefined(input, op);
  checkCpu(input, op);
  TCC_CHECK(p >= 0 && p <= 1, op,
            ": dropout probability has to be between 0 and 1, but got ", p);
  checkFloating(input, op, "input");
}

} // namespace
} // namespace detail

using namespace detail;

Tensor dropout(const Tensor &input, double p, bool train) {
  checkDropout(input, p, "dropout");
  return dropoutImpl(kDropout, input, p, train, input.sizes());
}

Tensor feature_dropout(const Tensor &input, double p, bool train) {
  checkDropout(input, p, "feature_dropout");
  TCC_CHECK(input.dim() >= 2,
            "feature_dropout: expected an input with at "
            "least 2 dims [N, C, ...], got input of size ",
            input.sizes());
  DimVector maskSizes(size_t(input.dim()), 1);
  maskSizes[0] = input.size(0);
  maskSizes[1] = input.size(1);
  return dropoutImpl(kFeatureDropout, input, p, train, maskSizes);
}

} // namespace tcc
