//===- TempPath.h - A test's file under gtest's TempDir, removed after ----===//
//
// Named per process, because ctest runs a suite's tests concurrently and the
// AArch64 stage runs the same suites under QEMU beside them; removed when
// the test ends, so runs leave nothing behind.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_RUNTIMEARTIFACT_TEMPPATH_H
#define TCC_TEST_RUNTIMEARTIFACT_TEMPPATH_H

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <unistd.h>

namespace tcc {
namespace test {

class TempPath {
public:
  explicit TempPath(const std::string &name)
      : path(::testing::TempDir() + "/" + std::to_string(getpid()) + "_" +
             name) {}
  TempPath(const TempPath &) = delete;
  TempPath &operator=(const TempPath &) = delete;
  ~TempPath() { std::remove(path.c_str()); }

  const std::string path;
};

} // namespace test
} // namespace tcc

#endif // TCC_TEST_RUNTIMEARTIFACT_TEMPPATH_H
