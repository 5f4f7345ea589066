//===- ExpandMath.cpp - Math approximations without libm calls ------------===//

#include "tcc/Codegen/Passes.h"

#include "MathApproximations.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Approximation.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/X86Vector/X86VectorDialect.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCEXPANDMATH
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct ExpandMathPass : tcc::impl::TccExpandMathBase<ExpandMathPass> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    // Expansions of ops that LLVM would turn into libm calls; they produce
    // exp/log, which the approximations then replace. Ops with native x86
    // lowerings (sqrt, floor, ceil, roundeven, fma) stay.
    populateExpandPowFPattern(patterns);
    populateExpandFPowIPattern(patterns);
    populateExpandRoundFPattern(patterns);
    populateExpandExp2FPattern(patterns);
    populateMathPolynomialApproximationPatterns(patterns);
    tcc::populateF64MathExpansionPatterns(patterns);
    // bf16 <-> f32 as integer ops: without AVX512-BF16 LLVM would call
    // __truncsfbf2 (e.g. for --cpu=haswell).
    arith::populateExpandBFloat16Patterns(patterns);
    if (failed(applyPatternsAndFoldGreedily(getOperation(), std::move(patterns))))
      return signalPassFailure();
  }
};

} // namespace
