//===- ShapeOps.cpp - Shape, layout and indexing ops ----------------------===//

#include "OpHelpers.h"

#include "tcc/IR/TensorSizes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::tcc;
using namespace mlir::tcc::detail;

/// A splat operand refolded to `resultType`, or null.
static OpFoldResult foldSplatTo(Attribute operand, Type resultType) {
  return makeSplat(cast<ShapedType>(resultType), getSplatValue(operand));
}

//===----------------------------------------------------------------------===//
// ReshapeOp
//===----------------------------------------------------------------------===//

LogicalResult ReshapeOp::verify() {
  auto in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("changes the element type from ")
           << in.getElementType() << " to " << out.getElementType();
  std::optional<int64_t> inCount = getCheckedNumElements(in.getShape());
  std::optional<int64_t> outCount = getCheckedNumElements(out.getShape());
  if (!inCount || !outCount)
    return emitOpError("element count overflows int64_t");
  if (*inCount != *outCount)
    return emitOpError("cannot reshape ")
           << in << " (" << *inCount << " elements) to " << out << " ("
           << *outCount << " elements)";
  return success();
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // reshape(reshape(x)) -> reshape(x)
  if (auto producer = getInput().getDefiningOp<ReshapeOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  if (auto dense = dyn_cast_or_null<DenseElementsAttr>(adaptor.getInput()))
    return dense.reshape(getType());
  return {};
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferTranspose(const OpDiag &diag, Value inputValue,
                                          DenseI64ArrayAttr permutationAttr,
                                          SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  if (failed(input))
    return failure();
  if (!permutationAttr)
    return diag("requires attribute 'permutation'");
  ArrayRef<int64_t> permutation = permutationAttr.asArrayRef();
  int64_t rank = input->getRank();
  SmallVector<bool> seen(rank, false);
  bool valid = static_cast<int64_t>(permutation.size()) == rank;
  for (int64_t p : permutation) {
    if (!valid || p < 0 || p >= rank || seen[p]) {
      valid = false;
      break;
    }
    seen[p] = true;
  }
  if (!valid)
    return diag("'permutation' [", permutation,
                "] is not a permutation of the ", rank, " dims of ", *input);
  SmallVector<int64_t> shape;
  for (int64_t p : permutation)
    shape.push_back(input->getDimSize(p));
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

OpFoldResult TransposeOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int64_t> permutation = getPermutation();
  if (llvm::equal(permutation, llvm::seq<int64_t>(0, permutation.size())))
    return getInput();
  // transpose(transpose(x, p1), p2) -> transpose(x, p1[p2[i]])
  if (auto producer = getInput().getDefiningOp<TransposeOp>()) {
    ArrayRef<int64_t> first = producer.getPermutation();
    SmallVector<int64_t> composed;
    for (int64_t p : permutation)
      composed.push_back(first[p]);
    getInputMutable().assign(producer.getInput());
    setPermutation(composed);
    return getResult();
  }
  return foldSplatTo(adaptor.getInput(), getType());
}

//===----------------------------------------------------------------------===//
// BroadcastToOp
//===----------------------------------------------------------------------===//

LogicalResult BroadcastToOp::verify() {
  auto in = getInput().getType(), out = getType();
  if (in.getElementType() != out.getElementType())
    return emitOpError("changes the element type from ")
           << in.getElementType() << " to " << out.getElementType();
  if (in.getRank() > out.getRank())
    return emitOpError("cannot broadcast ")
           << in << " to the lower-rank " << out;
  int64_t offset = out.getRank() - in.getRank();
  for (int64_t i = 0; i < in.getRank(); ++i) {
    int64_t from = in.getDimSize(i), to = out.getDimSize(offset + i);
    if (from != 1 && from != to)
      return emitOpError("cannot broadcast ")
             << in << " to " << out << ": dim " << i << " has size " << from
             << ", expected 1 or " << to;
  }
  return success();
}

OpFoldResult BroadcastToOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // broadcast_to(broadcast_to(x)) -> broadcast_to(x)
  if (auto producer = getInput().getDefiningOp<BroadcastToOp>()) {
    getInputMutable().assign(producer.getInput());
    return getResult();
  }
  // A scalar broadcast to a big tensor stays an op (the size guard).
  if (!isWithinFoldSizeLimit(getType(), {getInput().getType()}))
    return {};
  return foldSplatTo(adaptor.getInput(), getType());
}

//===----------------------------------------------------------------------===//
// SliceOp
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferSlice(const OpDiag &diag, Value inputValue,
                                      DenseI64ArrayAttr startAttr,
                                      DenseI64ArrayAttr endAttr,
                                      DenseI64ArrayAttr stepAttr,
                                      SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  if (failed(input))
    return failure();
  if (!startAttr || !endAttr || !stepAttr)
    return diag("requires attributes 'start', 'end' and 'step'");
  int64_t rank = input->getRank();
  for (auto [attr, name] :
       {std::pair{startAttr, "start"}, {endAttr, "end"}, {stepAttr, "step"}})
    if (attr.size() != rank)
      return diag("'", name, "' must have one value per dim (", rank, "), got ",
                  attr.size());
  SmallVector<int64_t> shape;
  for (int64_t d = 0; d < rank; ++d) {
    int64_t start = startAttr[d], end = endAttr[d], step = stepAttr[d];
    int64_t size = input->getDimSize(d);
    if (step < 1)
      return diag("step of dim ", d, " must be at least 1, got ", step);
    if (start < 0 || start > end || end > size)
      return diag("dim ", d, " needs 0 <= start <= end <= ", size, ", got [",
                  start, ", ", end, ")");
    int64_t length = end - start;
    shape.push_back(length / step + (length % step != 0 ? 1 : 0));
  }
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

OpFoldResult SliceOp::fold(FoldAdaptor adaptor) {
  if (getInput().getType() == getType())
    return getInput(); // same shape means start 0, end size, step 1
  return foldSplatTo(adaptor.getInput(), getType());
}

//===----------------------------------------------------------------------===//
// ConcatOp
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferConcat(const OpDiag &diag, ValueRange inputs,
                                       IntegerAttr dimAttr,
                                       SmallVectorImpl<Type> &results) {
  if (inputs.empty())
    return diag("needs at least one input");
  if (!dimAttr)
    return diag("requires attribute 'dim'");
  SmallVector<RankedTensorType> types;
  for (Value input : inputs) {
    auto type = getStaticTensor(diag, input, "input");
    if (failed(type))
      return failure();
    types.push_back(*type);
  }
  if (failed(requireSameElementType(diag, types)))
    return failure();
  RankedTensorType first = types.front();
  if (first.getRank() < 1)
    return diag("inputs must have rank 1 or more, got ", first);
  auto dim = normalizeDim(diag, dimAttr.getInt(), first.getRank());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(first.getShape());
  for (RankedTensorType type : ArrayRef(types).drop_front()) {
    if (type.getRank() != first.getRank())
      return diag("inputs have different ranks: ", first, " and ", type);
    for (int64_t d = 0; d < first.getRank(); ++d)
      if (d != *dim && type.getDimSize(d) != first.getDimSize(d))
        return diag("inputs ", first, " and ", type, " differ in dim ", d,
                    ", which is not the concatenated dim ", *dim);
    std::optional<int64_t> sum =
        llvm::checkedAdd(shape[*dim], type.getDimSize(*dim));
    if (!sum)
      return diag("concatenated size overflows int64_t");
    shape[*dim] = *sum;
  }
  results.push_back(RankedTensorType::get(shape, first.getElementType()));
  return success();
}

OpFoldResult ConcatOp::fold(FoldAdaptor) {
  if (canonicalizeDim(*this, getType().getRank()))
    return getResult();
  if (getInputs().size() == 1)
    return getInputs().front();
  return {};
}

//===----------------------------------------------------------------------===//
// Gather, index_select, embedding
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferGather(const OpDiag &diag, Value inputValue,
                                       Value indexValue, IntegerAttr dimAttr,
                                       SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  auto index = getStaticTensor(diag, indexValue, "index");
  if (failed(input) || failed(index))
    return failure();
  if (!dimAttr)
    return diag("requires attribute 'dim'");
  if (input->getRank() < 1 || index->getRank() != input->getRank())
    return diag("index ", *index, " must have the rank of input ", *input,
                " (at least 1)");
  auto dim = normalizeDim(diag, dimAttr.getInt(), input->getRank());
  if (failed(dim))
    return failure();
  for (int64_t d = 0; d < input->getRank(); ++d)
    if (d != *dim && index->getDimSize(d) > input->getDimSize(d))
      return diag("index ", *index, " is larger than input ", *input,
                  " in dim ", d, " (only dim ", *dim, " may be)");
  results.push_back(
      RankedTensorType::get(index->getShape(), input->getElementType()));
  return success();
}

OpFoldResult GatherOp::fold(FoldAdaptor) {
  return canonicalizeDim(*this, getType().getRank()) ? getResult() : Value();
}

LogicalResult tcc::detail::inferScatter(const OpDiag &diag, Value inputValue,
                                        Value indexValue, Value updatesValue,
                                        IntegerAttr dimAttr,
                                        ScatterReductionAttr reduction,
                                        SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  auto index = getStaticTensor(diag, indexValue, "index");
  auto updates = getStaticTensor(diag, updatesValue, "updates");
  if (failed(input) || failed(index) || failed(updates))
    return failure();
  if (!dimAttr)
    return diag("requires attribute 'dim'");
  if (input->getRank() < 1 || index->getRank() != input->getRank())
    return diag("index ", *index, " must have the rank of input ", *input,
                " (at least 1)");
  if (updates->getShape() != index->getShape())
    return diag("updates ", *updates, " must have the shape of index ",
                *index);
  if (updates->getElementType() != input->getElementType())
    return diag("updates ", *updates, " must have the element type of input ",
                *input);
  if (reduction && reduction.getValue() != ScatterReduction::none &&
      input->getElementType().isInteger(1))
    return diag("reduction '", stringifyScatterReduction(reduction.getValue()),
                "' needs numbers, got ", *input);
  auto dim = normalizeDim(diag, dimAttr.getInt(), input->getRank());
  if (failed(dim))
    return failure();
  for (int64_t d = 0; d < input->getRank(); ++d)
    if (d != *dim && index->getDimSize(d) > input->getDimSize(d))
      return diag("index ", *index, " is larger than input ", *input,
                  " in dim ", d, " (only dim ", *dim, " may be)");
  results.push_back(*input);
  return success();
}

OpFoldResult ScatterOp::fold(FoldAdaptor) {
  if (canonicalizeDim(*this, getType().getRank()))
    return getResult();
  // Nothing to write: the input unchanged.
  if (getIndex().getType().getNumElements() == 0)
    return getInput();
  return {};
}

LogicalResult tcc::detail::inferIndexSelect(const OpDiag &diag,
                                            Value inputValue, Value indexValue,
                                            IntegerAttr dimAttr,
                                            SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  auto index = getStaticTensor(diag, indexValue, "index");
  if (failed(input) || failed(index))
    return failure();
  if (!dimAttr)
    return diag("requires attribute 'dim'");
  if (index->getRank() != 1)
    return diag("index must be 1-D, got ", *index);
  auto dim = normalizeDim(diag, dimAttr.getInt(), input->getRank());
  if (failed(dim))
    return failure();
  SmallVector<int64_t> shape(input->getShape());
  shape[*dim] = index->getDimSize(0);
  results.push_back(RankedTensorType::get(shape, input->getElementType()));
  return success();
}

OpFoldResult IndexSelectOp::fold(FoldAdaptor) {
  return canonicalizeDim(*this, getType().getRank()) ? getResult() : Value();
}

LogicalResult tcc::detail::inferEmbedding(const OpDiag &diag,
                                          Value indicesValue, Value weightValue,
                                          SmallVectorImpl<Type> &results) {
  auto indices = getStaticTensor(diag, indicesValue, "indices");
  auto weight = getStaticTensor(diag, weightValue, "weight");
  if (failed(indices) || failed(weight))
    return failure();
  if (weight->getRank() != 2)
    return diag("weight must be [num_embeddings, embedding_dim], got ",
                *weight);
  SmallVector<int64_t> shape(indices->getShape());
  shape.push_back(weight->getDimSize(1));
  results.push_back(RankedTensorType::get(shape, weight->getElementType()));
  return success();
}

//===----------------------------------------------------------------------===//
// PadOp
//===----------------------------------------------------------------------===//

LogicalResult tcc::detail::inferPad(const OpDiag &diag, Value inputValue,
                                    DenseI64ArrayAttr padAttr, APFloat value,
                                    SmallVectorImpl<Type> &results) {
  auto input = getStaticTensor(diag, inputValue, "input");
  if (failed(input))
    return failure();
  if (!padAttr)
    return diag("requires attribute 'pad'");
  ArrayRef<int64_t> pad = padAttr.asArrayRef();
  int64_t rank = input->getRank();
  if (pad.size() % 2 != 0 || static_cast<int64_t>(pad.size()) > 2 * rank)
    return diag("'pad' must have an even number of values, at most 2 per dim (",
                2 * rank, "), got ", pad.size());
  Type element = input->getElementType();
  if (isa<IntegerType>(element) &&
      !fitsIntegerType(value.convertToDouble(), element))
    return diag("padding value ", value.convertToDouble(),
                " is not representable in ", element);
  SmallVector<int64_t> shape(input->getShape());
  for (size_t i = 0; i < pad.size() / 2; ++i) {
    int64_t d = rank - 1 - static_cast<int64_t>(i);
    std::optional<int64_t> size = llvm::checkedAdd(shape[d], pad[2 * i]);
    if (size)
      size = llvm::checkedAdd(*size, pad[2 * i + 1]);
    if (!size)
      return diag("padded size of dim ", d, " overflows int64_t");
    if (*size < 0)
      return diag("padding [", pad[2 * i], ", ", pad[2 * i + 1], "] of dim ", d,
                  " leaves a negative size ", *size);
    shape[d] = *size;
  }
  results.push_back(RankedTensorType::get(shape, element));
  return success();
}

OpFoldResult PadOp::fold(FoldAdaptor) {
  if (llvm::all_of(getPad(), [](int64_t p) { return p == 0; }))
    return getInput();
  return {};
}
