//===- TensorIterator.cpp - Elementwise iteration over strided tensors ----===//

#include "TensorIterator.h"
#include "Convert.h"
#include "Dispatch.h"

#include "../Core/Parallel.h"
#include "../Core/TensorInternals.h"

#include <algorithm>
#include <cstring>

namespace tcc {
namespace detail {

namespace {
ScalarType combineCategories(ScalarType higher, ScalarType lower) {
  if (isFloatingType(higher))
    return higher;
  if (higher == kBool || isFloatingType(lower))
    return promoteTypes(higher, lower);
  if (higher != ScalarType::Undefined)
    return higher;
  return lower;
}
} // namespace

ScalarType resultType(TensorList tensors) {
  ScalarType dimResult = ScalarType::Undefined;
  ScalarType zeroResult = ScalarType::Undefined;
  ScalarType wrappedResult = ScalarType::Undefined;
  for (const Tensor &t : tensors) {
    if (!t.defined())
      continue;
    ScalarType cur = t.dtype();
    if (t.unsafeGetTensorImpl()->wrappedNumber) {
      if (isFloatingType(cur))
        cur = get_default_dtype();
      wrappedResult = promoteTypes(wrappedResult, cur);
    } else if (t.dim() == 0) {
      zeroResult = promoteTypes(zeroResult, cur);
    } else {
      dimResult = promoteTypes(dimResult, cur);
    }
  }
  return combineCategories(dimResult,
                           combineCategories(zeroResult, wrappedResult));
}

DimVector broadcastShape(IntArrayRef a, IntArrayRef b) {
  size_t n = std::max(a.size(), b.size());
  DimVector out(n);
  for (size_t i = 0; i < n; ++i) {
    int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    TCC_CHECK(da == db || da == 1 || db == 1, "The size of tensor a (", da,
              ") must match the size of tensor b (", db,
              ") at non-singleton dimension ", i,
              " (shapes ", a, " and ", b, ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

namespace {
bool sameGeometry(const Tensor &a, const Tensor &b) {
  return a.sizes().equals(b.sizes()) && a.strides().equals(b.strides()) &&
         a.storage_offset() == b.storage_offset();
}
bool sharesStorage(const Tensor &a, const Tensor &b) {
  return a.unsafeGetTensorImpl()->storage == b.unsafeGetTensorImpl()->storage;
}
} // namespace

TensorIterator::TensorIterator(const Tensor &out, TensorList inputs,
                               const IterConfig &cfg) {
  DimVector shape;
  for (const Tensor &t : inputs) {
    checkCpu(t, cfg.name);
    shape = broadcastShape(shape, t.sizes());
  }
  if (cfg.broadcastToOutput && out.defined())
    shape = broadcastShape(out.sizes(), shape);
  computeDtype_ = cfg.computeDtype ? *cfg.computeDtype : resultType(inputs);
  if (cfg.intToFloat && !isFloatingType(computeDtype_))
    computeDtype_ = get_default_dtype();
  ScalarType outDtype = cfg.outputDtype ? *cfg.outputDtype : computeDtype_;

  if (out.defined()) {
    checkCpu(out, cfg.name);
    if (!out.sizes().equals(shape)) {
      TCC_CHECK(out.numel() == 0, "output with shape ", out.sizes(),
                " doesn't match the broadcast shape ", IntArrayRef(shape));
      TensorImpl *impl = out.unsafeGetTensorImpl();
      Tensor fresh = makeEmpty(shape, out.dtype());
      impl->storage = fresh.unsafeGetTensorImpl()->storage;
      impl->setSizesAndStrides(shape, contiguousStrides(shape), 0);
    }
    bool overlaps = false;
    for (const Tensor &t : inputs)
      overlaps = overlaps || (sharesStorage(t, out) && !sameGeometry(t, out));
    if (out.dtype() != outDtype || overlaps) {
      TCC_CHECK(canCast(outDtype, out.dtype()), "result type ", outDtype,
                " can't be cast to the desired output type ", out.dtype());
      out_ = makeEmpty(shape, outDtype);
      userOut_ = out;
    } else {
      out_ = out;
    }
  } else {
    out_ = makeEmpty(shape, outDtype);
  }

  TCC_CHECK(inputs.size() + 1 <= size_t(kMaxOperands), cfg.name,
            ": too many operands for TensorIterator");
  nops_ = int(inputs.size()) + 1;
  operands_[0] = out_;
  for (size_t i = 0; i < inputs.size(); ++i) {
    const Tensor &t = inputs[i];
    operands_[i + 1] = t.dtype() == computeDtype_ || !cfg.castInputs
                           ? t
                           : castTo(t, computeDtype_);
  }
  numel_ = out_.numel();
  // Fast path: every operand is contiguous with the full shape, or a single
  // broadcast element. Then the iteration space is one flat dimension.
  bool flat = out_.is_contiguous();
  for (int k = 1; k < nops_ && flat; ++k) {
    const Tensor &t = operands_[size_t(k)];
    flat = t.numel() == 1 ||
           (t.is_contiguous() && t.sizes().equals(IntArrayRef(shape)));
  }
  if (flat) {
    shape_ = numel_ == 1 ? DimVector() : DimVector{numel_};
    for (int k = 0; k < nops_; ++k) {
      const Tensor &t = operands_[size_t(k)];
      int64_t es = int64_t(t.element_size());
      strides_[size_t(k)] = numel_ == 1 ? DimVector()
                                        : DimVector{t.numel() == 1 && numel_ > 1
                                                        ? 0
                                                        : es};
    }
    return;
  }
  shape_ = shape;
  size_t nd = shape_.size();
  for (size_t k = 0; k < size_t(nops_); ++k) {
    const Tensor &t = operands_[k];
    DimVector s(nd, 0);
    size_t off = nd - size_t(t.dim());
    int64_t es = int64_t(t.element_size());
    for (size_t d = 0; d < size_t(t.dim()); ++d)
      s[off + d] = t.sizes()[d] == 1 ? 0 : t.strides()[d] * es;
    strides_[k] = std::move(s);
  }
  coalesce();
}

void TensorIterator::coalesce() {
  // Drop size-1 dims, then merge neighbours that are contiguous with each
  // other in every operand.
  size_t nops = size_t(nops_);
  DimVector shape;
  std::array<DimVector, kMaxOperands> strides;
  for (size_t d = 0; d < shape_.size(); ++d) {
    if (shape_[d] == 1)
      continue;
    shape.push_back(shape_[d]);
    for (size_t k = 0; k < nops; ++k)
      strides[k].push_back(strides_[k][d]);
  }
  DimVector outShape;
  std::array<DimVector, kMaxOperands> outStrides;
  for (size_t i = shape.size(); i-- > 0;) {
    if (!outShape.empty()) {
      bool merge = true;
      for (size_t k = 0; k < nops && merge; ++k)
        merge = strides[k][i] == outStrides[k].back() * outShape.back();
      if (merge) {
        outShape.back() *= shape[i];
        continue;
      }
    }
    outShape.push_back(shape[i]);
    for (size_t k = 0; k < nops; ++k)
      outStrides[k].push_back(strides[k][i]);
  }
  // Back to outermost-first order.
  std::reverse(outShape.begin(), outShape.end());
  for (size_t k = 0; k < nops; ++k)
    std::reverse(outStrides[k].begin(), outStrides[k].end());
  shape_ = std::move(outShape);
  for (size_t k = 0; k < nops; ++k)
    strides_[k] = std::move(outStrides[k]);
}

void TensorIterator::runRange(void *ctx, Loop loop, int64_t begin,
                              int64_t end) {
  size_t nt = size_t(nops_);
  size_t nd = shape_.size();
  char *base[kMaxOperands];
  int64_t inner[kMaxOperands];
  for (size_t k = 0; k < nt; ++k) {
    base[k] = static_cast<char *>(operands_[k].unsafeGetTensorImpl()->data());
    inner[k] = strides_[k][nd - 1];
  }
  int64_t n = shape_[nd - 1];
  if (nd == 1) { // begin/end index elements
    char *data[kMaxOperands];
    for (size_t k = 0; k < nt; ++k)
      data[k] = base[k] + begin * inner[k];
    loop(ctx, data, inner, end - begin);
    return;
  }
  // begin/end index rows of the outer dims.
  DimVector idx(nd - 1, 0);
  int64_t r = begin;
  for (size_t d = nd - 1; d-- > 0;) {
    idx[d] = r % shape_[d];
    r /= shape_[d];
  }
  char *data[kMaxOperands];
  for (int64_t row = begin; row < end; ++row) {
    for (size_t k = 0; k < nt; ++k) {
      char *p = base[k];
      for (size_t d = 0; d + 1 < nd; ++d)
        p += idx[d] * strides_[k][d];
      data[k] = p;
    }
    loop(ctx, data, inner, n);
    for (size_t d = nd - 1; d-- > 0;) {
      if (++idx[d] < shape_[d])
        break;
      idx[d] = 0;
    }
  }
}

void TensorIterator::run(void *ctx, Loop loop, int64_t grain) {
  if (numel_ > 0) {
    if (shape_.empty()) {
      char *data[kMaxOperands];
      int64_t strides[kMaxOperands] = {0};
      for (size_t k = 0; k < size_t(nops_); ++k)
        data[k] =
            static_cast<char *>(operands_[k].unsafeGetTensorImpl()->data());
      loop(ctx, data, strides, 1);
    } else if (shape_.size() == 1) {
      parallelFor(0, shape_[0], grain, [&](int64_t b, int64_t e) {
        runRange(ctx, loop, b, e);
      });
    } else {
      int64_t rows = numel_ / shape_.back();
      int64_t rowGrain = std::max<int64_t>(1, grain / shape_.back());
      parallelFor(0, rows, rowGrain, [&](int64_t b, int64_t e) {
        runRange(ctx, loop, b, e);
      });
    }
  }
  finish();
}

void TensorIterator::finish() {
  if (userOut_.defined()) {
    copyInto(userOut_, out_);
    out_ = userOut_;
    userOut_ = Tensor();
  }
}

// --- Copy with conversion ---------------------------------------------------

namespace {
struct CopyConfig {};

template <class To, class From>
void copyLoop(char **data, const int64_t *strides, int64_t n) {
  char *o = data[0];
  const char *i = data[1];
  if (strides[0] == sizeof(To) && strides[1] == sizeof(From)) {
    To *op = reinterpret_cast<To *>(o);
    const From *ip = reinterpret_cast<const From *>(i);
    for (int64_t k = 0; k < n; ++k)
      op[k] = convert<To>(ip[k]);
    return;
  }
  for (int64_t k = 0; k < n; ++k)
    *reinterpret_cast<To *>(o + k * strides[0]) =
        convert<To>(*reinterpret_cast<const From *>(i + k * strides[1]));
}
} // namespace

void copyInto(const Tensor &dst, const Tensor &src) {
  checkCpu(dst, "copy_");
  checkCpu(src, "copy_");
  // src must broadcast to dst's shape exactly.
  DimVector b = broadcastShape(dst.sizes(), src.sizes());
  TCC_CHECK(IntArrayRef(b).equals(dst.sizes()), "copy_: the source of shape ",
            src.sizes(), " can't be broadcast to the destination's shape ",
            dst.sizes());
  if (dst.numel() == 0)
    return;
  if (dst.dtype() == src.dtype() && dst.is_contiguous() &&
      src.is_contiguous() && dst.sizes().equals(src.sizes())) {
    if (dst.unsafeGetTensorImpl()->data() != src.unsafeGetTensorImpl()->data())
      std::memmove(dst.unsafeGetTensorImpl()->data(),
                   src.unsafeGetTensorImpl()->data(), dst.nbytes());
    return;
  }
  Tensor source = src;
  if (sharesStorage(dst, src) && !sameGeometry(dst, src))
    source = contiguousCopy(src);
  IterConfig cfg;
  cfg.name = "copy_";
  cfg.broadcastToOutput = true;
  cfg.computeDtype = source.dtype();
  cfg.outputDtype = dst.dtype();
  TensorIterator it(dst, {source}, cfg);
  TCC_DISPATCH_ALL_TYPES(dst.dtype(), "copy_", [&] {
    using To = scalar_t;
    TCC_DISPATCH_ALL_TYPES(source.dtype(), "copy_", [&] {
      it.forEach([](char **data, const int64_t *strides, int64_t n) {
        copyLoop<To, scalar_t>(data, strides, n);
      });
    });
  });
}

Tensor castTo(const Tensor &t, ScalarType dtype) {
  if (t.dtype() == dtype)
    return t;
  Tensor out = makeEmpty(t.sizes(), dtype);
  copyInto(out, t);
  out.unsafeGetTensorImpl()->wrappedNumber =
      t.unsafeGetTensorImpl()->wrappedNumber;
  return out;
}

Tensor contiguousCopy(const Tensor &t) {
  Tensor out = makeEmpty(t.sizes(), t.dtype());
  if (t.numel() == 0)
    return out;
  if (t.is_contiguous()) {
    std::memcpy(out.unsafeGetTensorImpl()->data(),
                t.unsafeGetTensorImpl()->data(), t.nbytes());
    return out;
  }
  IterConfig cfg;
  cfg.name = "contiguous";
  TensorIterator it(out, {t}, cfg);
  TCC_DISPATCH_ALL_TYPES(t.dtype(), "contiguous", [&] {
    it.forEach([](char **data, const int64_t *strides, int64_t n) {
      copyLoop<scalar_t, scalar_t>(data, strides, n);
    });
  });
  return out;
}

} // namespace detail
} // namespace tcc
