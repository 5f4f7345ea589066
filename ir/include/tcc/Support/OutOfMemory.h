//===- OutOfMemory.h - Running out of memory as an error ---------*- C++ -*-===//
//
// Out of memory (or of threads), a compiler tool would abort: LLVM prints
// "LLVM ERROR: out of memory" or "pthread_create failed" with a stack dump,
// and a std::bad_alloc that reaches a noexcept frame or main ends in
// std::terminate. With these handlers it prints one line instead, naming
// what it was doing,
//   tcc compile: error: out of memory while compiling the model
// and exits with status 1. Files are written atomically (FileWrite.h), so
// nothing is left half-written.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_SUPPORT_OUTOFMEMORY_H
#define TCC_SUPPORT_OUTOFMEMORY_H

namespace mlir::tcc {

/// Installs the handlers for the tool named `tool` ("tcc compile"), a
/// string that must outlive the process's work.
void installOutOfMemoryHandlers(const char *tool);

/// What the tool is doing ("parsing the IR"), for that message, while the
/// scope lasts; scopes nest. `what` must outlive the scope.
class ToolStage {
public:
  explicit ToolStage(const char *what);
  ~ToolStage();
  ToolStage(const ToolStage &) = delete;
  ToolStage &operator=(const ToolStage &) = delete;

private:
  const char *previous;
};

} // namespace mlir::tcc

#endif // TCC_SUPPORT_OUTOFMEMORY_H
