//===- Pool.cpp - ONNX pooling ops ----------------------------------------===//
//
// MaxPool, AveragePool, LpPool and the global pools. Windows that tcc's
// max_pool2d / avg_pool2d take as they are (1-D or 2-D, symmetric padding of
// at most half the kernel, no dilation for averages) map onto them. Every
// other window is computed on an explicitly padded input: the window max,
// or the window sum scaled by a constant table of 1 / (cells counted), as
// ONNX's reference does (Spatial.h has the 3-D passes).
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"
#include "Spatial.h"

#include "tcc/IR/TccOps.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

enum class PoolKind { Max, Average, Lp };

/// ONNX's output size of one spatial dim: with ceil_mode, a last window
/// that would start in the end padding is dropped (PyTorch's rule).
int64_t outputSize(int64_t in, const Window &w, size_t i, bool ceil) {
  int64_t span = in + w.padBegin[i] + w.padEnd[i] - w.extent(i);
  if (span < 0)
    return 0;
  int64_t out = (ceil ? (span + w.stride[i] - 1) / w.stride[i]
                      : span / w.stride[i]) + 1;
  if (ceil && (out - 1) * w.stride[i] >= in + w.padBegin[i])
    --out;
  return out;
}

/// Whether tcc's pool op takes the window as it is.
bool nativeWindow(const Window &w, PoolKind kind) {
  if (w.rank() > 2 || kind == PoolKind::Lp || w.padBegin != w.padEnd)
    return false;
  for (size_t i = 0; i < w.rank(); ++i) {
    if (w.padBegin[i] > w.kernel[i] / 2)
      return false;
    if (kind == PoolKind::Average && w.dilation[i] != 1)
      return false;
  }
  return true;
}

/// A 1-D window as a 2-D one of height 1.
std::vector<int64_t> as2d(const std::vector<int64_t> &v, int64_t one) {
  if (v.size() == 2)
    return v;
  return {one, v[0]};
}

Value nativePool(NodeContext &n, Value x, const Window &w, PoolKind kind,
                 bool ceil, bool countIncludePad) {
  bool oneD = w.rank() == 1;
  auto s = NodeContext::shapeOf(x);
  if (oneD)
    x = n.reshape(x, {s[0], s[1], 1, s[2]});
  llvm::SmallVector<NamedAttribute> attrs{
      n.i64ArrayAttr("kernel_size", as2d(w.kernel, 1)),
      n.i64ArrayAttr("stride", as2d(w.stride, 1)),
      n.i64ArrayAttr("padding", as2d(w.padBegin, 0)),
      n.boolAttr("ceil_mode", ceil)};
  Value y;
  if (kind == PoolKind::Max) {
    attrs.push_back(n.i64ArrayAttr("dilation", as2d(w.dilation, 1)));
    y = n.create<tcc::MaxPool2dOp>(x, attrs);
  } else {
    attrs.push_back(n.boolAttr("count_include_pad", countIncludePad));
    y = n.create<tcc::AvgPool2dOp>(x, attrs);
  }
  if (!oneD)
    return y;
  auto ys = NodeContext::shapeOf(y);
  return n.reshape(y, {ys[0], ys[1], ys[3]});
}

/// For each output cell, 1 / the number of window cells an average
/// divides by: those inside the padded input with count_include_pad, else
/// those inside the input. Cells a ceil_mode window adds past the end
/// padding never count.
Value averageScale(NodeContext &n, ArrayRef<int64_t> in, const Window &w,
                   ArrayRef<int64_t> out, bool countIncludePad, Type t) {
  std::vector<std::vector<int64_t>> counts(w.rank());
  for (size_t d = 0; d < w.rank(); ++d) {
    int64_t lo = countIncludePad ? -w.padBegin[d] : 0;
    int64_t hi = countIncludePad ? in[d] + w.padEnd[d] : in[d];
    for (int64_t o = 0; o < out[d]; ++o) {
      int64_t count = 0;
      for (int64_t k = 0; k < w.kernel[d]; ++k) {
        int64_t p = o * w.stride[d] - w.padBegin[d] + k * w.dilation[d];
        count += p >= lo && p < hi;
      }
      counts[d].push_back(count);
    }
  }
  std::vector<int64_t> shape{1, 1};
  shape.insert(shape.end(), out.begin(), out.end());
  checkTableSize(n, RankedTensorType::get(shape, t).getNumElements(),
                 "the table of averaging divisors");
  ConstantData table = ConstantData::zeros(RankedTensorType::get(shape, t));
  for (int64_t i = 0; i < table.numElements(); ++i) {
    int64_t rest = i, cells = 1;
    for (size_t d = w.rank(); d-- > 0;) {
      cells *= counts[d][rest % out[d]];
      rest /= out[d];
    }
    table.setFloat(i, 1.0 / double(cells)); // 0 cells: inf, as 0/0 is NaN
  }
  return n.constant(table);
}

