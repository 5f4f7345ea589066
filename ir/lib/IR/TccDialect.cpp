//===- TccDialect.cpp - The tcc dialect -----------------------------------===//

#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"

using namespace mlir;
using namespace mlir::tcc;

#include "tcc/IR/TccOpsDialect.cpp.inc"

void TccDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcc/IR/TccOps.cpp.inc"
      >();
}

Operation *TccDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, type, elements);
}
