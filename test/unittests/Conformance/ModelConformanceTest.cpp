//===- ModelConformanceTest.cpp - Traced models: compiled vs interpreted --===//
//
// The test models of the bridge (MLP, digits CNN, ResNet-style block,
// transformer encoder layer) are traced, compiled at -O0 and -O2, run
// through the runtime and compared with the reference interpreter on two
// seeded batches (the tracing inputs and fresh ones).
//
//===----------------------------------------------------------------------===//

#include "ConformanceSupport.h"

#include "TestModels.h"

#include "tcc/jit.h"

#include <gtest/gtest.h>

#include <cstdio>

namespace tcc {
namespace conformance {
namespace {

using namespace testmodels;

/// Sums of a few hundred products in another order, then transcendentals:
/// 256 epsilons of f32 (3e-5) relative to max(|want|, 1).
constexpr double kModelTolerance = 256;

template <class M>
void expectCompiledMatches(const char *name, M &model,
                           const std::vector<Tensor> &inputs,
                           const std::vector<Tensor> &other) {
  jit::TraceOptions options;
  options.print_warnings = false;
  jit::TracedGraph traced = jit::trace(model, inputs, options);
  std::string ir = traced.str();
  for (int optLevel : {0, 2}) {
    std::vector<uint8_t> bytes;
    ASSERT_EQ(compileIR(ir, optLevel, &bytes), "") << name << "\n" << ir;
    std::vector<std::string> undefined;
    EXPECT_EQ(undefinedSymbols(bytes, &undefined), "");
    EXPECT_TRUE(undefined.empty())
        << name << " -O" << optLevel << ": undefined symbol "
        << undefined.front();
    double worst = 0;
    for (const std::vector<Tensor> &in : {inputs, other}) {
      std::vector<Tensor> want, got;
      ASSERT_EQ(runInterpreter(ir, in, &want), "") << name;
      ASSERT_EQ(runArtifact(bytes, in, &got), "") << name << " -O" << optLevel;
      ASSERT_EQ(got.size(), want.size());
      for (size_t i = 0; i < got.size(); ++i) {
        std::string where;
        double error = errorInEpsilons(got[i], want[i], &where);
        worst = std::max(worst, error);
        EXPECT_LE(error, kModelTolerance)
            << name << " -O" << optLevel << " output " << i << ": " << where;
      }
    }
    std::printf("[conformance] model %s -O%d max error %.3g eps (f32)\n", name,
                optLevel, worst);
  }
}

TEST(ModelConformance, Mlp) {
  manual_seed(11);
  Mlp model;
  expectCompiledMatches("mlp", model, {randn({4, 1, 8, 8})},
                        {randn({4, 1, 8, 8})});
}

TEST(ModelConformance, DigitsCnn) {
  manual_seed(12);
  DigitsCnn model;
  expectCompiledMatches("digits_cnn", model, {randn({3, 1, 8, 8})},
                        {randn({3, 1, 8, 8})});
}

TEST(ModelConformance, ResNetBlock) {
  manual_seed(13);
  ResBlock model;
  expectCompiledMatches("resnet_block", model, {randn({2, 8, 6, 6})},
                        {randn({2, 8, 6, 6})});
}

// At -O2 batch norm folds, the layout turns NHWC and the two epilogue
// chains meet at the residual add (once a crash in tcc-fuse-epilogues).
TEST(ModelConformance, ResNetDownsamplingBlock) {
  manual_seed(15);
  ResBlock model(8, 16, /*stride=*/2);
  expectCompiledMatches("resnet_down_block", model, {randn({2, 8, 20, 20})},
                        {randn({2, 8, 20, 20})});
}

TEST(ModelConformance, TransformerEncoderLayer) {
  manual_seed(14);
  EncoderLayer model;
  Tensor mask = causalMask(5);
  expectCompiledMatches("encoder_layer", model, {randn({2, 5, 16}), mask},
                        {randn({2, 5, 16}), mask});
}

} // namespace
} // namespace conformance
} // namespace tcc
