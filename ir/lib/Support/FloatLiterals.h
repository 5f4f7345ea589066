//===- FloatLiterals.h - Float literals that would become infinity -*- C++ -*-===//

#ifndef TCC_SUPPORT_FLOATLITERALS_H
#define TCC_SUPPORT_FLOATLITERALS_H

#include "tcc/Support/InputGuards.h"

namespace mlir::tcc {

/// The first decimal literal in IR text that its float type cannot hold:
/// MLIR's parser would turn it into infinity silently (FloatLiterals.cpp).
std::optional<TextProblem> findFloatLiteralProblem(StringRef text);

} // namespace mlir::tcc

#endif // TCC_SUPPORT_FLOATLITERALS_H
