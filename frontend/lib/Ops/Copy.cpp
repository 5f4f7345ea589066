//===- Copy.cpp - clone, contiguous, to, copy_, fill_, zero_, detach ------===//

#include "Dispatch.h"
#include "Loops.h"
#include "TensorIterator.h"

#include "../Autograd/Record.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"

#include <cstring>

namespace tcc {
namespace detail {

static const OpDef kClone{"clone", "clone(Tensor self) -> Tensor",
                          "CloneBackward0"};
static const OpDef kContiguous{"contiguous", "contiguous(Tensor self) -> Tensor",
                               "CloneBackward0"};
static const OpDef kTo{"to", "to(Tensor self, ScalarType dtype) -> Tensor",
                       "ToCopyBackward0"};
static const OpDef kCopy{"copy",
                         "copy(Tensor self, Tensor src) -> Tensor  "
                         "(value form of copy_: src broadcast to self's shape "
                         "and converted to self's dtype)",
                         ""};
static const OpDef kFill{"fill",
                         "fill(Tensor self, Scalar value) -> Tensor  (value "
                         "form of fill_ and zero_)",
                         ""};
static const OpDef kDetach{"detach", "detach(Tensor self) -> Tensor", ""};

void registerCopyOps() {
  for (const OpDef *op : {&kClone, &kContiguous, &kTo, &kCopy, &kFill, &kDetach})
    registerOp(*op);
}

FunctionNode::Formula passThrough() {
  return [](FunctionNode &, const variable_list &g) -> variable_list {
    return {g[0]};
  };
}

void fillKernel(const Tensor &self, const Scalar &value) {
  if (self.numel() == 0)
    return;
  IterConfig cfg;
  cfg.name = "fill_";
  cfg.broadcastToOutput = true;
  cfg.computeDtype = self.dtype();
  TensorIterator it(self, {}, cfg);
  TCC_DISPATCH_ALL_TYPES(self.dtype(), "fill_", [&] {
    scalar_t v = value.to<scalar_t>();
    it.forEach([v](char **d, const int64_t *s, int64_t n) {
      if (s[0] == sizeof(scalar_t)) {
        scalar_t *o = reinterpret_cast<scalar_t *>(d[0]);
        for (int64_t i = 0; i < n; ++i)
          o[i] = v;
      } else {
        for (int64_t i = 0; i < n; ++i)
          *reinterpret_cast<scalar_t *>(d[0] + i * s[0]) = v;
      }
    });
  });
}

} // namespace detail

using namespace detail;

Tensor Tensor::clone() const {
  return recordOp(
      kClone, {*this}, [&] { return contiguousCopy(*this); },
      [](const Tensor &) { return passThrough(); }, noAttrs);
}

Tensor Tensor::contiguous() const {
  if (is_contiguous())
    return *this;
  return recordOp(
      kContiguous, {*this}, [&] { return contiguousCopy(*this); },
      [](const Tensor &) { return passThrough(); }, noAttrs);
}

Tensor Tensor::to(ScalarType dtype, bool, bool copy) const {
  if (dtype == this->dtype() && !copy)
    return *this;
  return recordOp(
      kTo, {*this},
      [&] {
        Tensor out = makeEmpty(sizes(), dtype);
        copyInto(out, *this);
        return out;
      },
      [](const Tensor &) { return passThrough(); },
      [&] { return AttrList{{"dtype", dtype}}; });
}

Tensor Tensor::to(Device device, ScalarType dtype, bool nb, bool copy) const {
  checkCpuDevice(device);
  return to(dtype, nb, copy);
}

Tensor Tensor::to(Device device, bool nb, bool copy) const {
  checkCpuDevice(device);
  return copy ? clone() : *this;
}

Tensor Tensor::to(const TensorOptions &options, bool nb, bool copy) const {
  checkCpuDevice(options.device());
  return to(options.has_dtype() ? options.dtype() : dtype(), nb, copy);
}

Tensor Tensor::to(const Tensor &other, bool nb, bool copy) const {
  return to(other.device(), other.dtype(), nb, copy);
}

const Tensor &Tensor::copy_(const Tensor &src, bool) const {
  checkCpu(*this, "copy_");
  checkCpu(src, "copy_");
  return recordInplace(
      kCopy, *this, {*this, src}, [&] { copyInto(*this, src); },
      [&](const Tensor &) {
        return src.to(dtype()).expand(sizes()).contiguous();
      },
      noAttrs, /*savesSelf=*/false);
}

const Tensor &Tensor::fill_(const Scalar &value) const {
  checkCpu(*this, "fill_");
  return recordInplace(
      kFill, *this, {*this}, [&] { fillKernel(*this, value); },
      [&](const Tensor &) { return full(sizes(), value, options()); },
      [&] { return AttrList{{"value", scalarAttr(value)}}; },
      /*savesSelf=*/false);
}

const Tensor &Tensor::fill_(const Tensor &value) const {
  TCC_CHECK(value.dim() == 0,
            "fill_ only supports 0-dimension value tensor but got tensor "
            "with ",
            value.dim(), " dimensions.");
  return copy_(value);
}

const Tensor &Tensor::zero_() const { return fill_(0); }

Tensor Tensor::detach() const {
  return recordNonDifferentiable(
      kDetach, {*this},
      [&] {
        TensorImpl &i = impl();
        auto alias = std::make_shared<TensorImpl>(i.storage, i.dtype, i.sizes,
                                                  i.strides, i.storageOffset);
        return Tensor(std::move(alias));
      },
      noAttrs);
}

Tensor &Tensor::operator=(const Tensor &src) && {
  copy_(src);
  return *this;
}

Tensor &Tensor::operator=(const Scalar &value) && {
  fill_(value);
  return *this;
}

Tensor clone(const Tensor &self) { return self.clone(); }
Tensor detach(const Tensor &self) { return self.detach(); }

} // namespace tcc
