//===- Verify.h - tcc compile --verify: artifact vs interpreter -*- C++ -*-===//
//
// Runs a freshly compiled artifact and the reference interpreter
// (tcc::jit::Interpreter) on the same seeded inputs and compares the
// outputs. On a divergence it finds the first op whose value diverges (by
// recompiling with every intermediate value as an extra output), names the
// kernel of the artifact that computes that op and the source ops the kernel
// computes, and, for -O2, recompiles at -O0 to tell whether the graph passes
// (fusion) caused it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TOOLS_TCC_VERIFY_H
#define TCC_TOOLS_TCC_VERIFY_H

#include "tcc/Codegen/ModelCompiler.h"

#include "mlir/IR/BuiltinOps.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tcc {
namespace tool {

struct VerifyOptions {
  /// How the artifact was compiled (recompiles use the same options).
  mlir::tcc::ModelCompileOptions compile;
  unsigned seed = 1;
  /// Testing only (hidden --testing-miscompile=OP): every compile of the
  /// module negates the first result of the first op named OP, so that the
  /// artifact diverges from the interpreter on purpose.
  std::string testingMiscompile;
  /// With testingMiscompile: only compiles at -O2 get it (hidden
  /// --testing-miscompile-at-O2=OP), as if a graph pass were at fault.
  bool testingMiscompileOnlyAtO2 = false;
};

/// Whether a compile at `optLevel` gets the testing miscompile.
inline bool miscompiles(const VerifyOptions &options, int optLevel) {
  return !options.testingMiscompile.empty() &&
         (!options.testingMiscompileOnlyAtO2 || optLevel == 2);
}

/// Negates the first result of the first `opName` op of `module`'s entry
/// function behind every use. Returns "" or why it could not.
std::string applyTestingMiscompile(mlir::ModuleOp module,
                                   const std::string &opName);

/// Compares `artifact` (compiled from `source`, an unlowered copy of the
/// module) with the interpreter, printing a report to stdout. Returns ""
/// when the outputs agree, else the error to report.
std::string verifyArtifact(mlir::ModuleOp source,
                           const std::vector<uint8_t> &artifact,
                           const VerifyOptions &options);

} // namespace tool
} // namespace tcc

#endif // TCC_TOOLS_TCC_VERIFY_H
