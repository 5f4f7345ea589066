//===- Reduction.cpp - sum, mean, prod, max, min, var, norm, softmax, ... -===//
//
// Each op: its OpDef, its kernel (on the [outer, R, inner] plan of Reduce.h)
// and its backward formula.
//
//===----------------------------------------------------------------------===//

#include "Dispatch.h"
#include "Reduce.h"
#include "TensorIterator.h"
#include "VecMath.h"

#include "../Autograd/Record.h"
#include "../Core/Parallel.h"
#include "../Core/TensorInternals.h"

#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"

#include <cmath>
#include <limits>

namespace tcc {
namespace detail {

static const OpDef kSum{"sum", "sum(Tensor self, ScalarType? dtype=None) -> Tensor",
                        "SumBackward0"};
static const OpDef kSumDim{"sum.dim",
                           "sum.dim(Tensor self, int[] dim, bool keepdim=False, "
                           "ScalarType? dtype=None) -> Tensor",
                           "SumBackward1"};
static const OpDef kMean{"mean",
                         "mean(Tensor self, ScalarType? dtype=None) -> Tensor",
                         "MeanBackward0"};
static const OpDef kMeanDim{"mean.dim",
                            "mean.dim(Tensor self, int[] dim, bool "
                            "keepdim=False, ScalarType? dtype=None) -> Tensor",
                            "MeanBackward1"};
static const OpDef kProd{"prod",
                         "prod(Tensor self, int? dim=None, bool keepdim=False, "
                         "ScalarType? dtype=None) -> Tensor",
                         "ProdBackward1"};
static const OpDef kMaxAll{"max", "max(Tensor self) -> Tensor", "MaxBackward1"};
static const OpDef kMinAll{"min", "min(Tensor self) -> Tensor", "MinBackward1"};
static const OpDef kMaxDim{
    "max.dim",
    "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, "
    "Tensor indices)",
    "MaxBackward0"};
static const OpDef kMinDim{
    "min.dim",
    "min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, "
    "Tensor indices)",
    "MinBackward0"};
static const OpDef kAmax{
    "amax", "amax(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor",
    "AmaxBackward0"};
static const OpDef kAmin{
    "amin", "amin(Tensor self, int[] dim=[], bool keepdim=False) -> Tensor",
    "AminBackward0"};
static const OpDef kArgmax{
    "argmax", "argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
    ""};
static const OpDef kArgmin{
    "argmin", "argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
    ""};
static const OpDef kVar{"var",
                        "var(Tensor self, int[]? dim=None, int correction=1, "
                        "bool keepdim=False) -> Tensor",
                        "VarBackward0"};
static const OpDef kStd{"std",
                        "std(Tensor self, int[]? dim=None, int correction=1, "
                        "bool keepdim=False) -> Tensor",
                        "StdBackward0"};
static const OpDef kNorm{"norm",
                         "norm(Tensor self, Scalar p=2, int[]? dim=None, bool "
                         "keepdim=False) -> Tensor",
                         "NormBackward1"};
static const OpDef kAll{
    "all", "all(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", ""};
static const OpDef kAny{
    "any", "any(Tensor self, int? dim=None, bool keepdim=False) -> Tensor", ""};
static const OpDef kLogsumexp{
    "logsumexp", "logsumexp(Tensor self, int[] dim, bool keepdim=False) -> Tensor",
    "LogsumexpBackward0"};
static const OpDef kSoftmax{
    "softmax", "softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
    "SoftmaxBackward0"};
static const OpDef kLogSoftmax{
    "log_softmax",
    "log_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
    "LogSoftmaxBackward0"};

void registerReductionOps() {
  for (const OpDef *op :
       {&kSum, &kSumDim, &kMean, &kMeanDim, &kProd, &kMaxAll, &kMinAll, &kMaxDim, &kMinDim, &kAmax,
        &kAmin, &kArgmax, &kArgmin, &kVar, &kStd, &kNorm, &kAll, &kAny,
        &kLogsumexp, &kSoftmax, &kLogSoftmax})
    registerOp(*op);
}

namespace {

template <class T> using acc_t = std::conditional_t<
    std::is_floating_point<opmath_t<T>>::value, double,
    std::conditional_t<std::is_same<T, bool>::value, int64_t, int64_t>>;

/// Runs red(in_row_begin, stride, count) -> Out for every output.
template <class T, class Out, class F>
void reduceEach(const ReducePlan &p, Out *out, F red) {
  const T *in = static_cast<const T *>(p.input.unsafeGetTensorImpl()->data());
  int64_t outer = p.outer, R = p.reduced, inner = p.inner;
  int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(R, 1));
  parallelFor(0, outer * inner, grain, [&](int64_t b, int64_t e) {
    for (int64_t idx = b; idx < e; ++idx) {
      int64_t o = idx / inner, k = idx % inner;
      out[idx] = red(in + o * R * inner + k, inner, R);
    }
  });
}

/// Sum of a contiguous float row: 16 double partial sums (vectorized; the
/// loop is memory-bound, so double accumulators cost nothing and keep the
/// rounding error near that of a double sum).
template <class T> double sumContiguous(const T *x, int64_t n) {
  double s[16] = {};
  int64_t i = 0;
  for (; i + 16 <= n; i += 16)
    for (int j = 0; j < 16; ++j)
      s[j] += double(opmath_t<T>(x[i + j]));
  for (; i < n; ++i)
    s[0] += double(opmath_t<T>(x[i]));
  double total = 0;
  for (int j = 0; j < 16; ++j)
    total += s[j];
  return total;
}

/// out (of dtype outType) = sum over the plan's R axis, computed in acc.
Tensor sumKernel(const Tensor &self, IntArrayRef dims, bool keepdim,
                 std::optional<ScalarType> dtype, bool mean) {
  ScalarType outType = dtype ? *dtype
                             : (isIntegralType(self.dtype(), true)
                                    ? kLong
                                    : self.dtype());
  Tensor src = dtype && *dtype != self.dtype() ? castTo(self, *dtype) : self;
  ReducePlan p = planReduction(src, dims, keepdim);
  Tensor out = makeEmpty(p.outSizes, outType);
  TCC_DISPATCH_ALL_TYPES(src.dtype(), "sum", [&] {
    using T = scalar_t;
    TCC_DISPATCH_ALL_TYPES(outType, "sum", [&] {
      using O = scalar_t;
      O *o = static_cast<O *>(out.unsafeGetTensorImpl()->data());
      double scale = mean ? 1.0 / double(p.reduced) : 1.0;
      if (p.inner == 1 && std::is_floating_point<opmath_t<T>>::value) {
        const T *in = static_cast<const T *>(p.input.unsafeGetTensorImpl()->data());
        parallelFor(0, p.outer, std::max<int64_t>(1, 32768 / std::max<int64_t>(p.reduced, 1)),
                    [&](int64_t b, int64_t e) {
                      for (int64_t i = b; i < e; ++i)
                        o[i] = O(sumContiguous(in + i * p.reduced, p.reduced) *
                                 scale);
                    });
        return;
      }
      if (p.inner > 1) { // accumulate rows, vectorized over inner
        const T *in = static_cast<const T *>(p.input.unsafeGetTensorImpl()->data());
        parallelFor(0, p.outer, 1, [&](int64_t b, int64_t e) {
          std::vector<acc_t<T>> acc(size_t(p.inner));
          for (int64_t i = b; i < e; ++i) {
            std::fill(acc.begin(), acc.end(), acc_t<T>(0));
            for (int64_t r = 0; r < p.reduced; ++r) {
              const T *row = in + (i * p.reduced + r) * p.inner;
              for (int64_t k = 0; k < p.inner; ++k)
                acc[size_t(k)] += acc_t<T>(opmath_t<T>(row[k]));
            }
            for (int64_t k = 0; k < p.inner; ++k)
              o[i * p.inner + k] = O(double(acc[size_t(k)]) * scale);
          }
        });
        return;
      }
      reduceEach<T>(p, o, [&](const T *x, int64_t s, int64_t n) {
        acc_t<T> a = 0;
        for (int64_t r = 0; r < n; ++r)
          a += acc_t<T>(opmath_t<T>(x[r * s]));
        return O(double(a) * scale);
      });
    });
  });
  return out;
}

/// Gradient of a reduction: g broadcast back over the reduced dims.
Tensor expandGrad(const Tensor &g, IntArrayRef keptSizes, IntArrayRef inSizes) {
  return g.reshape(keptSizes).expand(inSizes);
}

struct ReduceInfo {
  DimVector inSizes, keptSizes;
  int64_t count;
};

ReduceInfo info(const Tensor &self, IntArrayRef dims) {
  ReduceInfo r;
  r.inSizes = self.sizes();
  DimVector wd = wrapDims(dims, self.dim());
  r.keptSizes = self.sizes();
  r.count = 1;
  for (int64_t d : wd) {
    r.count *= r.keptSizes[size_t(d)];
    r.keptSizes[size_t(d)] = 1;
  }
  return r;
}

template <bool IsMax> struct Better {
  template <class M> static bool take(M candidate, M best) {
    if (candidate != candidate) // NaN wins and stays
      return best == best;
    return IsMax ? candidate > best : candidate < best;
  }
};

/// Values and int64 indices of the max (or min) over the plan's R axis;
/// the first index wins ties, NaN propagates.
template <bool IsMax>
std::pair<Tensor, Tensor> maxKernel(const Tensor &self, IntArrayRef dims,
                                    bool keepdim, bool wantValues,
                                    const char *name) {
  ReducePlan p = planReduction(self, dims, keepdim);
  TCC_CHECK(p.reduced > 0 || self.numel() > 0 || p.outer * p.inner == 0,
            name, "(): Expected reduction dim to be specified for "
                  "input.numel() == 0.");
  TCC_CHECK(p.reduced > 0 || p.outer * p.inner == 0, name,
            "(): Expected reduction dim ", (p.dims.empty() ? 0 : p.dims[0]),
            " to have non-zero size.");
  Tensor values = wantValues ? makeEmpty(p.outSizes, self.dtype()) : Tensor();
  Tensor indices = makeEmpty(p.outSizes, kLong);
  int64_t *idx = static_cast<int64_t *>(indices.unsafeGetTensorImpl()->data());
  TCC_DISPATCH_ALL_TYPES(self.dtype(), name, [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    const T *in = static_cast<const T *>(p.input.unsafeGetTensorImpl()->data());
    T *v = wantValues ? static_cast<T *>(values.unsafeGetTensorImpl()->data())
                      : nullptr;
    parallelFor(0, p.outer * p.inner, 256, [&](int64_t b, int64_t e) {
      for (int64_t j = b; j < e; ++j) {
        int64_t o = j / p.inner, k = j % p.inner;
        const T *x = in + o * p.reduced * p.inner + k;
        M best = M(x[0]);
        int64_t bi = 0;
        for (int64_t r = 1; r < p.reduced; ++r) {
          M c = M(x[r * p.inner]);
          if (Better<IsMax>::take(c, best)) {
            best = c;
            bi = r;
          }
        }
        idx[j] = bi;
        if (v)
          v[j] = T(best);
      }
    });
  });
  return {values, indices};
}

/// Two-pass variance over the plan's R axis, in double.
Tensor varKernel(const Tensor &self, IntArrayRef dims, int64_t correction,
                 bool keepdim, bool takeSqrt) {
  ReducePlan p = planReduction(self, dims, keepdim);
  Tensor out = makeEmpty(p.outSizes, self.dtype());
  TCC_DISPATCH_FLOATING_TYPES(self.dtype(), "var", [&] {
    using T = scalar_t;
    T *o = static_cast<T *>(out.unsafeGetTensorImpl()->data());
    reduceEach<T>(p, o, [&](const T *x, int64_t s, int64_t n) {
      double mean = 0;
      for (int64_t r = 0; r < n; ++r)
        mean += double(x[r * s]);
      mean /= double(n);
      double ss = 0;
      for (int64_t r = 0; r < n; ++r) {
        double d = double(x[r * s]) - mean;
        ss += d * d;
      }
      double denom = double(n - correction);
      double v = denom > 0 ? ss / denom : std::numeric_limits<double>::quiet_NaN();
      if (denom <= 0 && n > 0 && ss == 0 && denom < 0)
        v = std::numeric_limits<double>::quiet_NaN();
      return T(takeSqrt ? std::sqrt(v) : v);
    });
  });
  return out;
}

Tensor normKernel(const Tensor &self, double pv, IntArrayRef dims,
                  bool keepdim) {
  ReducePlan p = planReduction(self, dims, keepdim);
  Tensor out = makeEmpty(p.outSizes, self.dtype());
  TCC_DISPATCH_FLOATING_TYPES(self.dtype(), "norm", [&] {
    using T = scalar_t;
    T *o = static_cast<T *>(out.unsafeGetTensorImpl()->data());
    reduceEach<T>(p, o, [&](const T *x, int64_t s, int64_t n) {
      double acc = 0;
      if (std::isinf(pv)) {
        acc = pv > 0 ? 0 : std::numeric_limits<double>::infinity();
        for (int64_t r = 0; r < n; ++r) {
          double a = std::fabs(double(x[r * s]));
          acc = pv > 0 ? std::max(acc, a) : std::min(acc, a);
          if (a != a)
            return T(a);
        }
        return T(acc);
      }
      for (int64_t r = 0; r < n; ++r) {
        double a = std::fabs(double(x[r * s]));
        acc += pv == 0 ? (a != 0) : pv == 1 ? a : pv == 2 ? a * a
                                                          : std::pow(a, pv);
      }
      if (pv == 0 || pv == 1)
        return T(acc);
      return T(pv == 2 ? std::sqrt(acc) : std::pow(acc, 1.0 / pv));
    });
  });
  return out;
}

template <bool IsAll>
Tensor allAnyKernel(const Tensor &self, IntArrayRef dims, bool keepdim) {
  ReducePlan p = planReduction(self, dims, keepdim);
  ScalarType outType = self.dtype() == kByte ? kByte : kBool;
  Tensor out = makeEmpty(p.outSizes, outType);
  TCC_DISPATCH_ALL_TYPES(self.dtype(), IsAll ? "all" : "any", [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    std::vector<uint8_t> res(static_cast<size_t>(p.outer * p.inner));
    reduceEach<T>(p, res.data(), [&](const T *x, int64_t s, int64_t n) {
      for (int64_t r = 0; r < n; ++r) {
        bool nz = M(x[r * s]) != M(0);
        if (IsAll && !nz)
          return uint8_t(0);
        if (!IsAll && nz)
          return uint8_t(1);
      }
      return uint8_t(IsAll ? 1 : 0);
    });
    if (outType == kBool) {
      bool *o = static_cast<bool *>(out.unsafeGetTensorImpl()->data());
      for (size_t i = 0; i < res.size(); ++i)
        o[i] = res[i] != 0;
    } else {
      std::copy(res.begin(), res.end(),
                static_cast<uint8_t *>(out.unsafeGetTensorImpl()->data()));
    }
  });
  return out;
}

Tensor prodKernel(const Tensor &self, IntArrayRef dims, bool keepdim,
                  std::optional<ScalarType> dtype) {
  ScalarType outType = dtype ? *dtype
                             : (isIntegralType(self.dtype(), true)
                                    ? kLong
                                    : self.dtype());
  Tensor src = castTo(self, outType);
  ReducePlan p = planReduction(src, dims, keepdim);
  Tensor out = makeEmpty(p.outSizes, outType);
  TCC_DISPATCH_ALL_TYPES(outType, "prod", [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    T *o = static_cast<T *>(out.unsafeGetTensorImpl()->data());
    reduceEach<T>(p, o, [&](const T *x, int64_t s, int64_t n) {
      using A = std::conditional_t<std::is_floating_point<M>::value, double, M>;
      A a = 1;
      for (int64_t r = 0; r < n; ++r)
        a = A(a * A(M(x[r * s])));
      return T(M(a));
    });
  });
  return out;
}

/// Softmax or log-softmax along `dim`, computed in opmath (float or double).
Tensor softmaxKernel(const Tensor &self, int64_t dim, bool log) {
  int64_t d = wrapDim(dim, self.dim());
  ReducePlan p = planReduction(self, self.dim() == 0 ? IntArrayRef()
                                                     : IntArrayRef(d),
                               true);
  Tensor out = makeEmpty(p.input.sizes(), self.dtype());
  TCC_DISPATCH_FLOATING_TYPES(self.dtype(), log ? "log_softmax" : "softmax",
                              [&] {
    using T = scalar_t;
    using M = opmath_t<T>;
    const T *in = static_cast<const T *>(p.input.unsafeGetTensorImpl()->data());
    T *o = static_cast<T *>(out.unsafeGetTensorImpl()->data());
    int64_t R = p.reduced, inner = p.inner;
    parallelFor(0, p.outer * inner, std::max<int64_t>(1, 4096 / std::max<int64_t>(R, 1)),
                [&](int64_t b, int64_t e) {
      std::vector<M> buf(static_cast<size_t>(R));
      for (int64_t j = b; j < e; ++j) {
        int64_t oi = j / inner, k = j % inner;
        const T *x = in + oi * R * inner + k;
        T *y = o + oi * R * inner + k;
        M mx = -std::numeric_limits<M>::infinity();
        for (int64_t r = 0; r < R; ++r) {
          M v = M(x[r * inner]);
          mx = (v > mx || v != v) ? v : mx;
        }
        if (mx == -std::numeric_limits<M>::infinity())
          mx = 0;
        for (int64_t r = 0; r < R; ++r)
          buf[size_t(r)] = M(x[r * inner]) - mx;
        M sum = 0;
        for (int64_t r = 0; r < R; ++r)
          sum += vexp(buf[size_t(r)]);
        if (log) {
          M ls = vlog(sum);
          for (int64_t r = 0; r < R; ++r)
            y[r * inner] = T(buf[size_t(r)] - ls);
        } else {
          M inv = M(1) / sum;
          for (int64_t r = 0; r < R; ++r)
            y[r * inner] = T(vexp(buf[size_t(r)]) * inv);
        }
      }
    });
  });
  // The plan may have permuted nothing (single dim is always adjacent), so
  // the output has the input's (contiguous) layout.
  return out.view(self.sizes());
}

std::vector<int64_t> vecOf(IntArrayRef a) { return a.vec(); }

} // namespace
} // namespace detail

