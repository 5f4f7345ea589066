//===- CopyReturnedArguments.cpp - No kernel returns its argument ---------===//

#include "tcc/Codegen/Passes.h"

#include "LoweringUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCCOPYRETURNEDARGUMENTS
#include "tcc/Codegen/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;

namespace {

struct CopyReturnedArgumentsPass
    : tcc::impl::TccCopyReturnedArgumentsBase<CopyReturnedArgumentsPass> {
  void runOnOperation() override {
    getOperation()->walk(tcc::lowering::copyReturnedArguments);
  }
};

} // namespace
