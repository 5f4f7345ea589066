//===- EntryFunction.h - Which function of a module a tool runs -*- C++ -*-===//
//
// One rule for every tool that runs or compiles a module (tcc compile,
// tcc run-ir, --verify, the interpreter): the function named by the user,
// else the module's only public function with a body. A module with several
// public functions and no name given is ambiguous and refused, listing them,
// rather than one tool picking `main` and another `forward`.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_IR_ENTRYFUNCTION_H
#define TCC_IR_ENTRYFUNCTION_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>

namespace mlir::tcc {

/// The function `name` (any visibility), or with `name` empty the only
/// public function with a body; null with `*error` saying what is wrong
/// (no such function, a declaration, none or several candidates).
func::FuncOp findEntryFunction(ModuleOp module, StringRef name,
                               std::string *error);

} // namespace mlir::tcc

#endif // TCC_IR_ENTRYFUNCTION_H
