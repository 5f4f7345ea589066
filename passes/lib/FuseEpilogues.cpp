//===- FuseEpilogues.cpp - Bias, residual, activation into GEMMs ----------===//

#include "tcc/Passes/Epilogue.h"
#include "tcc/Passes/Passes.h"
#include "FusionUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCFUSEEPILOGUES
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

struct FuseEpiloguesPass : tcc::impl::TccFuseEpiloguesBase<FuseEpiloguesPass> {
  void runOnOperation() override {
    SmallVector<Epilogue> chains;
    for (Block &block : getOperation().getBody())
      for (Operation &op : block)
        if (isEpilogueAnchor(&op)) {
          Epilogue e = matchEpilogue(&op);
          if (e.ops.size() > 1)
            chains.push_back(std::move(e));
        }
    for (const Epilogue &e : chains)
      createFusion(llvm::SetVector<Operation *>(e.ops.begin(), e.ops.end()));
  }
};

} // namespace
