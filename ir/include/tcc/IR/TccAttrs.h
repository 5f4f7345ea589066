//===- TccAttrs.h - Attributes and enums of the tcc dialect -----*- C++ -*-===//

#ifndef TCC_IR_TCCATTRS_H
#define TCC_IR_TCCATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "tcc/IR/TccEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tcc/IR/TccAttrs.h.inc"

#endif // TCC_IR_TCCATTRS_H
