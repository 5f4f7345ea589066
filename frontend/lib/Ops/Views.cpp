//===- Views.cpp - Ops whose result shares the input's storage ------------===//

#include "TensorIterator.h"

#include "../Autograd/Record.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"

#include <algorithm>
#include <numeric>

namespace tcc {
namespace detail {

static const OpDef kView{"view", "view(Tensor self, int[] size) -> Tensor",
                         "ViewBackward0"};
// Not differentiable (libtorch's output_differentiability: [False]): no
// backward node, so the result never requires grad.
static const OpDef kViewDtype{
    "view.dtype", "view.dtype(Tensor self, ScalarType dtype) -> Tensor", ""};
static const OpDef kReshape{"reshape",
                            "reshape(Tensor self, int[] shape) -> Tensor",
                            "ViewBackward0"};
static const OpDef kFlatten{
    "flatten", "flatten(Tensor self, int start_dim=0, int end_dim=-1) -> Tensor",
    "ViewBackward0"};
static const OpDef kUnflatten{
    "unflatten", "unflatten(Tensor self, int dim, int[] sizes) -> Tensor",
    "ViewBackward0"};
static const OpDef kTranspose{
    "transpose", "transpose(Tensor self, int dim0, int dim1) -> Tensor",
    "TransposeBackward0"};
static const OpDef kT{"t", "t(Tensor self) -> Tensor", "TBackward0"};
static const OpDef kPermute{"permute",
                            "permute(Tensor self, int[] dims) -> Tensor",
                            "PermuteBackward0"};
static const OpDef kSqueeze{"squeeze", "squeeze(Tensor self) -> Tensor",
                            "SqueezeBackward0"};
static const OpDef kSqueezeDim{"squeeze.dim",
                               "squeeze.dim(Tensor self, int dim) -> Tensor",
                               "SqueezeBackward1"};
static const OpDef kUnsqueeze{"unsqueeze",
                              "unsqueeze(Tensor self, int dim) -> Tensor",
                              "UnsqueezeBackward0"};
static const OpDef kSelect{"select",
                           "select(Tensor self, int dim, int index) -> Tensor",
                           "SelectBackward0"};
static const OpDef kSlice{"slice",
                          "slice(Tensor self, int dim=0, int? start=None, "
                          "int? end=None, int step=1) -> Tensor",
                          "SliceBackward0"};
static const OpDef kExpand{"expand", "expand(Tensor self, int[] size) -> Tensor",
                           "ExpandBackward0"};
static const OpDef kAsStrided{"as_strided",
                              "as_strided(Tensor self, int[] size, int[] "
                              "stride, int? storage_offset=None) -> Tensor",
                              "AsStridedBackward0"};
static const OpDef kDiagonal{"diagonal",
                             "diagonal(Tensor self, int offset=0, int dim1=0, "
                             "int dim2=1) -> Tensor",
                             "DiagonalBackward0"};

void registerViewOps() {
  for (const OpDef *op :
       {&kView, &kViewDtype, &kReshape, &kFlatten, &kUnflatten, &kTranspose,
        &kT, &kPermute, &kSqueeze, &kSqueezeDim, &kUnsqueeze, &kSelect, &kSlice,
        &kExpand, &kAsStrided, &kDiagonal})
    registerOp(*op);
}

namespace {

std::vector<int64_t> vec(IntArrayRef a) { return a.vec(); }

/// Sizes with one -1 replaced so that the product is `numel`.
DimVector inferSize(IntArrayRef shape, int64_t numel) {
  DimVector out(shape);
  int64_t known = 1;
  int64_t infer = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      TCC_CHECK(infer < 0, "only one dimension can be inferred");
      infer = int64_t(i);
    } else {
      TCC_CHECK(shape[i] >= 0, "invalid shape dimension ", shape[i]);
      known *= shape[i];
    }
  }
  bool ok = infer >= 0 ? (known > 0 && numel % known == 0) ||
                             (known == 0 && numel == 0)
                       : known == numel;
  TCC_CHECK(ok && !(infer >= 0 && known == 0), "shape '", shape,
            "' is invalid for input of size ", numel);
  if (infer >= 0)
    out[size_t(infer)] = numel / known;
  return out;
}

/// Strides that view (oldSizes, oldStrides) as newSizes, if possible
/// (PyTorch's computeStride).
bool computeStride(IntArrayRef oldSizes, IntArrayRef oldStrides,
                   IntArrayRef newSizes, DimVector &newStrides) {
  newStrides = DimVector(newSizes.size(), 0);
  if (oldSizes.empty()) {
    newStrides = contiguousStrides(newSizes);
    return true;
  }
  int64_t numel = 1;
  for (int64_t s : oldSizes)
    numel *= s;
  if (numel == 0) {
    if (oldSizes.equals(newSizes)) {
      newStrides = DimVector(oldStrides);
      return true;
    }
    newStrides = contiguousStrides(newSizes);
    return true;
  }
  int64_t viewD = int64_t(newSizes.size()) - 1;
  int64_t chunkBaseStride = oldStrides.back();
  int64_t tensorNumel = 1, viewNumel = 1;
  for (int64_t td = int64_t(oldSizes.size()) - 1; td >= 0; --td) {
    tensorNumel *= oldSizes[size_t(td)];
    if (td == 0 ||
        (oldSizes[size_t(td - 1)] != 1 &&
         oldStrides[size_t(td - 1)] != tensorNumel * chunkBaseStride)) {
      while (viewD >= 0 &&
             (viewNumel < tensorNumel || newSizes[size_t(viewD)] == 1)) {
        newStrides[size_t(viewD)] = viewNumel * chunkBaseStride;
        viewNumel *= newSizes[size_t(viewD)];
        --viewD;
      }
      if (viewNumel != tensorNumel)
        return false;
      if (td > 0) {
        chunkBaseStride = oldStrides[size_t(td - 1)];
        tensorNumel = 1;
        viewNumel = 1;
      }
    }
  }
  return viewD == -1;
}

FunctionNode::Formula reshapeBack(const Tensor &self) {
  DimVector sizes(self.sizes());
  return [sizes](FunctionNode &, const variable_list &g) -> variable_list {
    return {g[0].reshape(sizes)};
  };
}

/// Gradient of a view `pick(input)`: zeros of the input's shape with the
/// gradient written into the picked elements. Written with an in-place copy
/// into a view, so it is itself differentiable (through CopySlices).
template <class Pick>
Tensor scatterIntoZeros(IntArrayRef sizes, const Tensor &g, Pick pick) {
  Tensor z = zeros(sizes, g.options());
  pick(z).copy_(g);
  return z;
}

Tensor viewKernel(const Tensor &self, IntArrayRef shape) {
  DimVector sizes = inferSize(shape, self.numel());
  DimVector strides;
  TCC_CHECK(computeStride(self.sizes(), self.strides(), sizes, strides),
            "view size is not compatible with input tensor's size and stride "
            "(at least one dimension spans across two contiguous subspaces). "
            "Use .reshape(...) instead.");
  return makeView(self, sizes, strides, self.storage_offset());
}

Tensor reshapeKernel(const Tensor &self, IntArrayRef shape) {
  DimVector sizes = inferSize(shape, self.numel());
  DimVector strides;
  if (computeStride(self.sizes(), self.strides(), sizes, strides))
    return makeView(self, sizes, strides, self.storage_offset());
  Tensor c = contiguousCopy(self);
  TensorImpl *impl = c.unsafeGetTensorImpl();
  impl->setSizesAndStrides(sizes, contiguousStrides(sizes), 0);
  return c;
}

} // namespace
} // namespace detail

