//===- Reduction.cpp - sum, mean, prod, max/min, arg*, norms, softmax -----===//
//
// Reductions over "all dims" name every dim explicitly (tcc reductions list
// at least one); a 0-dim input has nothing to reduce. var, std and norm have
// no tcc op: they trace to their definition in f64 (the eager kernels
// accumulate in double too), which matches eager to the last bit of the
// output dtype almost always but not by construction. logsumexp traces to
// exactly the eager ops its kernel is built from.
//
//===----------------------------------------------------------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

#include <cmath>
#include <limits>

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

std::vector<int64_t> allDims(int64_t rank) {
  std::vector<int64_t> dims;
  for (int64_t d = 0; d < rank; ++d)
    dims.push_back(d);
  return dims;
}

/// The dims of a dim-list attribute: None or empty means every dim.
std::vector<int64_t> dimsOf(TraceContext &c, const char *name) {
  int64_t rank = c.input(0).dim();
  if (rank == 0)
    return {};
  std::vector<int64_t> dims =
      c.isNone(name) ? std::vector<int64_t>() : c.intsAttr(name);
  return dims.empty() ? allDims(rank) : wrapDims(dims, rank);
}

/// The reduction OpTy of `v` over `dims`; `v` itself when there are none.
template <class OpTy>
mlir::Value reduce(TraceContext &c, mlir::Value v,
                   const std::vector<int64_t> &dims, bool keepdim) {
  if (dims.empty())
    return v;
  return c.create<OpTy>(
      v, {c.i64ArrayAttr("dims", dims), c.boolAttr("keepdim", keepdim)});
}

bool keepdimOf(TraceContext &c) {
  return !c.isNone("keepdim") && c.boolAttr("keepdim");
}

template <class OpTy> mlir::Value unary(TraceContext &c, mlir::Value v) {
  return c.create<OpTy>(v, {}, v.getType());
}
template <class OpTy>
mlir::Value binary(TraceContext &c, mlir::Value a, mlir::Value b) {
  return c.create<OpTy>(mlir::ValueRange{a, b});
}

/// sum / mean (all dims or a dim list), in the output dtype.
template <class OpTy> Values traceSum(TraceContext &c) {
  mlir::Value x = c.inAs(0, c.output().dtype());
  return {reduce<OpTy>(c, x, dimsOf(c, "dim"), keepdimOf(c))};
}

/// Index of the max/min along `dim` (or of the flattened input).
template <class ArgOpTy>
mlir::Value argReduce(TraceContext &c, mlir::Value x, int64_t dim,
                      bool keepdim) {
  if (TraceContext::dtypeOf(x) == kBool)
    x = c.cast(x, kByte);
  return c.create<ArgOpTy>(
      x, {c.i64Attr("dim", dim), c.boolAttr("keepdim", keepdim)});
}

template <class ReduceOpTy, class ArgOpTy> Values traceMaxDim(TraceContext &c) {
  mlir::Value x = c.in(0);
  if (c.input(0).dim() == 0)
    return {x, c.scalar(0, kLong)};
  int64_t d = c.intAttr("dim");
  bool keepdim = c.boolAttr("keepdim");
  return {reduce<ReduceOpTy>(c, x, {d}, keepdim),
          argReduce<ArgOpTy>(c, x, d, keepdim)};
}

template <class ArgOpTy> Values traceArgmax(TraceContext &c) {
  const Tensor &x = c.input(0);
  std::optional<int64_t> dim = c.optIntAttr("dim");
  bool keepdim = c.boolAttr("keepdim");
  if (x.dim() == 0)
    return {c.scalar(0, kLong)};
  if (dim)
    return {argReduce<ArgOpTy>(c, c.in(0), *dim, keepdim)};
  mlir::Value flat = c.reshape(c.in(0), {x.numel()});
  return {c.reshape(argReduce<ArgOpTy>(c, flat, 0, false), c.output().sizes())};
}

/// var / std: sum((x - mean)^2) / (n - correction) in f64.
Values traceVar(TraceContext &c, bool takeSqrt) {
  const Tensor &in = c.input(0);
  std::vector<int64_t> dims = dimsOf(c, "dim");
  bool keepdim = c.boolAttr("keepdim");
  int64_t correction = c.intAttr("correction");
  int64_t n = 1;
  for (int64_t d : dims)
    n *= in.size(d);
  mlir::Value x = c.inAs(0, kDouble);
  mlir::Value mean = reduce<ReduceMeanOp>(c, x, dims, true);
  mlir::Value diff = binary<SubOp>(c, x, mean);
  mlir::Value ss =
      reduce<ReduceSumOp>(c, binary<MulOp>(c, diff, diff), dims, keepdim);
  double denom = double(n - correction);
  mlir::Value v =
      denom > 0
          ? binary<DivOp>(c, ss, c.scalar(denom, kDouble))
          : binary<MulOp>(
                c, ss,
                c.scalar(std::numeric_limits<double>::quiet_NaN(), kDouble));
  if (takeSqrt)
    v = unary<SqrtOp>(c, v);
  return {c.cast(v, c.output().dtype())};
}