using namespace detail;

// --- sum / mean -----------------------------------------------------------------

static Tensor sumImpl(const Tensor &self, IntArrayRef dims, bool keepdim,
                      std::optional<ScalarType> dtype, bool mean,
                      bool hasDims) {
  if (mean) {
    ScalarType t = dtype ? *dtype : self.dtype();
    TCC_CHECK(isFloatingType(t), "mean(): could not infer output dtype. Input "
                                 "dtype must be either a floating point or "
                                 "complex dtype. Got: ",
              t);
  }
  std::vector<int64_t> dimv = dims.vec();
  const OpDef &op = mean ? (hasDims ? kMeanDim : kMean)
                         : (hasDims ? kSumDim : kSum);
  return recordOp(
      op, {self},
      [&] { return sumKernel(self, dimv, keepdim, dtype, mean); },
      [&](const Tensor &) -> FunctionNode::Formula {
        ReduceInfo ri = info(self, dimv);
        return [ri, mean](FunctionNode &, const variable_list &g) -> variable_list {
          Tensor gg = mean ? g[0] / double(ri.count) : g[0];
          return {expandGrad(gg, ri.keptSizes, ri.inSizes)};
        };
      },
      [&] {
        AttrList a;
        if (hasDims) {
          a.push_back({"dim", dimv});
          a.push_back({"keepdim", keepdim});
        }
        a.push_back({"dtype", dtype ? AttrValue(*dtype) : AttrValue()});
        return a;
      });
}

