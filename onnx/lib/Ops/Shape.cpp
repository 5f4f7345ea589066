//===- Shape.cpp - ONNX ops that move data or make constants --------------===//
//
// Constant, Shape, Reshape, Transpose, Squeeze/Unsqueeze, Flatten, Concat,
// Split, Slice, Gather, GatherElements, GatherND, Expand, Tile, Pad,
// DepthToSpace, SpaceToDepth, ConstantOfShape, Range, Size. Ops whose shape comes from an input (Reshape, Expand, Slice,
// ...) need that input to be known at import: an initializer, or computed
// from input shapes by the folding in NodeContext::create.
//
//===----------------------------------------------------------------------===//

#include "NodeContext.h"
#include "Constants.h"
#include "OpTable.h"
#include "TensorData.h"

#include "tcc/IR/TccOps.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::onnx;

namespace {

void constantOp(NodeContext &n) {
  n.checkAttrs({"value", "value_float", "value_floats", "value_int",
                "value_ints"});
  if (n.node().attribute_size() != 1)
    n.fail("a Constant needs exactly one value attribute");
  Builder b = n.builder();
  auto vector = [&](Type t, size_t size) {
    return ConstantData::zeros(RankedTensorType::get(
        {static_cast<int64_t>(size)}, t));
  };
  if (n.hasAttr("value")) {
    n.setOutput(0, n.constant(n.tensorAttr("value")));
  } else if (n.hasAttr("value_float")) {
    n.setOutput(0, n.scalar(n.floatAttr("value_float", 0), b.getF32Type()));
  } else if (n.hasAttr("value_int")) {
    // Exact, not through scalar()'s double: INT64_MAX is a common bound.
    ConstantData d = ConstantData::zeros(RankedTensorType::get({}, b.getI64Type()));
    d.setInt(0, n.intAttr("value_int"));
    n.setOutput(0, n.constant(d));
  } else if (n.hasAttr("value_floats")) {
    std::vector<float> v = n.floatsAttr("value_floats");
    ConstantData d = vector(b.getF32Type(), v.size());
    for (size_t i = 0; i < v.size(); ++i)
      d.setFloat(i, v[i]);
    n.setOutput(0, n.constant(d));
  } else if (n.hasAttr("value_ints")) {
    n.setOutput(0, n.i64Vector(n.intsAttr("value_ints")));
  } else {
    n.fail("its value attribute kind is not supported (sparse or string)");
  }
}

void shapeOp(NodeContext &n) {
  n.checkAttrs({"start", "end"});
  auto shape = NodeContext::shapeOf(n.input(0));
  int64_t rank = shape.size();
  auto clampIndex = [&](int64_t i) {
    if (i < 0)
      i += rank;
    return std::clamp<int64_t>(i, 0, rank);
  };
  int64_t start = clampIndex(n.intAttr("start", 0));
  int64_t end = clampIndex(n.intAttr("end", rank));
  std::vector<int64_t> dims;
  for (int64_t i = start; i < end; ++i)
    dims.push_back(shape[i]);
  n.setOutput(0, n.i64Vector(dims));
}

void sizeOp(NodeContext &n) {
  n.checkAttrs({});
  n.setOutput(0, n.scalar(double(NodeContext::typeOf(n.input(0)).getNumElements()),
                          n.builder().getI64Type()));
}

/// Reshape's target shape: 0 copies the input dim (unless allowzero), -1
/// is inferred.
void reshapeOp(NodeContext &n) {
  n.checkAttrs({"allowzero"});
  Value x = n.input(0);
  auto in = NodeContext::shapeOf(x);
  std::vector<int64_t> shape = n.intsInput(1, "shape");
  bool allowZero = n.intAttr("allowzero", 0);
  int64_t known = 1, inferred = -1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 0 && !allowZero) {
      if (i >= in.size())
        n.fail("shape entry " + std::to_string(i) + " is 0 (copy), but the input has rank " + std::to_string(in.size()));
      shape[i] = in[i];
    }
    if (shape[i] == -1) {
      if (inferred >= 0)
        n.fail("the shape has more than one -1");
      inferred = i;
    } else if (shape[i] < 0) {
      n.fail("shape entry " + std::to_string(shape[i]) + " is negative");
    } else if (llvm::MulOverflow(known, shape[i], known)) {
      n.fail("the shape's dims multiply beyond int64");
    }
  }
  int64_t total = NodeContext::typeOf(x).getNumElements();
  if (inferred >= 0) {
    if (known == 0 || total % known != 0)
      n.fail("cannot infer the -1 in the shape");
    shape[inferred] = total / known;
  }
  n.setOutput(0, n.reshape(x, shape));
}

