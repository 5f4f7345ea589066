//===- VectorizeInnerDim.cpp - 4 elements per thread, vector accesses -----===//
//
// A thread that reads four neighbouring floats with one ld.global.v4.f32
// issues a quarter of the memory instructions of four scalar loads, which
// is what keeps an elementwise kernel near the memory bandwidth. The
// arithmetic stays scalar (four copies of the body): the GPU has no wider
// float units to use. 16-bit elements (the bf16 and fp16 of --precision)
// go four to an 8-byte access.
//
//===----------------------------------------------------------------------===//

#include "VectorizeInnerDim.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using tcc::cuda::kVectorWidth;

namespace {

/// Loops of fewer iterations gain nothing from fewer, wider threads.
constexpr int64_t kMinIterations = 128;

std::optional<int64_t> constantIndex(Value value) {
  APInt v;
  if (!matchPattern(value, m_ConstantInt(&v)))
    return std::nullopt;
  return v.getSExtValue();
}

/// Whether `value` is computed, inside `body`, from `iv`.
bool dependsOn(Value value, Value iv, Block *body) {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == iv)
      return true;
    if (!seen.insert(v).second)
      continue;
    if (Operation *def = v.getDefiningOp(); def && def->getBlock() == body)
      llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

/// 32-bit elements (four to a 16-byte access) or 16-bit ones (four to an
/// 8-byte access).
bool hasVectorElements(MemRefType type) {
  Type element = type.getElementType();
  return element.isIntOrFloat() && (element.getIntOrFloatBitWidth() == 32 ||
                                    element.getIntOrFloatBitWidth() == 16);
}

enum class Access { Walks, Uniform, Other };

Access classify(Value memref, ValueRange indices, Value iv, Block *body) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type || !type.getLayout().isIdentity() || !type.hasStaticShape() ||
      type.getRank() == 0 || !hasVectorElements(type))
    return type && type.getRank() == 0 ? Access::Uniform : Access::Other;
  bool leadingUse = llvm::any_of(indices.drop_back(), [&](Value index) {
    return dependsOn(index, iv, body);
  });
  if (indices.back() == iv && !leadingUse &&
      type.getShape().back() % kVectorWidth == 0)
    return Access::Walks;
  if (!leadingUse && !dependsOn(indices.back(), iv, body))
    return Access::Uniform;
  return Access::Other;
}

} // namespace

bool tcc::cuda::vectorizeInnerDim(scf::ParallelOp loop) {
  if (!loop.getInitVals().empty())
    return false;
  int64_t iterations = 1;
  for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
    std::optional<int64_t> u = constantIndex(ub);
    if (constantIndex(lb) != 0 || constantIndex(step) != 1 || !u)
      return false;
    iterations *= *u;
  }
  int64_t inner = *constantIndex(loop.getUpperBound().back());
  if (inner % kVectorWidth != 0 || iterations < kMinIterations)
    return false;
  Block *body = loop.getBody();
  Value iv = loop.getInductionVars().back();
  bool walks = false;
  for (Operation &op : body->without_terminator()) {
    Access access = Access::Other;
    if (auto load = dyn_cast<memref::LoadOp>(op))
      access = classify(load.getMemRef(), load.getIndices(), iv, body);
    else if (auto store = dyn_cast<memref::StoreOp>(op))
      access = classify(store.getMemRef(), store.getIndices(), iv, body);
    else if (isMemoryEffectFree(&op) && op.getNumRegions() == 0)
      continue;
    if (access == Access::Other ||
        (isa<memref::StoreOp>(op) && access != Access::Walks))
      return false;
    walks |= access == Access::Walks;
  }
  if (!walks)
    return false;

  // Lane k of a value: its copy computing element iv + k.
  Location loc = loop.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(body);
  DenseMap<Value, SmallVector<Value, 4>> lanes;
  SmallVector<Value, 4> ivLanes = {iv};
  for (int64_t k = 1; k < kVectorWidth; ++k)
    ivLanes.push_back(b.create<arith::AddIOp>(
        loc, iv, b.create<arith::ConstantIndexOp>(loc, k)));
  lanes[iv] = ivLanes;
  SmallVector<Operation *> replaced;
  for (Operation &op : llvm::make_early_inc_range(body->without_terminator())) {
    if (op.getNumResults() == 1 && llvm::is_contained(ivLanes, op.getResult(0)))
      continue;
    b.setInsertionPoint(&op);
    if (auto load = dyn_cast<memref::LoadOp>(op);
        load && !load.getIndices().empty() &&
        load.getIndices().back() == iv) {
      auto type = VectorType::get({kVectorWidth}, load.getType());
      Value vector = b.create<vector::LoadOp>(loc, type, load.getMemRef(),
                                              load.getIndices());
      SmallVector<Value, 4> &elements = lanes[load.getResult()];
      for (int64_t k = 0; k < kVectorWidth; ++k)
        elements.push_back(b.create<vector::ExtractOp>(loc, vector, k));
      replaced.push_back(&op);
      continue;
    }
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      Value value = store.getValue();
      SmallVector<Value, 4> elements(kVectorWidth, value);
      if (auto it = lanes.find(value); it != lanes.end())
        elements = it->second;
      Value vector = b.create<vector::FromElementsOp>(
          loc, VectorType::get({kVectorWidth}, value.getType()), elements);
      b.create<vector::StoreOp>(loc, vector, store.getMemRef(),
                                store.getIndices());
      replaced.push_back(&op);
      continue;
    }
    if (llvm::none_of(op.getOperands(),
                      [&](Value v) { return lanes.count(v); }))
      continue; // uniform: computed once for the four elements
    for (int64_t k = 0; k < kVectorWidth; ++k) {
      IRMapping mapping;
      for (Value operand : op.getOperands())
        if (auto it = lanes.find(operand); it != lanes.end())
          mapping.map(operand, it->second[k]);
      Operation *copy = b.clone(op, mapping);
      for (auto [from, to] : llvm::zip(op.getResults(), copy->getResults()))
        lanes[from].push_back(to);
    }
    replaced.push_back(&op);
  }
  for (Operation *op : llvm::reverse(replaced))
    op->erase();
  for (Value lane : llvm::drop_begin(ivLanes))
    if (lane.use_empty())
      lane.getDefiningOp()->erase();

  // The innermost dim counts groups of four elements (a unit step, which
  // loop collapsing keeps as it is).
  OpBuilder outside(loop);
  loop.getUpperBoundMutable()[loop.getNumLoops() - 1].set(
      outside.create<arith::ConstantIndexOp>(loc, inner / kVectorWidth));
  b.setInsertionPointToStart(body);
  Value first = b.create<arith::MulIOp>(
      loc, iv, b.create<arith::ConstantIndexOp>(loc, kVectorWidth));
  iv.replaceAllUsesExcept(first, first.getDefiningOp());
  return true;
}