Tensor sum(const Tensor &s, std::optional<ScalarType> dtype) {
  return sumImpl(s, {}, false, dtype, false, false);
}
Tensor sum(const Tensor &s, IntArrayRef dim, bool keepdim,
           std::optional<ScalarType> dtype) {
  return sumImpl(s, dim, keepdim, dtype, false, true);
}
Tensor mean(const Tensor &s, std::optional<ScalarType> dtype) {
  return sumImpl(s, {}, false, dtype, true, false);
}
Tensor mean(const Tensor &s, IntArrayRef dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  return sumImpl(s, dim, keepdim, dtype, true, true);
}

// --- prod ---------------------------------------------------------------------

static Tensor prodImpl(const Tensor &self, std::optional<int64_t> dim,
                       bool keepdim, std::optional<ScalarType> dtype) {
  std::vector<int64_t> dimv;
  if (dim)
    dimv.push_back(*dim);
  return recordOp(
      kProd, {self}, [&] { return prodKernel(self, dimv, keepdim, dtype); },
      [&](const Tensor &out) -> FunctionNode::Formula {
        ReduceInfo ri = info(self, dimv);
        std::vector<int64_t> dims = dimv.empty() ? std::vector<int64_t>()
                                                 : std::vector<int64_t>{
                                                       wrapDim(dimv[0], self.dim())};
        return [ri, dims, sx = SavedVariable(self, false),
                so = SavedVariable(out, true)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sx);
          Tensor y = n.unpack(so).reshape(ri.keptSizes);
          Tensor isZero = x == 0;
          Tensor safe = where(isZero, 1, x);
          // Product of the other elements: y / x, or for a zero element
          // the product of the nonzero others when it is the only zero.
          Tensor nonzeroProd = dims.empty() ? safe.prod().reshape(ri.keptSizes)
                                            : safe.prod(dims[0], true);
          Tensor zeros_ = dims.empty()
                              ? isZero.sum().reshape(ri.keptSizes)
                              : isZero.sum(IntArrayRef(dims), true);
          Tensor forZero = where(zeros_ == 1, nonzeroProd, 0);
          Tensor others = where(isZero, forZero, y / safe);
          return {expandGrad(g[0], ri.keptSizes, ri.inSizes) * others};
        };
      },
      [&] {
        return AttrList{
            {"dim", dim ? AttrValue(*dim) : AttrValue()},
            {"keepdim", keepdim},
            {"dtype", dtype ? AttrValue(*dtype) : AttrValue()}};
      });
}

