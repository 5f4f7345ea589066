//===- Constant.cpp - tcc.constant ----------------------------------------===//
//
// Constants are made by the tracer itself (parameters, buffers, tensors the
// program creates, scalars), so no eager op maps to tcc.constant; the
// interpreter reads its attribute back as a tensor.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"
#include "Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

void registerConstantInterpreters(InterpreterRegistry &r) {
  r.interpret<mlir::tcc::ConstantOp>(
      [](mlir::tcc::ConstantOp op, const InterpretContext &) {
        return tensorOf(op.getValue());
      });
}

} // namespace jit
} // namespace tcc
