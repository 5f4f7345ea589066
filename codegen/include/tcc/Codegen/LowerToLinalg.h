//===- LowerToLinalg.h - tcc ops to linalg on tensors -----------*- C++ -*-===//
//
// The patterns of `tcc-lower-to-linalg`, for the pass and for tests that
// check every op of the dialect has one.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_CODEGEN_LOWERTOLINALG_H
#define TCC_CODEGEN_LOWERTOLINALG_H

#include "mlir/Transforms/DialectConversion.h"

namespace mlir::tcc {

/// The lowering's types: ui8 becomes signless i8 (arith has no unsigned
/// integers; each pattern reads the op's own types to pick unsigned
/// arithmetic). The bytes, and so the kernel ABI, stay the same.
void populateTccToLinalgTypeConversion(TypeConverter &converter);

/// One conversion pattern per tcc op.
void populateTccToLinalgPatterns(const TypeConverter &converter,
                                 RewritePatternSet &patterns);

} // namespace mlir::tcc

#endif // TCC_CODEGEN_LOWERTOLINALG_H