Tensor prod(const Tensor &s, std::optional<ScalarType> dtype) {
  return prodImpl(s, std::nullopt, false, dtype);
}
Tensor prod(const Tensor &s, int64_t dim, bool keepdim,
            std::optional<ScalarType> dtype) {
  return prodImpl(s, dim, keepdim, dtype);
}

// --- max / min / amax / amin / argmax / argmin --------------------------------------

/// Gradient shared evenly among the elements equal to the result.
static FunctionNode::Formula evenlyDistribute(const Tensor &self,
                                              const Tensor &out,
                                              IntArrayRef dims) {
  ReduceInfo ri = info(self, dims);
  std::vector<int64_t> dv = wrapDims(dims, self.dim()).vec();
  return [ri, dv, sx = SavedVariable(self, false),
          so = SavedVariable(out, true)](FunctionNode &n,
                                        const variable_list &g) -> variable_list {
    Tensor x = n.unpack(sx);
    Tensor y = n.unpack(so).reshape(ri.keptSizes);
    Tensor mask = (x == y) | (isnan(x) & isnan(y));
    Tensor count = dv.empty() ? mask.sum() : mask.sum(IntArrayRef(dv), true);
    Tensor gg = expandGrad(g[0], ri.keptSizes, ri.inSizes);
    return {where(mask, gg / count.reshape(ri.keptSizes), 0)};
  };
}

