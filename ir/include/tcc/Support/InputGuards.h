//===- InputGuards.h - Reading untrusted IR files safely --------*- C++ -*-===//
//
// MLIR 19's parser recurses once or more per nesting level of regions, dense
// literals and types, so tens of thousands of levels overflow the stack; it
// also accepts shapes whose element count overflows int64_t. Tools that read
// IR files (tcc-opt, tcc) run these checks before parsing and do their work
// on a thread with a large stack.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_SUPPORT_INPUTGUARDS_H
#define TCC_SUPPORT_INPUTGUARDS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SMLoc.h"

#include <optional>
#include <string>

namespace llvm {
class SourceMgr;
class raw_ostream;
} // namespace llvm

namespace mlir::tcc {

struct InputLimits {
  /// Deepest bracket nesting (`{`, `[`, `(`, `<` together) accepted in IR
  /// text. Real models nest a few dozen levels; at this depth MLIR's
  /// recursive parser, printer and passes stay within a few MiB of stack.
  unsigned maxNesting = 1024;
  /// Highest rank of a shaped type in IR text. MLIR's type parser and
  /// uniquer are quadratic in rank (100,000 dims take minutes); real models
  /// stay below 8.
  unsigned maxRank = 64;
  /// Whether MLIR bytecode is read. MLIR's bytecode reader is not hardened:
  /// a corrupted file can crash it, hang it or corrupt the heap. Tools read
  /// bytecode only when the user vouches for the file (--allow-bytecode).
  bool allowBytecode = false;
};

/// The largest IR file a tool reads (weights in dense_resource hex take
/// twice their bytes).
constexpr uint64_t kMaxInputFileBytes = uint64_t(16) << 30;

/// "" when `path` is "-" (standard input), a regular file of at most
/// kMaxInputFileBytes or missing (opening it then says so), else why it is
/// not read, naming it: a device such as /dev/zero or a pipe would be read
/// until memory runs out.
std::string checkInputPath(llvm::StringRef path);

/// The largest alignment a dense_resource blob's header may ask for.
constexpr uint32_t kMaxBlobAlignment = 4096;

/// The stack size tools give the thread that parses and transforms IR.
constexpr unsigned kToolStackBytes = 256u << 20;

/// A problem found in IR text before parsing, with where it starts.
struct TextProblem {
  llvm::SMLoc loc;
  std::string message;
};

/// Whether `buffer` holds MLIR bytecode rather than text.
bool isBytecode(llvm::MemoryBufferRef buffer);

/// Refuses bytecode unless `limits.allowBytecode`, else scans IR text for
/// nesting deeper than `limits`, tensor, memref and vector types whose
/// element count overflows int64_t, float literals that would become
/// infinity, and dense_resource blobs with a bad alignment or a second blob
/// under one name. Strings and comments are skipped; allowed bytecode is not
/// scanned.
std::optional<TextProblem> findTextProblem(llvm::MemoryBufferRef buffer,
                                           const InputLimits &limits = {});

/// findTextProblem for a file a tool is about to hand to MLIR: prints the
/// problem as "file:line:col: error: ..." with the source line to `os` and
/// fails.
LogicalResult checkInputFile(const llvm::MemoryBuffer &buffer,
                             llvm::raw_ostream &os,
                             const InputLimits &limits = {});

/// Fails with a diagnostic on the first op whose operand, result, block
/// argument or attribute holds a shaped type with an element count or byte
/// size that overflows int64_t.
LogicalResult checkTensorSizes(Operation *root);

/// Loads a model file (text or bytecode) from `sourceMgr`'s main buffer:
/// the text checks above, parsing, checkTensorSizes, then the verifier.
/// Problems go to `context`'s diagnostic handlers; returns null on any.
OwningOpRef<ModuleOp> parseModelFile(llvm::SourceMgr &sourceMgr,
                                     MLIRContext *context,
                                     const InputLimits &limits = {});

/// Runs `work` on a thread with a `stackBytes` stack and returns its result,
/// so that what a nesting limit lets through never reaches the main thread's
/// (often 8 MiB) limit.
int runWithLargeStack(llvm::function_ref<int()> work,
                      unsigned stackBytes = kToolStackBytes);

} // namespace mlir::tcc

#endif // TCC_SUPPORT_INPUTGUARDS_H
