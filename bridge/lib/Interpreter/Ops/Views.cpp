//===- Views.cpp - reshape, transpose, broadcast_to, slice ----------------===//
//
// Each runs the eager view op computing the same values (the frontend's
// View family); they move data without arithmetic, so interpreted results
// are the eager ones bit for bit.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {
std::vector<int64_t> vec(llvm::ArrayRef<int64_t> a) { return a.vec(); }
} // namespace

void registerViewInterpreters(InterpreterRegistry &r) {
  using namespace mlir::tcc;
  r.interpret<ReshapeOp>([](ReshapeOp op, const InterpretContext &v) {
    auto shape = vec(op.getType().getShape());
    return v(op.getInput()).reshape(shape);
  });
  r.interpret<TransposeOp>([](TransposeOp op, const InterpretContext &v) {
    return v(op.getInput()).permute(vec(op.getPermutation()));
  });
  r.interpret<BroadcastToOp>([](BroadcastToOp op, const InterpretContext &v) {
    return v(op.getInput()).expand(vec(op.getType().getShape()));
  });
  r.interpret<SliceOp>([](SliceOp op, const InterpretContext &v) {
    Tensor x = v(op.getInput());
    auto start = op.getStart(), end = op.getEnd(), step = op.getStep();
    for (size_t d = 0; d < start.size(); ++d)
      if (start[d] != 0 || end[d] != x.size(int64_t(d)) || step[d] != 1)
        x = x.slice(int64_t(d), start[d], end[d], step[d]);
    return x;
  });
}

} // namespace jit
} // namespace tcc
