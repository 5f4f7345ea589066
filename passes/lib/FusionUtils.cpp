//===- FusionUtils.cpp - Building tcc.fusion groups -----------------------===//

#include "FusionUtils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::tcc;

bool tcc::isSplatConstant(Value value) {
  auto constant = value.getDefiningOp<ConstantOp>();
  auto dense = constant ? dyn_cast<DenseElementsAttr>(constant.getValue())
                        : DenseElementsAttr();
  return dense && dense.isSplat();
}

FusionOp tcc::createFusion(const llvm::SetVector<Operation *> &members) {
  SmallVector<Operation *> ordered(members.begin(), members.end());
  llvm::sort(ordered, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  Operation *last = ordered.back();

  llvm::SetVector<Value> inputs;
  SmallVector<Value> outputs;
  for (Operation *op : ordered) {
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if ((!producer || !members.contains(producer)) && !isSplatConstant(operand))
        inputs.insert(operand);
    }
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !members.contains(user);
          }))
        outputs.push_back(result);
  }

  OpBuilder builder(last->getContext());
  builder.setInsertionPointAfter(last);
  SmallVector<Type> resultTypes;
  for (Value v : outputs)
    resultTypes.push_back(v.getType());
  auto fusion = builder.create<FusionOp>(last->getLoc(), resultTypes,
                                         inputs.getArrayRef());
  Block &body = fusion.getBlock();
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body.getArguments());
  builder.setInsertionPointToStart(&body);
  for (Operation *op : ordered)
    for (Value operand : op->getOperands())
      if (!mapping.contains(operand) && isSplatConstant(operand))
        mapping.map(operand, builder.clone(*operand.getDefiningOp())->getResult(0));
  for (Operation *op : ordered)
    builder.clone(*op, mapping);
  SmallVector<Value> yielded;
  for (Value v : outputs)
    yielded.push_back(mapping.lookup(v));
  builder.create<YieldOp>(last->getLoc(), yielded);

  for (auto [old, replacement] : llvm::zip(outputs, fusion.getResults()))
    old.replaceAllUsesWith(replacement);
  for (Operation *op : llvm::reverse(ordered))
    op->erase();
  return fusion;
}
