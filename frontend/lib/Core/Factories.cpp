//===- Factories.cpp - Creating tensors -----------------------------------===//

#include "Random.h"
#include "TensorInternals.h"

#include "../Ops/Dispatch.h"
#include "../Ops/TensorIterator.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/OpObserver.h"

#include <cmath>

namespace tcc {

using namespace detail;

Generator &detail::globalGenerator() {
  static Generator *g = new Generator();
  return *g;
}

void manual_seed(uint64_t seed) { globalGenerator().seed(seed); }

// Factories are not reported to the op observer: a tracer sees the tensors
// they make as constants.
namespace {
Tensor finish(Tensor t, const TensorOptions &o) {
  if (o.requires_grad())
    t.requires_grad_(true);
  return t;
}
} // namespace

Tensor empty(IntArrayRef size, const TensorOptions &o) {
  return finish(makeEmpty(size, o.dtype(), o.device()), o);
}

Tensor empty_strided(IntArrayRef size, IntArrayRef stride,
                     const TensorOptions &o) {
  TCC_CHECK(size.size() == stride.size(),
            "empty_strided: sizes and strides must have the same length");
  int64_t maxIndex = 0;
  for (size_t i = 0; i < size.size(); ++i) {
    TCC_CHECK(size[i] >= 0 && stride[i] >= 0,
              "empty_strided: negative size or stride");
    if (size[i] == 0)
      maxIndex = -1;
    if (maxIndex >= 0)
      maxIndex += (size[i] - 1) * stride[i];
  }
  checkCpuDevice(o.device());
  auto storage =
      allocateStorage(size_t(maxIndex + 1) * elementSize(o.dtype()), o.device());
  return finish(Tensor(std::make_shared<TensorImpl>(std::move(storage),
                                                    o.dtype(), size, stride, 0)),
                o);
}

Tensor zeros(IntArrayRef size, const TensorOptions &o) {
  Tensor t = makeEmpty(size, o.dtype(), o.device());
  if (t.nbytes())
    std::memset(t.unsafeGetTensorImpl()->data(), 0, t.nbytes());
  return finish(t, o);
}

Tensor ones(IntArrayRef size, const TensorOptions &o) {
  return full(size, 1, o.merge_dtype(o.dtype()));
}

Tensor full(IntArrayRef size, const Scalar &value, const TensorOptions &o) {
  ScalarType t = o.has_dtype() ? o.dtype()
                 : value.isBoolean()     ? kBool
                 : value.isIntegral(false) ? kLong
                                           : get_default_dtype();
  Tensor out = makeEmpty(size, t, o.device());
  {
    NoGradGuard noGrad;
    RecordPauseGuard pause;
    out.fill_(value);
  }
  return finish(out, o);
}

namespace {
ScalarType rangeDtype(const TensorOptions &o,
                      std::initializer_list<Scalar> values) {
  if (o.has_dtype())
    return o.dtype();
  for (const Scalar &s : values)
    if (s.isFloatingPoint())
      return get_default_dtype();
  return kLong;
}
} // namespace

Tensor arange(const Scalar &end, const TensorOptions &o) {
  return arange(0, end, 1, o);
}
Tensor arange(const Scalar &start, const Scalar &end, const TensorOptions &o) {
  return arange(start, end, 1, o);
}
Tensor arange(const Scalar &start, const Scalar &end, const Scalar &step,
              const TensorOptions &o) {
  ScalarType t = rangeDtype(o, {start, end, step});
  double s = start.toDouble(), e = end.toDouble(), st = step.toDouble();
  TCC_CHECK(st != 0, "step must be nonzero");
  TCC_CHECK(std::isfinite(s) && std::isfinite(e),
            "unsupported range: ", start, " -> ", end);
  TCC_CHECK((st > 0 && e >= s) || (st < 0 && e <= s),
            "upper bound and larger bound inconsistent with step sign");
  int64_t n;
  if (start.isIntegral(true) && end.isIntegral(true) && step.isIntegral(true)) {
    int64_t a = start.toLong(), b = end.toLong(), c = step.toLong();
    n = c > 0 ? (b - a + c - 1) / c : (a - b - c - 1) / -c;
  } else {
    n = int64_t(std::ceil((e - s) / st));
  }
  Tensor out = makeEmpty({n}, t, o.device());
  TCC_DISPATCH_NUMERIC_TYPES(t, "arange", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    bool ints = start.isIntegral(true) && step.isIntegral(true);
    for (int64_t i = 0; i < n; ++i)
      p[i] = ints ? scalar_t(start.toLong() + i * step.toLong())
                  : scalar_t(s + double(i) * st);
  });
  return finish(out, o);
}

