//===- MapToGpu.cpp - Kernels' parallel loops onto blocks and threads -----===//

#include "RowReductions.h"
#include "VectorizeInnerDim.h"

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <numeric>

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCMAPTOGPU
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// Threads per block: the whole loop when it is small, else 256 (a multiple
/// of the warp size that leaves registers for fused bodies).
int64_t blockSizeFor(int64_t iterations) {
  constexpr int64_t kWarp = 32, kMaxBlock = 256;
  if (iterations <= kWarp)
    return std::max<int64_t>(iterations, 1);
  return std::min(kMaxBlock, (iterations + kWarp - 1) / kWarp * kWarp);
}

bool isTopLevelWork(Operation &op) {
  return !isa<scf::ParallelOp>(op) && !op.hasTrait<OpTrait::IsTerminator>() &&
         !isMemoryEffectFree(&op);
}

/// Wraps each run of top-level work outside parallel loops in a
/// one-iteration scf.parallel. Pure ops of the run used after it stay
/// outside as copies; work whose results are used after the run cannot be
/// wrapped.
LogicalResult wrapSequentialWork(func::FuncOp func) {
  Block &body = func.getBody().front();
  SmallVector<SmallVector<Operation *>> runs;
  SmallVector<Operation *> run;
  auto close = [&] {
    // Leading pure ops stay where they are.
    auto first = llvm::find_if(run, [](Operation *op) {
      return !isMemoryEffectFree(op);
    });
    if (first != run.end())
      runs.emplace_back(first, run.end());
    run.clear();
  };
  for (Operation &op : body) {
    if (isa<scf::ParallelOp>(op) || op.hasTrait<OpTrait::IsTerminator>()) {
      close();
      continue;
    }
    if (isTopLevelWork(op) || !run.empty())
      run.push_back(&op);
  }
  close();
  for (ArrayRef<Operation *> ops : runs) {
    llvm::SmallPtrSet<Operation *, 8> inRun(ops.begin(), ops.end());
    OpBuilder b(ops.front());
    Location loc = ops.front()->getLoc();
    for (Operation *op : ops) {
      bool usedAfter = llvm::any_of(op->getUsers(), [&](Operation *user) {
        return !inRun.contains(body.findAncestorOpInBlock(*user));
      });
      if (!usedAfter)
        continue;
      if (!isMemoryEffectFree(op))
        return op->emitError("cannot map to the GPU: its results are used "
                             "outside the work it belongs to");
      Operation *copy = b.clone(*op);
      op->replaceUsesWithIf(copy->getResults(), [&](OpOperand &use) {
        return !inRun.contains(body.findAncestorOpInBlock(*use.getOwner()));
      });
    }
    Value zero = b.create<arith::ConstantIndexOp>(loc, 0);
    Value one = b.create<arith::ConstantIndexOp>(loc, 1);
    auto loop = b.create<scf::ParallelOp>(loc, ValueRange{zero},
                                          ValueRange{one}, ValueRange{one});
    Operation *yield = loop.getBody()->getTerminator();
    for (Operation *op : ops)
      op->moveBefore(yield);
  }
  return success();
}

/// Clones into `loop` the pure ops outside it that it uses (transitively),
/// so that only the function's arguments cross into the kernel.
void cloneDefinitionsInto(scf::ParallelOp loop) {
  llvm::SetVector<Operation *> definitions;
  SmallVector<Value> worklist;
  // The loop's own bounds stay outside; what its body uses moves in.
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      worklist.push_back(operand);
  });
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || loop->isAncestor(def) || definitions.contains(def) ||
        !isMemoryEffectFree(def) || def->getNumRegions())
      continue;
    definitions.insert(def);
    for (Value operand : def->getOperands())
      worklist.push_back(operand);
  }
  // Program order keeps every clone after the clones it uses.
  SmallVector<Operation *> ordered(definitions.begin(), definitions.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  OpBuilder b = OpBuilder::atBlockBegin(loop.getBody());
  IRMapping mapping;
  for (Operation *def : ordered)
    b.clone(*def, mapping);
  for (Operation *def : ordered)
    for (auto [from, to] :
         llvm::zip(def->getResults(), mapping.lookup(def)->getResults()))
      from.replaceUsesWithIf(to, [&](OpOperand &use) {
        return loop->isProperAncestor(use.getOwner());
      });
}