void flatten(NodeContext &n) {
  n.checkAttrs({"axis"});
  Value x = n.input(0);
  auto in = NodeContext::shapeOf(x);
  int64_t rank = in.size();
  int64_t axis = n.intAttr("axis", 1);
  if (axis < -rank || axis > rank)
    n.fail("axis " + std::to_string(axis) + " is out of range");
  if (axis < 0)
    axis += rank;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < rank; ++i)
    (i < axis ? outer : inner) *= in[i];
  n.setOutput(0, n.reshape(x, {outer, inner}));
}

void transpose(NodeContext &n) {
  n.checkAttrs({"perm"});
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  std::vector<int64_t> perm;
  for (int64_t i = rank - 1; i >= 0; --i)
    perm.push_back(i);
  perm = n.intsAttr("perm", perm);
  for (int64_t &p : perm)
    p = n.normalizeAxis(p, rank, "perm entry");
  n.setOutput(0, n.create<tcc::TransposeOp>(x, {n.i64ArrayAttr("permutation", perm)}));
}

/// Axes from the attribute (before `inputSince`) or input 1, normalized
/// against `rank`.
std::vector<int64_t> axesOf(NodeContext &n, int64_t inputSince, int64_t rank) {
  std::vector<int64_t> axes;
  if (n.opset() < inputSince) {
    n.checkAttrs({"axes"});
    axes = n.intsAttr("axes");
  } else {
    n.checkAttrs({});
    if (n.hasInput(1))
      axes = n.intsInput(1, "axes");
  }
  axes = n.normalizeAxes(std::move(axes), rank);
  return axes;
}

void squeeze(NodeContext &n) {
  Value x = n.input(0);
  auto in = NodeContext::shapeOf(x);
  std::vector<int64_t> axes = axesOf(n, 13, in.size());
  std::vector<int64_t> shape;
  for (int64_t i = 0; i < static_cast<int64_t>(in.size()); ++i) {
    bool listed = std::binary_search(axes.begin(), axes.end(), i);
    if (listed && in[i] != 1)
      n.fail("dim " + std::to_string(i) + " has size " + std::to_string(in[i]) + ", not 1");
    if (!(listed || (axes.empty() && in[i] == 1)))
      shape.push_back(in[i]);
  }
  n.setOutput(0, n.reshape(x, shape));
}

void unsqueeze(NodeContext &n) {
  Value x = n.input(0);
  auto in = NodeContext::shapeOf(x);
  int64_t outRank = in.size();
  // Axes count against the output's rank.
  std::vector<int64_t> raw = n.opset() < 13 ? n.intsAttr("axes")
                                            : n.intsInput(1, "axes");
  outRank += raw.size();
  std::vector<int64_t> axes = axesOf(n, 13, outRank);
  std::vector<int64_t> shape;
  size_t next = 0;
  for (int64_t i = 0; i < outRank; ++i)
    shape.push_back(std::binary_search(axes.begin(), axes.end(), i) ? 1 : in[next++]);
  n.setOutput(0, n.reshape(x, shape));
}

