//===- ModelCompilerTest.cpp - IR to artifact to runtime, end to end ------===//

#include "tcc/Codegen/MemoryPlan.h"
#include "tcc/Codegen/ModelCompiler.h"

#include "tcc/runtime/tcc_runtime.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>

using namespace mlir;

namespace {

/// Fails the test with the status message unless it is OK.
void expectOk(tcc_status_t status) {
  if (status) {
    ADD_FAILURE() << tcc_status_message(status);
    tcc_status_free(status);
  }
}

class ModelCompilerTest : public ::testing::Test {
protected:
  ModelCompilerTest() {
    DialectRegistry registry;
    tcc::registerCodegenDialects(registry);
    context.appendDialectRegistry(registry);
  }

  std::vector<uint8_t> compile(const char *source,
                               tcc::ModelCompileOptions options = {}) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    FailureOr<std::vector<uint8_t>> bytes =
        module ? tcc::compileModel(*module, options, &stats)
               : FailureOr<std::vector<uint8_t>>(failure());
    if (failed(bytes)) {
      ADD_FAILURE() << "compileModel failed";
      return {};
    }
    return std::move(*bytes);
  }

  MLIRContext context;
  tcc::ModelCompileStats stats;
};

// y = exp(x @ w + b) reshaped, with w and b constants; z = x returned as is.
const char *kModel = R"mlir(
  func.func @main(%x: tensor<2x3xf32> {tcc.name = "x"})
      -> (tensor<4xf32> {tcc.name = "y"}, tensor<2x3xf32> {tcc.name = "z"}) {
    %w = tcc.constant dense<[[1.0, 0.0], [0.0, 1.0], [1.0, -1.0]]> : tensor<3x2xf32>
    %b = tcc.constant dense<[0.5, -0.5]> : tensor<2xf32>
    %0 = tcc.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
    %1 = tcc.add %0, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
    %2 = tcc.exp %1 : tensor<2x2xf32>
    %3 = tcc.reshape %2 : tensor<2x2xf32> to tensor<4xf32>
    return %3, %x : tensor<4xf32>, tensor<2x3xf32>
  })mlir";