/// |x|^p.
Value absPow(NodeContext &n, Value x, int64_t p) {
  Type t = NodeContext::elementTypeOf(x);
  if (p == 2)
    return n.create<tcc::MulOp>({x, x});
  Value a = n.create<tcc::AbsOp>(x);
  return p == 1 ? a : n.create<tcc::PowOp>({a, n.scalar(double(p), t)});
}

/// s^(1/p).
Value root(NodeContext &n, Value s, int64_t p) {
  if (p == 2)
    return n.create<tcc::SqrtOp>(s);
  if (p == 1)
    return s;
  return n.create<tcc::PowOp>(
      {s, n.scalar(1.0 / double(p), NodeContext::elementTypeOf(s))});
}

/// MaxPool on integers runs on floats that hold every value exactly.
Type poolFloatType(NodeContext &n, Type t) {
  if (isa<FloatType>(t))
    return t;
  unsigned width = t.getIntOrFloatBitWidth();
  if (width > 32)
    n.fail("MaxPool on " + std::to_string(width) + "-bit integers is not "
           "supported");
  Builder b = n.builder();
  return width <= 16 ? Type(b.getF32Type()) : Type(b.getF64Type());
}

/// MaxPool's Indices: the flat index into the input of the first window
/// cell (in row-major window order) holding the max `y`. Each kernel
/// offset's cells are a strided slice of the padded input, with a constant
/// table of their input indices; a backwards scan of selects keeps the
/// first match.
Value maxIndices(NodeContext &n, Value x, Value y, const Window &w,
                 ArrayRef<int64_t> in, ArrayRef<int64_t> out,
                 ArrayRef<int64_t> end, bool columnMajor) {
  auto xs = NodeContext::shapeOf(x);
  size_t rank = w.rank();
  Value padded = padTrailing(n, x, w.padBegin, end,
                             -std::numeric_limits<double>::infinity());
  int64_t cells = 1, outCells = 1;
  for (size_t d = 0; d < rank; ++d) {
    cells *= w.kernel[d];
    outCells *= out[d];
  }
  // Input strides of the flat index, per storage order.
  std::vector<int64_t> inStride(rank, 1);
  for (size_t d = 0; d < rank; ++d)
    for (size_t e = 0; e < rank; ++e)
      if (columnMajor ? e < d : e > d)
        inStride[d] *= in[e];
  checkTableSize(n, outCells, "a table of argmax indices");
  checkTableSize(n, xs[0] * xs[1], "the table of image offsets");
  Type i64 = n.builder().getI64Type();
  std::vector<int64_t> tableShape{1, 1};
  tableShape.insert(tableShape.end(), out.begin(), out.end());
  Value indices;
  for (int64_t cell = cells - 1; cell >= 0; --cell) {
    std::vector<int64_t> k(rank);
    for (size_t d = rank, rest = cell; d-- > 0;) {
      k[d] = rest % w.kernel[d];
      rest /= w.kernel[d];
    }
    std::vector<int64_t> starts(xs.size(), 0), ends(NodeContext::shapeOf(padded)),
        steps(xs.size(), 1);
    for (size_t d = 0; d < rank; ++d) {
      starts[2 + d] = k[d] * w.dilation[d];
      ends[2 + d] = starts[2 + d] + (out[d] - 1) * w.stride[d] + 1;
      steps[2 + d] = w.stride[d];
    }
    Value candidate = n.create<tcc::SliceOp>(
        padded, {n.i64ArrayAttr("start", starts), n.i64ArrayAttr("end", ends),
                 n.i64ArrayAttr("step", steps)});
    ConstantData table = ConstantData::zeros(RankedTensorType::get(tableShape, i64));
    for (int64_t o = 0; o < outCells; ++o) {
      int64_t flat = 0;
      for (size_t d = rank, rest = o; d-- > 0;) {
        int64_t p = int64_t(rest % out[d]) * w.stride[d] - w.padBegin[d] +
                    k[d] * w.dilation[d];
        rest /= out[d];
        flat += std::clamp<int64_t>(p, 0, in[d] - 1) * inStride[d];
      }
      table.setInt(o, flat);
    }
    Value cellIndex = n.constant(table);
    indices = indices ? n.create<tcc::SelectOp>(
                            {n.create<tcc::EqOp>({candidate, y}), cellIndex, indices})
                      : n.broadcastTo(cellIndex, NodeContext::shapeOf(y));
  }
  // Each (batch, channel) image starts at its own offset.
  int64_t image = 1;
  for (int64_t d : in)
    image *= d;
  std::vector<int64_t> starts;
  for (int64_t c = 0; c < xs[0] * xs[1]; ++c)
    starts.push_back(c * image);
  std::vector<int64_t> startShape(xs.size(), 1);
  startShape[0] = xs[0];
  startShape[1] = xs[1];
  return n.create<tcc::AddOp>({indices, n.reshape(n.i64Vector(starts), startShape)});
}

