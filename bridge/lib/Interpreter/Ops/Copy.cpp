//===- Copy.cpp - tcc.cast ------------------------------------------------===//
//
// tcc.cast runs the eager `to` (the frontend's Copy family).
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
}

} // namespace jit
} // namespace tcc
