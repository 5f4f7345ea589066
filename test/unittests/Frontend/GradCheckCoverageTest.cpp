//===- GradCheckCoverageTest.cpp - Every backward has a float64 gradcheck -===//
//
// The ops with a backward formula are the registered OpDefs whose `backward`
// is not empty (OpRegistry.h): recordOp builds a backward node only for
// those, so the registry is the one list. This test runs the frontend tests
// that do gradient checks (test::gradcheck / test::gradgradcheck, float64
// central differences) in a child process with TCC_GRADCHECK_COVERAGE_LOG
// set; each passing check logs which registered ops' backward nodes took
// part (TestSupport.cpp). Every op with a backward must appear at first
// order, and at second order unless `kFirstOrderOnly` says why not. A new op
// with a backward formula fails here, by name, until some test checks it.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tcc/Frontend/OpRegistry.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <string>

#include <unistd.h>

using namespace tcc;

namespace {

/// Ops whose backward formula is checked at first order only, and why.
/// None today: every formula is written with differentiable tensor ops.
const std::map<std::string, std::string> kFirstOrderOnly = {};

/// The tests whose checks count: every test of this binary except this one.
constexpr const char *kChildFilter = "-GradCheckCoverage.*";

struct Coverage {
  std::set<std::string> first, second;
};

/// Runs this binary's gradient-check tests with the coverage log on.
Coverage runChecks(std::string &error) {
  Coverage c;
  std::string self = ::testing::internal::GetArgvs().at(0);
  std::string log = ::testing::TempDir() + "tcc_gradcheck_coverage." +
                    std::to_string(getpid()) + ".log";
  std::remove(log.c_str());
  std::string cmd = "TCC_GRADCHECK_COVERAGE_LOG='" + log + "' '" + self +
                    "' --gtest_filter='" + kChildFilter + "' >/dev/null 2>&1";
  int rc = std::system(cmd.c_str());
  if (rc != 0)
    error = "the gradient-check tests failed (exit status " +
            std::to_string(rc) + "): run them to see which";
  std::ifstream in(log);
  int order;
  std::string op;
  while (in >> order >> op)
    (order == 1 ? c.first : c.second).insert(op);
  std::remove(log.c_str());
  return c;
}

TEST(GradCheckCoverage, EveryOpWithABackwardIsGradchecked) {
  std::string error;
  Coverage c = runChecks(error);
  EXPECT_TRUE(error.empty()) << error;
  size_t withBackward = 0;
  for (const detail::OpDef *op : detail::registeredOps()) {
    if (!op->backward[0])
      continue;
    ++withBackward;
    EXPECT_TRUE(c.first.count(op->name))
        << "op '" << op->name << "' (" << op->backward
        << ") has a backward formula but no float64 finite-difference "
           "gradcheck";
    if (!kFirstOrderOnly.count(op->name)) {
      EXPECT_TRUE(c.second.count(op->name))
          << "op '" << op->name << "' (" << op->backward
          << ") has no second-order (gradgradcheck) check; add one, or say "
             "in kFirstOrderOnly why its formula is not differentiated";
    }
  }
  EXPECT_GT(withBackward, 0u);
  std::cout << "[ coverage ] " << withBackward
            << " ops with a backward formula; first-order checks cover "
            << c.first.size() << " ops, second-order " << c.second.size()
            << "\n";
  // The exemption list names only ops that exist, have a backward, and are
  // not in fact checked at second order.
  for (const auto &[name, why] : kFirstOrderOnly) {
    const detail::OpDef *op = detail::findOp(name);
    EXPECT_TRUE(op && op->backward[0]) << "kFirstOrderOnly names '" << name
                                       << "', not an op with a backward";
    EXPECT_FALSE(c.second.count(name))
        << "'" << name << "' is checked at second order: drop it from "
        << "kFirstOrderOnly";
  }
}

/// What the checks of `body` log.
Coverage logOf(const std::function<void()> &body) {
  std::string log = ::testing::TempDir() + "tcc_gradcheck_credit." +
                    std::to_string(getpid()) + ".log";
  std::remove(log.c_str());
  setenv("TCC_GRADCHECK_COVERAGE_LOG", log.c_str(), 1);
  body();
  unsetenv("TCC_GRADCHECK_COVERAGE_LOG");
  Coverage c;
  std::ifstream in(log);
  int order;
  std::string op;
  while (in >> order >> op)
    (order == 1 ? c.first : c.second).insert(op);
  std::remove(log.c_str());
  return c;
}

TEST(GradCheckCoverage, CreditsOnlyTheOpsThatMadeTheCheckedNodes) {
  manual_seed(3);
  using V = std::vector<Tensor>;
  // reshape and view share "ViewBackward0": only reshape is credited; the
  // objective's own mul and sum are not.
  Coverage c = logOf([] {
    EXPECT_TRUE(test::gradcheck(
        [](const V &x) { return x[0].reshape({6}); }, {test::leaf({2, 3})}));
  });
  EXPECT_EQ(c.first, std::set<std::string>({"reshape"}));
  EXPECT_TRUE(c.second.empty());
  // A second-order check credits fn's ops at second order, and at first
  // order the ops its formulas call.
  c = logOf([] {
    EXPECT_TRUE(test::gradgradcheck(
        [](const V &x) { return x[0].sin(); }, {test::leaf({3})}));
  });
  EXPECT_EQ(c.second, std::set<std::string>({"sin"}));
  // sin's formula is g * cos(x); the weighting's formulas add nothing.
  EXPECT_EQ(c.first, std::set<std::string>({"cos", "mul"}));
  // A failing check credits nothing.
  struct Wrong : autograd::Function<Wrong> {
    static Tensor forward(autograd::AutogradContext *, Tensor x) {
      return x.exp();
    }
    static autograd::variable_list backward(autograd::AutogradContext *,
                                            autograd::variable_list g) {
      return {g[0] * 3};
    }
  };
  c = logOf([] {
    EXPECT_FALSE(test::gradcheck(
        [](const V &x) { return Wrong::apply(x[0].exp()); },
        {test::leaf({3})}));
  });
  EXPECT_TRUE(c.first.empty());
}

} // namespace
