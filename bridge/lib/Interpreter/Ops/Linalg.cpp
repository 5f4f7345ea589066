//===- Linalg.cpp - tcc.matmul --------------------------------------------===//
//
// tcc.matmul runs the eager matmul (the frontend's Linalg family), which
// computes on one GEMM kernel whatever the operands' ranks.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

void registerLinalgInterpreters(InterpreterRegistry &r) {
  using mlir::tcc::MatmulOp;
  r.interpret<MatmulOp>([](MatmulOp op, const InterpretContext &v) {
    return tcc::matmul(v(op.getLhs()), v(op.getRhs()));
  });
}

} // namespace jit
} // namespace tcc
