//===- Constant.cpp - tcc.constant ----------------------------------------===//
//
// Constants are made by the tracer itself (parameters, buffers, tensors the
// program creates, scalars), so only the interpreter direction lives here.
//
//===----------------------------------------------------------------------===//

#include "../Bridge.h"
#include "../Types.h"

#include "tcc/IR/TccOps.h"

namespace tcc {
namespace jit {

void registerConstantBridge(BridgeRegistry &r) {
  r.interpret<mlir::tcc::ConstantOp>(
      [](mlir::tcc::ConstantOp op, const InterpretContext &) {
        return tensorOf(op.getValue());
      });
}

} // namespace jit
} // namespace tcc
