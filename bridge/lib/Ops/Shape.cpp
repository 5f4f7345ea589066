//===- Shape.cpp - Views, copies, joining, indexing and padding -----------===//
//
// Views trace in value form: a view op becomes the tcc op computing the
// same values (reshape, transpose, slice, broadcast_to), so writes through
// views are not part of a graph (the tracer rejects reads of tensors a view
// write changed). Everything here moves data without arithmetic, so the
// interpreter reproduces eager results bit for bit.
//
//===----------------------------------------------------------------------===//

#include "../Bridge.h"
#include "../TraceContext.h"
#include "../Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

std::vector<int64_t> sizesOf(const Tensor &t) { return t.sizes().vec(); }

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

/// cat: inputs converted to the output dtype; 1-D empty inputs are skipped
/// (PyTorch's legacy rule) unless the output is 1-D.
Values traceCat(TraceContext &c) {
  const Tensor &out = c.output();
  ScalarType dtype = out.dtype();
  llvm::SmallVector<mlir::Value> parts;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    const Tensor &t = c.input(i);
    if (t.dim() == 1 && t.size(0) == 0 && out.dim() != 1)
      continue;
    parts.push_back(c.inAs(i, dtype));
  }
  if (parts.size() == 1)
    return {parts[0]};
  return {c.create<ConcatOp>(parts, {c.i64Attr("dim", c.intAttr("dim"))})};
}

Values traceStack(TraceContext &c) {
  int64_t d = c.intAttr("dim");
  ScalarType dtype = c.output().dtype();
  llvm::SmallVector<mlir::Value> parts;
  for (size_t i = 0; i < c.numInputs(); ++i) {
    std::vector<int64_t> shape = sizesOf(c.input(i));
    shape.insert(shape.begin() + d, 1);
    parts.push_back(c.reshape(c.inAs(i, dtype), shape));
  }
  if (parts.size() == 1)
    return {parts[0]};
  return {c.create<ConcatOp>(parts, {c.i64Attr("dim", d)})};
}

/// Source index of padded position k (from -left) in a dim of `size`.
int64_t padSource(int64_t k, int64_t size, const std::string &mode) {
  if (mode == "reflect") {
    if (k < 0)
      return -k;
    return k >= size ? 2 * (size - 1) - k : k;
  }
  if (mode == "replicate")
    return std::min(std::max<int64_t>(k, 0), size - 1);
  return ((k % size) + size) % size; // circular
}

Values tracePad(TraceContext &c) {
  std::vector<int64_t> pad = c.intsAttr("pad");
  std::string mode = c.stringAttr("mode");
  const Tensor &x = c.input(0);
  if (mode == "constant") {
    double value = c.doubleAttr("value");
    return {c.create<PadOp>(
        c.in(0), {c.i64ArrayAttr("pad", pad), c.f64Attr("value", value)})};
  }
  // reflect / replicate / circular: one index_select per padded dim with a
  // constant index, as the eager composite computes them.
  mlir::Value v = c.in(0);
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = x.dim() - 1 - int64_t(i);
    int64_t size = x.size(d), left = pad[2 * i], right = pad[2 * i + 1];
    if (left == 0 && right == 0)
      continue;
    std::vector<int64_t> idx;
    for (int64_t k = -left; k < size + right; ++k)
      idx.push_back(padSource(k, size, mode));
    Tensor index;
    {
      tcc::detail::RecordPauseGuard pause;
      index = tensor(idx);
    }
    v = c.create<IndexSelectOp>(mlir::ValueRange{v, c.value(index)},
                                {c.i64Attr("dim", d)});
  }
  return {v};
}

Values traceMaskedFill(TraceContext &c, mlir::Value fill) {
  mlir::Value mask = c.inAs(1, kBool);
  ScalarType dtype = c.output().dtype();
  mlir::Value self = c.inAs(0, dtype);
  return {c.broadcastTo(
      c.create<SelectOp>(mlir::ValueRange{mask, c.cast(fill, dtype), self}),
      c.output().sizes())};
}

std::vector<int64_t> vec(llvm::ArrayRef<int64_t> a) { return a.vec(); }

} // namespace

