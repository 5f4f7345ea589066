//===- RowReductions.cpp - A block of threads per reduced row -------------===//
//
// One thread per row of a reduction leaves most of the GPU idle and reads
// the row with one thread's strided loads. A block per row instead has its
// threads stride over the row together (neighbouring threads read
// neighbouring elements), each keeping a partial result in registers;
// gpu.all_reduce, which MLIR lowers to warp shuffles and an exchange through
// workgroup (shared) memory, combines the partials. The combination order
// differs from the CPU's sequential loop, so float sums differ by rounding
// (docs/cuda.md).
//
//===----------------------------------------------------------------------===//

#include "RowReductions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace {

constexpr int64_t kWarp = 32, kMaxBlock = 256;

/// The buffer a view is a view of.
Value rootOf(Value memref) {
  while (auto view = memref.getDefiningOp<ViewLikeOpInterface>())
    memref = view.getViewSource();
  return memref;
}

/// The gpu.all_reduce operation that `op` combines with.
std::optional<gpu::AllReduceOperation> allReduceKind(Operation *op) {
  using K = gpu::AllReduceOperation;
  return llvm::TypeSwitch<Operation *, std::optional<K>>(op)
      .Case([](arith::AddFOp) { return K::ADD; })
      .Case([](arith::AddIOp) { return K::ADD; })
      .Case([](arith::MulFOp) { return K::MUL; })
      .Case([](arith::MulIOp) { return K::MUL; })
      .Case([](arith::MaximumFOp) { return K::MAXIMUMF; })
      .Case([](arith::MinimumFOp) { return K::MINIMUMF; })
      .Case([](arith::MaxNumFOp) { return K::MAXNUMF; })
      .Case([](arith::MinNumFOp) { return K::MINNUMF; })
      .Case([](arith::MaxSIOp) { return K::MAXSI; })
      .Case([](arith::MinSIOp) { return K::MINSI; })
      .Case([](arith::MaxUIOp) { return K::MAXUI; })
      .Case([](arith::MinUIOp) { return K::MINUI; })
      .Case([](arith::AndIOp) { return K::AND; })
      .Case([](arith::OrIOp) { return K::OR; })
      .Case([](arith::XOrIOp) { return K::XOR; })
      .Default([](Operation *) { return std::nullopt; });
}

std::optional<int64_t> constantIndex(Value value) {
  APInt v;
  if (!matchPattern(value, m_ConstantInt(&v)))
    return std::nullopt;
  return v.getSExtValue();
}

/// The row's accumulation: acc[i] = combine(acc[i], value).
struct Accumulation {
  memref::LoadOp load;
  Operation *combine = nullptr;
  memref::StoreOp store;
  gpu::AllReduceOperation kind;
  TypedAttr neutral;
  Value value() {
    return combine->getOperand(0) == load.getResult() ? combine->getOperand(1)
                                                      : combine->getOperand(0);
  }
};

/// The matched reduction: loops outermost first, their trip counts.
struct RowReduction {
  SmallVector<scf::ForOp> loops;
  SmallVector<int64_t> trips;
  Accumulation acc;
  /// Stores of the accumulator's initial value before the nest.
  SmallVector<memref::StoreOp> initStores;
};

/// Whether `value` is computed from one of `ivs` inside `nest`.
bool dependsOn(Value value, ArrayRef<Value> ivs, Operation *nest) {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Value, 16> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (llvm::is_contained(ivs, v))
      return true;
    Operation *def = v.getDefiningOp();
    if (def && nest->isAncestor(def))
      llvm::append_range(worklist, def->getOperands());
  }
  return false;
}

std::optional<Accumulation> matchAccumulation(memref::StoreOp store,
                                              scf::ForOp outermost) {
  Operation *combine = store.getValue().getDefiningOp();
  if (!combine || combine->getNumOperands() != 2 ||
      !combine->getResult(0).hasOneUse())
    return std::nullopt;
  std::optional<gpu::AllReduceOperation> kind = allReduceKind(combine);
  if (!kind)
    return std::nullopt;
  memref::LoadOp load;
  for (Value operand : combine->getOperands())
    if (auto l = operand.getDefiningOp<memref::LoadOp>();
        l && l.getMemRef() == store.getMemRef() &&
        l.getIndices() == store.getIndices())
      load = l;
  if (!load || !load->hasOneUse() ||
      combine->getOperand(0) == combine->getOperand(1))
    return std::nullopt;
  for (Value index : store.getIndices())
    if (outermost->isAncestor(index.getParentRegion()->getParentOp()))
      return std::nullopt;
  Type type = load.getType();
  if (!type.isF32() && !type.isF64() && !type.isInteger(32) &&
      !type.isInteger(64))
    return std::nullopt;
  std::optional<TypedAttr> neutral = arith::getNeutralElement(combine);
  if (!neutral)
    return std::nullopt;
  return Accumulation{load, combine, store, *kind, *neutral};
}