void concat(NodeContext &n) {
  n.checkAttrs({"axis"});
  llvm::SmallVector<Value> inputs;
  for (size_t i = 0; i < n.numInputs(); ++i)
    if (n.hasInput(i))
      inputs.push_back(n.input(i));
  if (inputs.empty())
    n.fail("it has no inputs");
  int64_t axis = n.normalizeAxis(n.intAttr("axis"), NodeContext::rankOf(inputs[0]), "axis");
  // Empty tensors add nothing (and exporters emit them).
  llvm::SmallVector<Value> nonEmpty;
  for (Value v : inputs)
    if (NodeContext::typeOf(v).getNumElements() != 0)
      nonEmpty.push_back(v);
  if (nonEmpty.size() == 1) {
    n.setOutput(0, nonEmpty[0]);
    return;
  }
  n.setOutput(0, n.create<tcc::ConcatOp>(nonEmpty.empty() ? inputs : nonEmpty,
                                         {n.i64Attr("dim", axis)}));
}

Value sliceDim(NodeContext &n, Value x, int64_t dim, int64_t start, int64_t end,
               int64_t step) {
  auto shape = NodeContext::shapeOf(x);
  std::vector<int64_t> starts(shape.size(), 0), ends(shape.begin(), shape.end()),
      steps(shape.size(), 1);
  if (end <= start) { // nothing to read: an empty constant
    std::vector<int64_t> empty(shape.begin(), shape.end());
    empty[dim] = 0;
    return n.constant(ConstantData::zeros(
        RankedTensorType::get(empty, NodeContext::elementTypeOf(x))));
  }
  starts[dim] = start;
  ends[dim] = end;
  steps[dim] = step;
  return n.create<tcc::SliceOp>(x, {n.i64ArrayAttr("start", starts),
                                    n.i64ArrayAttr("end", ends),
                                    n.i64ArrayAttr("step", steps)});
}

void split(NodeContext &n) {
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  if (shape.empty())
    n.fail("a 0-dim input has no axis to split");
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), shape.size(), "axis");
  std::vector<int64_t> sizes;
  if (n.opset() < 13) {
    n.checkAttrs({"axis", "split"});
    sizes = n.intsAttr("split");
  } else {
    n.checkAttrs({"axis", "num_outputs"});
    if (n.hasInput(1))
      sizes = n.intsInput(1, "split");
  }
  int64_t parts = static_cast<int64_t>(n.numOutputs());
  int64_t size = shape[axis];
  if (sizes.empty()) {
    if (n.hasAttr("num_outputs") && n.intAttr("num_outputs") != parts)
      n.fail("num_outputs is " + std::to_string(n.intAttr("num_outputs")) +
             " for " + std::to_string(parts) + " outputs");
    if (parts < 1)
      n.fail("it has no outputs");
    int64_t chunk = (size + parts - 1) / parts; // the last part may be smaller
    for (int64_t i = 0; i < parts; ++i)
      sizes.push_back(std::max<int64_t>(0, std::min(chunk, size - i * chunk)));
  }
  if (static_cast<int64_t>(sizes.size()) != static_cast<int64_t>(n.numOutputs()))
    n.fail("split has " + std::to_string(sizes.size()) + " sizes for " +
           std::to_string(n.numOutputs()) + " outputs");
  int64_t offset = 0;
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (sizes[i] < 0 || sizes[i] > size - offset)
      n.fail("split sizes exceed the dim");
    n.setOutput(i, sliceDim(n, x, axis, offset, offset + sizes[i], 1));
    offset += sizes[i];
  }
  if (offset != size)
    n.fail("split sizes add up to " + std::to_string(offset) + ", not " + std::to_string(size));
}

