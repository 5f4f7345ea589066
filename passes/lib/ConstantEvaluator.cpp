//===- ConstantEvaluator.cpp - Evaluating tcc ops on constants ------------===//

#include "tcc/Passes/ConstantEvaluator.h"

#include "tcc/IR/ScalarSemantics.h"
#include "tcc/IR/TccOps.h"
#include "tcc/runtime/ScalarOps.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace mlir::tcc;

namespace {

using Shape = SmallVector<int64_t>;

Shape rowMajorStrides(ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 1);
  for (int64_t d = int64_t(shape.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * shape[d + 1];
  return strides;
}

/// Walks the elements of a result shape in row-major order while keeping,
/// for each of several operands, the element offset that maps to the
/// current position (through per-dim strides: 0 on broadcast dims).
class StridedWalk {
public:
  StridedWalk(ArrayRef<int64_t> shape, SmallVector<Shape> strides,
              SmallVector<int64_t> bases)
      : shape(shape), strides(std::move(strides)), offsets(std::move(bases)),
        index(shape.size(), 0) {}

  ArrayRef<int64_t> current() const { return offsets; }

  /// Moves to the next position (row-major).
  void next() {
    for (int64_t d = int64_t(shape.size()) - 1; d >= 0; --d) {
      for (size_t k = 0; k < offsets.size(); ++k)
        offsets[k] += strides[k][d];
      if (++index[d] < shape[d])
        return;
      for (size_t k = 0; k < offsets.size(); ++k)
        offsets[k] -= strides[k][d] * shape[d];
      index[d] = 0;
    }
  }

private:
  ArrayRef<int64_t> shape;
  SmallVector<Shape> strides;
  SmallVector<int64_t> offsets;
  Shape index;
};

/// Strides that read an operand of `operandShape` broadcast to `shape`.
Shape broadcastStrides(ArrayRef<int64_t> operandShape,
                       ArrayRef<int64_t> shape) {
  Shape strides(shape.size(), 0), own = rowMajorStrides(operandShape);
  int64_t offset = int64_t(shape.size()) - int64_t(operandShape.size());
  for (size_t d = 0; d < operandShape.size(); ++d)
    if (operandShape[d] != 1)
      strides[offset + d] = own[d];
  return strides;
}

/// The result of `type` whose element at each position is the element of
/// `in` at `base + sum(index[d] * strides[d])`.
ConstantData gather(const ConstantData &in, RankedTensorType type, int64_t base,
                    Shape strides) {
  ConstantData out{type, {}};
  int64_t size = in.elementBytes(), count = type.getNumElements();
  out.bytes.resize(count * size);
  StridedWalk walk(type.getShape(), {std::move(strides)}, {base});
  for (int64_t i = 0; i < count; ++i, walk.next())
    std::memcpy(out.bytes.data() + i * size,
                in.bytes.data() + walk.current()[0] * size, size);
  return out;
}

RankedTensorType resultType(Operation *op) {
  return cast<RankedTensorType>(op->getResult(0).getType());
}

bool isFloat(ElementKind kind) {
  return kind == ElementKind::F32 || kind == ElementKind::F64 ||
         kind == ElementKind::F16 || kind == ElementKind::BF16;
}

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

ConstantData broadcastTo(const ConstantData &in, RankedTensorType type) {
  return gather(in, type, 0,
                broadcastStrides(in.type.getShape(), type.getShape()));
}

ConstantData slice(const ConstantData &in, SliceOp op) {
  Shape own = rowMajorStrides(in.type.getShape()), strides;
  int64_t base = 0;
  for (size_t d = 0; d < own.size(); ++d) {
    base += op.getStart()[d] * own[d];
    strides.push_back(op.getStep()[d] * own[d]);
  }
  return gather(in, resultType(op), base, strides);
}

ConstantData concat(ArrayRef<ConstantData> inputs, ConcatOp op) {
  RankedTensorType type = resultType(op);
  int64_t rank = type.getRank();
  auto dim = static_cast<int64_t>(op.getDim()); // may still be negative
  if (dim < 0)
    dim += rank;
  int64_t outer = 1;
  for (int64_t d = 0; d < dim; ++d)
    outer *= type.getDimSize(d);
  ConstantData out{type, {}};
  out.bytes.reserve(type.getNumElements() * inputs.front().elementBytes());
  for (int64_t o = 0; o < outer; ++o) {
    for (const ConstantData &in : inputs) {
      int64_t chunk = int64_t(in.bytes.size()) / std::max<int64_t>(outer, 1);
      const char *from = in.bytes.data() + o * chunk;
      out.bytes.insert(out.bytes.end(), from, from + chunk);
    }
  }
  return out;
}

/// Stores `value` (an attribute's double) as element `i`.
void storeScalar(ConstantData &data, int64_t i, double value) {
  if (isFloat(data.kind()))
    data.setFloat(i, value);
  else
    data.setInt(i, static_cast<int64_t>(value));
}

ConstantData pad(const ConstantData &in, PadOp op) {
  RankedTensorType type = resultType(op);
  int64_t rank = type.getRank();
  ArrayRef<int64_t> padList = op.getPad();
  Shape low(rank, 0);
  for (size_t i = 0; i < padList.size() / 2; ++i)
    low[rank - 1 - i] = padList[2 * i];
  ConstantData out = ConstantData::zeros(type);
  int64_t size = in.elementBytes(), count = type.getNumElements();
  if (count == 0)
    return out;
  storeScalar(out, 0, op.getValue().convertToDouble());
  for (int64_t i = 1; i < count; ++i)
    std::memcpy(out.bytes.data() + i * size, out.bytes.data(), size);
  Shape inStrides = rowMajorStrides(in.type.getShape()), index(rank, 0);
  for (int64_t i = 0; i < count; ++i) {
    int64_t from = 0;
    bool inside = true;
    for (int64_t d = 0; d < rank && inside; ++d) {
      int64_t source = index[d] - low[d];
      inside = source >= 0 && source < in.type.getDimSize(d);
      from += source * inStrides[d];
    }
    if (inside)
      std::memcpy(out.bytes.data() + i * size, in.bytes.data() + from * size,
                  size);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < type.getDimSize(d))
        break;
      index[d] = 0;
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Cast
//===----------------------------------------------------------------------===//

/// Converts as Tensor.to(dtype): floats to integers truncate toward zero
/// (nullopt when out of range or NaN), anything to i1 tests for non-zero.
std::optional<ConstantData> castTo(const ConstantData &in,
                                   RankedTensorType type) {
  ConstantData out = ConstantData::zeros(type);
  ElementKind from = in.kind(), to = out.kind();
  for (int64_t i = 0; i < in.numElements(); ++i) {
    if (to == ElementKind::Bool) {
      out.setInt(i, isFloat(from) ? ::tcc::scalar::toBool(in.getFloat(i))
                                  : ::tcc::scalar::toBool(in.getInt(i)));
    } else if (isFloat(to)) {
      if (isFloat(from)) {
        out.setFloat(i, in.getFloat(i));
        continue;
      }
      // Round the integer once, in the target's precision.
      APFloat value(out.kind() == ElementKind::F64   ? APFloat::IEEEdouble()
                    : out.kind() == ElementKind::F32 ? APFloat::IEEEsingle()
                    : out.kind() == ElementKind::F16 ? APFloat::IEEEhalf()
                                                     : APFloat::BFloat());
      value.convertFromAPInt(APInt(64, in.getInt(i), /*isSigned=*/true),
                             from == ElementKind::Signed,
                             APFloat::rmNearestTiesToEven);
      out.setFloat(i, value.convertToDouble());
    } else if (isFloat(from)) {
      std::optional<int64_t> v = ::tcc::scalar::floatToInteger(
          in.getFloat(i), type.getElementTypeBitWidth(),
          to == ElementKind::Unsigned);
      if (!v)
        return std::nullopt;
      out.setInt(i, *v);
    } else {
      out.setInt(i, in.getInt(i));
    }
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Pointwise arithmetic, through the scalar semantics table
//===----------------------------------------------------------------------===//

/// How the scalar functions see `data`'s integer elements (getInt already
/// sign- or zero-extends them).
std::optional<IntElement> intElement(const ConstantData &data) {
  return intElementOf(data.type.getElementType());
}

std::optional<ConstantData> applyUnary(const ConstantData &in,
                                       const ScalarFunctions &fns,
                                       RankedTensorType type) {
  ConstantData out = ConstantData::zeros(type);
  if (isFloat(in.kind())) {
    if (!fns.floatUnary)
      return std::nullopt;
    for (int64_t i = 0; i < in.numElements(); ++i)
      out.setFloat(i, fns.floatUnary(in.getFloat(i)));
    return out;
  }
  std::optional<IntElement> kind = intElement(in);
  if (!fns.intUnary || !kind)
    return std::nullopt;
  for (int64_t i = 0; i < in.numElements(); ++i) {
    std::optional<int64_t> r = fns.intUnary(in.getInt(i), *kind);
    if (!r)
      return std::nullopt;
    out.setInt(i, *r);
  }
  return out;
}

std::optional<ConstantData> applyBinary(const ConstantData &lhs,
                                        const ConstantData &rhs,
                                        const ScalarFunctions &fns,
                                        RankedTensorType type) {
  bool floats = isFloat(lhs.kind());
  std::optional<IntElement> kind = intElement(lhs);
  if (floats ? !fns.floatBinary : (!fns.intBinary || !kind))
    return std::nullopt;
  ConstantData out = ConstantData::zeros(type);
  bool floatResult = isFloat(out.kind());
  ArrayRef<int64_t> shape = type.getShape();
  StridedWalk walk(shape,
                   {broadcastStrides(lhs.type.getShape(), shape),
                    broadcastStrides(rhs.type.getShape(), shape)},
                   {0, 0});
  for (int64_t i = 0; i < out.numElements(); ++i, walk.next()) {
    int64_t a = walk.current()[0], b = walk.current()[1];
    if (floats) {
      double r = fns.floatBinary(lhs.getFloat(a), rhs.getFloat(b));
      if (floatResult)
        out.setFloat(i, r);
      else
        out.setInt(i, r != 0.0); // a comparison
      continue;
    }
    std::optional<int64_t> r = fns.intBinary(lhs.getInt(a), rhs.getInt(b), *kind);
    if (!r)
      return std::nullopt;
    out.setInt(i, *r);
  }
  return out;
}

ConstantData select(ArrayRef<ConstantData> operands, RankedTensorType type) {
  const ConstantData &cond = operands[0];
  ArrayRef<int64_t> shape = type.getShape();
  SmallVector<Shape> strides;
  for (const ConstantData &operand : operands)
    strides.push_back(broadcastStrides(operand.type.getShape(), shape));
  ConstantData out = ConstantData::zeros(type);
  int64_t size = out.elementBytes();
  StridedWalk walk(shape, std::move(strides), {0, 0, 0});
  for (int64_t i = 0; i < out.numElements(); ++i, walk.next()) {
    ArrayRef<int64_t> at = walk.current();
    const ConstantData &chosen = cond.getInt(at[0]) ? operands[1] : operands[2];
    int64_t from = cond.getInt(at[0]) ? at[1] : at[2];
    std::memcpy(out.bytes.data() + i * size, chosen.bytes.data() + from * size,
                size);
  }
  return out;
}

} // namespace

ConstantData mlir::tcc::transposeConstant(const ConstantData &in,
                                          ArrayRef<int64_t> permutation) {
  Shape own = rowMajorStrides(in.type.getShape()), strides, shape;
  for (int64_t p : permutation) {
    strides.push_back(own[p]);
    shape.push_back(in.type.getDimSize(p));
  }
  auto type = RankedTensorType::get(shape, in.type.getElementType());
  return gather(in, type, 0, strides);
}

std::optional<ConstantData>
mlir::tcc::evaluateConstantOp(Operation *op, ArrayRef<ConstantData> operands) {
  if (op->getNumResults() != 1 || operands.empty() ||
      !isa<RankedTensorType>(op->getResult(0).getType()))
    return std::nullopt;
  RankedTensorType type = resultType(op);
  const ConstantData &first = operands.front();
  using Result = std::optional<ConstantData>;
  Result moved =
      llvm::TypeSwitch<Operation *, Result>(op)
          .Case([&](ReshapeOp) {
            return ConstantData{type, first.bytes};
          })
          .Case([&](TransposeOp t) {
            return transposeConstant(first, t.getPermutation());
          })
          .Case([&](BroadcastToOp) { return broadcastTo(first, type); })
          .Case([&](SliceOp s) { return slice(first, s); })
          .Case([&](ConcatOp c) { return concat(operands, c); })
          .Case([&](PadOp p) { return pad(first, p); })
          .Case([&](CastOp) { return castTo(first, type); })
          .Case([&](BitcastOp) { return ConstantData{type, first.bytes}; })
          .Case([&](SelectOp) { return select(operands, type); })
          .Default([](Operation *) { return std::nullopt; });
  if (moved)
    return moved;
  std::optional<ScalarFunctions> fns = scalarFunctions(op);
  if (!fns)
    return std::nullopt;
  if (operands.size() == 1)
    return applyUnary(first, *fns, type);
  if (operands.size() == 2)
    return applyBinary(operands[0], operands[1], *fns, type);
  return std::nullopt;
}