/// Runs the model on x and returns y and z.
std::pair<std::vector<float>, std::vector<float>>
runModel(const std::vector<uint8_t> &bytes, const float (&x)[6]) {
  tcc_model_t *model = nullptr;
  expectOk(tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
  if (!model)
    return {};
  tcc_session_t *session = nullptr;
  expectOk(tcc_session_create(model, nullptr, &session));
  expectOk(tcc_session_bind_input_by_name(session, "x", x, sizeof(x)));
  expectOk(tcc_session_run(session));
  std::vector<float> outputs[2];
  for (const char *name : {"y", "z"}) {
    size_t index = 0;
    expectOk(tcc_model_find_output(model, name, &index));
    const void *data = nullptr;
    size_t size = 0;
    expectOk(tcc_session_output(session, index, &data, &size));
    const float *values = static_cast<const float *>(data);
    outputs[index].assign(values, values + size / sizeof(float));
  }
  tcc_session_release(session);
  tcc_model_release(model);
  return {outputs[0], outputs[1]};
}

TEST_F(ModelCompilerTest, CompiledModelComputesWhatTheIRSays) {
  std::vector<uint8_t> bytes = compile(kModel);
  const float x[6] = {1, 2, 3, -1, 0.5f, 2};
  auto [y, z] = runModel(bytes, x);
  ASSERT_EQ(y.size(), 4u);
  // Hand-computed x @ w + b, row by row.
  double pre[4] = {1 + 3 + 0.5, 2 - 3 - 0.5, -1 + 2 + 0.5, 0.5 - 2 - 0.5};
  for (int i = 0; i < 4; ++i)
    EXPECT_NEAR(y[i], std::exp(pre[i]), 1e-5 * std::exp(pre[i])) << i;
  EXPECT_EQ(z, std::vector<float>(x, x + 6));
}

TEST_F(ModelCompilerTest, StepsAreLibraryCallsKernelsAndCopies) {
  tcc::ModelCompileOptions o0;
  o0.optLevel = 0;
  compile(kModel, o0);
  EXPECT_EQ(stats.libraryCalls, 1u); // the fp32 matmul
  EXPECT_EQ(stats.kernels, 2u);      // add, exp
  EXPECT_EQ(stats.copies, 2u);       // the reshaped view and the input
  compile(kModel);
  EXPECT_EQ(stats.libraryCalls, 1u);
  EXPECT_EQ(stats.kernels, 1u); // add and exp fused
  EXPECT_EQ(stats.copies, 2u);
}

// The progress callback hears the stages in order and every kernel once.
TEST_F(ModelCompilerTest, ProgressReportsStagesAndEachKernel) {
  using Stage = tcc::CompileProgress::Stage;
  std::vector<tcc::CompileProgress> heard;
  tcc::ModelCompileOptions o0;
  o0.optLevel = 0;
  o0.progress = [&](const tcc::CompileProgress &p) { heard.push_back(p); };
  compile(kModel, o0);
  ASSERT_EQ(heard.size(), 4u);
  EXPECT_EQ(heard[0].stage, Stage::GraphPasses);
  EXPECT_EQ(heard[1].stage, Stage::Lowering);
  EXPECT_EQ(heard[1].items, stats.kernels);
  std::set<std::string> kernels;
  for (size_t i = 2; i < heard.size(); ++i) {
    EXPECT_EQ(heard[i].stage, Stage::Compiling);
    EXPECT_EQ(heard[i].item, i - 1);
    EXPECT_EQ(heard[i].items, 2u);
    kernels.insert(heard[i].kernel);
  }
  EXPECT_EQ(kernels.size(), 2u); // add and exp, each once
}

TEST_F(ModelCompilerTest, GeneratedMatmulMatchesMicrokernel) {
  tcc::ModelCompileOptions generated;
  generated.useMicrokernels = false;
  const float x[6] = {0.25f, -2, 1, 3, 0, -0.5f};
  auto [viaKernel, unused1] = runModel(compile(kModel, generated), x);
  EXPECT_EQ(stats.libraryCalls, 0u);
  auto [viaLibrary, unused2] = runModel(compile(kModel), x);
  ASSERT_EQ(viaKernel.size(), viaLibrary.size());
  for (size_t i = 0; i < viaKernel.size(); ++i)
    EXPECT_NEAR(viaKernel[i], viaLibrary[i], 1e-6f * std::fabs(viaLibrary[i]));
}

TEST_F(ModelCompilerTest, FusionAtO2MatchesSeparateKernelsAtO0) {
  const char *chain = R"mlir(
    func.func @main(%x: tensor<6x16xf32>, %b: tensor<16xf32>) -> tensor<6x16xf32> {
      %one = tcc.constant dense<1.0> : tensor<6x16xf32>
      %0 = tcc.add %x, %b : (tensor<6x16xf32>, tensor<16xf32>) -> tensor<6x16xf32>
      %1 = tcc.exp %0 : tensor<6x16xf32>
      %2 = tcc.add %1, %one : (tensor<6x16xf32>, tensor<6x16xf32>) -> tensor<6x16xf32>
      return %2 : tensor<6x16xf32>
    })mlir";
  tcc::ModelCompileOptions o0, o2;
  o0.optLevel = 0;
  o2.optLevel = 2;
  std::vector<uint8_t> separate = compile(chain, o0);
  EXPECT_EQ(stats.kernels, 2u + 1u);
  EXPECT_GT(stats.arenaBytes, 0u);
  std::vector<uint8_t> fused = compile(chain, o2);
  EXPECT_EQ(stats.kernels, 1u);
  EXPECT_EQ(stats.arenaBytes, 0u); // nothing between kernels

  std::vector<float> x(96), b(16);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = 0.05f * static_cast<float>(i % 37) - 1.0f;
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = 0.1f * static_cast<float>(i) - 0.8f;
  auto run = [&](const std::vector<uint8_t> &bytes) {
    tcc_model_t *model = nullptr;
    expectOk(tcc_model_load_memory(bytes.data(), bytes.size(), nullptr, &model));
    tcc_session_t *session = nullptr;
    expectOk(tcc_session_create(model, nullptr, &session));
    expectOk(tcc_session_bind_input(session, 0, x.data(), x.size() * 4));
    expectOk(tcc_session_bind_input(session, 1, b.data(), b.size() * 4));
    expectOk(tcc_session_run(session));
    const void *data = nullptr;
    size_t size = 0;
    expectOk(tcc_session_output(session, 0, &data, &size));
    std::vector<float> y(static_cast<const float *>(data),
                         static_cast<const float *>(data) + size / 4);
    tcc_session_release(session);
    tcc_model_release(model);
    return y;
  };
  std::vector<float> y0 = run(separate), y2 = run(fused);
  ASSERT_EQ(y0.size(), 96u);
  for (size_t i = 0; i < y0.size(); ++i) {
    EXPECT_EQ(y0[i], y2[i]) << i; // same scalar code, fused or not
    EXPECT_NEAR(y2[i], std::exp(double(x[i]) + b[i % 16]) + 1.0,
                1e-6 * (std::exp(double(x[i]) + b[i % 16]) + 1.0))
        << i;
  }
}

TEST_F(ModelCompilerTest, SameInputGivesSameBytes) {
  EXPECT_EQ(compile(kModel), compile(kModel));
}

TEST(MemoryPlanTest, BuffersAliveAtOnceNeverOverlap) {
  // a: steps 0-1, b: 1-2, c: 2-3, d: 3-4 (64-byte multiples).
  std::vector<tcc::BufferLifetime> buffers = {
      {128, 0, 1}, {64, 1, 2}, {128, 2, 3}, {64, 3, 4}};
  tcc::ArenaPlan plan = tcc::planArena(buffers);
  for (size_t i = 0; i < buffers.size(); ++i)
    for (size_t j = i + 1; j < buffers.size(); ++j) {
      bool liveTogether = buffers[i].firstStep <= buffers[j].lastStep &&
                          buffers[j].firstStep <= buffers[i].lastStep;
      bool disjoint = plan.offsets[i] + buffers[i].bytes <= plan.offsets[j] ||
                      plan.offsets[j] + buffers[j].bytes <= plan.offsets[i];
      EXPECT_TRUE(!liveTogether || disjoint) << i << " and " << j;
    }
  // a and c never live together and can share; so can b and d.
  EXPECT_EQ(plan.arenaBytes, 192u);
  EXPECT_EQ(plan.totalBytes, 384u);
}

TEST(MemoryPlanTest, OffsetsAreAligned) {
  tcc::ArenaPlan plan = tcc::planArena({{3, 0, 0}, {5, 0, 0}, {70, 0, 0}});
  for (uint64_t offset : plan.offsets)
    EXPECT_EQ(offset % 64, 0u);
  EXPECT_EQ(plan.arenaBytes, 128u + 64 + 64);
}

} // namespace