gpu::ParallelLoopDimMappingAttr mappingTo(MLIRContext *ctx,
                                          gpu::Processor processor) {
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  return gpu::ParallelLoopDimMappingAttr::get(ctx, processor, identity,
                                              identity);
}

/// Rewrites a parallel loop inside a thread's work as nested scf.for loops.
/// MLIR's parallel-loops-to-gpu maps only parallel loops nested directly in
/// each other; one under an scf.for (a reduction whose kept dims after the
/// reduced ones stay innermost, tcc's NHWC pools) would stay unmapped.
LogicalResult sequentialize(scf::ParallelOp loop) {
  if (!loop.getInitVals().empty())
    return loop.emitError(
        "cannot map to the GPU: a nested parallel loop with reductions");
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> ivs(loop.getInductionVars());
  for (auto [iv, lb, ub, step] :
       llvm::zip(ivs, loop.getLowerBound(), loop.getUpperBound(),
                 loop.getStep())) {
    auto forOp = b.create<scf::ForOp>(loc, lb, ub, step);
    iv.replaceAllUsesWith(forOp.getInductionVar());
    b.setInsertionPoint(forOp.getBody()->getTerminator());
  }
  Operation *end = &*b.getInsertionPoint();
  for (Operation &op :
       llvm::make_early_inc_range(loop.getBody()->without_terminator()))
    op.moveBefore(end);
  loop.erase();
  return success();
}

/// Collapses `loop` to one dimension, tiles it by a block and maps the
/// tiles to blocks, the iterations in a tile to threads.
LogicalResult mapLoop(scf::ParallelOp loop) {
  MLIRContext *ctx = loop.getContext();
  int64_t iterations = 1;
  for (auto [lb, ub, step] : llvm::zip(loop.getLowerBound(),
                                       loop.getUpperBound(), loop.getStep())) {
    APInt l, u, s;
    if (!matchPattern(lb, m_ConstantInt(&l)) ||
        !matchPattern(ub, m_ConstantInt(&u)) ||
        !matchPattern(step, m_ConstantInt(&s)) || !s.isStrictlyPositive())
      return loop.emitError("cannot map to the GPU: a loop of dynamic bounds");
    int64_t trip = (u.getSExtValue() - l.getSExtValue() + s.getSExtValue() - 1) /
                   s.getSExtValue();
    iterations *= std::max<int64_t>(trip, 0);
  }
  if (iterations == 0) {
    loop.erase();
    return success();
  }
  // An elementwise loop: four elements of the innermost dim per thread.
  if (tcc::cuda::vectorizeInnerDim(loop))
    iterations /= tcc::cuda::kVectorWidth;
  if (loop.getNumLoops() > 1) {
    Block *block = loop->getBlock();
    Operation *next = loop->getNextNode();
    std::vector<unsigned> all(loop.getNumLoops());
    std::iota(all.begin(), all.end(), 0u);
    IRRewriter rewriter(ctx);
    rewriter.setInsertionPoint(loop);
    collapseParallelLoops(rewriter, loop, {all});
    loop = cast<scf::ParallelOp>(next ? next->getPrevNode() : &block->back());
  }
  // A reduction of long rows: a block per row.
  if (tcc::cuda::mapRowReduction(loop))
    return success();
  // Parallel loops inside run sequentially in their thread.
  SmallVector<scf::ParallelOp> inner;
  loop.getBody()->walk([&](scf::ParallelOp op) { inner.push_back(op); });
  for (scf::ParallelOp op : inner)
    if (failed(sequentialize(op)))
      return failure();
  int64_t block = blockSizeFor(iterations);
  auto [blocks, threads] =
      scf::tileParallelLoop(loop, {block}, /*noMinMaxBounds=*/true);
  if (failed(gpu::setMappingAttr(blocks,
                                 {mappingTo(ctx, gpu::Processor::BlockX)})) ||
      failed(gpu::setMappingAttr(threads,
                                 {mappingTo(ctx, gpu::Processor::ThreadX)})))
    return blocks.emitError("cannot map the loop to blocks and threads");
  return success();
}

struct MapToGpuPass : tcc::impl::TccMapToGpuBase<MapToGpuPass> {
  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal() || !func.getBody().hasOneBlock())
        continue;
      if (failed(wrapSequentialWork(func)))
        return signalPassFailure();
      SmallVector<scf::ParallelOp> loops(
          func.getBody().front().getOps<scf::ParallelOp>());
      for (scf::ParallelOp loop : loops) {
        cloneDefinitionsInto(loop);
        if (failed(mapLoop(loop)))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
