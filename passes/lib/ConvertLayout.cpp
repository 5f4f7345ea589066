//===- ConvertLayout.cpp - NCHW convolution networks to NHWC --------------===//
//
// Two steps. First every NCHW conv2d / pooling op becomes its NHWC form
// between two transposes. Then a table of patterns moves transposes down
// through pointwise ops, turns those that only relabel size-1 dims into
// reshapes, folds them into constants and into the weight of a linear
// after a flatten, and the transpose folder cancels adjacent pairs.
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/ConstantEvaluator.h"
#include "tcc/Passes/Passes.h"
#include "tcc/Passes/TargetCapabilities.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCCONVERTLAYOUT
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

constexpr int64_t kToNhwc[] = {0, 2, 3, 1}; // also OIHW -> OHWI
constexpr int64_t kToNchw[] = {0, 3, 1, 2};

SmallVector<int64_t> invert(ArrayRef<int64_t> permutation) {
  SmallVector<int64_t> inverse(permutation.size());
  for (auto [i, p] : llvm::enumerate(permutation))
    inverse[p] = static_cast<int64_t>(i);
  return inverse;
}

/// `type` transposed: dim i of the result is dim permutation[i] of `type`.
RankedTensorType permuteType(RankedTensorType type,
                             ArrayRef<int64_t> permutation) {
  SmallVector<int64_t> shape;
  for (int64_t p : permutation)
    shape.push_back(type.getDimSize(p));
  return RankedTensorType::get(shape, type.getElementType());
}

Value createTranspose(RewriterBase &rewriter, Location loc, Value input,
                      ArrayRef<int64_t> permutation) {
  return rewriter.create<TransposeOp>(
      loc, input, rewriter.getDenseI64ArrayAttr(permutation));
}

/// Whether `op` keeps the dims of size other than 1 in order (moves no data).
bool movesOnlyUnitDims(TransposeOp op) {
  int64_t last = -1;
  for (int64_t p : op.getPermutation()) {
    if (op.getInput().getType().getDimSize(p) == 1)
      continue;
    if (p < last)
      return false;
    last = p;
  }
  return true;
}

/// Name suffix of a transposed constant: ".nhwc" for the layout change
/// (OIHW -> OHWI for a weight).
StringRef transposedSuffix(ArrayRef<int64_t> permutation) {
  return llvm::equal(permutation, kToNhwc) ? ".nhwc" : ".transpose";
}

/// The data of `attr` viewed with `shape` (same element count), then
/// transposed by `permutation`.
std::optional<ConstantData> permuteData(ElementsAttr attr,
                                        ArrayRef<int64_t> shape,
                                        ArrayRef<int64_t> permutation) {
  std::optional<ConstantData> data = readConstant(attr);
  if (!data)
    return std::nullopt;
  data->type = RankedTensorType::get(shape, data->type.getElementType());
  return transposeConstant(*data, permutation);
}

/// The attribute of permuteData(attr, shape, permutation); null if
/// unreadable. Splats stay splats.
ElementsAttr permuteConstant(ElementsAttr attr, ArrayRef<int64_t> shape,
                             ArrayRef<int64_t> permutation) {
  auto type = cast<RankedTensorType>(attr.getType());
  RankedTensorType result = permuteType(
      RankedTensorType::get(shape, type.getElementType()), permutation);
  if (auto dense = dyn_cast<DenseElementsAttr>(attr); dense && dense.isSplat())
    return dense.resizeSplat(result);
  std::optional<ConstantData> data = permuteData(attr, shape, permutation);
  if (!data)
    return {};
  return makeConstantAttr(
      *data, deriveBlobName({attr}, transposedSuffix(permutation)));
}

//===----------------------------------------------------------------------===//
// Step 1: NCHW ops to NHWC
//===----------------------------------------------------------------------===//

template <typename OpTy> void convertToNhwc(OpTy op, RewriterBase &rewriter) {
  Location loc = op.getLoc();
  rewriter.setInsertionPoint(op);
  SmallVector<Value> operands(op->getOperands());
  operands[0] = createTranspose(rewriter, loc, operands[0], kToNhwc);
  if constexpr (std::is_same_v<OpTy, Conv2dOp>)
    operands[1] = createTranspose(rewriter, loc, operands[1], kToNhwc);
  auto nhwc = cast<OpTy>(rewriter.clone(*op));
  nhwc->setOperands(operands);
  nhwc.setLayout(Layout::NHWC);
  nhwc->getResult(0).setType(permuteType(op.getType(), kToNhwc));
  rewriter.replaceOp(
      op, createTranspose(rewriter, loc, nhwc->getResult(0), kToNchw));
}