std::optional<RowReduction> matchRowReduction(scf::ParallelOp rows) {
  RowReduction r;
  Block *body = rows.getBody();
  // The row's work: pure ops, stores of the initial value, one nest.
  scf::ForOp outermost;
  SmallVector<memref::StoreOp> storesBefore;
  for (Operation &op : body->without_terminator()) {
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      if (outermost)
        return std::nullopt;
      outermost = loop;
      continue;
    }
    if (isMemoryEffectFree(&op) && op.getNumRegions() == 0)
      continue;
    auto store = dyn_cast<memref::StoreOp>(op);
    if (!store || outermost)
      return std::nullopt;
    storesBefore.push_back(store);
  }
  if (!outermost)
    return std::nullopt;
  // The nest: perfectly nested loops of constant bounds, without results.
  for (scf::ForOp loop = outermost; loop;) {
    std::optional<int64_t> lb = constantIndex(loop.getLowerBound()),
                           ub = constantIndex(loop.getUpperBound()),
                           step = constantIndex(loop.getStep());
    if (!lb || !ub || !step || *step <= 0 || loop.getNumResults())
      return std::nullopt;
    r.loops.push_back(loop);
    r.trips.push_back(std::max<int64_t>(0, (*ub - *lb + *step - 1) / *step));
    scf::ForOp inner;
    for (Operation &op : loop.getBody()->without_terminator())
      if (auto f = dyn_cast<scf::ForOp>(op))
        inner = f;
    if (inner)
      for (Operation &op : loop.getBody()->without_terminator())
        if (&op != inner && (!isMemoryEffectFree(&op) || op.getNumRegions()))
          return std::nullopt;
    loop = inner;
  }
  int64_t length = 1;
  for (int64_t trip : r.trips)
    length *= trip;
  if (length < tcc::cuda::kMinBlockReductionLength)
    return std::nullopt;

  // The innermost body: loads, stores and pure ops; one accumulation.
  Block *innermost = r.loops.back().getBody();
  SmallVector<memref::StoreOp> stores;
  for (Operation &op : innermost->without_terminator()) {
    if (auto store = dyn_cast<memref::StoreOp>(op))
      stores.push_back(store);
    else if (!isa<memref::LoadOp>(op) &&
             !(isMemoryEffectFree(&op) && op.getNumRegions() == 0))
      return std::nullopt;
  }
  std::optional<Accumulation> acc;
  for (memref::StoreOp store : stores)
    if (auto a = matchAccumulation(store, outermost)) {
      if (acc)
        return std::nullopt;
      acc = a;
    }
  if (!acc)
    return std::nullopt;
  r.acc = *acc;
  // Nothing else reads or writes the accumulator's buffer in the nest, and
  // each other store writes an element of its own per reduced iteration.
  Value root = rootOf(acc->store.getMemRef());
  SmallVector<Value> ivs;
  for (scf::ForOp loop : r.loops)
    ivs.push_back(loop.getInductionVar());
  for (Operation &op : innermost->without_terminator()) {
    if (&op == acc->load || &op == acc->store)
      continue;
    if (auto load = dyn_cast<memref::LoadOp>(op); load &&
        rootOf(load.getMemRef()) == root)
      return std::nullopt;
    if (auto store = dyn_cast<memref::StoreOp>(op)) {
      if (rootOf(store.getMemRef()) == root ||
          llvm::none_of(store.getIndices(), [&](Value index) {
            return dependsOn(index, ivs, outermost);
          }))
        return std::nullopt;
    }
  }
  for (memref::StoreOp store : storesBefore)
    if (rootOf(store.getMemRef()) != root)
      return std::nullopt;
  r.initStores = std::move(storesBefore);
  return r;
}

gpu::ParallelLoopDimMappingAttr mappingTo(MLIRContext *ctx,
                                          gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity,
                                              identity);
}

} // namespace

