//===- Passes.h - Lowering passes of tcc's code generator -------*- C++ -*-===//

#ifndef TCC_CODEGEN_PASSES_H
#define TCC_CODEGEN_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace tcc {

#define GEN_PASS_DECL
#include "tcc/Codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "tcc/Codegen/Passes.h.inc"

} // namespace tcc
} // namespace mlir

#endif // TCC_CODEGEN_PASSES_H