/// Converts the NCHW conv and pooling ops of `func`; returns how many.
int64_t convertOpsToNhwc(func::FuncOp func) {
  SmallVector<Operation *> ops;
  func.walk([&](Operation *op) {
    if (!isa<func::FuncOp>(op->getParentOp()))
      return; // inside a fusion: its interface is fixed
    if (auto conv = dyn_cast<Conv2dOp>(op);
        conv && conv.getLayout() == Layout::NCHW)
      ops.push_back(op);
    else if (auto pool = dyn_cast<MaxPool2dOp>(op);
             pool && pool.getLayout() == Layout::NCHW)
      ops.push_back(op);
    else if (auto pool = dyn_cast<AvgPool2dOp>(op);
             pool && pool.getLayout() == Layout::NCHW)
      ops.push_back(op);
    else if (auto pool = dyn_cast<AdaptiveAvgPool2dOp>(op);
             pool && pool.getLayout() == Layout::NCHW)
      ops.push_back(op);
  });
  IRRewriter rewriter(func.getContext());
  for (Operation *op : ops)
    llvm::TypeSwitch<Operation *>(op)
        .Case<Conv2dOp, MaxPool2dOp, AvgPool2dOp, AdaptiveAvgPool2dOp>(
            [&](auto typed) { convertToNhwc(typed, rewriter); });
  return static_cast<int64_t>(ops.size());
}

/// The transposes of `func` that move data at run time.
int64_t countRuntimeTransposes(func::FuncOp func) {
  int64_t count = 0;
  func.walk([&](TransposeOp op) {
    if (!op.getInput().getDefiningOp<ConstantOp>())
      ++count;
  });
  return count;
}

//===----------------------------------------------------------------------===//
// Step 2: moving and cancelling transposes
//===----------------------------------------------------------------------===//

/// A transpose of `value` by `permutation` in `op`'s block that is not an
/// operand of `op` (that one is what moves: reusing it as the new operand
/// gives back the same op, max(t(x), x) -> t(max(x, t(x)), forever), or
/// null.
TransposeOp findTranspose(Value value, ArrayRef<int64_t> permutation,
                          Operation *op) {
  for (Operation *user : value.getUsers())
    if (auto t = dyn_cast<TransposeOp>(user);
        t && t.getPermutation() == permutation &&
        t->getBlock() == op->getBlock() &&
        !llvm::is_contained(op->getOperands(), t.getResult()))
      return t;
  return {};
}

/// op(transpose(a, P), transpose(b, P), constant, x) ->
///   transpose(op(a, b, constant', transpose(x, P^-1)), P)
/// for a pointwise op, with constant' the constant (broadcast to the
/// result's rank) permuted by P's inverse at compile time, and x any other
/// operand of the result's rank (a residual from before the layout change),
/// whose transpose often exists already (the one feeding the NHWC conv).
/// Fires only when it removes at least as many transposes as it adds, so
/// transposes only ever move down and the count never grows.
struct SinkTransposeThroughPointwise : RewritePattern {
  explicit SinkTransposeThroughPointwise(MLIRContext *context)
      : RewritePattern(MatchAnyOpTypeTag(), /*benefit=*/1, context) {}

