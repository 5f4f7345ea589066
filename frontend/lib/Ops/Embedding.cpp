//===- Embedding.cpp - embedding, one_hot ---------------------------------===//
//
// embedding copies rows of the table; its weight gradient sums the output
// gradient rows into the rows they came from (a scatter_add, so it
// differentiates again), without the padding row.
//
//===----------------------------------------------------------------------===//

#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"
#include "tcc/Frontend/Ops/NN.h"

namespace tcc {
namespace detail {

static const OpDef kEmbedding{
    "embedding",
    "embedding(Tensor weight, Tensor indices, int padding_idx=-1, bool "
    "scale_grad_by_freq=False, bool sparse=False) -> Tensor",
    "EmbeddingBackward0"};
static const OpDef kOneHot{
    "one_hot", "one_hot(Tensor self, int num_classes=-1) -> Tensor", ""};

void registerEmbeddingOps() {
  for (const OpDef *op : {&kEmbedding, &kOneHot})
    registerOp(*op);
}

namespace {

/// The gradient of the table [rows, dim] from the output gradient.
Tensor embeddingGrad(const Tensor &grad, const Tensor &indices, int64_t rows,
                     int64_t paddingIdx, bool scaleByFreq) {
  int64_t dim = grad.size(-1);
  Tensor idx = indices.reshape({-1}).to(kLong);
  Tensor g = grad.reshape({-1, dim});
  if (paddingIdx >= 0)
    g = g.masked_fill((idx == paddingIdx).unsqueeze(1), 0);
  if (scaleByFreq) {
    Tensor counts = zeros({rows}, g.options())
                        .scatter_add(0, idx, ones({idx.numel()}, g.options()));
    g = g / counts.index_select(0, idx).unsqueeze(1);
  }
  Tensor z = zeros({rows, dim}, g.options());
  return z.scatter_add(0, idx.unsqueeze(1).expand({-1, dim}), g);
}

} // namespace
} // namespace detail

using namespace detail;

Tensor embedding(const Tensor &weight, const Tensor &indices,
                 int64_t padding_idx, bool scale_grad_by_freq, bool sparse) {
  checkDefined(weight, "embedding");
  checkDefined(indices, "embedding");
  checkCpu(weight, "embedding");
  checkCpu(indices, "embedding");
  TCC_CHECK(weight.dim() == 2, "'weight' must be 2-D, got weight of size ",
            weight.sizes());
  TCC_CHECK(indices.dtype() == kLong || indices.dtype() == kInt,
            "embedding(): expected indices of dtype Long or Int, but got ",
            indices.dtype());
  TCC_CHECK(!sparse, "embedding(): sparse gradients are not supported");
  int64_t rows = weight.size(0);
  TCC_CHECK(padding_idx == -1 || (padding_idx >= 0 && padding_idx < rows),
            "embedding(): padding_idx must be -1 (none) or within [0, ", rows,
            "), got ", padding_idx);
  return recordOp(
      kEmbedding, {weight, indices},
      [&] {
        DimVector outSizes(indices.sizes());
        outSizes.push_back(weight.size(1));
        Tensor flat =
            contiguousCopyIfNeeded(castTo(indices.reshape({-1}), kLong));
        const int64_t *ip = dataOf<int64_t>(flat);
        for (int64_t i = 0; i < flat.numel(); ++i)
          TCC_CHECK(ip[i] >= 0 && ip[i] < rows, "embedding(): index ", ip[i],
                    " is out of range for a table of ", rows, " rows");
        return weight.index_select(0, flat).view(outSizes);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [si = SavedVariable(indices, false), rows, padding_idx,
                scale_grad_by_freq](FunctionNode &n,
                                    const variable_list &g) -> variable_list {
          return {embeddingGrad(g[0], n.unpack(si), rows, padding_idx,
                                scale_grad_by_freq),
                  Tensor()};
        };
      },
      [&] {
        return AttrList{{"padding_idx", padding_idx},
                        {"scale_grad_by_freq", scale_grad_by_freq},
                        {"sparse", sparse}};
      });
}

Tensor one_hot(const Tensor &self, int64_t num_classes) {
  checkDefined(self, "one_hot");
  checkCpu(self, "one_hot");
  TCC_CHECK(self.dtype() == kLong,
            "one_hot is only applicable to index tensor of dtype Long, got ",
            self.dtype());
  TCC_CHECK(num_classes >= -1,
            "one_hot: num_classes should be -1 or "
            "non-negative, got ",
            num_classes);
  int64_t classes = num_classes;
  if (self.numel() == 0) {
    TCC_CHECK(num_classes != -1, "Can not infer total number of classes from "
                                 "empty tensor.");
  } else {
    // Without num_classes the result's shape depends on the data: tell the
    // tracer (a check alone is no dependence).
    if (num_classes == -1)
      notifyDataRead(self, "one_hot without num_classes");
    int64_t lo, hi;
    {
      BelowAutograd below;
      lo = self.min().item<int64_t>();
      hi = self.max().item<int64_t>();
    }
    TCC_CHECK(lo >= 0, "Class values must be non-negative.");
    if (classes == -1)
      classes = hi + 1;
    TCC_CHECK(hi < classes, "Class values must be smaller than num_classes.");
  }
  return recordNonDifferentiable(
      kOneHot, {self},
      [&] {
        DimVector sizes(self.sizes());
        sizes.push_back(classes);
        Tensor out = zeros(sizes, kLong);
        if (self.numel() == 0)
          return out;
        return out.scatter_(-1, self.unsqueeze(-1), 1);
      },
      [&] {
        return AttrList{{"num_classes", classes}};
      });
}

} // namespace tcc
