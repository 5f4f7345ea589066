//===- BridgeCoverageTest.cpp - Every op has both directions of the bridge ===//
//
// Fails when an eager op is added without a trace mapping (or an explicit
// "not traceable: reason" entry), when a trace mapping names an op the
// eager library does not have, and when a tcc op has no interpreter
// mapping.
//
//===----------------------------------------------------------------------===//

#include "InterpreterRegistry.h"
#include "TraceRegistry.h"

#include "tcc/Frontend/OpRegistry.h"
#include "tcc/IR/TccDialect.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

namespace tcc {
namespace {

std::string join(const std::vector<std::string> &names) {
  std::string s;
  for (const std::string &n : names)
    s += (s.empty() ? "" : ", ") + n;
  return s;
}

TEST(BridgeCoverage, EveryEagerOpIsTracedOrSaysWhyNot) {
  const jit::TraceRegistry &bridge = jit::traceRegistry();
  std::vector<std::string> missing;
  size_t traced = 0, untraceable = 0;
  for (const detail::OpDef *op : detail::registeredOps()) {
    const jit::TraceRegistry::TraceEntry *entry = bridge.findTrace(op->name);
    if (!entry)
      missing.push_back(op->name);
    else if (entry->fn)
      ++traced;
    else
      ++untraceable;
  }
  EXPECT_TRUE(missing.empty())
      << "eager ops without a trace mapping or a reason: " << join(missing);
  EXPECT_GT(traced, 100u);
  std::cout << traced << " eager ops traced, " << untraceable
            << " not traceable (with a reason)\n";
}

TEST(BridgeCoverage, EveryTraceMappingNamesAnEagerOp) {
  std::vector<std::string> stale;
  for (const auto &[name, entry] : jit::traceRegistry().traces()) {
    if (!detail::findOp(name))
      stale.push_back(name);
    if (!entry.fn) {
      EXPECT_FALSE(entry.untraceable.empty()) << name;
    }
  }
  EXPECT_TRUE(stale.empty())
      << "mappings for unknown eager ops: " << join(stale);
}

TEST(BridgeCoverage, EveryTccOpHasAnInterpreter) {
  mlir::MLIRContext context;
  context.loadDialect<mlir::tcc::TccDialect>();
  std::vector<std::string> missing;
  size_t count = 0;
  for (mlir::RegisteredOperationName op : context.getRegisteredOperations()) {
    if (op.getDialectNamespace() != "tcc")
      continue;
    ++count;
    // Structure, not computation: the interpreter runs a fusion's body as a
    // nested block (InterpreterTest.RunsFusionRegions).
    if (op.getStringRef() == "tcc.fusion" || op.getStringRef() == "tcc.yield")
      continue;
    if (!jit::interpreterRegistry().find(op.getStringRef().str()))
      missing.push_back(op.getStringRef().str());
  }
  EXPECT_GT(count, 60u);
  EXPECT_TRUE(missing.empty())
      << "tcc ops without an interpreter mapping: " << join(missing);
}

} // namespace
} // namespace tcc