  LogicalResult matchAndRewrite(Operation *op,
                                PatternRewriter &rewriter) const override {
    if (!op->hasTrait<OpTrait::tcc::Pointwise>() || op->getNumResults() != 1 ||
        !isa<func::FuncOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op,
                                         "not a pointwise op of a function");
    auto type = cast<RankedTensorType>(op->getResult(0).getType());
    std::optional<ArrayRef<int64_t>> permutation;
    for (Value operand : op->getOperands())
      if (auto transpose = operand.getDefiningOp<TransposeOp>();
          transpose && transpose.getType().getRank() == type.getRank()) {
        if (permutation && *permutation != transpose.getPermutation())
          return rewriter.notifyMatchFailure(op, "transposes differ");
        permutation = transpose.getPermutation();
      }
    if (!permutation)
      return rewriter.notifyMatchFailure(op, "no operand is transposed");
    SmallVector<int64_t> perm(*permutation), inverse = invert(perm);

    // The transposes that go away (used by `op` alone) against those added:
    // the one after the op and one per other operand not transposed yet.
    llvm::SmallPtrSet<Operation *, 4> removed;
    int64_t added = 1;
    for (Value operand : op->getOperands()) {
      if (auto transpose = operand.getDefiningOp<TransposeOp>();
          transpose && transpose.getPermutation() == ArrayRef<int64_t>(perm)) {
        if (llvm::all_of(transpose->getUsers(),
                         [&](Operation *user) { return user == op; }))
          removed.insert(transpose);
        continue;
      }
      if (operand.getDefiningOp<ConstantOp>())
        continue;
      if (cast<RankedTensorType>(operand.getType()).getRank() != type.getRank())
        return rewriter.notifyMatchFailure(op, "a broadcast operand");
      if (!findTranspose(operand, inverse, op))
        ++added;
    }
    if (static_cast<int64_t>(removed.size()) < added)
      return rewriter.notifyMatchFailure(op, "would add transposes");

    SmallVector<Value> operands;
    for (Value operand : op->getOperands()) {
      if (auto transpose = operand.getDefiningOp<TransposeOp>();
          transpose && transpose.getPermutation() == ArrayRef<int64_t>(perm)) {
        operands.push_back(transpose.getInput());
        continue;
      }
      rewriter.setInsertionPoint(op);
      auto constant = operand.getDefiningOp<ConstantOp>();
      if (!constant) {
        // Reuse the existing transpose, moved up if it comes after `op`
        // (its input is `op`'s operand, so that is always valid).
        if (TransposeOp existing = findTranspose(operand, inverse, op)) {
          if (!existing->isBeforeInBlock(op))
            rewriter.moveOpBefore(existing, op);
          operands.push_back(existing);
        } else {
          operands.push_back(
              createTranspose(rewriter, op->getLoc(), operand, inverse));
        }
        continue;
      }
      // Broadcasting aligns trailing dims: view the constant at full rank.
      auto constantType = cast<RankedTensorType>(constant.getType());
      SmallVector<int64_t> shape(type.getRank() - constantType.getRank(), 1);
      llvm::append_range(shape, constantType.getShape());
      ElementsAttr permuted =
          permuteConstant(constant.getValue(), shape, inverse);
      if (!permuted)
        return rewriter.notifyMatchFailure(op, "unreadable constant");
      operands.push_back(rewriter.create<ConstantOp>(
          constant.getLoc(), permuted.getType(), permuted));
    }
    rewriter.setInsertionPoint(op);
    Operation *moved = rewriter.clone(*op);
    moved->setOperands(operands);
    moved->getResult(0).setType(permuteType(type, inverse));
    rewriter.replaceOp(
        op, createTranspose(rewriter, op->getLoc(), moved->getResult(0), perm));
    return success();
  }
};