Tensor linspace(const Scalar &start, const Scalar &end, int64_t steps,
                const TensorOptions &o) {
  TCC_CHECK(steps >= 0, "number of steps must be non-negative");
  ScalarType t = o.has_dtype() ? o.dtype() : get_default_dtype();
  Tensor out = makeEmpty({steps}, t, o.device());
  double s = start.toDouble(), e = end.toDouble();
  double step = steps > 1 ? (e - s) / double(steps - 1) : 0;
  int64_t half = steps / 2;
  TCC_DISPATCH_NUMERIC_TYPES(t, "linspace", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    // Symmetric from both ends, as PyTorch computes it.
    for (int64_t i = 0; i < steps; ++i)
      p[i] = scalar_t(i < half ? s + step * double(i)
                               : e - step * double(steps - i - 1));
  });
  return finish(out, o);
}

Tensor eye(int64_t n, const TensorOptions &o) { return eye(n, n, o); }
Tensor eye(int64_t n, int64_t m, const TensorOptions &o) {
  TCC_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TCC_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  Tensor out = zeros({n, m}, o.dtype());
  TCC_DISPATCH_ALL_TYPES(out.dtype(), "eye", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    for (int64_t i = 0; i < std::min(n, m); ++i)
      p[i * m + i] = scalar_t(1);
  });
  return finish(out, o);
}

Tensor rand(IntArrayRef size, const TensorOptions &o) {
  Tensor out = makeEmpty(size, o.dtype(), o.device());
  TCC_DISPATCH_FLOATING_TYPES(out.dtype(), "rand", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    Generator &g = globalGenerator();
    auto lock = g.lock();
    for (int64_t i = 0; i < out.numel(); ++i)
      p[i] = std::is_same<scalar_t, double>::value ? scalar_t(g.uniform())
                                                   : scalar_t(g.uniformFloat());
  });
  return finish(out, o);
}

Tensor randn(IntArrayRef size, const TensorOptions &o) {
  Tensor out = makeEmpty(size, o.dtype(), o.device());
  TCC_DISPATCH_FLOATING_TYPES(out.dtype(), "randn", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    Generator &g = globalGenerator();
    auto lock = g.lock();
    int64_t n = out.numel();
    for (int64_t i = 0; i < n; i += 2) {
      double u1 = 1.0 - g.uniform(); // (0, 1]
      double u2 = g.uniform();
      double r = std::sqrt(-2.0 * std::log(u1));
      p[i] = scalar_t(r * std::cos(2 * M_PI * u2));
      if (i + 1 < n)
        p[i + 1] = scalar_t(r * std::sin(2 * M_PI * u2));
    }
  });
  return finish(out, o);
}

Tensor randint(int64_t high, IntArrayRef size, const TensorOptions &o) {
  return randint(0, high, size, o);
}

Tensor randint(int64_t low, int64_t high, IntArrayRef size,
               const TensorOptions &o) {
  TCC_CHECK(low < high, "random_ expects 'from' to be less than 'to', but got "
                        "from=",
            low, " >= to=", high);
  Tensor out = makeEmpty(size, o.dtype(), o.device());
  uint64_t range = uint64_t(high - low);
  TCC_DISPATCH_NUMERIC_TYPES(out.dtype(), "randint", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    Generator &g = globalGenerator();
    auto lock = g.lock();
    for (int64_t i = 0; i < out.numel(); ++i)
      p[i] = scalar_t(double(low + int64_t(g.next() % range)));
  });
  return finish(out, o);
}

Tensor randperm(int64_t n, const TensorOptions &o) {
  TCC_CHECK(n >= 0, "n must be non-negative, got", n);
  std::vector<int64_t> perm(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    perm[size_t(i)] = i;
  {
    Generator &g = globalGenerator();
    auto lock = g.lock();
    for (int64_t i = n - 1; i > 0; --i)
      std::swap(perm[size_t(i)], perm[size_t(g.next() % uint64_t(i + 1))]);
  }
  Tensor out = makeEmpty({n}, kLong, o.device());
  std::copy(perm.begin(), perm.end(),
            static_cast<int64_t *>(out.unsafeGetTensorImpl()->data()));
  return finish(o.dtype() == kLong ? out : castTo(out, o.dtype()), o);
}

namespace {
TensorOptions likeOptions(const Tensor &t, const std::optional<TensorOptions> &o) {
  TensorOptions base = t.options();
  if (!o)
    return base;
  TensorOptions r = o->merge_dtype(t.dtype());
  return r;
}
} // namespace

Tensor empty_like(const Tensor &t, std::optional<TensorOptions> o) {
  return empty(t.sizes(), likeOptions(t, o));
}
Tensor zeros_like(const Tensor &t, std::optional<TensorOptions> o) {
  return zeros(t.sizes(), likeOptions(t, o));
}
Tensor ones_like(const Tensor &t, std::optional<TensorOptions> o) {
  return ones(t.sizes(), likeOptions(t, o));
}
Tensor full_like(const Tensor &t, const Scalar &v,
                 std::optional<TensorOptions> o) {
  return full(t.sizes(), v, likeOptions(t, o));
}
Tensor rand_like(const Tensor &t, std::optional<TensorOptions> o) {
  return rand(t.sizes(), likeOptions(t, o));
}
Tensor randn_like(const Tensor &t, std::optional<TensorOptions> o) {
  return randn(t.sizes(), likeOptions(t, o));
}

// --- from_blob ------------------------------------------------------------------

namespace {
void callDeleter(void *context, void *data, size_t) {
  auto *fn = static_cast<std::function<void(void *)> *>(context);
  (*fn)(data);
  delete fn;
}

Tensor blob(void *data, IntArrayRef sizes, IntArrayRef strides,
            std::function<void(void *)> *deleter, const TensorOptions &o) {
  checkCpuDevice(o.device());
  TCC_CHECK(sizes.size() == strides.size(),
            "from_blob: sizes and strides must have the same length");
  int64_t maxIndex = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    TCC_CHECK(sizes[i] >= 0, "from_blob: negative size ", sizes[i]);
    if (sizes[i] == 0)
      maxIndex = -1;
    if (maxIndex >= 0)
      maxIndex += (sizes[i] - 1) * strides[i];
  }
  size_t nbytes = size_t(maxIndex + 1) * elementSize(o.dtype());
  auto storage = std::make_shared<StorageImpl>(
      data, nbytes, o.device(), deleter ? &callDeleter : nullptr, deleter);
  return finish(Tensor(std::make_shared<TensorImpl>(std::move(storage),
                                                    o.dtype(), sizes, strides,
                                                    0)),
                o);
}
} // namespace

