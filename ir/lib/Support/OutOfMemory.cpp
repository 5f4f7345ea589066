//===- OutOfMemory.cpp - Running out of memory as an error ----------------===//
//
// The handlers run with the heap exhausted, so they allocate nothing: they
// write fixed strings with write(2) and leave with _exit.
//
//===----------------------------------------------------------------------===//

#include "tcc/Support/OutOfMemory.h"

#include "llvm/Support/ErrorHandling.h"

#include <atomic>
#include <cstring>
#include <exception>
#include <new>
#include <string>

#include <unistd.h>

using namespace mlir::tcc;

namespace {

std::atomic<const char *> toolName{"tcc"};
std::atomic<const char *> currentStage{"starting"};
std::terminate_handler previousTerminate = nullptr;

void writeError(const char *text) {
  if (text)
    (void)!::write(STDERR_FILENO, text, std::strlen(text));
}

/// "<tool>: error: <what> while <stage>[ (<detail>)]", then exit 1.
[[noreturn]] void exitWith(const char *what, const char *detail) {
  writeError(toolName.load());
  writeError(": error: ");
  writeError(what);
  writeError(" while ");
  writeError(currentStage.load());
  if (detail && *detail) {
    writeError(" (");
    writeError(detail);
    writeError(")");
  }
  writeError("\n");
  _exit(1);
}

void onBadAlloc(void *, const char *reason, bool) {
  exitWith("out of memory", reason);
}

// LLVM's fatal errors in these tools come from the system refusing
// resources (a thread, a memory map); any other would be a bug, and is
// reported the same way: one line, not a stack dump.
void onFatalError(void *, const char *reason, bool) {
  exitWith("fatal error", reason);
}

void onTerminate() {
  if (std::exception_ptr current = std::current_exception()) {
    try {
      std::rethrow_exception(current);
    } catch (const std::bad_alloc &) {
      exitWith("out of memory", nullptr);
    } catch (...) {
    }
  }
  if (previousTerminate)
    previousTerminate();
  std::abort();
}

} // namespace

void mlir::tcc::installOutOfMemoryHandlers(const char *tool) {
  toolName = tool;
  llvm::install_bad_alloc_error_handler(onBadAlloc);
  llvm::install_fatal_error_handler(onFatalError);
  previousTerminate = std::set_terminate(onTerminate);
}

ToolStage::ToolStage(const char *what) : previous(currentStage.exchange(what)) {}

ToolStage::~ToolStage() { currentStage = previous; }