/// A transpose t = transpose(y, P) whose users S are all pointwise ops
/// that take it, as SiLU's sigmoid(t) and mul(t, sigmoid(t)) do: every
/// operand of each op in S is t, a constant, a result of another op in S,
/// or a transpose by P. Each u in S becomes transpose(u'(y, ...), P) in
/// block order, so the results of S that feed S cancel and only the
/// transposes of results used outside S stay: fires when those are at
/// most one, so the count never grows. (SinkTransposeThroughPointwise
/// sees one user at a time and would keep t for the other users.)
struct SinkSharedTransposeThroughPointwise : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp t,
                                PatternRewriter &rewriter) const override {
    if (t.getInput().getDefiningOp<ConstantOp>() || t->hasOneUse() ||
        t->use_empty() || !isa<func::FuncOp>(t->getParentOp()))
      return rewriter.notifyMatchFailure(t, "not a shared transpose");
    ArrayRef<int64_t> perm = t.getPermutation();
    int64_t rank = t.getType().getRank();
    llvm::SmallPtrSet<Operation *, 4> group(t->getUsers().begin(),
                                            t->getUsers().end());
    for (Operation *user : group) {
      if (!user->hasTrait<OpTrait::tcc::Pointwise>() ||
          user->getNumResults() != 1 || user->getBlock() != t->getBlock() ||
          cast<RankedTensorType>(user->getResult(0).getType()).getRank() !=
              rank)
        return rewriter.notifyMatchFailure(t, "a user is not pointwise");
      for (Value operand : user->getOperands()) {
        auto transpose = operand.getDefiningOp<TransposeOp>();
        if (operand.getDefiningOp<ConstantOp>() ||
            group.contains(operand.getDefiningOp()) ||
            (transpose && transpose.getPermutation() == perm &&
             transpose.getType().getRank() == rank))
          continue;
        return rewriter.notifyMatchFailure(t, "an operand would need a transpose");
      }
    }
    int64_t escaping = llvm::count_if(group, [&](Operation *user) {
      return llvm::any_of(user->getUsers(), [&](Operation *next) {
        return !group.contains(next);
      });
    });
    if (escaping > 1)
      return rewriter.notifyMatchFailure(t, "would add transposes");

    SmallVector<Operation *> ordered(group.begin(), group.end());
    llvm::sort(ordered, [](Operation *a, Operation *b) {
      return a->isBeforeInBlock(b);
    });
    SmallVector<int64_t> inverse = invert(perm);
    for (Operation *user : ordered) {
      auto type = cast<RankedTensorType>(user->getResult(0).getType());
      SmallVector<Value> operands;
      rewriter.setInsertionPoint(user);
      for (Value operand : user->getOperands()) {
        if (auto transpose = operand.getDefiningOp<TransposeOp>();
            transpose && transpose.getPermutation() == perm) {
          // t itself, another transpose by P, or an earlier member of the
          // group, already replaced by transpose(u', P).
          operands.push_back(transpose.getInput());
          continue;
        }
        auto constant = operand.getDefiningOp<ConstantOp>();
        auto constantType = cast<RankedTensorType>(constant.getType());
        SmallVector<int64_t> shape(rank - constantType.getRank(), 1);
        llvm::append_range(shape, constantType.getShape());
        ElementsAttr permuted =
            permuteConstant(constant.getValue(), shape, inverse);
        if (!permuted)
          return rewriter.notifyMatchFailure(user, "unreadable constant");
        operands.push_back(rewriter.create<ConstantOp>(
            constant.getLoc(), permuted.getType(), permuted));
      }
      Operation *moved = rewriter.clone(*user);
      moved->setOperands(operands);
      moved->getResult(0).setType(permuteType(type, inverse));
      rewriter.replaceOp(user, createTranspose(rewriter, user->getLoc(),
                                               moved->getResult(0), perm));
    }
    return success();
  }
};

/// reduce(transpose(y, P), dims D) -> transpose(reduce(y, P[D]), P) with
/// keepdim (the reduced dims stay, size 1), or reduce(y, P[D]) without
/// when the kept dims come out in the same order either way (a global
/// average pool over NCHW H, W read from NHWC). Fires when the transpose
/// it adds moves only size-1 dims (a reshape after canonicalization) or
/// the one it removes has no other user.
template <typename ReduceOpTy>
struct SinkTransposeThroughReduce : OpRewritePattern<ReduceOpTy> {
  using OpRewritePattern<ReduceOpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(ReduceOpTy op,
                                PatternRewriter &rewriter) const override {
    auto t = op.getInput().template getDefiningOp<TransposeOp>();
    if (!t || !isa<func::FuncOp>(op->getParentOp()))
      return rewriter.notifyMatchFailure(op, "input is not transposed");
    ArrayRef<int64_t> perm = t.getPermutation();
    int64_t rank = static_cast<int64_t>(perm.size());
    SmallVector<int64_t> dims;
    llvm::SmallBitVector reduced(rank);
    for (int64_t d : op.getDims()) {
      int64_t dim = d < 0 ? d + rank : d;
      if (dim < 0 || dim >= rank)
        return rewriter.notifyMatchFailure(op, "dim out of range");
      dims.push_back(perm[dim]);
      reduced.set(dim);
    }
    llvm::sort(dims);
    Location loc = op.getLoc();
    if (op.getKeepdim()) {
      auto resultType = cast<RankedTensorType>(op.getType());
      RankedTensorType innerType = permuteType(resultType, invert(perm));
      // The transpose after the new reduce moves only size-1 dims when the
      // kept dims stay in order.
      int64_t last = -1;
      bool unitOnly = true;
      for (int64_t i = 0; i < rank; ++i) {
        if (reduced.test(i) || resultType.getDimSize(i) == 1)
          continue;
        unitOnly &= perm[i] > last;
        last = perm[i];
      }
      if (!unitOnly && !t->hasOneUse())
        return rewriter.notifyMatchFailure(op, "would add a transpose");
      auto inner = rewriter.create<ReduceOpTy>(
          loc, innerType, t.getInput(), rewriter.getDenseI64ArrayAttr(dims),
          rewriter.getBoolAttr(true));
      rewriter.replaceOp(op, createTranspose(rewriter, loc, inner, perm));
      return success();
    }
    int64_t last = -1;
    for (int64_t i = 0; i < rank; ++i) {
      if (reduced.test(i))
        continue;
      if (perm[i] < last)
        return rewriter.notifyMatchFailure(op, "kept dims change order");
      last = perm[i];
    }
    rewriter.replaceOpWithNewOp<ReduceOpTy>(
        op, op.getType(), t.getInput(), rewriter.getDenseI64ArrayAttr(dims),
        rewriter.getBoolAttr(false));
    return success();
  }
};