void slice(NodeContext &n) {
  Value x = n.input(0);
  auto shape = NodeContext::shapeOf(x);
  int64_t rank = shape.size();
  std::vector<int64_t> starts, ends, axes, steps;
  if (n.opset() < 10) {
    n.checkAttrs({"starts", "ends", "axes"});
    starts = n.intsAttr("starts");
    ends = n.intsAttr("ends");
    axes = n.intsAttr("axes");
  } else {
    n.checkAttrs({});
    starts = n.intsInput(1, "starts");
    ends = n.intsInput(2, "ends");
    if (n.hasInput(3)) axes = n.intsInput(3, "axes");
    if (n.hasInput(4)) steps = n.intsInput(4, "steps");
  }
  if (axes.empty())
    for (size_t i = 0; i < starts.size(); ++i)
      axes.push_back(i);
  if (steps.empty())
    steps.assign(starts.size(), 1);
  if (ends.size() != starts.size() || axes.size() != starts.size() ||
      steps.size() != starts.size())
    n.fail("starts, ends, axes and steps differ in length");
  std::vector<int64_t> seen;
  for (size_t i = 0; i < axes.size(); ++i) {
    if (rank == 0)
      n.fail("a 0-dim input has no axes to slice");
    int64_t axis = n.normalizeAxis(axes[i], rank, "axis");
    if (std::find(seen.begin(), seen.end(), axis) != seen.end())
      n.fail("axes repeat a dim");
    seen.push_back(axis);
    int64_t dim = shape[axis], step = steps[i];
    if (step == 0)
      n.fail("a step is 0");
    auto resolve = [&](int64_t v, int64_t lo, int64_t hi) {
      if (v < 0)
        v = v < std::numeric_limits<int64_t>::min() + dim ? lo : v + dim;
      return std::clamp(v, lo, hi);
    };
    if (step > 0) {
      int64_t s = resolve(starts[i], 0, dim), e = resolve(ends[i], 0, dim);
      x = sliceDim(n, x, axis, s, std::max(s, e), step);
    } else {
      // A negative step: reverse by gathering the chosen indices.
      int64_t s = resolve(starts[i], -1, dim - 1), e = resolve(ends[i], -1, dim - 1);
      int64_t stride = step == std::numeric_limits<int64_t>::min()
                           ? std::numeric_limits<int64_t>::max()
                           : -step;
      checkTableSize(n, s > e ? (s - e - 1) / stride + 1 : 0,
                     "the reversed index vector");
      std::vector<int64_t> indices;
      for (int64_t k = s; k > e; k += step)
        indices.push_back(k);
      if (indices.empty()) {
        x = sliceDim(n, x, axis, 0, 0, 1);
        continue;
      }
      x = n.create<tcc::IndexSelectOp>({x, n.i64Vector(indices)},
                                       {n.i64Attr("dim", axis)});
    }
  }
  n.setOutput(0, x);
}

/// Indices made non-negative against `size` (ONNX allows [-size, size)).
Value wrapIndices(NodeContext &n, Value indices, int64_t size) {
  Type t = NodeContext::elementTypeOf(indices);
  if (std::optional<ConstantData> c = constantValueOf(indices)) {
    for (int64_t i = 0; i < c->numElements(); ++i) {
      int64_t v = c->getInt(i);
      if (v < -size || v >= size)
        n.fail("index " + std::to_string(v) + " is out of range for a dim of size " + std::to_string(size));
      c->setInt(i, v < 0 ? v + size : v);
    }
    return n.constant(*c);
  }
  Value zero = n.scalar(0, t);
  return n.create<tcc::SelectOp>(
      {n.create<tcc::LtOp>({indices, zero}),
       n.create<tcc::AddOp>({indices, n.scalar(double(size), t)}), indices});
}

void gather(NodeContext &n) {
  n.checkAttrs({"axis"});
  Value data = n.input(0), indices = n.input(1);
  auto ds = NodeContext::shapeOf(data);
  auto is = NodeContext::shapeOf(indices);
  if (ds.empty())
    n.fail("its data is 0-dim; it needs at least one dim");
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), ds.size(), "axis");
  indices = wrapIndices(n, indices, ds[axis]);
  std::vector<int64_t> outShape(ds.begin(), ds.begin() + axis);
  outShape.insert(outShape.end(), is.begin(), is.end());
  outShape.insert(outShape.end(), ds.begin() + axis + 1, ds.end());
  int64_t count = NodeContext::typeOf(indices).getNumElements();
  // Small constant data with constant indices (shape arithmetic): computed
  // here, so that later nodes can read the result.
  std::optional<ConstantData> cd = constantValueOf(data), ci = constantValueOf(indices);
  if (cd && ci && cd->numElements() <= (1 << 16) &&
      n.isComputable(outShape)) {
    int64_t inner = 1, outer = 1;
    for (size_t d = axis + 1; d < ds.size(); ++d) inner *= ds[d];
    for (int64_t d = 0; d < axis; ++d) outer *= ds[d];
    ConstantData out = n.zeros(outShape, NodeContext::elementTypeOf(data));
    int64_t eb = cd->elementBytes();
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t k = 0; k < count; ++k)
        std::memcpy(out.bytes.data() + ((o * count + k) * inner) * eb,
                    cd->bytes.data() + ((o * ds[axis] + ci->getInt(k)) * inner) * eb,
                    inner * eb);
    n.setOutput(0, n.constant(out));
    return;
  }
  Value flat = n.reshape(indices, {count});
  Value y = n.create<tcc::IndexSelectOp>({data, flat}, {n.i64Attr("dim", axis)});
  n.setOutput(0, n.reshape(y, outShape));
}

