//===- Linalg.cpp - matmul and its special cases, addmm ------------------===//
//
// tcc.matmul takes operands of rank 2 or more: vectors are reshaped to a
// row ([1, k]) or a column ([k, 1]) and the result reshaped back, which is
// how the eager matmul computes dot, mv and vector-matrix products too (one
// GEMM kernel), so the interpreter reproduces them exactly. addmm has no
// tcc op; it traces to matmul, mul and add, which round differently from
// its fused GEMM (beta * C + alpha * A B) in the last bits.
//
//===----------------------------------------------------------------------===//

#include "TraceContext.h"
#include "TraceRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

namespace {

using namespace mlir::tcc;
using Values = std::vector<mlir::Value>;

/// a @ b for operands of any rank >= 1 (torch.matmul's rules).
Values traceMatmul(TraceContext &c) {
  const Tensor &a = c.input(0), &b = c.input(1);
  mlir::Value x = c.in(0), y = c.in(1);
  if (a.dim() == 1)
    x = c.reshape(x, {1, a.size(0)});
  if (b.dim() == 1)
    y = c.reshape(y, {b.size(0), 1});
  mlir::Value r = c.create<MatmulOp>(mlir::ValueRange{x, y});
  return {c.reshape(r, c.output().sizes())};
}

Values traceAddmm(TraceContext &c) {
  ScalarType t = c.output().dtype();
  double beta = c.doubleAttr("beta"), alpha = c.doubleAttr("alpha");
  mlir::Value product = c.create<MatmulOp>(mlir::ValueRange{c.in(1), c.in(2)});
  if (alpha != 1)
    product = c.create<MulOp>(
        mlir::ValueRange{product, c.scalar(c.scalarAttr("alpha"), t)});
  if (beta == 0)
    return {product};
  mlir::Value self = c.in(0);
  if (beta != 1)
    self = c.create<MulOp>(
        mlir::ValueRange{self, c.scalar(c.scalarAttr("beta"), t)});
  return {c.create<AddOp>(
      mlir::ValueRange{c.broadcastTo(self, c.output().sizes()), product})};
}

} // namespace

void registerLinalgTraces(TraceRegistry &r) {
  for (const char *op : {"matmul", "mm", "bmm", "dot", "mv"})
    r.trace(op, traceMatmul);
  r.trace("addmm", traceAddmm);
}

} // namespace jit
} // namespace tcc
