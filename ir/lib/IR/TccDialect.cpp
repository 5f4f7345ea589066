//===- TccDialect.cpp - The tcc dialect -----------------------------------===//

#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccAttrs.h"
#include "tcc/IR/TccOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::tcc;

#include "tcc/IR/TccEnums.cpp.inc"
#include "tcc/IR/TccOpsDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "tcc/IR/TccAttrs.cpp.inc"

void TccDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "tcc/IR/TccOps.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "tcc/IR/TccAttrs.cpp.inc"
      >();
}

Operation *TccDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return builder.create<ConstantOp>(loc, type, elements);
}

//===----------------------------------------------------------------------===//
// tcc.name on function arguments and results
//===----------------------------------------------------------------------===//

LogicalResult TccDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() == kNameAttrName)
    return op->emitOpError("'")
           << kNameAttrName
           << "' is only valid on function arguments and results";
  if (attr.getName() == kTilesAttrName) {
    auto tiles = dyn_cast<IntegerAttr>(attr.getValue());
    if (!tiles || tiles.getInt() < 1)
      return op->emitOpError("'") << kTilesAttrName
                                  << "' must be an integer >= 1";
    return success();
  }
  if (attr.getName() == kScratchBytesAttrName) {
    auto sizes = dyn_cast<DenseI64ArrayAttr>(attr.getValue());
    if (!sizes || llvm::any_of(sizes.asArrayRef(), [](int64_t s) { return s < 0; }))
      return op->emitOpError("'") << kScratchBytesAttrName
                                  << "' must be an array of byte sizes";
    return success();
  }
  return op->emitOpError("has unknown tcc attribute '")
         << attr.getName().getValue() << "'";
}

/// Checks a `tcc.name` on argument (or result) `index` of function `op`:
/// a non-empty string used by no earlier argument or result, so inputs and
/// outputs bind by name without ambiguity.
static LogicalResult verifyName(Operation *op, NamedAttribute attr,
                                bool isResult, unsigned index) {
  StringRef kind = isResult ? "result" : "argument";
  if (attr.getName() != TccDialect::kNameAttrName)
    return op->emitOpError("has unknown tcc attribute '")
           << attr.getName().getValue() << "' on " << kind << " #" << index;
  auto fn = dyn_cast<FunctionOpInterface>(op);
  if (!fn)
    return op->emitOpError("'")
           << TccDialect::kNameAttrName
           << "' is only valid on function arguments and results";
  auto name = dyn_cast<StringAttr>(attr.getValue());
  if (!name || name.getValue().empty())
    return op->emitOpError("'")
           << TccDialect::kNameAttrName << "' of " << kind << " #" << index
           << " must be a non-empty string, got " << attr.getValue();
  // The artifact stores names as C strings, which end at a NUL.
  if (name.getValue().contains('\0'))
    return op->emitOpError("'")
           << TccDialect::kNameAttrName << "' of " << kind << " #" << index
           << " must not contain a NUL byte";
  // Arguments and results share one namespace; report at the later use.
  unsigned numArgs = fn.getNumArguments();
  unsigned position = isResult ? numArgs + index : index;
  for (unsigned p = 0; p < position; ++p) {
    bool otherIsResult = p >= numArgs;
    unsigned other = otherIsResult ? p - numArgs : p;
    Attribute otherName =
        otherIsResult ? fn.getResultAttr(other, TccDialect::kNameAttrName)
                      : fn.getArgAttr(other, TccDialect::kNameAttrName);
    if (otherName == name)
      return op->emitOpError("'")
             << TccDialect::kNameAttrName << "' " << name << " of " << kind
             << " #" << index << " is already used by "
             << (otherIsResult ? "result" : "argument") << " #" << other;
  }
  return success();
}

LogicalResult TccDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  return verifyName(op, attr, /*isResult=*/false, argIndex);
}

LogicalResult TccDialect::verifyRegionResultAttribute(Operation *op, unsigned,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  return verifyName(op, attr, /*isResult=*/true, resultIndex);
}