void gatherElements(NodeContext &n) {
  n.checkAttrs({"axis"});
  Value data = n.input(0), indices = n.input(1);
  auto ds = NodeContext::shapeOf(data);
  if (ds.empty())
    n.fail("its data is 0-dim; it needs at least one dim");
  int64_t axis = n.normalizeAxis(n.intAttr("axis", 0), ds.size(), "axis");
  indices = wrapIndices(n, indices, ds[axis]);
  n.setOutput(0, n.create<tcc::GatherOp>({data, indices}, {n.i64Attr("dim", axis)}));
}

void expand(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  std::vector<int64_t> shape = n.intsInput(1, "shape");
  n.setOutput(0, n.broadcastTo(x, n.broadcastShapes(NodeContext::shapeOf(x), shape)));
}

void tile(NodeContext &n) {
  n.checkAttrs({});
  Value x = n.input(0);
  auto in = NodeContext::shapeOf(x);
  std::vector<int64_t> repeats = n.intsInput(1, "repeats");
  if (repeats.size() != in.size())
    n.fail("repeats has " + std::to_string(repeats.size()) + " entries for rank " + std::to_string(in.size()));
  // [d0, d1] -> [1, d0, 1, d1] -> broadcast [r0, d0, r1, d1] -> [r0*d0, r1*d1]
  std::vector<int64_t> interleaved, broadcast, out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (repeats[i] < 0)
      n.fail("a repeat count is negative");
    interleaved.insert(interleaved.end(), {1, in[i]});
    broadcast.insert(broadcast.end(), {repeats[i], in[i]});
  }
  // The broadcast is checked against the size limits before any product.
  Value y = n.broadcastTo(n.reshape(x, interleaved), broadcast);
  for (size_t i = 0; i < in.size(); ++i)
    out.push_back(repeats[i] * in[i]);
  n.setOutput(0, n.reshape(y, out));
}

/// The source index of position `p` (in [-begin, size + end)) of a dim of
/// `size` padded in `mode`: reflect mirrors without repeating the edge (as
/// numpy.pad), edge repeats it, wrap continues periodically.
int64_t padSource(const std::string &mode, int64_t p, int64_t size) {
  if (mode == "edge" || size == 1)
    return std::clamp<int64_t>(p, 0, size - 1);
  if (mode == "wrap")
    return ((p % size) + size) % size;
  int64_t period = 2 * (size - 1);
  int64_t m = ((p % period) + period) % period;
  return m < size ? m : period - m;
}

/// Reflect, edge and wrap padding: an index_select per padded dim with the
/// source indices.
Value padByIndex(NodeContext &n, Value x, const std::string &mode,
                 llvm::ArrayRef<int64_t> begin, llvm::ArrayRef<int64_t> end) {
  for (size_t d = 0; d < begin.size(); ++d) {
    if (begin[d] == 0 && end[d] == 0)
      continue;
    int64_t size = NodeContext::shapeOf(x)[d];
    if (size == 0)
      n.fail("mode '" + mode + "' cannot pad the empty dim " + std::to_string(d));
    checkTableSize(n, size + begin[d] + end[d],
                   "the index vector of padded dim " + std::to_string(d));
    std::vector<int64_t> indices;
    for (int64_t p = -begin[d]; p < size + end[d]; ++p)
      indices.push_back(padSource(mode, p, size));
    if (indices.empty())
      n.fail("the pads leave nothing of dim " + std::to_string(d));
    x = n.create<tcc::IndexSelectOp>({x, n.i64Vector(indices)},
                                     {n.i64Attr("dim", int64_t(d))});
  }
  return x;
}

