//===- Join.cpp - cat, stack, split, chunk, unbind ------------------------===//
//
// cat copies each input into its slice of the result; its gradient is the
// matching slices of the output gradient. stack is recorded once as a
// composite (cat of unsqueezed inputs). split, chunk and unbind return
// views (narrow / select), which record and differentiate as those views.
//
//===----------------------------------------------------------------------===//

#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"

namespace tcc {
namespace detail {

static const OpDef kCat{"cat", "cat(Tensor[] tensors, int dim=0) -> Tensor",
                        "CatBackward0"};
static const OpDef kStack{
    "stack",
    "stack(Tensor[] tensors, int dim=0) -> Tensor  (composite: cat of "
    "unsqueezed inputs)",
    ""};

void registerJoinOps() {
  for (const OpDef *op : {&kCat, &kStack})
    registerOp(*op);
}

namespace {

/// PyTorch skips 1-D empty tensors in cat (a legacy rule).
bool skippedInCat(const Tensor &t) { return t.dim() == 1 && t.numel() == 0; }

} // namespace
} // namespace detail

using namespace detail;

Tensor cat(TensorList tensors, int64_t dim) {
  TCC_CHECK(!tensors.empty(), "torch.cat(): expected a non-empty list of "
                              "Tensors");
  const Tensor *ref = nullptr;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor &t = tensors[i];
    checkDefined(t, "cat");
    checkCpu(t, "cat");
    TCC_CHECK(t.dim() > 0, "zero-dimensional tensor (at position ", i,
              ") cannot be concatenated");
    if (!ref && !skippedInCat(t))
      ref = &t;
  }
  if (!ref) // every input is 1-D and empty
    ref = &tensors[0];
  int64_t d = wrapDim(dim, ref->dim());
  DimVector outSizes(ref->sizes());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor &t = tensors[i];
    if (skippedInCat(t) && &t != ref)
      continue;
    TCC_CHECK(t.dim() == ref->dim(),
              "Tensors must have same number of dimensions: got ", ref->dim(),
              " and ", t.dim());
    for (int64_t k = 0; k < t.dim(); ++k)
      TCC_CHECK(k == d || t.size(k) == ref->size(k),
                "Sizes of tensors must match except in dimension ", d,
                ". Expected size ", ref->size(k), " but got size ", t.size(k),
                " for tensor number ", i, " in the list.");
    total += t.size(d);
  }
  outSizes[size_t(d)] = total;
  ScalarType dtype = resultType(tensors);
  return recordOp(
      kCat, tensors,
      [&] {
        Tensor out = makeEmpty(outSizes, dtype);
        int64_t offset = 0;
        for (const Tensor &t : tensors) {
          if (skippedInCat(t) && &t != ref)
            continue;
          if (t.numel() > 0)
            copyInto(out.narrow(d, offset, t.size(d)), t);
          offset += t.size(d);
        }
        return out;
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        // Per input: its offset along d and size, or -1 if skipped.
        std::vector<std::pair<int64_t, int64_t>> parts;
        int64_t offset = 0;
        for (const Tensor &t : tensors) {
          if (skippedInCat(t) && &t != ref) {
            parts.push_back({-1, 0});
            continue;
          }
          parts.push_back({offset, t.size(d)});
          offset += t.size(d);
        }
        return [parts, d](FunctionNode &n,
                          const variable_list &g) -> variable_list {
          variable_list r(parts.size());
          for (size_t i = 0; i < parts.size(); ++i)
            if (n.needs_input_grad(i))
              r[i] = parts[i].first < 0
                         ? zeros({0}, g[0].options())
                         : g[0].narrow(d, parts[i].first, parts[i].second);
          return r;
        };
      },
      [&] {
        return AttrList{{"dim", d}};
      });
}

Tensor stack(TensorList tensors, int64_t dim) {
  TCC_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  for (size_t i = 0; i < tensors.size(); ++i) {
    checkDefined(tensors[i], "stack");
    TCC_CHECK(tensors[i].sizes().equals(tensors[0].sizes()),
              "stack expects each tensor to be equal size, but got ",
              tensors[0].sizes(), " at entry 0 and ", tensors[i].sizes(),
              " at entry ", i);
  }
  int64_t d = wrapDim(dim, tensors[0].dim() + 1);
  return recordComposite(
      kStack, tensors,
      [&] {
        std::vector<Tensor> parts;
        parts.reserve(tensors.size());
        for (const Tensor &t : tensors)
          parts.push_back(t.unsqueeze(d));
        return cat(parts, d);
      },
      [&] {
        return AttrList{{"dim", d}};
      });
}

