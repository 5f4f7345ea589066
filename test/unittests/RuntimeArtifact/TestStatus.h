//===- TestStatus.h - assertions on tcc statuses ----------------*- C++ -*-===//

#ifndef TCC_TEST_RUNTIMEARTIFACT_TESTSTATUS_H
#define TCC_TEST_RUNTIMEARTIFACT_TESTSTATUS_H

#include "tcc/runtime/Status.h"

#include <gtest/gtest.h>

#include <string>

namespace tcc {
namespace test {

// Takes a C status and checks its code and that its message contains
// `substring`.
inline ::testing::AssertionResult isError(runtime::Status status,
                                          tcc_status_code_t code,
                                          const std::string &substring) {
  if (status.ok())
    return ::testing::AssertionFailure() << "expected an error, got OK";
  if (status.code() != code ||
      status.message().find(substring) == std::string::npos)
    return ::testing::AssertionFailure()
           << "got " << status.toString() << ", expected "
           << tcc_status_code_name(code) << " containing '" << substring << "'";
  return ::testing::AssertionSuccess();
}

inline ::testing::AssertionResult isOk(runtime::Status status) {
  if (status.ok())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << status.toString();
}

} // namespace test
} // namespace tcc

#define EXPECT_TCC_ERROR(expr, code, substring)                                \
  EXPECT_TRUE(                                                                 \
      ::tcc::test::isError(::tcc::runtime::Status(expr), code, substring))
#define ASSERT_TCC_OK(expr)                                                    \
  ASSERT_TRUE(::tcc::test::isOk(::tcc::runtime::Status(expr)))
#define EXPECT_TCC_OK(expr)                                                    \
  EXPECT_TRUE(::tcc::test::isOk(::tcc::runtime::Status(expr)))

#endif