using namespace detail;

Tensor Tensor::view(IntArrayRef size) const {
  checkCpu(*this, "view");
  return recordOp(
      kView, {*this}, [&] { return viewKernel(*this, size); },
      [&](const Tensor &) { return reshapeBack(*this); },
      [&] { return AttrList{{"size", vec(size)}}; });
}

Tensor Tensor::view_dtype(ScalarType dtype) const {
  checkCpu(*this, "view");
  if (dtype == this->dtype())
    return *this;
  // libtorch also views between element sizes by resizing the last dim;
  // tcc.bitcast, which a trace records, keeps the shape, so tcc does not.
  TCC_CHECK(elementSize(dtype) == element_size(), "view(", dtype,
            "): tcc only views a tensor as a dtype of its own element size, "
            "and ",
            this->dtype(), " has ", element_size(), " bytes, ", dtype, " ",
            elementSize(dtype));
  return recordOp(
      kViewDtype, {*this},
      [&] {
        TensorImpl *self = unsafeGetTensorImpl();
        auto impl = std::make_shared<TensorImpl>(self->storage, dtype, sizes(),
                                                 strides(), storage_offset());
        impl->base = self->base ? self->base : getIntrusivePtr();
        return Tensor(std::move(impl));
      },
      [](const Tensor &) { return FunctionNode::Formula(); },
      [&] { return AttrList{{"dtype", dtype}}; });
}

