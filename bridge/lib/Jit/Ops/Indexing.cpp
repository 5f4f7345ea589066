//===- Indexing.cpp - cat, stack, gather, scatter, index_select, pad, ... -===//
//
// The NN family's joining, indexing and padding ops (the frontend's
// Join.cpp, Indexing.cpp and Pad.cpp), registered by registerNNTraces. They
// move data without arithmetic, so the interpreter reproduces eager results
// bit for bit.
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

std::vector<int64_t> sizesOf(const Tensor &t) { return t.sizes().vec(); }

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

/// tcc.scatter of `updates` (the index's shape) into input 0 at input 1.
/// A 0-dim self (which eager treats as 1-D) goes through shape [1].
Values traceScatter(TraceContext &c, mlir::Value updates,
                    ScatterReduction reduction) {
  const Tensor &self = c.input(0);
  mlir::Value x = c.in(0), i = c.in(1);
  if (self.dim() == 0) {
    x = c.reshape(x, {1});
    i = c.reshape(i, {1});
    updates = c.reshape(updates, {1});
  }
  mlir::Value r = c.create<ScatterOp>(
      mlir::ValueRange{x, i, updates},
      {c.i64Attr("dim", c.intAttr("dim")),
       c.attr("reduction", ScatterReductionAttr::get(c.context(), reduction))});
  if (self.dim() == 0)
    r = c.reshape(r, {});
  return {r};
}

/// src cut to the index's shape: eager scatter reads only that corner.
mlir::Value srcForIndex(TraceContext &c) {
  const Tensor &src = c.input(2), &index = c.input(1);
  if (src.sizes().equals(index.sizes()))
    return c.in(2);
  std::vector<int64_t> start(size_t(index.dim()), 0), step(start.size(), 1);
  return c.create<SliceOp>(c.in(2), {c.i64ArrayAttr("start", start),
                                     c.i64ArrayAttr("end", sizesOf(index)),
                                     c.i64ArrayAttr("step", step)});
}

Values traceScatterReduce(TraceContext &c) {
  std::string reduce = c.stringAttr("reduce");
  if (!c.boolAttr("include_self"))
    c.fail("scatter_reduce with include_self=False has no tcc.scatter form");
  ScatterReduction kind = reduce == "sum"    ? ScatterReduction::add
                          : reduce == "prod" ? ScatterReduction::mul
                          : reduce == "amax" ? ScatterReduction::max
                          : reduce == "amin" ? ScatterReduction::min
                                             : ScatterReduction::none;
  if (kind == ScatterReduction::none)
    c.fail("scatter_reduce with reduce='" + reduce +
           "' has no tcc.scatter form");
  return traceScatter(c, srcForIndex(c), kind);
}

} // namespace

void registerIndexingTraces(TraceRegistry &r) {
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
  r.trace("scatter", [](TraceContext &c) -> Values {
    return traceScatter(c, srcForIndex(c), ScatterReduction::none);
  });
  r.trace("scatter.value", [](TraceContext &c) -> Values {
    return traceScatter(c,
                        c.splat(c.scalarAttr("value"), c.output().dtype(),
                                c.input(1).sizes()),
                        ScatterReduction::none);
  });
  r.trace("scatter_add", [](TraceContext &c) -> Values {
    return traceScatter(c, srcForIndex(c), ScatterReduction::add);
  });
  r.trace("scatter_reduce.two", traceScatterReduce);
  r.trace("pad", tracePad);
}

} // namespace jit
} // namespace tcc