std::vector<Tensor> split(const Tensor &self, int64_t split_size, int64_t dim) {
  checkDefined(self, "split");
  TCC_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  TCC_CHECK(split_size >= 0,
            "split expects split_size be non-negative, but "
            "got split_size=",
            split_size);
  int64_t d = wrapDim(dim, self.dim());
  int64_t size = self.size(d);
  TCC_CHECK(split_size > 0 || size == 0,
            "split_size can only be 0 if dimension size is 0, but got "
            "dimension size of ",
            size);
  int64_t pieces =
      split_size == 0
          ? 1
          : std::max<int64_t>((size + split_size - 1) / split_size, 1);
  std::vector<Tensor> out;
  for (int64_t i = 0; i < pieces; ++i) {
    int64_t start = i * split_size;
    out.push_back(self.narrow(d, start, std::min(split_size, size - start)));
  }
  return out;
}

std::vector<Tensor> split_with_sizes(const Tensor &self,
                                     IntArrayRef split_sizes, int64_t dim) {
  checkDefined(self, "split_with_sizes");
  TCC_CHECK(self.dim() > 0, "split expects at least a 1-dimensional tensor");
  int64_t d = wrapDim(dim, self.dim());
  int64_t sum = 0;
  for (int64_t s : split_sizes) {
    TCC_CHECK(s >= 0,
              "split_with_sizes expects split_sizes have only "
              "non-negative entries, but got split_sizes=",
              split_sizes);
    sum += s;
  }
  TCC_CHECK(sum == self.size(d),
            "split_with_sizes expects split_sizes to sum "
            "exactly to ",
            self.size(d), " (input tensor's size at dimension ", d,
            "), but got split_sizes=", split_sizes);
  std::vector<Tensor> out;
  int64_t start = 0;
  for (int64_t s : split_sizes) {
    out.push_back(self.narrow(d, start, s));
    start += s;
  }
  return out;
}

std::vector<Tensor> split(const Tensor &self, IntArrayRef split_sizes,
                          int64_t dim) {
  return split_with_sizes(self, split_sizes, dim);
}

std::vector<Tensor> chunk(const Tensor &self, int64_t chunks, int64_t dim) {
  checkDefined(self, "chunk");
  TCC_CHECK(self.dim() > 0, "chunk expects at least a 1-dimensional tensor");
  TCC_CHECK(chunks > 0,
            "chunk expects `chunks` to be greater than 0, got: ", chunks);
  int64_t d = wrapDim(dim, self.dim());
  int64_t size = self.size(d);
  if (size == 0) // `chunks` empty pieces, as PyTorch
    return split_with_sizes(self, std::vector<int64_t>(size_t(chunks), 0), d);
  return split(self, (size + chunks - 1) / chunks, d);
}

std::vector<Tensor> unbind(const Tensor &self, int64_t dim) {
  checkDefined(self, "unbind");
  TCC_CHECK(self.dim() > 0, "Dimension specified as 0 but tensor has no "
                            "dimensions");
  int64_t d = wrapDim(dim, self.dim());
  std::vector<Tensor> out;
  for (int64_t i = 0; i < self.size(d); ++i)
    out.push_back(self.select(d, i));
  return out;
}

std::vector<Tensor> Tensor::split(int64_t s, int64_t dim) const {
  return tcc::split(*this, s, dim);
}
std::vector<Tensor> Tensor::split(IntArrayRef s, int64_t dim) const {
  return tcc::split(*this, s, dim);
}
std::vector<Tensor> Tensor::split_with_sizes(IntArrayRef s, int64_t dim) const {
  return tcc::split_with_sizes(*this, s, dim);
}
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  return tcc::chunk(*this, chunks, dim);
}
std::vector<Tensor> Tensor::unbind(int64_t dim) const {
  return tcc::unbind(*this, dim);
}

} // namespace tcc