Tensor Tensor::reshape(IntArrayRef shape) const {
  checkCpu(*this, "reshape");
  return recordOp(
      kReshape, {*this}, [&] { return reshapeKernel(*this, shape); },
      [&](const Tensor &) { return reshapeBack(*this); },
      [&] { return AttrList{{"shape", vec(shape)}}; });
}

Tensor Tensor::flatten(int64_t start, int64_t end) const {
  int64_t nd = dim();
  int64_t s = wrapDim(start, nd), e = wrapDim(end, nd);
  TCC_CHECK(s <= e, "flatten() has invalid args: start_dim cannot come after "
                    "end_dim");
  return recordOp(
      kFlatten, {*this},
      [&] {
        if (nd == 0)
          return reshapeKernel(*this, {1});
        DimVector shape;
        int64_t n = 1;
        for (int64_t d = 0; d < nd; ++d) {
          if (d < s || d > e)
            shape.push_back(sizes()[size_t(d)]);
          else
            n *= sizes()[size_t(d)];
          if (d == e)
            shape.insert(size_t(s), n);
        }
        return reshapeKernel(*this, shape);
      },
      [&](const Tensor &) { return reshapeBack(*this); },
      [&] {
        return AttrList{{"start_dim", start}, {"end_dim", end}};
      });
}

Tensor Tensor::unflatten(int64_t dim, IntArrayRef sizes) const {
  int64_t d = wrapDim(dim, this->dim());
  TCC_CHECK(!sizes.empty(), "unflatten: sizes must be non-empty");
  return recordOp(
      kUnflatten, {*this},
      [&] {
        DimVector shape(this->sizes());
        shape.erase(size_t(d));
        DimVector inferred = inferSize(sizes, this->sizes()[size_t(d)]);
        for (size_t i = 0; i < inferred.size(); ++i)
          shape.insert(size_t(d) + i, inferred[i]);
        return reshapeKernel(*this, shape);
      },
      [&](const Tensor &) { return reshapeBack(*this); },
      [&] { return AttrList{{"dim", dim}, {"sizes", vec(sizes)}}; });
}

Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const {
  checkCpu(*this, "transpose");
  int64_t nd = dim();
  int64_t a = wrapDim(dim0, nd), b = wrapDim(dim1, nd);
  return recordOp(
      kTranspose, {*this},
      [&] {
        DimVector sz(sizes()), st(strides());
        if (nd > 0) {
          std::swap(sz[size_t(a)], sz[size_t(b)]);
          std::swap(st[size_t(a)], st[size_t(b)]);
        }
        return makeView(*this, sz, st, storage_offset());
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [a, b](FunctionNode &, const variable_list &g) -> variable_list {
          return {g[0].transpose(a, b)};
        };
      },
      [&] { return AttrList{{"dim0", a}, {"dim1", b}}; });
}

