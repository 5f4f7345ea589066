//===- FuseGenerics.cpp - linalg elementwise fusion that recomputes -------===//
//
// MLIR's linalg-fuse-elementwise-ops fuses a producer generic into its
// consumer only when the consumer is its single use. A kernel's cheap
// pointwise prologue with several uses (the attention scale before
// softmax's max and exp passes) then stays a loop of its own that writes a
// whole scratch tensor and reads it back twice. Recomputing it in each
// consumer costs a multiply per element instead.
//
//===----------------------------------------------------------------------===//

#include "tcc/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFUSEGENERICS
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

/// A pointwise generic cheap enough to compute again in every consumer:
/// all loops parallel, and a body of at most a few arith ops with no
/// division except by a constant (which LLVM turns into a multiply when
/// exact, and is one vdivps at worst).
bool cheapToRecompute(linalg::GenericOp producer) {
  if (producer.getNumLoops() != producer.getNumParallelLoops() ||
      producer->getNumResults() != 1)
    return false;
  int ops = 0;
  for (Operation &op : producer.getRegion().front().without_terminator()) {
    if (op.getDialect()->getNamespace() != "arith" || ++ops > 4)
      return false;
    if (isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
            arith::RemSIOp, arith::RemUIOp>(op) &&
        !matchPattern(op.getOperand(1), m_Constant()))
      return false;
  }
  return true;
}

struct FuseGenericsPass
    : public tcc::impl::TccFuseGenericsBase<FuseGenericsPass> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();
    linalg::ControlFusionFn control = [](OpOperand *fusedOperand) {
      Operation *producer = fusedOperand->get().getDefiningOp();
      if (!producer)
        return false;
      if (producer->hasOneUse())
        return true;
      // Several uses: only when every one is a generic it can fuse into, so
      // that the producer goes away once all have taken it.
      auto generic = dyn_cast<linalg::GenericOp>(producer);
      return generic && cheapToRecompute(generic) &&
             llvm::all_of(producer->getUsers(), [](Operation *user) {
               return isa<linalg::GenericOp>(user);
             });
    };
    // What linalg-fuse-elementwise-ops runs, with `control`.
    RewritePatternSet patterns(context);
    linalg::populateElementwiseOpsFusionPatterns(patterns, control);
    linalg::populateFoldReshapeOpsByExpansionPatterns(patterns, control);
    affine::AffineApplyOp::getCanonicalizationPatterns(patterns, context);
    linalg::GenericOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    context->getLoadedDialect<linalg::LinalgDialect>()
        ->getCanonicalizationPatterns(patterns);
    linalg::populateConstantFoldLinalgOperations(patterns, control);
    GreedyRewriteConfig config;
    config.useTopDownTraversal = true;
    (void)applyPatternsAndFoldGreedily(getOperation(), std::move(patterns),
                                       config);
  }
};

} // namespace