template <bool IsMax> static Tensor maxAll(const Tensor &self) {
  TCC_CHECK(self.numel() > 0, IsMax ? "max" : "min",
            "(): Expected reduction dim to be specified for input.numel() == "
            "0. Specify the reduction dim with the 'dim' argument.");
  return recordOp(
      IsMax ? kMaxAll : kMinAll, {self},
      [&] {
        return maxKernel<IsMax>(self, {}, false, true, IsMax ? "max" : "min")
            .first;
      },
      [&](const Tensor &out) { return evenlyDistribute(self, out, {}); },
      noAttrs);
}

template <bool IsMax>
static std::tuple<Tensor, Tensor> maxDim(const Tensor &self, int64_t dim,
                                         bool keepdim) {
  int64_t d = wrapDim(dim, self.dim());
  auto outs = recordMulti(
      IsMax ? kMaxDim : kMinDim, {self},
      [&] {
        auto [v, i] = maxKernel<IsMax>(self, self.dim() ? IntArrayRef(d)
                                                        : IntArrayRef(),
                                       keepdim, true, IsMax ? "max" : "min");
        return std::vector<Tensor>{v, i};
      },
      [&](const std::vector<Tensor> &outs) -> FunctionNode::Formula {
        DimVector in(self.sizes());
        int64_t nd = self.dim();
        return [in, d, nd, keepdim, si = SavedVariable(outs[1], false)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          if (nd == 0)
            return {g[0]};
          Tensor idx = n.unpack(si);
          Tensor gi = g[0], ii = idx;
          if (!keepdim) {
            gi = gi.unsqueeze(d);
            ii = ii.unsqueeze(d);
          }
          DimVector shape(size_t(nd), 1);
          shape[size_t(d)] = in[size_t(d)];
          Tensor pos = arange(in[size_t(d)]).view(shape);
          return {where(pos == ii, gi, 0).expand(in)};
        };
      },
      [&] { return AttrList{{"dim", d}, {"keepdim", keepdim}}; },
      {true, false});
  return {outs[0], outs[1]};
}