/// transpose(constant) -> constant, reshape(constant) -> constant (the
/// folders cover splats and dense literals; this covers weights in blobs).
struct FoldTransposeOfConstant : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getInput().getDefiningOp<ConstantOp>();
    if (!constant)
      return rewriter.notifyMatchFailure(op, "input is not constant");
    auto inputType = cast<RankedTensorType>(constant.getType());
    ElementsAttr permuted = permuteConstant(
        constant.getValue(), inputType.getShape(), op.getPermutation());
    if (!permuted)
      return rewriter.notifyMatchFailure(op, "unreadable constant");
    rewriter.replaceOpWithNewOp<ConstantOp>(op, permuted.getType(), permuted);
    return success();
  }
};

struct FoldReshapeOfConstant : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    auto constant = op.getInput().getDefiningOp<ConstantOp>();
    if (!constant || !isa<DenseResourceElementsAttr>(constant.getValue()))
      return rewriter.notifyMatchFailure(op, "not a blob constant");
    std::optional<ConstantData> data = readConstant(constant.getValue());
    if (!data)
      return rewriter.notifyMatchFailure(op, "unreadable constant");
    data->type = op.getType();
    ElementsAttr value =
        makeConstantAttr(*data, deriveBlobName({constant.getValue()}, ""));
    rewriter.replaceOpWithNewOp<ConstantOp>(op, value.getType(), value);
    return success();
  }
};

/// linear(reshape(transpose(y, P)) to [N, K], W) ->
///   linear(reshape(y) to [N, K], W')
/// with P[0] = 0 (a flatten after a layout change) and W constant: W's
/// columns, viewed as the transposed dims, are permuted back instead.
struct LinearAbsorbsFlattenedTranspose : OpRewritePattern<LinearOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LinearOp op,
                                PatternRewriter &rewriter) const override {
    auto flatten = op.getInput().getDefiningOp<ReshapeOp>();
    auto transpose = flatten ? flatten.getInput().getDefiningOp<TransposeOp>()
                             : TransposeOp();
    auto weight = op.getWeight().getDefiningOp<ConstantOp>();
    if (!transpose || !weight)
      return rewriter.notifyMatchFailure(op, "not linear(flatten(transpose))");
    ArrayRef<int64_t> perm = transpose.getPermutation();
    RankedTensorType flatType = flatten.getType(), tType = transpose.getType();
    if (perm.empty() || perm[0] != 0 || flatType.getRank() != 2 ||
        flatType.getDimSize(0) != tType.getDimSize(0))
      return rewriter.notifyMatchFailure(op, "not a flatten of dims 1..");
    if (movesOnlyUnitDims(transpose))
      return rewriter.notifyMatchFailure(op,
                                         "a reshape already (no data moves)");
    auto weightType = cast<RankedTensorType>(weight.getType());
    SmallVector<int64_t> viewed = {weightType.getDimSize(0)};
    llvm::append_range(viewed, tType.getShape().drop_front());
    std::optional<ConstantData> data =
        permuteData(weight.getValue(), viewed, invert(perm));
    if (!data)
      return rewriter.notifyMatchFailure(op, "unreadable constant");
    data->type = weightType;
    ElementsAttr newWeight = makeConstantAttr(
        *data, deriveBlobName({weight.getValue()}, ".permuted"));
    Location loc = op.getLoc();
    Value input =
        rewriter.create<ReshapeOp>(loc, flatType, transpose.getInput());
    Value w = rewriter.create<ConstantOp>(loc, newWeight.getType(), newWeight);
    rewriter.modifyOpInPlace(op, [&] {
      op.getInputMutable().assign(input);
      op.getWeightMutable().assign(w);
    });
    return success();
  }
};

