//===- RandomGraphTest.cpp - Random graphs: compiled vs interpreted -------===//
//
// Seeds 1 to kSeeds each give a small valid graph of mixed ops
// (RandomGraph.cpp), compiled at -O0 and -O2 and compared with the reference
// interpreter. A failure names the seed and prints the IR, so
// `--gtest_filter=Seeds/RandomGraphTest.CompiledMatchesInterpreter/<seed - 1>`
// reproduces it.
//
//===----------------------------------------------------------------------===//

#include "RandomGraph.h"
#include "ConformanceSupport.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

namespace tcc {
namespace conformance {
namespace {

constexpr uint64_t kSeeds = 50;

/// Chains of a dozen ops with sums of up to ~100 terms: 1024 epsilons of
/// f32 (1.2e-4) relative to max(|want|, 1).
constexpr double kGraphTolerance = 1024;

class RandomGraphTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RandomGraphTest, CompiledMatchesInterpreter) {
  uint64_t seed = GetParam();
  RandomGraph graph = randomGraph(seed);
  std::string ops;
  for (const std::string &op : graph.ops)
    ops += " " + op;
  // TCC_PRINT_GRAPHS=1 prints each graph before it runs (for a crash).
  if (std::getenv("TCC_PRINT_GRAPHS")) {
    std::printf("seed %llu:\n%s", (unsigned long long)seed, graph.ir.c_str());
    std::fflush(stdout);
  }
  SCOPED_TRACE("random graph seed " + std::to_string(seed) + " (ops:" + ops +
               ")\n" + graph.ir);
  std::vector<Tensor> want;
  ASSERT_EQ(runInterpreter(graph.ir, graph.inputs, &want), "");
  for (int optLevel : {0, 2}) {
    std::vector<uint8_t> bytes;
    ASSERT_EQ(compileIR(graph.ir, optLevel, &bytes), "");
    std::vector<std::string> undefined;
    EXPECT_EQ(undefinedSymbols(bytes, &undefined), "");
    EXPECT_TRUE(undefined.empty()) << "undefined symbol " << undefined.front();
    std::vector<Tensor> got;
    ASSERT_EQ(runArtifact(bytes, graph.inputs, &got), "") << "-O" << optLevel;
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < got.size(); ++i) {
      std::string where;
      EXPECT_LE(errorInEpsilons(got[i], want[i], &where), kGraphTolerance)
          << "-O" << optLevel << " output " << i << ": " << where;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, RandomGraphTest,
                         ::testing::Range<uint64_t>(1, kSeeds + 1));

} // namespace
} // namespace conformance
} // namespace tcc