Tensor Tensor::t() const {
  TCC_CHECK(dim() <= 2, "t() expects a tensor with <= 2 dimensions, but self "
                        "is ",
            dim(), "D");
  return recordOp(
      kT, {*this},
      [&] { return dim() < 2 ? makeView(*this, sizes(), strides(),
                                        storage_offset())
                             : transpose(0, 1); },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [](FunctionNode &, const variable_list &g) -> variable_list {
          return {g[0].t()};
        };
      },
      noAttrs);
}

Tensor Tensor::permute(IntArrayRef dims) const {
  checkCpu(*this, "permute");
  int64_t nd = dim();
  TCC_CHECK(int64_t(dims.size()) == nd,
            "permute(sparse_coo): number of dimensions in the tensor input "
            "does not match the length of the desired ordering of dimensions "
            "i.e. input.dim() = ",
            nd, " is not equal to len(dims) = ", dims.size());
  DimVector perm(static_cast<size_t>(nd));
  std::vector<bool> seen(size_t(nd), false);
  for (int64_t i = 0; i < nd; ++i) {
    int64_t d = wrapDim(dims[size_t(i)], nd);
    TCC_CHECK(!seen[size_t(d)], "permute(): duplicate dims are not allowed.");
    seen[size_t(d)] = true;
    perm[size_t(i)] = d;
  }
  return recordOp(
      kPermute, {*this},
      [&] {
        DimVector sz(static_cast<size_t>(nd)), st(static_cast<size_t>(nd));
        for (int64_t i = 0; i < nd; ++i) {
          sz[size_t(i)] = sizes()[size_t(perm[size_t(i)])];
          st[size_t(i)] = strides()[size_t(perm[size_t(i)])];
        }
        return makeView(*this, sz, st, storage_offset());
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector inv(static_cast<size_t>(nd));
        for (int64_t i = 0; i < nd; ++i)
          inv[size_t(perm[size_t(i)])] = i;
        return [inv](FunctionNode &, const variable_list &g) -> variable_list {
          return {g[0].permute(inv)};
        };
      },
      [&] { return AttrList{{"dims", perm.vec()}}; });
}

Tensor Tensor::movedim(int64_t source, int64_t destination) const {
  int64_t nd = dim();
  int64_t s = wrapDim(source, nd), d = wrapDim(destination, nd);
  std::vector<int64_t> order;
  for (int64_t i = 0; i < nd; ++i)
    if (i != s)
      order.push_back(i);
  order.insert(order.begin() + d, s);
  return permute(order);
}

Tensor Tensor::squeeze() const {
  return recordOp(
      kSqueeze, {*this},
      [&] {
        DimVector sz, st;
        for (int64_t d = 0; d < dim(); ++d)
          if (sizes()[size_t(d)] != 1) {
            sz.push_back(sizes()[size_t(d)]);
            st.push_back(strides()[size_t(d)]);
          }
        return makeView(*this, sz, st, storage_offset());
      },
      [&](const Tensor &) { return reshapeBack(*this); }, noAttrs);
}

Tensor Tensor::squeeze(int64_t dim) const {
  int64_t d = wrapDim(dim, this->dim());
  return recordOp(
      kSqueezeDim, {*this},
      [&] {
        DimVector sz(sizes()), st(strides());
        if (this->dim() > 0 && sz[size_t(d)] == 1) {
          sz.erase(size_t(d));
          st.erase(size_t(d));
        }
        return makeView(*this, sz, st, storage_offset());
      },
      [&](const Tensor &) { return reshapeBack(*this); },
      [&] { return AttrList{{"dim", d}}; });
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  int64_t d = wrapDim(dim, this->dim() + 1);
  return recordOp(
      kUnsqueeze, {*this},
      [&] {
        DimVector sz(sizes()), st(strides());
        int64_t stride = size_t(d) < sz.size() ? sz[size_t(d)] * st[size_t(d)]
                                               : 1;
        sz.insert(size_t(d), 1);
        st.insert(size_t(d), stride);
        return makeView(*this, sz, st, storage_offset());
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        return [d](FunctionNode &, const variable_list &g) -> variable_list {
          return {g[0].squeeze(d)};
        };
      },
      [&] { return AttrList{{"dim", d}}; });
}

