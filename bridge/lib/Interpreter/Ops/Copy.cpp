//===- Copy.cpp - tcc.cast, tcc.bitcast -----------------------------------===//
//
// tcc.cast runs the eager `to` (the frontend's Copy family), tcc.bitcast the
// eager view(dtype).
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

void registerCopyInterpreters(InterpreterRegistry &r) {
  using mlir::tcc::CastOp;
  r.interpret<CastOp>([](CastOp op, const InterpretContext &v) {
    return v(op.getInput()).to(*scalarTypeOf(op.getType().getElementType()));
  });
  using mlir::tcc::BitcastOp;
  r.interpret<BitcastOp>([](BitcastOp op, const InterpretContext &v) {
    return v(op.getInput()).view(*scalarTypeOf(op.getType().getElementType()));
  });
}

} // namespace jit
} // namespace tcc