void pad(NodeContext &n) {
  Value x = n.input(0);
  int64_t rank = NodeContext::rankOf(x);
  std::vector<int64_t> pads;
  double value = 0;
  std::string mode = n.stringAttr("mode", "constant");
  if (n.opset() < 11) {
    n.checkAttrs({"mode", "pads", "value"});
    pads = n.intsAttr("pads");
    value = n.floatAttr("value", 0);
  } else {
    n.checkAttrs({"mode"});
    pads = n.intsInput(1, "pads");
    if (n.hasInput(2)) {
      std::vector<double> v = n.floatsInput(2, "constant_value");
      if (v.size() != 1)
        n.fail("constant_value must hold one value");
      value = v[0];
    }
  }
  if (mode != "constant" && mode != "reflect" && mode != "edge" &&
      mode != "wrap")
    n.fail("mode '" + mode + "' is not constant, reflect, edge or wrap");
  std::vector<int64_t> axes;
  if (n.opset() >= 18 && n.hasInput(3))
    axes = n.intsInput(3, "axes");
  else
    for (int64_t i = 0; i < rank; ++i)
      axes.push_back(i);
  if (pads.size() != 2 * axes.size())
    n.fail("pads has " + std::to_string(pads.size()) + " entries for " +
           std::to_string(axes.size()) + " axes");
  std::vector<int64_t> begin(rank, 0), end(rank, 0);
  for (size_t i = 0; i < axes.size(); ++i) {
    if (rank == 0)
      n.fail("a 0-dim input has no axes to pad");
    int64_t a = n.normalizeAxis(axes[i], rank, "axis");
    begin[a] = pads[i];
    end[a] = pads[i + axes.size()];
  }
  if (mode != "constant") {
    n.setOutput(0, padByIndex(n, x, mode, begin, end));
    return;
  }
  // tcc.pad's list runs last dim first.
  std::vector<int64_t> list;
  for (int64_t d = rank - 1; d >= 0; --d)
    list.insert(list.end(), {begin[d], end[d]});
  n.setOutput(0, n.create<tcc::PadOp>(x, {n.i64ArrayAttr("pad", list),
                                          n.f64Attr("value", value)}));
}

void constantOfShape(NodeContext &n) {
  n.checkAttrs({"value"});
  std::vector<int64_t> shape = n.intsInput(0, "shape");
  ConstantData fill = n.hasAttr("value")
                          ? n.tensorAttr("value")
                          : ConstantData::zeros(RankedTensorType::get(
                                {1}, n.builder().getF32Type()));
  if (fill.numElements() != 1)
    n.fail("value must hold one element");
  if (std::string problem = checkShape(shape); !problem.empty())
    n.fail("its shape: " + problem);
  n.setOutput(0, n.splat(fill, shape));
}

void range(NodeContext &n) {
  n.checkAttrs({});
  std::vector<double> start = n.floatsInput(0, "start"), limit = n.floatsInput(1, "limit"),
                      delta = n.floatsInput(2, "delta");
  if (start.size() != 1 || limit.size() != 1 || delta.size() != 1)
    n.fail("start, limit and delta must be scalars");
  if (delta[0] == 0)
    n.fail("delta is 0");
  double count = std::ceil((limit[0] - start[0]) / delta[0]);
  if (std::isnan(count))
    n.fail("start, limit and delta give no element count (NaN)");
  if (count > double(kMaxComputedElements))
    n.fail("the range has more than " + std::to_string(kMaxComputedElements) +
           " elements");
  int64_t size = count > 0 ? static_cast<int64_t>(count) : 0;
  Type t = NodeContext::elementTypeOf(n.input(0));
  ConstantData out = n.zeros({size}, t);
  bool isFloat = isa<FloatType>(t);
  if (!isFloat && !(std::abs(start[0]) + std::abs(delta[0]) * double(size) <
                    0x1p62))
    n.fail("the range's values do not fit in int64");
  for (int64_t i = 0; i < size; ++i) {
    if (isFloat)
      out.setFloat(i, start[0] + double(i) * delta[0]);
    else
      out.setInt(i, static_cast<int64_t>(start[0]) + i * static_cast<int64_t>(delta[0]));
  }
  n.setOutput(0, n.constant(out));
}

