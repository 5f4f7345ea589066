//===- OutOfMemoryTest.cpp - Out of memory is one line and status 1 -------===//

#include "tcc/Support/OutOfMemory.h"

#include "llvm/Support/ErrorHandling.h"

#include <gtest/gtest.h>

#include <new>

using namespace mlir::tcc;

namespace {

// LLVM's allocation failures (SmallVector growth, safe_malloc).
TEST(OutOfMemoryDeathTest, LlvmAllocationFailureNamesTheStage) {
  EXPECT_EXIT(
      {
        installOutOfMemoryHandlers("tool");
        ToolStage stage("parsing the IR");
        llvm::report_bad_alloc_error("Allocation failed");
      },
      ::testing::ExitedWithCode(1),
      "^tool: error: out of memory while parsing the IR \\(Allocation "
      "failed\\)\n$");
}

// A std::bad_alloc that reaches a noexcept frame ends in std::terminate.
void allocateInNoexcept() noexcept { throw std::bad_alloc(); }

TEST(OutOfMemoryDeathTest, BadAllocThroughNoexceptNamesTheStage) {
  EXPECT_EXIT(
      {
        installOutOfMemoryHandlers("tool");
        ToolStage outer("compiling the model");
        {
          ToolStage inner("writing the artifact");
        }
        allocateInNoexcept();
      },
      ::testing::ExitedWithCode(1),
      "^tool: error: out of memory while compiling the model\n$");
}

// LLVM's fatal errors (pthread_create failing for want of memory).
TEST(OutOfMemoryDeathTest, FatalErrorIsOneLine) {
  EXPECT_EXIT(
      {
        installOutOfMemoryHandlers("tool");
        llvm::report_fatal_error("pthread_create failed");
      },
      ::testing::ExitedWithCode(1),
      "^tool: error: fatal error while starting "
      "\\(pthread_create failed\\)\n$");
}

// Other exceptions still terminate as before.
void throwInNoexcept() noexcept { throw 42; }

TEST(OutOfMemoryDeathTest, OtherExceptionsStillAbort) {
  EXPECT_DEATH(
      {
        installOutOfMemoryHandlers("tool");
        throwInNoexcept();
      },
      "");
}

} // namespace