struct ConvertLayoutPass : tcc::impl::TccConvertLayoutBase<ConvertLayoutPass> {
  using TccConvertLayoutBase::TccConvertLayoutBase;
  explicit ConvertLayoutPass(const TargetCapabilities &target)
      : target(&target) {
    targetName = target.name().str();
  }

  LogicalResult initialize(MLIRContext *context) override {
    return resolveTargetCapabilities(context, getArgument(), targetName,
                                     target);
  }

  void runOnOperation() override {
    if (!target->prefersChannelsLast())
      return;
    func::FuncOp func = getOperation();
    int64_t transposesBefore = countRuntimeTransposes(func);
    // The function as it was, restored when the conversion does not pay.
    OwningOpRef<func::FuncOp> original = func.clone();
    bool convertsConvolution = false;
    func.walk([&](Conv2dOp conv) {
      convertsConvolution |= conv.getLayout() == Layout::NCHW &&
                             isa<func::FuncOp>(conv->getParentOp());
    });
    int64_t converted = convertOpsToNhwc(func);
    MLIRContext *context = &getContext();
    // Moving first, with transpose composition and cancellation from the
    // folders; only then the dialect's canonicalizations, which turn
    // size-1 relabelings into reshapes (done earlier, they would stop a
    // transpose from sinking, depending on the order ops are visited).
    RewritePatternSet moving(context);
    moving.add<SinkTransposeThroughPointwise,
               SinkSharedTransposeThroughPointwise,
               SinkTransposeThroughReduce<ReduceSumOp>,
               SinkTransposeThroughReduce<ReduceMeanOp>,
               SinkTransposeThroughReduce<ReduceMaxOp>,
               SinkTransposeThroughReduce<ReduceMinOp>,
               SinkTransposeThroughReduce<ReduceProdOp>,
               FoldTransposeOfConstant, FoldReshapeOfConstant,
               LinearAbsorbsFlattenedTranspose>(context);
    // Each rewrite removes at least as many transposes as it adds and moves
    // the rest down, but a cap on rewrites guarantees the end (every
    // rewrite keeps the function correct, so stopping early is safe).
    GreedyRewriteConfig config;
    int64_t ops = 0;
    func.walk([&](Operation *) { ++ops; });
    config.maxNumRewrites = 16 * ops + 64;
    (void)applyPatternsAndFoldGreedily(func, std::move(moving), config);
    RewritePatternSet canonical(context);
    context->getLoadedDialect<TccDialect>()->getCanonicalizationPatterns(
        canonical);
    (void)applyPatternsAndFoldGreedily(func, std::move(canonical));
    // The CPU's NCHW and NHWC kernels run at about the same speed, so
    // the conversion pays only when the transposes it leaves (each a copy
    // of a feature map) are at most one per converted op: a lone conv
    // between an NCHW argument and an NCHW result stays NCHW. Unless the
    // target's NHWC convolutions pay for their transposes.
    int64_t added = countRuntimeTransposes(func) - transposesBefore;
    bool keep = convertsConvolution &&
                target->channelsLastConvolutionsPayTransposes();
    if (converted > 0 && added > converted && !keep)
      func.getBody().takeBody(original->getBody());
  }

  const TargetCapabilities *target = nullptr;
};

} // namespace

std::unique_ptr<Pass>
tcc::createTccConvertLayout(const TargetCapabilities &target) {
  return std::make_unique<ConvertLayoutPass>(target);
}