void registerShapeBridge(BridgeRegistry &r) {
  // --- Views, in value form ------------------------------------------------
  for (const char *op : {"view", "reshape", "flatten", "unflatten", "squeeze",
                         "squeeze.dim", "unsqueeze"})
    r.trace(op, reshapeToOutput);
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

  // --- Copies ----------------------------------------------------------------
  for (const char *op : {"clone", "contiguous", "detach"})
    r.trace(op, [](TraceContext &c) -> Values { return {c.in(0)}; });
  r.trace("to", [](TraceContext &c) -> Values {
    return {c.inAs(0, c.output().dtype())};
  });
  // Value forms of copy_ and fill_/zero_: the new contents of self.
  r.trace("copy", [](TraceContext &c) -> Values {
    return {c.broadcastTo(c.inAs(1, c.output().dtype()), c.output().sizes())};
  });
  r.trace("fill", [](TraceContext &c) -> Values {
    return {
        c.splat(c.scalarAttr("value"), c.output().dtype(), c.output().sizes())};
  });

  // --- Joining, indexing, padding ------------------------------------------
  r.trace("cat", traceCat);
  r.trace("stack", traceStack);
  r.trace("gather", [](TraceContext &c) -> Values {
    return {c.create<GatherOp>(mlir::ValueRange{c.in(0), c.in(1)},
                               {c.i64Attr("dim", c.intAttr("dim"))})};
  });
  r.trace("index_select", [](TraceContext &c) -> Values {
    mlir::Value index = c.in(1);
    if (c.input(1).dim() == 0)
      index = c.reshape(index, {1});
    return {c.create<IndexSelectOp>(mlir::ValueRange{c.in(0), index},
                                    {c.i64Attr("dim", c.intAttr("dim"))})};
  });
  r.trace("masked_fill", [](TraceContext &c) -> Values {
    return traceMaskedFill(c,
                           c.scalar(c.scalarAttr("value"), c.output().dtype()));
  });
  r.trace("masked_fill.Tensor", [](TraceContext &c) -> Values {
    return traceMaskedFill(c, c.in(2));
  });
  for (const char *op : {"scatter", "scatter.value", "scatter_add"})
    r.untraceable(op, "the tcc dialect has no scatter op yet");
  r.trace("pad", tracePad);

  // --- Interpreter
  // --------------------------------------------------------------
  r.interpret<ReshapeOp>([](ReshapeOp op, const InterpretContext &v) {
    auto shape = vec(op.getType().getShape());
    return v(op.getInput()).reshape(shape);
  });
  r.interpret<TransposeOp>([](TransposeOp op, const InterpretContext &v) {
    return v(op.getInput()).permute(vec(op.getPermutation()));
  });
  r.interpret<BroadcastToOp>([](BroadcastToOp op, const InterpretContext &v) {
    return v(op.getInput()).expand(vec(op.getType().getShape()));
  });
  r.interpret<SliceOp>([](SliceOp op, const InterpretContext &v) {
    Tensor x = v(op.getInput());
    auto start = op.getStart(), end = op.getEnd(), step = op.getStep();
    for (size_t d = 0; d < start.size(); ++d)
      if (start[d] != 0 || end[d] != x.size(int64_t(d)) || step[d] != 1)
        x = x.slice(int64_t(d), start[d], end[d], step[d]);
    return x;
  });
  r.interpret<CastOp>([](CastOp op, const InterpretContext &v) {
    return v(op.getInput()).to(*scalarTypeOf(op.getType().getElementType()));
  });
  r.interpret<ConcatOp>([](ConcatOp op, const InterpretContext &v) {
    return tcc::cat(v(op.getInputs()), op.getDim());
  });
  r.interpret<GatherOp>([](GatherOp op, const InterpretContext &v) {
    // The eager op (as torch.gather) wants int64 indices; tcc.gather also
    // takes i32 ones, whose values are the same.
    Tensor index = v(op.getIndex());
    if (index.scalar_type() == kInt)
      index = index.to(kLong);
    return tcc::gather(v(op.getInput()), op.getDim(), index);
  });
  r.interpret<IndexSelectOp>([](IndexSelectOp op, const InterpretContext &v) {
    return tcc::index_select(v(op.getInput()), op.getDim(), v(op.getIndex()));
  });
  r.interpret<PadOp>([](PadOp op, const InterpretContext &v) {
    Tensor x = v(op.getInput());
    double value = op.getValue().convertToDouble();
    Scalar fill = x.is_floating_point() ? Scalar(value)
                  : x.dtype() == kBool  ? Scalar(value != 0)
                                        : Scalar(int64_t(value));
    return tcc::constant_pad_nd(x, vec(op.getPad()), fill);
  });
}

} // namespace jit
} // namespace tcc