Tensor Tensor::select(int64_t dim, int64_t index) const {
  checkCpu(*this, "select");
  TCC_CHECK(this->dim() > 0, "select() cannot be applied to a 0-dim tensor.");
  int64_t d = wrapDim(dim, this->dim());
  int64_t size = sizes()[size_t(d)];
  TCC_CHECK(index >= -size && index < size, "select(): index ", index,
            " out of range for tensor of size ", sizes(), " at dimension ",
            dim);
  int64_t i = index < 0 ? index + size : index;
  return recordOp(
      kSelect, {*this},
      [&] {
        DimVector sz(sizes()), st(strides());
        int64_t offset = storage_offset() + i * st[size_t(d)];
        sz.erase(size_t(d));
        st.erase(size_t(d));
        return makeView(*this, sz, st, offset);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector in(sizes());
        return [in, d, i](FunctionNode &,
                          const variable_list &g) -> variable_list {
          return {scatterIntoZeros(in, g[0], [&](const Tensor &z) {
            return z.select(d, i);
          })};
        };
      },
      [&] { return AttrList{{"dim", d}, {"index", i}}; });
}

Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start,
                     std::optional<int64_t> end, int64_t step) const {
  checkCpu(*this, "slice");
  TCC_CHECK(this->dim() > 0, "slice() cannot be applied to a 0-dim tensor.");
  TCC_CHECK(step > 0, "slice step must be positive");
  int64_t d = wrapDim(dim, this->dim());
  int64_t size = sizes()[size_t(d)];
  int64_t s = start.value_or(0), e = end.value_or(size);
  if (s < 0)
    s += size;
  if (e < 0)
    e += size;
  s = std::min(std::max<int64_t>(s, 0), size);
  e = std::min(std::max<int64_t>(e, s), size);
  int64_t len = (e - s + step - 1) / step;
  return recordOp(
      kSlice, {*this},
      [&] {
        DimVector sz(sizes()), st(strides());
        int64_t offset = storage_offset() + s * st[size_t(d)];
        sz[size_t(d)] = len;
        st[size_t(d)] *= step;
        return makeView(*this, sz, st, offset);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector in(sizes());
        return [in, d, s, e, step](FunctionNode &,
                                   const variable_list &g) -> variable_list {
          return {scatterIntoZeros(in, g[0], [&](const Tensor &z) {
            return z.slice(d, s, e, step);
          })};
        };
      },
      [&] {
        return AttrList{{"dim", d}, {"start", s}, {"end", e}, {"step", step}};
      });
}

Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  TCC_CHECK(this->dim() > 0, "narrow() cannot be applied to a 0-dim tensor.");
  int64_t d = wrapDim(dim, this->dim());
  int64_t size = sizes()[size_t(d)];
  TCC_CHECK(start >= -size && start <= size, "start out of range (expected to "
                                             "be in range of [",
            -size, ", ", size, "], but got ", start, ")");
  if (start < 0)
    start += size;
  TCC_CHECK(length >= 0 && start + length <= size, "start (", start,
            ") + length (", length, ") exceeds dimension size (", size, ").");
  return slice(d, start, start + length, 1);
}

