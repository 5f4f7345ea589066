//===- LowerGpuAllReduce.cpp - gpu.all_reduce to shuffles and shared memory ===//
//
// MLIR's lowering of gpu.all_reduce (warp shuffles, then one value per warp
// through workgroup memory) and of 64-bit shuffles, which it has as patterns
// but not as a pass.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCLOWERGPUALLREDUCE
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct LowerGpuAllReducePass
    : tcc::impl::TccLowerGpuAllReduceBase<LowerGpuAllReducePass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateGpuAllReducePatterns(patterns);
    populateGpuShufflePatterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(),
                                            std::move(patterns))))
      return signalPassFailure();
    // A gpu.all_reduce left is one the patterns refuse (not uniform, or
    // not directly in the kernel's body): fail rather than emit it.
    WalkResult left = getOperation().walk([](gpu::AllReduceOp op) {
      op.emitError("cannot lower gpu.all_reduce: it must be uniform and "
                   "directly in a kernel's body");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
