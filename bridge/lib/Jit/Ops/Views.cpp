//===- Views.cpp - View ops, in value form --------------------------------===//
//
// Views trace in value form: a view op becomes the tcc op computing the
// same values (reshape, transpose, slice, broadcast_to, bitcast), so writes
// through views are not part of a graph (the tracer rejects reads of tensors
// a view write changed). They move data without arithmetic, so the interpreter
// reproduces eager results bit for bit.
//
//===----------------------------------------------------------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

/// Any shape-only view: a reshape to the output's shape.
Values reshapeToOutput(TraceContext &c) {
  return {c.reshape(c.in(0), c.output().sizes())};
}

/// The whole of every dim except [start, end) step `step` in `dim`.
mlir::Value sliceDim(TraceContext &c, mlir::Value v, int64_t dim, int64_t start,
                     int64_t end, int64_t step) {
  std::vector<int64_t> shape = TraceContext::shapeOf(v);
  std::vector<int64_t> starts(shape.size(), 0), ends = shape,
                                                steps(shape.size(), 1);
  starts[size_t(dim)] = start;
  ends[size_t(dim)] = end;
  steps[size_t(dim)] = step;
  if (start == 0 && end == shape[size_t(dim)] && step == 1)
    return v;
  return c.create<SliceOp>(v, {c.i64ArrayAttr("start", starts),
                               c.i64ArrayAttr("end", ends),
                               c.i64ArrayAttr("step", steps)});
}

mlir::Value transposeTo(TraceContext &c, mlir::Value v,
                        const std::vector<int64_t> &perm) {
  bool identity = true;
  for (size_t i = 0; i < perm.size(); ++i)
    identity = identity && perm[i] == int64_t(i);
  if (identity)
    return v;
  return c.create<TransposeOp>(v, {c.i64ArrayAttr("permutation", perm)});
}

Values traceTranspose(TraceContext &c) {
  int64_t rank = c.input(0).dim();
  std::vector<int64_t> perm(static_cast<size_t>(rank));
  for (int64_t i = 0; i < rank; ++i)
    perm[size_t(i)] = i;
  if (rank >= 2) {
    int64_t a = c.intAttr("dim0"), b = c.intAttr("dim1");
    std::swap(perm[size_t(a)], perm[size_t(b)]);
  }
  return {transposeTo(c, c.in(0), perm)};
}

/// diagonal(offset, dim1, dim2): the two dims moved last and flattened, then
/// every (m+1)-th element from the first diagonal entry.
Values traceDiagonal(TraceContext &c) {
  const Tensor &x = c.input(0);
  int64_t a = c.intAttr("dim1"), b = c.intAttr("dim2");
  int64_t offset = c.intAttr("offset");
  std::vector<int64_t> perm, flat;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (d != a && d != b) {
      perm.push_back(d);
      flat.push_back(x.size(d));
    }
  perm.push_back(a);
  perm.push_back(b);
  int64_t n = x.size(a), m = x.size(b);
  flat.push_back(n * m);
  mlir::Value v = c.reshape(transposeTo(c, c.in(0), perm), flat);
  int64_t length = c.output().sizes().back();
  int64_t start = length == 0 ? 0 : (offset >= 0 ? offset : -offset * m);
  int64_t end = length == 0 ? 0 : start + (length - 1) * (m + 1) + 1;
  return {sliceDim(c, v, int64_t(flat.size()) - 1, start, end, m + 1)};
}

} // namespace

void registerViewTraces(TraceRegistry &r) {
  for (const char *op : {"view", "reshape", "flatten", "unflatten", "squeeze",
                         "squeeze.dim", "unsqueeze"})
    r.trace(op, reshapeToOutput);
  r.trace("view.dtype", [](TraceContext &c) -> Values {
    return {c.create<mlir::tcc::BitcastOp>(
        c.in(0), {}, c.type(c.output().sizes(), c.output().dtype()))};
  });
  r.trace("transpose", traceTranspose);
  r.trace("t", [](TraceContext &c) -> Values {
    if (c.input(0).dim() < 2)
      return {c.in(0)};
    return {transposeTo(c, c.in(0), {1, 0})};
  });
  r.trace("permute", [](TraceContext &c) -> Values {
    return {transposeTo(c, c.in(0), c.intsAttr("dims"))};
  });
  r.trace("select", [](TraceContext &c) -> Values {
    int64_t d = c.intAttr("dim"), i = c.intAttr("index");
    return {
        c.reshape(sliceDim(c, c.in(0), d, i, i + 1, 1), c.output().sizes())};
  });
  r.trace("slice", [](TraceContext &c) -> Values {
    return {sliceDim(c, c.in(0), c.intAttr("dim"), c.intAttr("start"),
                     c.intAttr("end"), c.intAttr("step"))};
  });
  r.trace("expand", [](TraceContext &c) -> Values {
    return {c.broadcastTo(c.in(0), c.output().sizes())};
  });
  r.trace("diagonal", traceDiagonal);
  r.untraceable("as_strided",
                "as_strided views memory at arbitrary strides, which has no "
                "value-form tcc op; express the view with reshape, permute, "
                "slice or expand");
}

} // namespace jit
} // namespace tcc
