//===- Autocast.cpp - matmuls and convolutions in bf16 or fp16 ------------===//
//
// The ops whose cost is their multiply-adds run in the low precision (tensor
// cores, half the bytes of weights); the ops whose accuracy depends on
// accumulating many values (reductions, softmax, normalizations) keep fp32,
// as torch.autocast decides for CUDA.
//
//===----------------------------------------------------------------------===//

#include "tcc/Passes/Passes.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir::tcc {
#define GEN_PASS_DEF_TCCAUTOCAST
#include "tcc/Passes/Passes.h.inc"
} // namespace mlir::tcc

using namespace mlir;
using namespace mlir::tcc;

namespace {

/// `type` with `element` as its element type.
RankedTensorType withElement(Type type, Type element) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), element);
}

bool allF32(Operation *op) {
  auto isF32 = [](Type t) {
    auto tensor = dyn_cast<RankedTensorType>(t);
    return tensor && tensor.getElementType().isF32();
  };
  return llvm::all_of(op->getOperandTypes(), isF32) &&
         llvm::all_of(op->getResultTypes(), isF32);
}

struct AutocastPass : tcc::impl::TccAutocastBase<AutocastPass> {
  using TccAutocastBase::TccAutocastBase;

  void runOnOperation() override {
    Type low;
    if (precision == "bf16")
      low = BFloat16Type::get(&getContext());
    else if (precision == "fp16")
      low = Float16Type::get(&getContext());
    else {
      getOperation().emitError("unknown precision '")
          << precision << "' (precisions: bf16, fp16)";
      return signalPassFailure();
    }
    SmallVector<Operation *> ops;
    getOperation().walk([&](Operation *op) {
      if (isa<MatmulOp, LinearOp, Conv2dOp>(op) && allF32(op))
        ops.push_back(op);
    });
    for (Operation *op : ops) {
      OpBuilder b(op);
      Location loc = op->getLoc();
      for (OpOperand &operand : op->getOpOperands())
        operand.set(b.create<CastOp>(
            loc, withElement(operand.get().getType(), low), operand.get()));
      b.setInsertionPointAfter(op);
      for (OpResult result : op->getResults()) {
        Type f32 = result.getType();
        result.setType(withElement(f32, low));
        auto back = b.create<CastOp>(loc, f32, result);
        result.replaceAllUsesExcept(back, back);
      }
    }
  }
};

} // namespace