template <PoolKind kind> void pool(NodeContext &n) {
  if (kind == PoolKind::Max) {
    n.checkAttrs({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "pads",
                  "storage_order", "strides"});
  } else if (kind == PoolKind::Average) {
    n.checkAttrs({"auto_pad", "ceil_mode", "count_include_pad", "dilations",
                  "kernel_shape", "pads", "strides"});
  } else {
    n.checkAttrs({"auto_pad", "ceil_mode", "dilations", "kernel_shape", "p",
                  "pads", "strides"});
  }
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  if (!n.hasAttr("kernel_shape"))
    n.fail("attribute 'kernel_shape' is required");
  Window w = readWindow(n, shape, n.intsAttr("kernel_shape"));
  // ONNX Runtime's rule: a window always covers part of the input.
  for (size_t i = 0; i < w.rank(); ++i)
    if (w.padBegin[i] >= w.extent(i) || w.padEnd[i] >= w.extent(i))
      n.fail("pads of spatial dim " + std::to_string(i) +
             " must be smaller than the window (" +
             std::to_string(w.extent(i)) + ")");
  bool ceil = n.intAttr("ceil_mode", 0);
  bool countIncludePad = n.intAttr("count_include_pad", 0);
  int64_t p = n.intAttr("p", 2);
  if (p < 1)
    n.fail("p must be at least 1");
  std::vector<int64_t> in(shape.begin() + 2, shape.end()), out;
  for (size_t i = 0; i < w.rank(); ++i) {
    out.push_back(outputSize(in[i], w, i, ceil));
    if (out.back() < 1)
      n.fail("the window does not fit spatial dim " + std::to_string(i) +
             " (size " + std::to_string(in[i]) + ") once padded");
  }
  Type type = NodeContext::elementTypeOf(x);
  Type work = kind == PoolKind::Max ? poolFloatType(n, type) : type;
  x = n.cast(x, work);
  Value y;
  // Pads so that every window lies inside, ceil_mode's last one included.
  std::vector<int64_t> end = w.padEnd;
  for (size_t i = 0; i < w.rank(); ++i)
    end[i] = std::max(end[i], (out[i] - 1) * w.stride[i] + w.extent(i) -
                                  in[i] - w.padBegin[i]);
  Value input = x;
  if (nativeWindow(w, kind)) {
    y = nativePool(n, x, w, kind, ceil, countIncludePad);
  } else {
    if (kind == PoolKind::Max) {
      x = padTrailing(n, x, w.padBegin, end,
                      -std::numeric_limits<double>::infinity());
      y = windowReduce(n, x, WindowReduction::Max, w.kernel, w.stride,
                       w.dilation);
    } else {
      if (kind == PoolKind::Lp)
        x = absPow(n, x, p);
      x = padTrailing(n, x, w.padBegin, end, 0.0);
      y = windowReduce(n, x, WindowReduction::Sum, w.kernel, w.stride,
                       w.dilation);
      if (kind == PoolKind::Lp)
        y = root(n, y, p);
      else
        y = n.create<tcc::MulOp>(
            {y, averageScale(n, in, w, out, countIncludePad, work)});
    }
  }
  n.setOutput(0, n.cast(y, type));
  if (n.wantsOutput(1)) {
    int64_t order = n.intAttr("storage_order", 0);
    if (order != 0 && order != 1)
      n.fail("storage_order must be 0 or 1");
    n.setOutput(1, maxIndices(n, input, y, w, in, out, end, order == 1));
  }
}

/// GlobalAveragePool / GlobalMaxPool / GlobalLpPool: a keepdim reduction
/// over the spatial dims.
template <PoolKind kind> void globalPool(NodeContext &n) {
  if (kind == PoolKind::Lp)
    n.checkAttrs({"p"});
  else
    n.checkAttrs({});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  if (rank < 3)
    n.fail("the input must have rank 3 or more");
  std::vector<int64_t> dims;
  for (int64_t d = 2; d < rank; ++d)
    dims.push_back(d);
  llvm::SmallVector<NamedAttribute> attrs{n.i64ArrayAttr("dims", dims),
                                          n.boolAttr("keepdim", true)};
  if (kind == PoolKind::Max) {
    n.setOutput(0, n.create<tcc::ReduceMaxOp>(x, attrs));
  } else if (kind == PoolKind::Average) {
    n.setOutput(0, n.create<tcc::ReduceMeanOp>(x, attrs));
  } else {
    int64_t p = n.intAttr("p", 2);
    if (p < 1)
      n.fail("p must be at least 1");
    n.setOutput(0, root(n, n.create<tcc::ReduceSumOp>(absPow(n, x, p), attrs), p));
  }
}

} // namespace

void mlir::tcc::onnx::registerPoolOps(OpTable &t) {
  t.add("MaxPool", 1, pool<PoolKind::Max>);
  t.add("AveragePool", 1, pool<PoolKind::Average>);
  t.add("LpPool", 1, pool<PoolKind::Lp>);
  t.add("GlobalAveragePool", 1, globalPool<PoolKind::Average>);
  t.add("GlobalMaxPool", 1, globalPool<PoolKind::Max>);
  t.add("GlobalLpPool", 1, globalPool<PoolKind::Lp>);
}