template <bool IsMax>
static Tensor amaxImpl(const Tensor &self, IntArrayRef dims, bool keepdim) {
  std::vector<int64_t> dv = dims.vec();
  return recordOp(
      IsMax ? kAmax : kAmin, {self},
      [&] {
        TCC_CHECK(self.numel() > 0, IsMax ? "amax" : "amin",
                  "(): Expected reduction dim to be specified for "
                  "input.numel() == 0.");
        return maxKernel<IsMax>(self, dv, keepdim, true,
                                IsMax ? "amax" : "amin")
            .first;
      },
      [&](const Tensor &out) { return evenlyDistribute(self, out, dv); },
      [&] { return AttrList{{"dim", dv}, {"keepdim", keepdim}}; });
}

template <bool IsMax>
static Tensor argmaxImpl(const Tensor &self, std::optional<int64_t> dim,
                         bool keepdim) {
  const char *name = IsMax ? "argmax" : "argmin";
  return recordNonDifferentiable(
      IsMax ? kArgmax : kArgmin, {self},
      [&] {
        TCC_CHECK(self.numel() > 0 || dim, name,
                  "(): Expected reduction dim to be specified for "
                  "input.numel() == 0.");
        if (!dim) {
          Tensor flat = self.reshape({-1});
          Tensor r = maxKernel<IsMax>(flat, {}, false, false, name).second;
          if (keepdim)
            r = r.view(DimVector(size_t(self.dim()), 1));
          return r;
        }
        int64_t d = wrapDim(*dim, self.dim());
        return maxKernel<IsMax>(self, self.dim() ? IntArrayRef(d)
                                                 : IntArrayRef(),
                                keepdim, false, name)
            .second;
      },
      [&] {
        return AttrList{{"dim", dim ? AttrValue(*dim) : AttrValue()},
                        {"keepdim", keepdim}};
      });
}

Tensor max(const Tensor &s) { return maxAll<true>(s); }
Tensor min(const Tensor &s) { return maxAll<false>(s); }
std::tuple<Tensor, Tensor> max(const Tensor &s, int64_t d, bool k) {
  return maxDim<true>(s, d, k);
}
std::tuple<Tensor, Tensor> min(const Tensor &s, int64_t d, bool k) {
  return maxDim<false>(s, d, k);
}
Tensor amax(const Tensor &s, IntArrayRef d, bool k) {
  return amaxImpl<true>(s, d, k);
}
Tensor amin(const Tensor &s, IntArrayRef d, bool k) {
  return amaxImpl<false>(s, d, k);
}
Tensor argmax(const Tensor &s, std::optional<int64_t> d, bool k) {
  return argmaxImpl<true>(s, d, k);
}
Tensor argmin(const Tensor &s, std::optional<int64_t> d, bool k) {
  return argmaxImpl<false>(s, d, k);
}

// --- var / std ---------------------------------------------------------------------

static Tensor varImpl(const Tensor &self, std::optional<IntArrayRef> dim,
                      std::optional<int64_t> correction, bool keepdim,
                      bool takeSqrt) {
  TCC_CHECK(isFloatingType(self.dtype()), takeSqrt ? "std" : "var",
            "(): input dtype should be floating point, got ", self.dtype());
  std::vector<int64_t> dv = dim ? dim->vec() : std::vector<int64_t>();
  int64_t corr = correction.value_or(1);
  return recordOp(
      takeSqrt ? kStd : kVar, {self},
      [&] { return varKernel(self, dv, corr, keepdim, takeSqrt); },
      [&](const Tensor &out) -> FunctionNode::Formula {
        ReduceInfo ri = info(self, dv);
        std::vector<int64_t> wd = wrapDims(dv, self.dim()).vec();
        return [ri, wd, corr, takeSqrt, sx = SavedVariable(self, false),
                so = SavedVariable(out, true)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sx);
          Tensor m = wd.empty() ? x.mean().reshape(ri.keptSizes)
                                : x.mean(IntArrayRef(wd), true);
          Tensor gg = expandGrad(g[0], ri.keptSizes, ri.inSizes);
          double denom = double(ri.count - corr);
          if (!takeSqrt)
            return {gg * (x - m) * (2.0 / denom)};
          Tensor s = n.unpack(so).reshape(ri.keptSizes);
          return {gg * (x - m) / (s * denom)};
        };
      },
      [&] {
        return AttrList{{"dim", dv}, {"correction", corr}, {"keepdim", keepdim}};
      });
}

Tensor var(const Tensor &s, std::optional<IntArrayRef> d,
           std::optional<int64_t> c, bool k) {
  return varImpl(s, d, c, k, false);
}
Tensor var(const Tensor &s, IntArrayRef d, bool unbiased, bool k) {
  return varImpl(s, d, unbiased ? 1 : 0, k, false);
}
Tensor std(const Tensor &s, std::optional<IntArrayRef> d,
           std::optional<int64_t> c, bool k) {
  return varImpl(s, d, c, k, true);
}
Tensor std(const Tensor &s, IntArrayRef d, bool unbiased, bool k) {
  return varImpl(s, d, unbiased ? 1 : 0, k, true);
}

// --- norm -----------------------------------------------------------------------------

