//===- LoweringCoverageTest.cpp - Every tcc op has a lowering -------------===//
//
// Loops over the ops the dialect registers, so that a new op without a
// pattern in tcc-lower-to-linalg fails here instead of in a user's compile.
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include "tcc/Codegen/LowerToLinalg.h"
#include "tcc/IR/TccDialect.h"

#include <gtest/gtest.h>

#include <set>

using namespace mlir;

namespace {

TEST(LoweringCoverageTest, EveryRegisteredTccOpHasALowering) {
  std::unique_ptr<MLIRContext> context = tcc_test::makeContext();
  TypeConverter converter;
  tcc::populateTccToLinalgTypeConversion(converter);
  RewritePatternSet patterns(context.get());
  tcc::populateTccToLinalgPatterns(converter, patterns);
  std::set<std::string> lowered;
  for (const std::unique_ptr<RewritePattern> &pattern : patterns.getNativePatterns())
    if (std::optional<OperationName> root = pattern->getRootKind())
      lowered.insert(root->getStringRef().str());

  Dialect *tcc = context->getOrLoadDialect<tcc::TccDialect>();
  int ops = 0;
  for (RegisteredOperationName name : context->getRegisteredOperations()) {
    if (&name.getDialect() != tcc)
      continue;
    ++ops;
    EXPECT_TRUE(lowered.count(name.getStringRef().str()))
        << name.getStringRef().str() << " has no lowering to linalg";
  }
  EXPECT_GT(ops, 0) << "no tcc ops registered";
}

} // namespace
