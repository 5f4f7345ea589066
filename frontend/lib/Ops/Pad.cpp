//===- Pad.cpp - constant, reflect, replicate and circular padding --------===//
//
// Constant padding is one op (negative amounts crop) whose gradient is the
// same op with the amounts negated. The other modes are recorded once as
// "pad" and computed as index_select along each padded dim with the
// mode's source indices, so they differentiate through index_select.
//
//===----------------------------------------------------------------------===//

#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"

#include <string>

namespace tcc {
namespace detail {

static const OpDef kPad{
    "pad",
    "pad(Tensor self, int[] pad, str mode='constant', float? value=None) -> "
    "Tensor  (constant mode differentiates itself; the others through "
    "index_select)",
    "ConstantPadNdBackward0"};

void registerPadOps() { registerOp(kPad); }

namespace {

/// The result sizes of `pad` applied to `sizes`, checked.
DimVector paddedSizes(IntArrayRef sizes, IntArrayRef pad) {
  TCC_CHECK(pad.size() % 2 == 0, "Padding length must be divisible by 2");
  TCC_CHECK(int64_t(pad.size() / 2) <= int64_t(sizes.size()),
            "Padding length should be less than or equal to two times the "
            "input dimension but got padding length ",
            pad.size(), " and input of dimension ", sizes.size());
  DimVector out(sizes);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    size_t d = sizes.size() - 1 - i;
    int64_t size = sizes[d] + pad[2 * i] + pad[2 * i + 1];
    TCC_CHECK(size >= 0, "The input size ", sizes[d],
              ", plus negative padding ", pad[2 * i], " and ", pad[2 * i + 1],
              " resulted in a negative output size, which is invalid. Check "
              "dimension ",
              d, " of your input.");
    out[d] = size;
  }
  return out;
}

Tensor constantPadKernel(const Tensor &self, IntArrayRef pad,
                         const Scalar &value, const DimVector &outSizes) {
  Tensor out = makeEmpty(outSizes, self.dtype());
  if (out.numel() == 0)
    return out;
  out.fill_(value);
  // The part of self that survives, and where it lands in out.
  Tensor src = self, dst = out;
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = self.dim() - 1 - int64_t(i);
    int64_t left = pad[2 * i], right = pad[2 * i + 1];
    int64_t size = self.size(d);
    int64_t srcStart = std::max<int64_t>(0, -left);
    int64_t srcEnd = size - std::max<int64_t>(0, -right);
    int64_t len = std::max<int64_t>(0, srcEnd - srcStart);
    src = src.narrow(d, std::min(srcStart, size), len);
    dst = dst.narrow(d, std::max<int64_t>(0, left), len);
  }
  if (src.numel() > 0)
    copyInto(dst, src);
  return out;
}

/// Source index of output position i in [-left, size + right).
int64_t sourceIndex(int64_t i, int64_t size, const std::string &mode) {
  if (mode == "reflect") {
    if (i < 0)
      return -i;
    return i >= size ? 2 * (size - 1) - i : i;
  }
  if (mode == "replicate")
    return std::min(std::max<int64_t>(i, 0), size - 1);
  return ((i % size) + size) % size; // circular
}

Tensor indexPad(const Tensor &self, IntArrayRef pad, const std::string &mode) {
  Tensor x = self;
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = self.dim() - 1 - int64_t(i);
    int64_t left = pad[2 * i], right = pad[2 * i + 1];
    if (left == 0 && right == 0)
      continue;
    int64_t size = self.size(d);
    std::vector<int64_t> idx;
    for (int64_t k = -left; k < size + right; ++k)
      idx.push_back(sourceIndex(k, size, mode));
    x = x.index_select(d, tensor(idx));
  }
  return x;
}

} // namespace
} // namespace detail

using namespace detail;

Tensor constant_pad_nd(const Tensor &self, IntArrayRef pad,
                       const Scalar &value) {
  checkDefined(self, "constant_pad_nd");
  checkCpu(self, "constant_pad_nd");
  DimVector outSizes = paddedSizes(self.sizes(), pad);
  std::vector<int64_t> padv = pad.vec();
  return recordOp(
      kPad, {self},
      [&] { return constantPadKernel(self, pad, value, outSizes); },
      [&](const Tensor &) -> FunctionNode::Formula {
        std::vector<int64_t> neg;
        for (int64_t p : padv)
          neg.push_back(-p);
        return [neg](FunctionNode &, const variable_list &g) -> variable_list {
          return {constant_pad_nd(g[0], neg, 0)};
        };
      },
      [&] {
        return AttrList{{"pad", padv},
                        {"mode", std::string("constant")},
                        {"value", value.toDouble()}};
      });
}

Tensor pad(const Tensor &self, IntArrayRef pad, std::string_view modeArg,
           std::optional<double> value) {
  std::string mode(modeArg);
  if (mode == "constant")
    return constant_pad_nd(self, pad, value.value_or(0.0));
  TCC_CHECK(mode == "reflect" || mode == "replicate" || mode == "circular",
            "Unrecognised padding mode ", mode,
            " (expected constant, reflect, replicate or circular)");
  TCC_CHECK(!value, "Padding mode \"", mode,
            "\" doesn't take in value argument");
  checkDefined(self, "pad");
  paddedSizes(self.sizes(), pad);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = self.dim() - 1 - int64_t(i);
    int64_t size = self.size(d), left = pad[2 * i], right = pad[2 * i + 1];
    TCC_CHECK(left >= 0 && right >= 0, mode,
              " padding: negative padding is not supported, got pad=", pad);
    TCC_CHECK(size > 0 || (left == 0 && right == 0), mode,
              " padding: cannot pad the empty dimension ", d, " of input ",
              self.sizes());
    bool ok = mode == "reflect"    ? left < size && right < size
              : mode == "circular" ? left <= size && right <= size
                                   : true;
    TCC_CHECK(ok, mode, " padding: padding (", left, ", ", right,
              ") at dimension ", d, " of input ", self.sizes(), " must be ",
              mode == "reflect" ? "less than" : "at most",
              " the dimension's size");
  }
  std::vector<int64_t> padv = pad.vec();
  return recordComposite(
      kPad, {self}, [&] { return indexPad(self, padv, mode); },
      [&] {
        return AttrList{{"pad", padv}, {"mode", mode}, {"value", AttrValue()}};
      });
}

} // namespace tcc