static Tensor normImpl(const Tensor &self, const Scalar &p, IntArrayRef dims,
                       bool keepdim) {
  TCC_CHECK(isFloatingType(self.dtype()),
            "linalg.vector_norm: Expected a floating point tensor as input. "
            "Got ",
            self.dtype());
  double pv = p.toDouble();
  std::vector<int64_t> dv = dims.vec();
  return recordOp(
      kNorm, {self}, [&] { return normKernel(self, pv, dv, keepdim); },
      [&](const Tensor &out) -> FunctionNode::Formula {
        ReduceInfo ri = info(self, dv);
        std::vector<int64_t> wd = wrapDims(dv, self.dim()).vec();
        return [ri, wd, pv, sx = SavedVariable(self, false),
                so = SavedVariable(out, true)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sx);
          Tensor y = n.unpack(so).reshape(ri.keptSizes);
          Tensor gg = expandGrad(g[0], ri.keptSizes, ri.inSizes);
          if (pv == 0)
            return {zeros_like(x)};
          if (pv == 1)
            return {gg * x.sign()};
          if (std::isinf(pv)) {
            Tensor mask = x.abs() == y;
            Tensor count = wd.empty() ? mask.sum().reshape(ri.keptSizes)
                                      : mask.sum(IntArrayRef(wd), true);
            return {where(mask, gg * x.sign() / count, 0)};
          }
          Tensor safeY = where(y == 0, 1, y);
          if (pv == 2)
            return {where(y == 0, 0, gg * x / safeY)};
          Tensor r = gg * x * tcc::pow(x.abs(), pv - 2) / tcc::pow(safeY, pv - 1);
          return {where(y == 0, 0, r)};
        };
      },
      [&] {
        return AttrList{{"p", scalarAttr(p)}, {"dim", dv}, {"keepdim", keepdim}};
      });
}

Tensor norm(const Tensor &s, const Scalar &p) { return normImpl(s, p, {}, false); }
Tensor norm(const Tensor &s, const Scalar &p, IntArrayRef d, bool k) {
  return normImpl(s, p, d, k);
}

// --- all / any -------------------------------------------------------------------------

Tensor all(const Tensor &s) {
  return recordNonDifferentiable(
      kAll, {s}, [&] { return allAnyKernel<true>(s, {}, false); }, noAttrs);
}
Tensor all(const Tensor &s, int64_t d, bool k) {
  return recordNonDifferentiable(
      kAll, {s},
      [&] {
        return allAnyKernel<true>(
            s, s.dim() ? IntArrayRef(d) : IntArrayRef(), k);
      },
      [&] { return AttrList{{"dim", d}, {"keepdim", k}}; });
}
Tensor any(const Tensor &s) {
  return recordNonDifferentiable(
      kAny, {s}, [&] { return allAnyKernel<false>(s, {}, false); }, noAttrs);
}
Tensor any(const Tensor &s, int64_t d, bool k) {
  return recordNonDifferentiable(
      kAny, {s},
      [&] {
        return allAnyKernel<false>(
            s, s.dim() ? IntArrayRef(d) : IntArrayRef(), k);
      },
      [&] { return AttrList{{"dim", d}, {"keepdim", k}}; });
}

// --- logsumexp, softmax, log_softmax -----------------------------------------------------

Tensor logsumexp(const Tensor &self, IntArrayRef dims, bool keepdim) {
  std::vector<int64_t> dv = dims.vec();
  return recordOp(
      kLogsumexp, {self},
      [&] {
        Tensor x = isFloatingType(self.dtype()) ? self
                                                : castTo(self, get_default_dtype());
        if (x.numel() == 0)
          return tcc::log(tcc::sum(tcc::exp(x), dv, keepdim));
        Tensor m = tcc::amax(x, dv, true);
        Tensor finiteM = where(m.abs() == INFINITY, 0, m);
        Tensor s = tcc::sum(tcc::exp(x - finiteM), dv, true);
        Tensor r = tcc::log(s) + finiteM;
        return keepdim ? r : r.reshape(planReduction(x, dv, false).outSizes);
      },
      [&](const Tensor &out) -> FunctionNode::Formula {
        ReduceInfo ri = info(self, dv);
        return [ri, sx = SavedVariable(self, false),
                so = SavedVariable(out, true)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor x = n.unpack(sx);
          Tensor y = n.unpack(so).reshape(ri.keptSizes);
          return {expandGrad(g[0], ri.keptSizes, ri.inSizes) * (x - y).exp()};
        };
      },
      [&] { return AttrList{{"dim", dv}, {"keepdim", keepdim}}; });
}

static Tensor softmaxImpl(const Tensor &self, int64_t dim,
                          std::optional<ScalarType> dtype, bool log) {
  Tensor in = dtype ? self.to(*dtype) : self;
  TCC_CHECK(isFloatingType(in.dtype()), log ? "log_softmax" : "softmax",
            "(): expected a floating point tensor, got ", in.dtype());
  int64_t d = wrapDim(dim, in.dim());
  return recordOp(
      log ? kLogSoftmax : kSoftmax, {in}, [&] { return softmaxKernel(in, d, log); },
      [&](const Tensor &out) -> FunctionNode::Formula {
        return [d, log, so = SavedVariable(out, true)](
                   FunctionNode &n, const variable_list &g) -> variable_list {
          Tensor y = n.unpack(so);
          if (log)
            return {g[0] - y.exp() * g[0].sum(IntArrayRef(d), true)};
          return {y * (g[0] - (g[0] * y).sum(IntArrayRef(d), true))};
        };
      },
      [&] {
        return AttrList{{"dim", d},
                        {"dtype", dtype ? AttrValue(*dtype) : AttrValue()}};
      });
}