/// norm(p): the p-norm of |x| over dims, in f64.
Values traceNorm(TraceContext &c) {
  double p = c.doubleAttr("p");
  std::vector<int64_t> dims = dimsOf(c, "dim");
  bool keepdim = c.boolAttr("keepdim");
  mlir::Value a = unary<AbsOp>(c, c.inAs(0, kDouble));
  mlir::Value r;
  if (std::isinf(p))
    r = p > 0 ? reduce<ReduceMaxOp>(c, a, dims, keepdim)
              : reduce<ReduceMinOp>(c, a, dims, keepdim);
  else if (p == 0)
    r = reduce<ReduceSumOp>(
        c, c.cast(binary<NeOp>(c, a, c.scalar(0, kDouble)), kDouble), dims,
        keepdim);
  else if (p == 1)
    r = reduce<ReduceSumOp>(c, a, dims, keepdim);
  else if (p == 2)
    r = unary<SqrtOp>(
        c, reduce<ReduceSumOp>(c, binary<MulOp>(c, a, a), dims, keepdim));
  else
    r = binary<PowOp>(
        c,
        reduce<ReduceSumOp>(c, binary<PowOp>(c, a, c.scalar(p, kDouble)), dims,
                            keepdim),
        c.scalar(1.0 / p, kDouble));
  return {c.cast(r, c.output().dtype())};
}

/// all / any: min / max over bools.
template <class OpTy> Values traceAllAny(TraceContext &c) {
  std::optional<int64_t> dim = c.optIntAttr("dim");
  int64_t rank = c.input(0).dim();
  std::vector<int64_t> dims = rank == 0 ? std::vector<int64_t>()
                              : dim     ? wrapDims({*dim}, rank)
                                        : allDims(rank);
  return {reduce<OpTy>(c, c.inAs(0, kBool), dims, keepdimOf(c))};
}

/// logsumexp, built from the same ops as the eager kernel.
Values traceLogsumexp(TraceContext &c) {
  ScalarType t = c.output().dtype();
  std::vector<int64_t> dims = dimsOf(c, "dim");
  bool keepdim = c.boolAttr("keepdim");
  mlir::Value x = c.inAs(0, t);
  if (c.input(0).numel() == 0)
    return {unary<LogOp>(
        c, reduce<ReduceSumOp>(c, unary<ExpOp>(c, x), dims, keepdim))};
  mlir::Value m = reduce<ReduceMaxOp>(c, x, dims, true);
  mlir::Value isInf =
      binary<EqOp>(c, unary<AbsOp>(c, m),
                   c.scalar(std::numeric_limits<double>::infinity(), t));
  mlir::Value finite =
      c.create<SelectOp>(mlir::ValueRange{isInf, c.scalar(0, t), m});
  mlir::Value s = reduce<ReduceSumOp>(
      c, unary<ExpOp>(c, binary<SubOp>(c, x, finite)), dims, true);
  mlir::Value r = binary<AddOp>(c, unary<LogOp>(c, s), finite);
  return {keepdim ? r : c.reshape(r, c.output().sizes())};
}

template <class OpTy> Values traceSoftmax(TraceContext &c) {
  mlir::Value x = c.in(0);
  return {c.create<OpTy>(x, {c.i64Attr("dim", c.intAttr("dim"))}, x.getType())};
}

} // namespace

void registerReductionTraces(TraceRegistry &r) {
  r.trace("sum", traceSum<ReduceSumOp>);
  r.trace("sum.dim", traceSum<ReduceSumOp>);
  r.trace("mean", traceSum<ReduceMeanOp>);
  r.trace("mean.dim", traceSum<ReduceMeanOp>);
  r.trace("prod", [](TraceContext &c) -> Values {
    mlir::Value x = c.inAs(0, c.output().dtype());
    std::optional<int64_t> dim = c.optIntAttr("dim");
    int64_t rank = c.input(0).dim();
    std::vector<int64_t> dims = rank == 0 ? std::vector<int64_t>()
                                : dim     ? wrapDims({*dim}, rank)
                                          : allDims(rank);
    return {reduce<ReduceProdOp>(c, x, dims, dim && c.boolAttr("keepdim"))};
  });
  r.trace("max", [](TraceContext &c) -> Values {
    return {reduce<ReduceMaxOp>(c, c.in(0), allDims(c.input(0).dim()), false)};
  });
  r.trace("min", [](TraceContext &c) -> Values {
    return {reduce<ReduceMinOp>(c, c.in(0), allDims(c.input(0).dim()), false)};
  });
  r.trace("max.dim", traceMaxDim<ReduceMaxOp, ArgmaxOp>);
  r.trace("min.dim", traceMaxDim<ReduceMinOp, ArgminOp>);
  r.trace("amax", [](TraceContext &c) -> Values {
    return {reduce<ReduceMaxOp>(c, c.in(0), dimsOf(c, "dim"), keepdimOf(c))};
  });
  r.trace("amin", [](TraceContext &c) -> Values {
    return {reduce<ReduceMinOp>(c, c.in(0), dimsOf(c, "dim"), keepdimOf(c))};
  });
  r.trace("argmax", traceArgmax<ArgmaxOp>);
  r.trace("argmin", traceArgmax<ArgminOp>);
  r.trace("var", [](TraceContext &c) { return traceVar(c, false); });
  r.trace("std", [](TraceContext &c) { return traceVar(c, true); });
  r.trace("norm", traceNorm);
  r.trace("all", traceAllAny<ReduceMinOp>);
  r.trace("any", traceAllAny<ReduceMaxOp>);
  r.trace("logsumexp", traceLogsumexp);
  r.trace("softmax", traceSoftmax<SoftmaxOp>);
  r.trace("log_softmax", traceSoftmax<LogSoftmaxOp>);
}

} // namespace jit
} // namespace tcc
