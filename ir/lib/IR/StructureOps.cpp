//===- StructureOps.cpp - Fusion groups -----------------------------------===//

#include "tcc/IR/TccOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tcc;

void FusionOp::build(OpBuilder &builder, OperationState &state,
                     TypeRange resultTypes, ValueRange inputs) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

YieldOp FusionOp::getYield() { return cast<YieldOp>(getBlock().getTerminator()); }

LogicalResult FusionOp::verify() {
  Block &block = getBlock();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError("has ") << getInputs().size() << " inputs but its block has "
                               << block.getNumArguments() << " arguments";
  for (auto [index, input, arg] :
       llvm::enumerate(getInputs(), block.getArguments()))
    if (input.getType() != arg.getType())
      return emitOpError("input ") << index << " has type " << input.getType()
                                    << " but block argument " << index
                                    << " has type " << arg.getType();
  YieldOp yield = getYield();
  if (yield.getValues().size() != getNumResults())
    return emitOpError("has ") << getNumResults() << " results but yields "
                               << yield.getValues().size() << " values";
  for (auto [index, result, value] :
       llvm::enumerate(getResults(), yield.getValues()))
    if (result.getType() != value.getType())
      return emitOpError("result ") << index << " has type " << result.getType()
                                    << " but yields " << value.getType();
  for (Operation &op : block.without_terminator())
    if (!isa<TccDialect>(op.getDialect()) || isa<FusionOp>(op))
      return op.emitOpError("cannot appear in a tcc.fusion: only tcc ops "
                            "other than tcc.fusion can");
  return success();
}
