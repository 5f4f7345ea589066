//===- Indexing.cpp - gather, scatter(_add/_reduce), index_select, masked_fill
//===//
//
// gather and scatter walk the index tensor's positions with strided
// offsets, so no operand needs to be contiguous (expanded indices work).
// Backward formulas pair them: gather's gradient is a scatter_add into
// zeros, scatter_add's gradient for src is a gather, so both differentiate
// to any order. scatter_reduce's gradients are libtorch 1.13's
// (scatter_reduce_backward), written with these same differentiable ops.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "NNUtils.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"
#include "../Core/Parallel.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/Ops/Indexing.h"

#include <cstring>

namespace tcc {
namespace detail {

static const OpDef kGather{
    "gather",
    "gather(Tensor self, int dim, Tensor index, bool sparse_grad=False) -> "
    "Tensor",
    "GatherBackward0"};
static const OpDef kScatter{
    "scatter",
    "scatter(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    "ScatterBackward0"};
static const OpDef kScatterValue{
    "scatter.value",
    "scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor",
    "ScatterBackward1"};
static const OpDef kScatterAdd{
    "scatter_add",
    "scatter_add(Tensor self, int dim, Tensor index, Tensor src) -> Tensor",
    "ScatterAddBackward0"};
static const OpDef kScatterReduce{
    "scatter_reduce.two",
    "scatter_reduce.two(Tensor self, int dim, Tensor index, Tensor src, str "
    "reduce, *, bool include_self=True) -> Tensor",
    "ScatterReduceBackward0"};
static const OpDef kIndexSelect{
    "index_select",
    "index_select(Tensor self, int dim, Tensor index) -> Tensor",
    "IndexSelectBackward0"};
static const OpDef kMaskedFill{
    "masked_fill",
    "masked_fill(Tensor self, Tensor mask, Scalar value) -> Tensor",
    "MaskedFillBackward0"};
static const OpDef kMaskedFillTensor{
    "masked_fill.Tensor",
    "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor",
    "MaskedFillBackward1"};

void registerIndexingOps() {
  for (const OpDef *op :
       {&kGather, &kScatter, &kScatterValue, &kScatterAdd, &kScatterReduce,
        &kIndexSelect, &kMaskedFill, &kMaskedFillTensor})
    registerOp(*op);
}

namespace {

/// Sizes and element strides with a 0-dim tensor seen as [1].
struct Geometry {
  DimVector sizes, strides;
  explicit Geometry(const Tensor &t) : sizes(t.sizes()), strides(t.strides()) {
    if (sizes.empty()) {
      sizes.push_back(1);
      strides.push_back(1);
    }
  }
};

/// Calls f(indexOffset, targetOffset, srcOffset) for every position of the
/// index, where targetOffset leaves out dim `dim` (the caller adds the
/// index value times the target's stride there).
template <class F>
void forEachIndexPosition(const Geometry &index, const Geometry &target,
                          const Geometry *src, int64_t dim, F f) {
  size_t nd = index.sizes.size();
  int64_t total = 1;
  for (int64_t s : index.sizes)
    total *= s;
  if (total == 0)
    return;
  DimVector pos(nd, 0);
  int64_t io = 0, to = 0, so = 0;
  for (int64_t n = 0; n < total; ++n) {
    f(io, to, so);
    for (size_t d = nd; d-- > 0;) {
      bool skip = int64_t(d) == dim;
      if (++pos[d] < index.sizes[d]) {
        io += index.strides[d];
        if (!skip)
          to += target.strides[d];
        if (src)
          so += src->strides[d];
        break;
      }
      pos[d] = 0;
      io -= index.strides[d] * (index.sizes[d] - 1);
      if (!skip)
        to -= target.strides[d] * (index.sizes[d] - 1);
      if (src)
        so -= src->strides[d] * (index.sizes[d] - 1);
    }
  }
}

int64_t checkedIndex(int64_t i, int64_t size, int64_t dim) {
  TCC_CHECK(i >= 0 && i < size, "index ", i, " is out of bounds for dimension ",
            dim, " with size ", size);
  return i;
}

std::string sizesOf(const Geometry &g) { return str(IntArrayRef(g.sizes)); }

void checkGatherArgs(const Tensor &self, int64_t dim, const Tensor &index) {
  checkDefined(self, "gather");
  checkDefined(index, "gather");
  checkCpu(self, "gather");
  checkCpu(index, "gather");
  TCC_CHECK(index.dtype() == kLong,
            "gather(): Expected dtype int64 for index, got ", index.dtype());
  Geometry s(self), i(index);
  TCC_CHECK(s.sizes.size() == i.sizes.size(),
            "Index tensor must have the same number of dimensions as input "
            "tensor");
  for (size_t d = 0; d < s.sizes.size(); ++d)
    TCC_CHECK(int64_t(d) == dim || i.sizes[d] <= s.sizes[d],
              "Size does not match at dimension ", d, " expected index ",
              sizesOf(i), " to be smaller than self ", sizesOf(s),
              " apart from dimension ", dim);
}

void checkScatterArgs(const Tensor &self, int64_t dim, const Tensor &index,
                      const Tensor *src, const char *op) {
  checkDefined(self, op);
  checkDefined(index, op);
  checkCpu(self, op);
  checkCpu(index, op);
  TCC_CHECK(index.dtype() == kLong, op,
            "(): Expected dtype int64 for index, got ", index.dtype());
  Geometry s(self), i(index);
  TCC_CHECK(s.sizes.size() == i.sizes.size(),
            "Index tensor must have the same number of dimensions as self "
            "tensor");
  if (src) {
    checkDefined(*src, op);
    checkCpu(*src, op);
    TCC_CHECK(src->dtype() == self.dtype(), op,
              "(): Expected self.dtype to be equal to src.dtype, got ",
              self.dtype(), " and ", src->dtype());
    Geometry r(*src);
    TCC_CHECK(r.sizes.size() == i.sizes.size(),
              "Index tensor must have the same number of dimensions as src "
              "tensor");
    for (size_t d = 0; d < s.sizes.size(); ++d)
      TCC_CHECK((int64_t(d) == dim || i.sizes[d] <= s.sizes[d]) &&
                    i.sizes[d] <= r.sizes[d],
                "Expected index ", sizesOf(i), " to be smaller than self ",
                sizesOf(s), " apart from dimension ", dim,
                " and to be smaller size than src ", sizesOf(r));
  } else {
    for (size_t d = 0; d < s.sizes.size(); ++d)
      TCC_CHECK(int64_t(d) == dim || i.sizes[d] <= s.sizes[d],
                "Expected index ", sizesOf(i), " to be smaller than self ",
                sizesOf(s), " apart from dimension ", dim);
  }
}

/// Runs body.operator()<U>() with U an unsigned type of the dtype's size,
/// for kernels that only move elements.
template <class Body> void dispatchBySize(ScalarType t, Body &&body) {
  switch (elementSize(t)) {
  case 1:
    return body(uint8_t());
  case 2:
    return body(uint16_t());
  case 4:
    return body(uint32_t());
  default:
    return body(uint64_t());
  }
}

Tensor gatherKernel(const Tensor &self, int64_t dim, const Tensor &index) {
  Tensor out = makeEmpty(index.sizes(), self.dtype());
  Geometry s(self), i(index), o(out);
  int64_t size = s.sizes[size_t(dim)], stride = s.strides[size_t(dim)];
  const int64_t *ip = dataOf<int64_t>(index);
  dispatchBySize(self.dtype(), [&](auto tag) {
    using U = decltype(tag);
    const U *sp = dataOf<U>(self);
    U *op = dataOf<U>(out);
    int64_t n = 0; // out is contiguous: positions come in order
    forEachIndexPosition(
        i, s, nullptr, dim, [&](int64_t io, int64_t so, int64_t) {
          op[n++] = sp[so + checkedIndex(ip[io], size, dim) * stride];
        });
  });
  return out;
}

enum class ScatterMode { Assign, Add };

/// Writes src (or `value`) at the indexed positions of `out`, in place.
void scatterInto(const Tensor &out, int64_t dim, const Tensor &index,
                 const Tensor &src, const Scalar *value, ScatterMode mode) {
  Geometry t(out), i(index);
  std::optional<Geometry> r;
  if (src.defined())
    r.emplace(src);
  int64_t size = t.sizes[size_t(dim)], stride = t.strides[size_t(dim)];
  const int64_t *ip = dataOf<int64_t>(index);
  if (mode == ScatterMode::Assign) {
    dispatchBySize(out.dtype(), [&](auto tag) {
      using U = decltype(tag);
      U *op = dataOf<U>(out);
      U fill{};
      if (value) {
        Tensor v = scalarTensor(*value, out.dtype());
        std::memcpy(&fill, v.unsafeGetTensorImpl()->data(), sizeof(U));
      }
      const U *sp = src.defined() ? dataOf<U>(src) : nullptr;
      forEachIndexPosition(i, t, r ? &*r : nullptr, dim,
                           [&](int64_t io, int64_t to, int64_t so) {
                             int64_t k = checkedIndex(ip[io], size, dim);
                             op[to + k * stride] = sp ? sp[so] : fill;
                           });
    });
    return;
  }
  TCC_DISPATCH_NUMERIC_TYPES(out.dtype(), "scatter_add", [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    T *op = dataOf<T>(out);
    const T *sp = dataOf<T>(src);
    forEachIndexPosition(i, t, &*r, dim,
                         [&](int64_t io, int64_t to, int64_t so) {
                           int64_t k = checkedIndex(ip[io], size, dim);
                           T &dst = op[to + k * stride];
                           dst = T(M(dst) + M(sp[so]));
                         });
  });
}

Tensor scatterKernel(const Tensor &self, int64_t dim, const Tensor &index,
                     const Tensor &src, const Scalar *value, ScatterMode mode) {
  Tensor out = contiguousCopy(self);
  scatterInto(out, dim, index, src, value, mode);
  return out;
}

enum class ScatterReduce { Sum, Prod, Mean, Amax, Amin };

ScatterReduce parseReduce(const std::string &reduce) {
  if (reduce == "sum")
    return ScatterReduce::Sum;
  if (reduce == "prod")
    return ScatterReduce::Prod;
  if (reduce == "mean")
    return ScatterReduce::Mean;
  if (reduce == "amax")
    return ScatterReduce::Amax;
  TCC_CHECK(reduce == "amin",
            "reduce argument must be either sum, prod, mean, amax or amin, "
            "got ",
            reduce);
  return ScatterReduce::Amin;
}

/// max/min that propagate NaN, as scatter_reduce's amax/amin do.
template <class M> M pickMax(M a, M b) {
  if constexpr (std::is_floating_point_v<M>)
    if (a != a || b != b)
      return a != a ? a : b;
  return b > a ? b : a;
}
template <class M> M pickMin(M a, M b) {
  if constexpr (std::is_floating_point_v<M>)
    if (a != a || b != b)
      return a != a ? a : b;
  return b < a ? b : a;
}

/// floor(s / c) for integers (c > 0), as div(rounding_mode="floor").
template <class M> M floorDivide(M s, int64_t c) {
  if constexpr (std::is_floating_point_v<M>)
    return s / M(c);
  else {
    M q = M(s / c);
    return (q * M(c) != s && s < 0) ? M(q - 1) : q;
  }
}

/// self with src reduced into the indexed positions. Without include_self,
/// a position's first update replaces self's value there.
Tensor scatterReduceKernel(const Tensor &self, int64_t dim,
                           const Tensor &index, const Tensor &src,
                           ScatterReduce mode, bool includeSelf) {
  Tensor out = contiguousCopy(self);
  Geometry t(out), i(index), r(src);
  int64_t size = t.sizes[size_t(dim)], stride = t.strides[size_t(dim)];
  const int64_t *ip = dataOf<int64_t>(index);
  // Updates per element of out (contiguous, so offsets are positions).
  std::vector<int64_t> count(size_t(out.numel()), 0);
  TCC_DISPATCH_NUMERIC_TYPES(out.dtype(), "scatter_reduce", [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    T *op = dataOf<T>(out);
    const T *sp = dataOf<T>(src);
    forEachIndexPosition(
        i, t, &r, dim, [&](int64_t io, int64_t to, int64_t so) {
          int64_t at = to + checkedIndex(ip[io], size, dim) * stride;
          M v = M(sp[so]), old = M(op[at]);
          if (!includeSelf && count[size_t(at)] == 0) {
            op[at] = T(v);
          } else {
            switch (mode) {
            case ScatterReduce::Sum:
            case ScatterReduce::Mean:
              op[at] = T(old + v);
              break;
            case ScatterReduce::Prod:
              op[at] = T(old * v);
              break;
            case ScatterReduce::Amax:
              op[at] = T(pickMax(old, v));
              break;
            case ScatterReduce::Amin:
              op[at] = T(pickMin(old, v));
              break;
            }
          }
          ++count[size_t(at)];
        });
    if (mode != ScatterReduce::Mean)
      return;
    for (size_t at = 0; at < count.size(); ++at) {
      int64_t n = count[at] + (includeSelf ? 1 : 0);
      if (count[at] > 0)
        op[at] = T(floorDivide(M(op[at]), n));
    }
  });
  return out;
}

/// libtorch 1.13's scatter_reduce_backward: the gradients for self and src.
std::pair<Tensor, Tensor>
scatterReduceBackward(const Tensor &grad, const Tensor &self, int64_t dim,
                      const Tensor &index, const Tensor &src,
                      const std::string &reduce, bool includeSelf,
                      const Tensor &result) {
  Tensor gradSelf, gradSrc;
  switch (parseReduce(reduce)) {
  case ScatterReduce::Sum:
    gradSelf = grad;
    gradSrc = grad.gather(dim, index);
    break;
  case ScatterReduce::Prod: {
    // Exclusive products, computed apart for zeros of self and src.
    Tensor maskedSelf = self.masked_fill(self == 0, 1);
    Tensor maskedSelfResult =
        maskedSelf.scatter_reduce(dim, index, src, reduce, includeSelf);
    gradSelf = grad * maskedSelfResult / maskedSelf;
    Tensor srcZero = src == 0;
    Tensor srcNumZeros = zeros_like(self)
                             .scatter_add(dim, index, srcZero.to(self.dtype()))
                             .gather(dim, index);
    Tensor srcSingleZero = logical_and(srcZero, srcNumZeros == 1);
    Tensor maskedSrc = src.masked_fill(srcSingleZero, 1);
    Tensor maskedSrcResult =
        self.scatter_reduce(dim, index, maskedSrc, reduce, includeSelf);
    gradSrc = where(srcSingleZero, (grad * maskedSrcResult).gather(dim, index),
                    (grad * result).gather(dim, index) /
                        src.masked_fill(srcZero, 1));
    break;
  }
  case ScatterReduce::Mean: {
    Tensor n = includeSelf ? ones_like(grad) : zeros_like(grad);
    n = n.scatter_add(dim, index, ones_like(src));
    n = n.masked_fill(n == 0, 1);
    gradSelf = grad / n;
    gradSrc = grad.gather(dim, index) / n.gather(dim, index);
    break;
  }
  case ScatterReduce::Amax:
  case ScatterReduce::Amin: {
    // Ties share the gradient evenly.
    Tensor value = result.gather(dim, index);
    Tensor selfIsResult = (self == result).to(self.dtype());
    Tensor srcIsResult = (src == value).to(self.dtype());
    Tensor shares = selfIsResult.scatter_add(dim, index, srcIsResult);
    Tensor distributed = grad / shares;
    gradSelf = selfIsResult * distributed;
    gradSrc = srcIsResult * distributed.gather(dim, index);
    break;
  }
  }
  if (!includeSelf)
    gradSelf = gradSelf.scatter(dim, index, 0);
  return {gradSelf, gradSrc};
}

/// d = wrapDim for gather/scatter, a 0-dim self counting as 1-D.
int64_t indexDim(int64_t dim, const Tensor &self) {
  return wrapDim(dim, std::max<int64_t>(self.dim(), 1));
}

Tensor indexSelectKernel(const Tensor &self, int64_t dim, const Tensor &index) {
  Tensor x = contiguousCopyIfNeeded(self);
  Tensor idx = index.dtype() == kLong ? contiguousCopyIfNeeded(index)
                                      : castTo(index, kLong);
  int64_t n = idx.numel();
  int64_t size = self.dim() == 0 ? 1 : self.size(dim);
  const int64_t *ip = dataOf<int64_t>(idx);
  for (int64_t k = 0; k < n; ++k)
    TCC_CHECK(ip[k] >= 0 && ip[k] < size, "index_select(): index ", ip[k],
              " is out of bounds for dimension ", dim, " with size ", size);
  DimVector outSizes(self.sizes());
  if (self.dim() > 0)
    outSizes[size_t(dim)] = n;
  Tensor out = makeEmpty(outSizes, self.dtype());
  if (out.numel() == 0)
    return out;
  int64_t outer = 1, inner = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= self.size(d);
  for (int64_t d = dim + 1; d < self.dim(); ++d)
    inner *= self.size(d);
  size_t bytes = size_t(inner) * self.element_size();
  const char *src = static_cast<const char *>(x.unsafeGetTensorImpl()->data());
  char *dst = static_cast<char *>(out.unsafeGetTensorImpl()->data());
  parallelFor(0, outer * n, std::max<int64_t>(1, 32768 / int64_t(bytes + 1)),
              [&](int64_t b, int64_t e) {
                for (int64_t r = b; r < e; ++r) {
                  int64_t o = r / n, k = r % n;
                  std::memcpy(dst + size_t(r) * bytes,
                              src + size_t(o * size + ip[k]) * bytes, bytes);
                }
              });
  return out;
}

void checkMask(const Tensor &mask) {
  checkDefined(mask, "masked_fill");
  TCC_CHECK(mask.dtype() == kBool,
            "masked_fill_ only supports boolean masks, but got mask with "
            "dtype ",
            mask.dtype());
}

} // namespace
} // namespace detail

using namespace detail;

Tensor gather(const Tensor &self, int64_t dim, const Tensor &index,
              bool sparse_grad) {
  TCC_CHECK(!sparse_grad, "gather(): sparse gradients are not supported");
  checkDefined(self, "gather");
  int64_t d = indexDim(dim, self);
  checkGatherArgs(self, d, index);
  return recordOp(
      kGather, {self, index}, [&] { return gatherKernel(self, d, index); },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector sizes(self.sizes());
        return [si = SavedVariable(index, false), sizes,
                d](FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor z = zeros(sizes, g[0].options());
          return {z.scatter_add(d, n.unpack(si), g[0]), Tensor()};
        };
      },
      [&] {
        return AttrList{{"dim", d}, {"sparse_grad", sparse_grad}};
      });
}

Tensor scatter(const Tensor &self, int64_t dim, const Tensor &index,
               const Tensor &src) {
  checkDefined(self, "scatter");
  int64_t d = indexDim(dim, self);
  checkScatterArgs(self, d, index, &src, "scatter");
  return recordOp(
      kScatter, {self, index, src},
      [&] {
        return scatterKernel(self, d, index, src, nullptr, ScatterMode::Assign);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [si = SavedVariable(index, false),
                d](FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor idx = n.unpack(si);
          variable_list r(3);
          if (n.needs_input_grad(0))
            r[0] = g[0].scatter(d, idx, 0);
          if (n.needs_input_grad(2))
            r[2] = g[0].gather(d, idx);
          return r;
        };
      },
      [&] {
        return AttrList{{"dim", d}};
      });
}

Tensor scatter(const Tensor &self, int64_t dim, const Tensor &index,
               const Scalar &value) {
  checkDefined(self, "scatter");
  int64_t d = indexDim(dim, self);
  checkScatterArgs(self, d, index, nullptr, "scatter");
  return recordOp(
      kScatterValue, {self, index},
      [&] {
        return scatterKernel(self, d, index, Tensor(), &value,
                             ScatterMode::Assign);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [si = SavedVariable(index, false),
                d](FunctionNode &n, const variable_list &g) -> variable_list {
          return {g[0].scatter(d, n.unpack(si), 0), Tensor()};
        };
      },
      [&] {
        return AttrList{{"dim", d}, {"value", scalarAttr(value)}};
      });
}

Tensor scatter_add(const Tensor &self, int64_t dim, const Tensor &index,
                   const Tensor &src) {
  checkDefined(self, "scatter_add");
  int64_t d = indexDim(dim, self);
  checkScatterArgs(self, d, index, &src, "scatter_add");
  TCC_CHECK(self.dtype() != kBool, "scatter_add(): not implemented for bool "
                                   "tensors");
  return recordOp(
      kScatterAdd, {self, index, src},
      [&] {
        return scatterKernel(self, d, index, src, nullptr, ScatterMode::Add);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [si = SavedVariable(index, false),
                d](FunctionNode &n, const variable_list &g) -> variable_list {
          variable_list r(3);
          if (n.needs_input_grad(0))
            r[0] = g[0];
          if (n.needs_input_grad(2))
            r[2] = g[0].gather(d, n.unpack(si));
          return r;
        };
      },
      [&] {
        return AttrList{{"dim", d}};
      });
}

Tensor scatter_reduce(const Tensor &self, int64_t dim, const Tensor &index,
                      const Tensor &src, const std::string &reduce,
                      bool include_self) {
  checkDefined(self, "scatter_reduce");
  int64_t d = indexDim(dim, self);
  ScatterReduce mode = parseReduce(reduce);
  checkScatterArgs(self, d, index, &src, "scatter_reduce");
  TCC_CHECK(self.dtype() != kBool, "scatter_reduce(): not implemented for "
                                   "bool tensors");
  return recordOp(
      kScatterReduce, {self, index, src},
      [&] {
        return scatterReduceKernel(self, d, index, src, mode, include_self);
      },
      [&](const Tensor &out) -> FunctionNode::Formula {
        return [sx = SavedVariable(self, false),
                si = SavedVariable(index, false),
                ss = SavedVariable(src, false), so = SavedVariable(out, true),
                d, reduce, include_self](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          auto [gradSelf, gradSrc] = scatterReduceBackward(
              g[0], n.unpack(sx), d, n.unpack(si), n.unpack(ss), reduce,
              include_self, n.unpack(so));
          variable_list r(3);
          if (n.needs_input_grad(0))
            r[0] = gradSelf;
          if (n.needs_input_grad(2))
            r[2] = gradSrc;
          return r;
        };
      },
      [&] {
        return AttrList{
            {"dim", d}, {"reduce", reduce}, {"include_self", include_self}};
      });
}

Tensor index_select(const Tensor &self, int64_t dim, const Tensor &index) {
  checkDefined(self, "index_select");
  checkDefined(index, "index_select");
  checkCpu(self, "index_select");
  checkCpu(index, "index_select");
  checkIndexDtype(index, "index_select", true);
  TCC_CHECK(index.dim() <= 1,
            "index_select(): Index is supposed to be a vector, got index of "
            "size ",
            index.sizes());
  int64_t d = indexDim(dim, self);
  TCC_CHECK(self.dim() > 0 || index.numel() == 1,
            "index_select(): Index to scalar can have only 1 value, got ",
            index.numel(), " value(s)");
  return recordOp(
      kIndexSelect, {self, index},
      [&] { return indexSelectKernel(self, d, index); },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector sizes(self.sizes());
        return [si = SavedVariable(index, false), sizes,
                d](FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor z = zeros(sizes, g[0].options());
          if (sizes.empty()) // 0-dim self: the one element's gradient
            return {g[0].sum().view({}), Tensor()};
          // index_add as a scatter_add with the index spread over g's shape.
          DimVector shape(g[0].dim(), 1);
          shape[size_t(d)] = -1;
          Tensor idx = n.unpack(si).to(kLong).view(shape).expand(g[0].sizes());
          return {z.scatter_add(d, idx, g[0]), Tensor()};
        };
      },
      [&] {
        return AttrList{{"dim", d}};
      });
}

