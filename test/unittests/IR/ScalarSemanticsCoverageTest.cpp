//===- ScalarSemanticsCoverageTest.cpp - Every pointwise op has semantics -===//
//
// Loops over the ops the tcc dialect registers, so that a new pointwise op
// without an entry in ScalarSemantics.h (the table the folders and the
// constant evaluator read) fails here, unless it is listed as no scalar
// function, with a reason.
//
//===----------------------------------------------------------------------===//

#include "tcc/IR/ScalarSemantics.h"
#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccTraits.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace mlir;

namespace {

bool isPointwise(RegisteredOperationName name) {
  return name.hasTrait<OpTrait::tcc::Pointwise>() ||
         name.hasTrait<OpTrait::Elementwise>();
}

std::set<std::string> nonScalarNames() {
  std::set<std::string> names;
  for (const tcc::NonScalarPointwiseOp &op : tcc::nonScalarPointwiseOps())
    names.insert(op.name.str());
  return names;
}

TEST(ScalarSemanticsCoverage, EveryPointwiseOpHasAnEntryOrAReason) {
  MLIRContext context;
  Dialect *dialect = context.getOrLoadDialect<tcc::TccDialect>();
  std::set<std::string> exempt = nonScalarNames();
  int pointwise = 0;
  for (RegisteredOperationName name : context.getRegisteredOperations()) {
    if (&name.getDialect() != dialect || !isPointwise(name))
      continue;
    ++pointwise;
    std::string opName = name.getStringRef().str();
    bool covered = tcc::hasScalarFunctions(name);
    EXPECT_TRUE(covered || exempt.count(opName))
        << opName << " is pointwise but has no entry in ScalarSemantics.cpp "
        << "(nor a reason in nonScalarPointwiseOps)";
    EXPECT_FALSE(covered && exempt.count(opName))
        << opName << " has an entry and is listed as no scalar function";
  }
  // The dialect registered its ops and the traits were seen.
  EXPECT_GT(pointwise, 0);
}

TEST(ScalarSemanticsCoverage, EveryReasonNamesAPointwiseOp) {
  MLIRContext context;
  context.getOrLoadDialect<tcc::TccDialect>();
  for (const tcc::NonScalarPointwiseOp &op : tcc::nonScalarPointwiseOps()) {
    std::optional<RegisteredOperationName> name =
        RegisteredOperationName::lookup(op.name, &context);
    ASSERT_TRUE(name.has_value()) << op.name.str() << " is no registered op";
    EXPECT_TRUE(isPointwise(*name)) << op.name.str() << " is not pointwise";
    EXPECT_FALSE(op.reason.empty()) << op.name.str();
  }
}

} // namespace