Tensor softmax(const Tensor &s, int64_t d, std::optional<ScalarType> t) {
  return softmaxImpl(s, d, t, false);
}
Tensor log_softmax(const Tensor &s, int64_t d, std::optional<ScalarType> t) {
  return softmaxImpl(s, d, t, true);
}

// --- Comparison helpers -------------------------------------------------------------------

bool equal(const Tensor &a, const Tensor &b) {
  checkCpu(a, "equal");
  checkCpu(b, "equal");
  if (!a.sizes().equals(b.sizes()))
    return false;
  NoGradGuard noGrad;
  RecordPauseGuard pause;
  return tcc::eq(a, b).all().item<bool>();
}

Tensor isclose(const Tensor &a, const Tensor &b, double rtol, double atol,
               bool equalNan) {
  NoGradGuard noGrad;
  RecordPauseGuard pause;
  Tensor x = a.to(kDouble), y = b.to(kDouble);
  Tensor close = (x - y).abs() <= (atol + rtol * y.abs());
  close = close | (x == y);
  if (equalNan)
    close = close | (isnan(x) & isnan(y));
  return close;
}

bool allclose(const Tensor &a, const Tensor &b, double rtol, double atol,
              bool equalNan) {
  return isclose(a, b, rtol, atol, equalNan).all().item<bool>();
}

// --- Methods ----------------------------------------------------------------------------

Tensor Tensor::sum(std::optional<ScalarType> t) const { return tcc::sum(*this, t); }
Tensor Tensor::sum(IntArrayRef d, bool k, std::optional<ScalarType> t) const {
  return tcc::sum(*this, d, k, t);
}
Tensor Tensor::mean(std::optional<ScalarType> t) const {
  return tcc::mean(*this, t);
}
Tensor Tensor::mean(IntArrayRef d, bool k, std::optional<ScalarType> t) const {
  return tcc::mean(*this, d, k, t);
}
Tensor Tensor::prod(std::optional<ScalarType> t) const {
  return tcc::prod(*this, t);
}
Tensor Tensor::prod(int64_t d, bool k, std::optional<ScalarType> t) const {
  return tcc::prod(*this, d, k, t);
}
Tensor Tensor::max() const { return tcc::max(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t d, bool k) const {
  return tcc::max(*this, d, k);
}
Tensor Tensor::min() const { return tcc::min(*this); }
std::tuple<Tensor, Tensor> Tensor::min(int64_t d, bool k) const {
  return tcc::min(*this, d, k);
}
Tensor Tensor::amax(IntArrayRef d, bool k) const { return tcc::amax(*this, d, k); }
Tensor Tensor::amin(IntArrayRef d, bool k) const { return tcc::amin(*this, d, k); }
Tensor Tensor::argmax(std::optional<int64_t> d, bool k) const {
  return tcc::argmax(*this, d, k);
}
Tensor Tensor::argmin(std::optional<int64_t> d, bool k) const {
  return tcc::argmin(*this, d, k);
}
Tensor Tensor::var(IntArrayRef d, bool u, bool k) const {
  return tcc::var(*this, d, u, k);
}
Tensor Tensor::var(std::optional<IntArrayRef> d, std::optional<int64_t> c,
                   bool k) const {
  return tcc::var(*this, d, c, k);
}
Tensor Tensor::std(IntArrayRef d, bool u, bool k) const {
  return tcc::std(*this, d, u, k);
}
Tensor Tensor::std(std::optional<IntArrayRef> d, std::optional<int64_t> c,
                   bool k) const {
  return tcc::std(*this, d, c, k);
}
Tensor Tensor::norm(const Scalar &p) const { return tcc::norm(*this, p); }
Tensor Tensor::norm(const Scalar &p, IntArrayRef d, bool k) const {
  return tcc::norm(*this, p, d, k);
}
Tensor Tensor::all() const { return tcc::all(*this); }
Tensor Tensor::all(int64_t d, bool k) const { return tcc::all(*this, d, k); }
Tensor Tensor::any() const { return tcc::any(*this); }
Tensor Tensor::any(int64_t d, bool k) const { return tcc::any(*this, d, k); }
Tensor Tensor::logsumexp(IntArrayRef d, bool k) const {
  return tcc::logsumexp(*this, d, k);
}
Tensor Tensor::softmax(int64_t d, std::optional<ScalarType> t) const {
  return tcc::softmax(*this, d, t);
}
Tensor Tensor::log_softmax(int64_t d, std::optional<ScalarType> t) const {
  return tcc::log_softmax(*this, d, t);
}
bool Tensor::equal(const Tensor &o) const { return tcc::equal(*this, o); }
bool Tensor::allclose(const Tensor &o, double r, double a, bool n) const {
  return tcc::allclose(*this, o, r, a, n);
}

} // namespace tcc