Tensor Tensor::expand(IntArrayRef size, bool) const {
  checkCpu(*this, "expand");
  int64_t nd = dim();
  TCC_CHECK(int64_t(size.size()) >= nd,
            "expand: the number of sizes provided (", size.size(),
            ") must be greater or equal to the number of dimensions in the "
            "tensor (",
            nd, ")");
  size_t n = size.size();
  DimVector sz(n), st(n);
  for (size_t i = n; i-- > 0;) {
    int64_t off = int64_t(i) - int64_t(n - size_t(nd));
    int64_t want = size[i];
    if (off >= 0) {
      int64_t have = sizes()[size_t(off)];
      if (want == -1)
        want = have;
      TCC_CHECK(have == want || have == 1,
                "The expanded size of the tensor (", want,
                ") must match the existing size (", have,
                ") at non-singleton dimension ", i, ".  Target sizes: ", size,
                ".  Tensor sizes: ", sizes());
      sz[i] = want;
      st[i] = have == want ? strides()[size_t(off)] : 0;
    } else {
      TCC_CHECK(want >= 0, "The expanded size of the tensor (", want,
                ") isn't allowed in a leading, non-existing dimension ", i);
      sz[i] = want;
      st[i] = 0;
    }
  }
  if (IntArrayRef(sz).equals(sizes()))
    return *this;
  return recordOp(
      kExpand, {*this}, [&] { return makeView(*this, sz, st, storage_offset()); },
      [&](const Tensor &) { return passThrough(); },
      [&] { return AttrList{{"size", sz.vec()}}; });
}

Tensor Tensor::as_strided(IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storageOffset) const {
  checkCpu(*this, "as_strided");
  TCC_CHECK(size.size() == stride.size(), "mismatch in length of strides and "
                                          "shape");
  int64_t offset = storageOffset.value_or(storage_offset());
  TCC_CHECK(offset >= 0, "as_strided: negative storage offset ", offset);
  int64_t maxIndex = offset;
  for (size_t i = 0; i < size.size(); ++i) {
    TCC_CHECK(size[i] >= 0 && stride[i] >= 0,
              "as_strided: sizes and strides must be non-negative");
    if (size[i] == 0)
      maxIndex = -1;
    if (maxIndex >= 0)
      maxIndex += (size[i] - 1) * stride[i];
  }
  size_t bytesNeeded = size_t(maxIndex + 1) * element_size();
  TCC_CHECK(maxIndex < 0 || bytesNeeded <= impl().storage->nbytes,
            "setStorage: sizes ", size, ", strides ", stride,
            ", storage offset ", offset, ", and itemsize ", element_size(),
            " requiring a storage size of ", bytesNeeded,
            " are out of bounds for storage of size ", impl().storage->nbytes);
  return recordOp(
      kAsStrided, {*this}, [&] { return makeView(*this, size, stride, offset); },
      [&](const Tensor &) -> FunctionNode::Formula {
        // Gradient: accumulate into the input's storage geometry (assumed
        // contiguous, as inputs of as_strided in practice are).
        DimVector in(sizes()), sz(size), st(stride);
        int64_t base = storage_offset();
        bool contiguous = is_contiguous();
        // The sum is a scatter_add of the gradient into the input's
        // elements, so the formula is itself differentiable (its gradient
        // gathers) and double backward works. Positions outside the input
        // land in one extra slot that is dropped.
        return [in, sz, st, offset, base, contiguous](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          TCC_CHECK(contiguous, "as_strided backward needs a contiguous input");
          int64_t numel = 1;
          for (int64_t s : in)
            numel *= s;
          int64_t count = g[0].numel();
          Tensor slot = empty({count}, kLong);
          int64_t *w = slot.data_ptr<int64_t>();
          DimVector idx(sz.size(), 0);
          for (int64_t k = 0; k < count; ++k) {
            int64_t pos = offset - base;
            for (size_t d = 0; d < sz.size(); ++d)
              pos += idx[d] * st[d];
            w[k] = pos >= 0 && pos < numel ? pos : numel;
            for (size_t d = sz.size(); d-- > 0;) {
              if (++idx[d] < sz[d])
                break;
              idx[d] = 0;
            }
          }
          Tensor acc = zeros({numel + 1}, g[0].options())
                           .scatter_add(0, slot, g[0].reshape({count}));
          return {acc.narrow(0, 0, numel).view(in)};
        };
      },
      [&] {
        return AttrList{
            {"size", vec(size)}, {"stride", vec(stride)}, {"storage_offset", offset}};
      });
}

