//===- ScatterBoundsTest.cpp - Compiled tcc.scatter on out-of-range indices ===//
//
// The interpreter throws on an index outside [0, size), as PyTorch does;
// compiled code cannot, and skips that update (tcc.scatter's description).
// These cases cannot be conformance cases (there is no reference result),
// so they are checked here against hand-computed values: the skipped
// updates leave their row alone and nothing outside the result is written.
//
//===----------------------------------------------------------------------===//

#include "ConformanceSupport.h"

#include <gtest/gtest.h>

namespace tcc {
namespace conformance {
namespace {

const char kScatterIR[] = R"(
func.func @main(%x: tensor<5xf32> {tcc.name = "x"}, %i: tensor<6xi64> {tcc.name = "i"},
                %u: tensor<6xf32> {tcc.name = "u"}) -> (tensor<5xf32> {tcc.name = "y"}) {
  %r = tcc.scatter %x, %i, %u {dim = 0 : i64, reduction = #tcc.scatter_reduction<add>} : (tensor<5xf32>, tensor<6xi64>, tensor<6xf32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}
)";

TEST(ScatterBounds, CompiledCodeSkipsOutOfRangeUpdates) {
  Tensor x = tensor({1.0f, 2.0f, 3.0f, 4.0f, 5.0f});
  // -1, 5 and a huge index are out of range; 0, 4 and 2 are not.
  Tensor i = tensor(std::vector<int64_t>{-1, 0, 5, 4, int64_t(1) << 40, 2});
  Tensor u = tensor({100.0f, 10.0f, 100.0f, 20.0f, 100.0f, 30.0f});
  for (int optLevel : {0, 2}) {
    std::vector<uint8_t> bytes;
    ASSERT_EQ(compileIR(kScatterIR, optLevel, &bytes), "");
    std::vector<Tensor> got;
    ASSERT_EQ(runArtifact(bytes, {x, i, u}, &got), "");
    ASSERT_EQ(got.size(), 1u);
    std::vector<float> want = {11, 2, 33, 4, 25};
    for (int64_t k = 0; k < 5; ++k)
      EXPECT_EQ(got[0].data_ptr<float>()[k], want[size_t(k)])
          << "element " << k << " at -O" << optLevel;
  }
}

TEST(ScatterBounds, TheInterpreterThrows) {
  std::vector<Tensor> got;
  std::string error = runInterpreter(
      kScatterIR,
      {ones({5}), tensor(std::vector<int64_t>{0, 0, 0, 0, 0, 5}), ones({6})},
      &got);
  EXPECT_NE(error.find("index 5 is out of bounds for dimension 0 with size 5"),
            std::string::npos)
      << error;
}

} // namespace
} // namespace conformance
} // namespace tcc
