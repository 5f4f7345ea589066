//===- OpCases.h - One conformance group per op of the tcc dialect --------===//
//
// Each group names the op it covers and holds cases (shapes, dtypes, attribute
// variants) that the suite compiles as one module per optimization level:
// every case becomes its own arguments and result of the entry function.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_TEST_CONFORMANCE_OPCASES_H
#define TCC_TEST_CONFORMANCE_OPCASES_H

#include "tcc/tcc.h"

#include <string>
#include <vector>

namespace tcc {
namespace conformance {

struct OpCase {
  /// What the case exercises, e.g. "f32 [2, 1, 5] , [4, 5]".
  std::string label;
  std::vector<Tensor> inputs;
  /// IR lines: `$0`, `$1`, ... are the inputs, `$r` the result and `$t` a
  /// prefix for temporaries.
  std::string body;
  std::string resultType;
  /// Allowed error in epsilons of the result dtype, relative to
  /// max(|want|, 1) (see errorInEpsilons); 0 is bit-exact.
  double tolerance = 0;
  /// Non-empty for a known divergence: why the case fails. Such cases stay
  /// out of the group's module; the suite prints them and checks that they
  /// still fail, so a fix shows up as a test to re-enable.
  std::string expectedFailure = "";
};

struct OpGroup {
  /// The op under test, e.g. "tcc.add".
  std::string op;
  /// Ops the cases exercise along the way that need no group of their own
  /// (tcc.yield inside tcc.fusion).
  std::vector<std::string> alsoCovers;
  std::vector<OpCase> cases;
};

/// Every group, built from the seeded generator (deterministic).
std::vector<OpGroup> allOpGroups();

/// The module text of `cases`: one `func.func @main` with every case's
/// arguments and result, in order.
std::string moduleText(const std::vector<OpCase> &cases);

} // namespace conformance
} // namespace tcc

#endif // TCC_TEST_CONFORMANCE_OPCASES_H