Tensor Tensor::diagonal(int64_t offset, int64_t dim1, int64_t dim2) const {
  int64_t nd = dim();
  int64_t a = wrapDim(dim1, nd), b = wrapDim(dim2, nd);
  TCC_CHECK(a != b, "diagonal dimensions cannot be identical ", dim1, ", ",
            dim2);
  return recordOp(
      kDiagonal, {*this},
      [&] {
        int64_t len, start = storage_offset();
        if (offset >= 0) {
          len = std::max<int64_t>(
              std::min(sizes()[size_t(a)], sizes()[size_t(b)] - offset), 0);
          start += offset * strides()[size_t(b)];
        } else {
          len = std::max<int64_t>(
              std::min(sizes()[size_t(a)] + offset, sizes()[size_t(b)]), 0);
          start -= offset * strides()[size_t(a)];
        }
        if (len == 0)
          start = storage_offset();
        DimVector sz, st;
        for (int64_t d = 0; d < nd; ++d)
          if (d != a && d != b) {
            sz.push_back(sizes()[size_t(d)]);
            st.push_back(strides()[size_t(d)]);
          }
        sz.push_back(len);
        st.push_back(strides()[size_t(a)] + strides()[size_t(b)]);
        return makeView(*this, sz, st, start);
      },
      [&](const Tensor &) -> FunctionNode::Formula {
        DimVector in(sizes());
        return [in, offset, a, b](FunctionNode &,
                                  const variable_list &g) -> variable_list {
          return {scatterIntoZeros(in, g[0], [&](const Tensor &z) {
            return z.diagonal(offset, a, b);
          })};
        };
      },
      [&] {
        return AttrList{{"offset", offset}, {"dim1", a}, {"dim2", b}};
      });
}

Tensor reshape(const Tensor &s, IntArrayRef shape) { return s.reshape(shape); }
Tensor flatten(const Tensor &s, int64_t a, int64_t b) { return s.flatten(a, b); }
Tensor unflatten(const Tensor &s, int64_t d, IntArrayRef sizes) {
  return s.unflatten(d, sizes);
}
Tensor transpose(const Tensor &s, int64_t a, int64_t b) {
  return s.transpose(a, b);
}
Tensor permute(const Tensor &s, IntArrayRef dims) { return s.permute(dims); }
Tensor movedim(const Tensor &s, int64_t a, int64_t b) { return s.movedim(a, b); }
Tensor t(const Tensor &s) { return s.t(); }
Tensor squeeze(const Tensor &s) { return s.squeeze(); }
Tensor squeeze(const Tensor &s, int64_t d) { return s.squeeze(d); }
Tensor unsqueeze(const Tensor &s, int64_t d) { return s.unsqueeze(d); }
Tensor select(const Tensor &s, int64_t d, int64_t i) { return s.select(d, i); }
Tensor narrow(const Tensor &s, int64_t d, int64_t a, int64_t l) {
  return s.narrow(d, a, l);
}
Tensor slice(const Tensor &s, int64_t d, std::optional<int64_t> a,
             std::optional<int64_t> b, int64_t step) {
  return s.slice(d, a, b, step);
}
Tensor as_strided(const Tensor &s, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> off) {
  return s.as_strided(size, stride, off);
}
Tensor diagonal(const Tensor &s, int64_t o, int64_t a, int64_t b) {
  return s.diagonal(o, a, b);
}
Tensor broadcast_to(const Tensor &s, IntArrayRef size) { return s.expand(size); }
std::vector<int64_t> broadcast_shapes(IntArrayRef a, IntArrayRef b) {
  return broadcastShape(a, b).vec();
}

} // namespace tcc