Tensor masked_fill(const Tensor &self, const Tensor &mask,
                   const Scalar &value) {
  checkDefined(self, "masked_fill");
  checkMask(mask);
  return recordOp(
      kMaskedFill, {self, mask},
      [&] { return where(mask, scalarTensor(value, self.dtype()), self); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sm = SavedVariable(mask, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          return {g[0].masked_fill(n.unpack(sm), 0), Tensor()};
        };
      },
      [&] {
        return AttrList{{"value", scalarAttr(value)}};
      });
}

Tensor masked_fill(const Tensor &self, const Tensor &mask,
                   const Tensor &value) {
  checkDefined(self, "masked_fill");
  checkMask(mask);
  checkDefined(value, "masked_fill");
  TCC_CHECK(value.dim() == 0,
            "masked_fill_ only supports a 0-dimensional value tensor, but got "
            "tensor with ",
            value.dim(), " dimension(s).");
  return recordOp(
      kMaskedFillTensor, {self, mask, value},
      [&] { return where(mask, castTo(value, self.dtype()), self); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [sm = SavedVariable(mask, false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor m = n.unpack(sm);
          variable_list r(3);
          if (n.needs_input_grad(0))
            r[0] = g[0].masked_fill(m, 0);
          if (n.needs_input_grad(2))
            r[2] = where(m, g[0], 0).sum();
          return r;
        };
      },
      noAttrs);
}

// --- Methods
// ------------------------------------------------------------------

Tensor Tensor::gather(int64_t dim, const Tensor &index,
                      bool sparse_grad) const {
  return tcc::gather(*this, dim, index, sparse_grad);
}
Tensor Tensor::scatter(int64_t dim, const Tensor &index,
                       const Tensor &src) const {
  return tcc::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor &index,
                       const Scalar &value) const {
  return tcc::scatter(*this, dim, index, value);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor &index,
                           const Tensor &src) const {
  return tcc::scatter_add(*this, dim, index, src);
}
Tensor Tensor::scatter_reduce(int64_t dim, const Tensor &index,
                              const Tensor &src, const std::string &reduce,
                              bool include_self) const {
  return tcc::scatter_reduce(*this, dim, index, src, reduce, include_self);
}
Tensor Tensor::index_select(int64_t dim, const Tensor &index) const {
  return tcc::index_select(*this, dim, index);
}
Tensor Tensor::masked_fill(const Tensor &mask, const Scalar &value) const {
  return tcc::masked_fill(*this, mask, value);
}
Tensor Tensor::masked_fill(const Tensor &mask, const Tensor &value) const {
  return tcc::masked_fill(*this, mask, value);
}

// In-place forms: written into self without grad; with grad the
// out-of-place op runs and self takes over its history (Record.h).
const Tensor &Tensor::scatter_(int64_t dim, const Tensor &index,
                               const Tensor &src) const {
  int64_t d = indexDim(dim, *this);
  checkScatterArgs(*this, d, index, &src, "scatter_");
  return recordInplace(
      kScatter, *this, {*this, index, src},
      [&] { scatterInto(*this, d, index, src, nullptr, ScatterMode::Assign); },
      [&](const Tensor &v) { return tcc::scatter(v, d, index, src); },
      [&] {
        return AttrList{{"dim", d}};
      },
      false);
}
const Tensor &Tensor::scatter_(int64_t dim, const Tensor &index,
                               const Scalar &value) const {
  int64_t d = indexDim(dim, *this);
  checkScatterArgs(*this, d, index, nullptr, "scatter_");
  return recordInplace(
      kScatterValue, *this, {*this, index},
      [&] {
        scatterInto(*this, d, index, Tensor(), &value, ScatterMode::Assign);
      },
      [&](const Tensor &v) { return tcc::scatter(v, d, index, value); },
      [&] {
        return AttrList{{"dim", d}, {"value", scalarAttr(value)}};
      },
      false);
}
const Tensor &Tensor::scatter_add_(int64_t dim, const Tensor &index,
                                   const Tensor &src) const {
  int64_t d = indexDim(dim, *this);
  checkScatterArgs(*this, d, index, &src, "scatter_add_");
  return recordInplace(
      kScatterAdd, *this, {*this, index, src},
      [&] { scatterInto(*this, d, index, src, nullptr, ScatterMode::Add); },
      [&](const Tensor &v) { return tcc::scatter_add(v, d, index, src); },
      [&] {
        return AttrList{{"dim", d}};
      },
      false);
}

namespace {
void checkMaskFitsSelf(const Tensor &self, const Tensor &mask) {
  checkMask(mask);
  DimVector shape = broadcastShape(self.sizes(), mask.sizes());
  TCC_CHECK(IntArrayRef(shape).equals(self.sizes()),
            "masked_fill_: mask of "
            "size ",
            mask.sizes(), " cannot be broadcast to self of size ",
            self.sizes());
}
} // namespace

const Tensor &Tensor::masked_fill_(const Tensor &mask,
                                   const Scalar &value) const {
  checkMaskFitsSelf(*this, mask);
  return recordInplace(
      kMaskedFill, *this, {*this, mask},
      [&] { copyInto(*this, tcc::masked_fill(*this, mask, value)); },
      [&](const Tensor &v) { return tcc::masked_fill(v, mask, value); },
      [&] {
        return AttrList{{"value", scalarAttr(value)}};
      },
      false);
}
const Tensor &Tensor::masked_fill_(const Tensor &mask,
                                   const Tensor &value) const {
  checkMaskFitsSelf(*this, mask);
  return recordInplace(
      kMaskedFillTensor, *this, {*this, mask, value},
      [&] { copyInto(*this, tcc::masked_fill(*this, mask, value)); },
      [&](const Tensor &v) { return tcc::masked_fill(v, mask, value); },
      noAttrs, false);
}

} // namespace tcc
