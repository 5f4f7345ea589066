//===- TccOps.h - Ops of the tcc dialect ------------------------*- C++ -*-===//

#ifndef TCC_IR_TCCOPS_H
#define TCC_IR_TCCOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tcc/IR/TccAttrs.h"
#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccTraits.h"

#define GET_OP_CLASSES
#include "tcc/IR/TccOps.h.inc"

#endif // TCC_IR_TCCOPS_H