Tensor from_blob(void *data, IntArrayRef sizes, const TensorOptions &o) {
  return blob(data, sizes, contiguousStrides(sizes), nullptr, o);
}
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                 const TensorOptions &o) {
  return blob(data, sizes, strides, nullptr, o);
}
Tensor from_blob(void *data, IntArrayRef sizes,
                 std::function<void(void *)> deleter, const TensorOptions &o) {
  return blob(data, sizes, contiguousStrides(sizes),
              new std::function<void(void *)>(std::move(deleter)), o);
}
Tensor from_blob(void *data, IntArrayRef sizes, IntArrayRef strides,
                 std::function<void(void *)> deleter, const TensorOptions &o) {
  return blob(data, sizes, strides,
              new std::function<void(void *)>(std::move(deleter)), o);
}

// --- tensor({...}) ---------------------------------------------------------------

namespace {
void inferShape(const TensorInit &init, size_t depth, DimVector &shape,
                ScalarType &type, bool &any) {
  if (init.isScalar()) {
    TCC_CHECK(depth == shape.size(),
              "Expected all sub-lists to have the same nesting depth");
    ScalarType t = init.halfType() ? *init.halfType() : init.scalar().type();
    if (t == kDouble)
      t = get_default_dtype();
    type = any ? promoteTypes(type, t) : t;
    any = true;
    return;
  }
  int64_t n = int64_t(init.children().size());
  if (depth == shape.size())
    shape.push_back(n);
  else
    TCC_CHECK(shape[depth] == n, "Expected all sub-lists to have the same "
                                 "size at depth ",
              depth, ": got ", n, " and ", shape[depth]);
  if (init.vectorType()) {
    type = any ? promoteTypes(type, *init.vectorType()) : *init.vectorType();
    any = true;
  }
  for (const TensorInit &c : init.children()) {
    if (init.vectorType()) { // elements of a std::vector keep its type
      TCC_CHECK(depth + 1 == shape.size(), "inconsistent nesting");
      continue;
    }
    inferShape(c, depth + 1, shape, type, any);
  }
}

void flatten(const TensorInit &init, std::vector<Scalar> &out) {
  if (init.isScalar()) {
    out.push_back(init.scalar());
    return;
  }
  for (const TensorInit &c : init.children())
    flatten(c, out);
}
} // namespace

Tensor tensor(const TensorInit &data, const TensorOptions &o) {
  DimVector shape;
  ScalarType type = get_default_dtype();
  bool any = false;
  inferShape(data, 0, shape, type, any);
  std::vector<Scalar> values;
  flatten(data, values);
  ScalarType t = o.has_dtype() ? o.dtype() : type;
  Tensor out = makeEmpty(shape, t, o.device());
  TCC_CHECK(int64_t(values.size()) == out.numel(),
            "tensor(): nested lists have inconsistent sizes");
  TCC_DISPATCH_ALL_TYPES(t, "tensor", [&] {
    scalar_t *p = static_cast<scalar_t *>(out.unsafeGetTensorImpl()->data());
    for (size_t i = 0; i < values.size(); ++i)
      p[i] = values[i].to<scalar_t>();
  });
  return finish(out, o);
}

// --- Random in place -----------------------------------------------------------

const Tensor &Tensor::uniform_(double from, double to) const {
  TCC_CHECK(from <= to, "uniform_ expects to return a [from, to) range, but "
                        "found from=",
            from, " > to=", to);
  Tensor r = rand(sizes(), dtype());
  {
    NoGradGuard noGrad;
    copy_(r * (to - from) + from);
  }
  return *this;
}

const Tensor &Tensor::normal_(double mean, double std) const {
  TCC_CHECK(std >= 0, "normal expects std >= 0.0, but found std ", std);
  Tensor r = randn(sizes(), dtype());
  {
    NoGradGuard noGrad;
    copy_(r * std + mean);
  }
  return *this;
}

} // namespace tcc