/// [N, C, H, W] viewed as `split`, permuted by `perm`, reshaped to `out`.
Value rearrange(NodeContext &n, Value x, llvm::ArrayRef<int64_t> split,
                llvm::ArrayRef<int64_t> perm, llvm::ArrayRef<int64_t> out) {
  Value v = n.create<tcc::TransposeOp>(n.reshape(x, split),
                                       {n.i64ArrayAttr("permutation", perm)});
  return n.reshape(v, out);
}

/// Reads blocksize and mode of DepthToSpace / SpaceToDepth on [N, C, H, W].
int64_t blockSize(NodeContext &n, Value x, bool *crd) {
  n.checkAttrs({"blocksize", "mode"});
  if (NodeContext::rankOf(x) != 4)
    n.fail("the input must have rank 4");
  int64_t b = n.intAttr("blocksize");
  if (b < 1)
    n.fail("blocksize must be at least 1");
  std::string mode = n.stringAttr("mode", "DCR");
  if (mode != "DCR" && mode != "CRD")
    n.fail("mode '" + mode + "' is not DCR or CRD");
  *crd = mode == "CRD";
  return b;
}

/// DCR: channel (bh * b + bw) * C' + c moves to (h * b + bh, w * b + bw);
/// CRD: channel c * b * b + bh * b + bw does.
void depthToSpace(NodeContext &n) {
  Value x = n.input(0);
  bool crd;
  int64_t b = blockSize(n, x, &crd);
  auto s = NodeContext::shapeOf(x);
  if (s[1] % (b * b) != 0)
    n.fail("the channels are not a multiple of blocksize^2");
  int64_t c = s[1] / (b * b);
  std::vector<int64_t> out{s[0], c, s[2] * b, s[3] * b};
  n.setOutput(0, crd ? rearrange(n, x, {s[0], c, b, b, s[2], s[3]},
                                 {0, 1, 4, 2, 5, 3}, out)
                     : rearrange(n, x, {s[0], b, b, c, s[2], s[3]},
                                 {0, 3, 4, 1, 5, 2}, out));
}

/// The inverse of DepthToSpace in the same mode.
void spaceToDepth(NodeContext &n) {
  Value x = n.input(0);
  bool crd;
  int64_t b = blockSize(n, x, &crd);
  auto s = NodeContext::shapeOf(x);
  if (s[2] % b != 0 || s[3] % b != 0)
    n.fail("the height and width are not multiples of blocksize");
  std::vector<int64_t> split{s[0], s[1], s[2] / b, b, s[3] / b, b};
  std::vector<int64_t> out{s[0], s[1] * b * b, s[2] / b, s[3] / b};
  n.setOutput(0, crd ? rearrange(n, x, split, {0, 1, 3, 5, 2, 4}, out)
                     : rearrange(n, x, split, {0, 3, 5, 1, 2, 4}, out));
}