bool tcc::cuda::mapRowReduction(scf::ParallelOp rows) {
  if (rows.getNumLoops() != 1 || constantIndex(rows.getLowerBound()[0]) != 0 ||
      constantIndex(rows.getStep()[0]) != 1 || !rows.getInitVals().empty())
    return false;
  std::optional<RowReduction> match = matchRowReduction(rows);
  if (!match)
    return false;
  RowReduction &r = *match;
  Accumulation &acc = r.acc;
  MLIRContext *ctx = rows.getContext();
  Location loc = acc.store.getLoc();
  int64_t length = 1;
  for (int64_t trip : r.trips)
    length *= trip;
  int64_t blockSize = std::min(kMaxBlock, (length + kWarp - 1) / kWarp * kWarp);

  // The threads of the row's block, around the row's work.
  OpBuilder b = OpBuilder::atBlockBegin(rows.getBody());
  Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
  Value one = b.create<arith::ConstantIndexOp>(loc, 1);
  Value threadCount = b.create<arith::ConstantIndexOp>(loc, blockSize);
  auto threads = b.create<scf::ParallelOp>(loc, ValueRange{zero},
                                           ValueRange{threadCount},
                                           ValueRange{one});
  Operation *threadsEnd = threads.getBody()->getTerminator();
  for (Operation &op : llvm::make_early_inc_range(
           rows.getBody()->without_terminator()))
    if (&op != threads && &op != zero.getDefiningOp() &&
        &op != one.getDefiningOp() && &op != threadCount.getDefiningOp())
      op.moveBefore(threadsEnd);
  Value thread = threads.getInductionVars()[0];

  // Each thread's partial result over elements thread, thread + block, ...
  scf::ForOp outermost = r.loops.front();
  b.setInsertionPoint(outermost);
  Value neutral = b.create<arith::ConstantOp>(loc, acc.neutral);
  Value end = b.create<arith::ConstantIndexOp>(loc, length);
  Value stride = b.create<arith::ConstantIndexOp>(loc, blockSize);
  auto partial = b.create<scf::ForOp>(loc, thread, end, stride,
                                      ValueRange{neutral});
  Block *partialBody = partial.getBody();
  b.setInsertionPointToStart(partialBody);
  Value element = partial.getInductionVar();
  // The reduced loops' induction variables from the element's index.
  int64_t inner = length;
  for (auto [loop, trip] : llvm::zip(r.loops, r.trips)) {
    inner /= std::max<int64_t>(trip, 1);
    Value index = element;
    if (inner > 1)
      index = b.create<arith::DivUIOp>(
          loc, index, b.create<arith::ConstantIndexOp>(loc, inner));
    if (loop != outermost)
      index = b.create<arith::RemUIOp>(
          loc, index, b.create<arith::ConstantIndexOp>(loc, trip));
    Value iv = b.create<arith::AddIOp>(
        loc, loop.getLowerBound(),
        b.create<arith::MulIOp>(loc, index, loop.getStep()));
    loop.getInductionVar().replaceAllUsesWith(iv);
  }
  for (scf::ForOp loop : r.loops)
    for (Operation &op :
         llvm::make_early_inc_range(loop.getBody()->without_terminator()))
      if (!isa<scf::ForOp>(op) && &op != acc.load && &op != acc.combine &&
          &op != acc.store)
        op.moveBefore(partialBody, partialBody->end());
  b.setInsertionPointToEnd(partialBody);
  IRMapping intoPartial;
  intoPartial.map(acc.load.getResult(), partial.getRegionIterArgs()[0]);
  Operation *combined = b.clone(*acc.combine, intoPartial);
  b.create<scf::YieldOp>(loc, combined->getResults());

  // The block's total; thread 0 folds it into the accumulator, after the
  // accumulator's initial value.
  b.setInsertionPointAfter(partial);
  Value total = b.create<gpu::AllReduceOp>(
      loc, partial.getResult(0), gpu::AllReduceOperationAttr::get(ctx, acc.kind),
      /*uniform=*/true);
  Value isFirst =
      b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, thread, zero);
  auto first = b.create<scf::IfOp>(loc, isFirst, /*withElseRegion=*/false);
  b.setInsertionPoint(first.thenBlock()->getTerminator());
  for (memref::StoreOp store : r.initStores)
    store->moveBefore(first.thenBlock()->getTerminator());
  IRMapping intoTotal;
  intoTotal.map(acc.value(), total);
  intoTotal.map(acc.load.getResult(), b.clone(*acc.load)->getResult(0));
  Operation *folded = b.clone(*acc.combine, intoTotal);
  b.create<memref::StoreOp>(loc, folded->getResult(0), acc.store.getMemRef(),
                            acc.store.getIndices());
  acc.store.erase();
  acc.combine->erase();
  acc.load.erase();
  outermost.erase();

  (void)gpu::setMappingAttr(rows, {mappingTo(ctx, gpu::Processor::BlockX)});
  (void)gpu::setMappingAttr(threads,
                            {mappingTo(ctx, gpu::Processor::ThreadX)});
  return true;
}