/// GatherND as one index_select: the index tuples (and the batch position)
/// become row numbers of data flattened to [rows, slice...].
void gatherND(NodeContext &n) {
  n.checkAttrs({"batch_dims"});
  Value data = n.input(0), indices = n.input(1);
  auto ds = NodeContext::shapeOf(data);
  auto is = NodeContext::shapeOf(indices);
  int64_t batchDims = n.intAttr("batch_dims", 0);
  if (is.empty())
    n.fail("indices must have rank 1 or more");
  int64_t k = is.back();
  if (batchDims < 0 || batchDims + k > int64_t(ds.size()) ||
      batchDims >= int64_t(is.size()))
    n.fail("batch_dims and the index tuple length do not fit the data's rank");
  for (int64_t d = 0; d < batchDims; ++d)
    if (ds[d] != is[d])
      n.fail("batch dim " + std::to_string(d) + " differs between data and indices");
  int64_t batch = 1, tuples = 1, slice = 1;
  for (int64_t d = 0; d < batchDims; ++d)
    batch *= ds[d];
  for (int64_t d = batchDims; d + 1 < int64_t(is.size()); ++d)
    tuples *= is[d];
  std::vector<int64_t> sliceShape(ds.begin() + batchDims + k, ds.end());
  for (int64_t d : sliceShape)
    slice *= d;
  int64_t rowsPerBatch = 1;
  for (int64_t d = batchDims; d < batchDims + k; ++d)
    rowsPerBatch *= ds[d];
  Type i64 = n.builder().getI64Type();
  Value idx = n.reshape(n.cast(indices, i64), {batch, tuples, k});
  // Negative indices count from the end of their dim.
  std::vector<int64_t> dims(ds.begin() + batchDims, ds.begin() + batchDims + k),
      strides(k, 1);
  for (int64_t j = k - 1; j > 0; --j)
    strides[j - 1] = strides[j] * dims[j];
  Value dimSizes = n.reshape(n.i64Vector(dims), {1, 1, k});
  idx = n.create<tcc::SelectOp>(
      {n.create<tcc::LtOp>({idx, n.scalar(0, i64)}),
       n.create<tcc::AddOp>({idx, dimSizes}), idx});
  Value rows = n.create<tcc::MulOp>({idx, n.reshape(n.i64Vector(strides), {1, 1, k})});
  rows = k == 0 ? n.broadcastTo(n.scalar(0, i64), {batch, tuples})
                : n.create<tcc::ReduceSumOp>(
                      rows, {n.i64ArrayAttr("dims", {2}), n.boolAttr("keepdim", false)});
  checkTableSize(n, batch, "the table of batch offsets");
  std::vector<int64_t> batchStart;
  for (int64_t b = 0; b < batch; ++b)
    batchStart.push_back(b * rowsPerBatch);
  rows = n.create<tcc::AddOp>({rows, n.reshape(n.i64Vector(batchStart), {batch, 1})});
  Value table = n.reshape(data, {batch * rowsPerBatch, slice});
  Value y = n.create<tcc::IndexSelectOp>({table, n.reshape(rows, {batch * tuples})},
                                         {n.i64Attr("dim", 0)});
  std::vector<int64_t> outShape(is.begin(), is.end() - 1);
  outShape.insert(outShape.end(), sliceShape.begin(), sliceShape.end());
  n.setOutput(0, n.reshape(y, outShape));
}

} // namespace

void mlir::tcc::onnx::registerShapeOps(OpTable &t) {
  t.add("Constant", 1, constantOp);
  t.add("Shape", 1, shapeOp);
  t.add("Size", 1, sizeOp);
  t.add("Reshape", 5, reshapeOp);
  t.add("Flatten", 1, flatten);
  t.add("Transpose", 1, transpose);
  t.add("Squeeze", 1, squeeze);
  t.add("Unsqueeze", 1, unsqueeze);
  t.add("Concat", 1, concat);
  t.add("Split", 1, split);
  t.add("Slice", 1, slice);
  t.add("Gather", 1, gather);
  t.add("GatherElements", 1, gatherElements);
  t.add("Expand", 1, expand);
  t.add("Tile", 1, tile);
  t.add("Pad", 1, pad);
  t.add("ConstantOfShape", 1, constantOfShape);
  t.add("Range", 1, range);
  t.add("DepthToSpace", 1, depthToSpace);
  t.add("SpaceToDepth", 1, spaceToDepth);
  t.add("GatherND", 1, gatherND);
}
