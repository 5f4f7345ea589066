//===- LibraryCallTest.cpp - Linear and conv2d as fused microkernel calls -===//

#include "tcc/Codegen/ModelCompiler.h"

#include "tcc/runtime/Artifact.h"
#include "tcc/runtime/kernels.h"
#include "tcc/runtime/tcc_runtime.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace mlir;

namespace {

class LibraryCallTest : public ::testing::Test {
protected:
  LibraryCallTest() {
    DialectRegistry registry;
    mlir::tcc::registerCodegenDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Compiles `source`, runs it on `inputs` and returns output 0.
  std::vector<float> run(const std::string &source,
                         const std::vector<std::vector<float>> &inputs,
                         int optLevel) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    mlir::tcc::ModelCompileOptions options;
    options.optLevel = optLevel;
    FailureOr<std::vector<uint8_t>> bytes =
        mlir::tcc::compileModel(*module, options, &stats);
    if (failed(bytes)) {
      ADD_FAILURE() << "compile failed";
      return {};
    }
    artifact = *bytes;
    tcc_model_t *model = nullptr;
    tcc_status_t status =
        tcc_model_load_memory(bytes->data(), bytes->size(), nullptr, &model);
    if (status) {
      ADD_FAILURE() << tcc_status_message(status);
      tcc_status_free(status);
      return {};
    }
    tcc_session_t *session = nullptr;
    EXPECT_EQ(tcc_session_create(model, nullptr, &session), nullptr);
    for (size_t i = 0; i < inputs.size(); ++i)
      EXPECT_EQ(tcc_session_bind_input(session, i, inputs[i].data(),
                                       inputs[i].size() * sizeof(float)),
                nullptr);
    EXPECT_EQ(tcc_session_run(session), nullptr);
    const void *data = nullptr;
    size_t size = 0;
    EXPECT_EQ(tcc_session_output(session, 0, &data, &size), nullptr);
    std::vector<float> out(static_cast<const float *>(data),
                           static_cast<const float *>(data) + size / 4);
    tcc_session_release(session);
    tcc_model_release(model);
    return out;
  }

  MLIRContext context;
  mlir::tcc::ModelCompileStats stats;
  std::vector<uint8_t> artifact; // of the last run
};

std::vector<float> pattern(size_t n, float scale, int phase) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = scale * static_cast<float>(static_cast<int>((i * 7 + phase) % 13) - 6);
  return v;
}

/// `dense<"0x...">` of float values, which fits any shape.
std::string dense(const std::vector<float> &v) {
  static const char *digits = "0123456789ABCDEF";
  std::string s = "dense<\"0x";
  const auto *bytes = reinterpret_cast<const unsigned char *>(v.data());
  for (size_t i = 0; i < v.size() * sizeof(float); ++i) {
    s += digits[bytes[i] >> 4];
    s += digits[bytes[i] & 15];
  }
  return s + "\">";
}

TEST_F(LibraryCallTest, LinearWithResidualAndReluIsOneFusedCall) {
  const int M = 5, K = 7, N = 9;
  std::vector<float> w = pattern(N * K, 0.125f, 1), b = pattern(N, 0.25f, 3);
  std::string source =
      "func.func @main(%x: tensor<5x7xf32>, %r: tensor<5x9xf32>) -> tensor<5x9xf32> {\n"
      "  %w = tcc.constant " + dense(w) + " : tensor<9x7xf32>\n"
      "  %b = tcc.constant " + dense(b) + " : tensor<9xf32>\n"
      "  %0 = tcc.linear %x, %w, %b : (tensor<5x7xf32>, tensor<9x7xf32>, tensor<9xf32>) -> tensor<5x9xf32>\n"
      "  %1 = tcc.add %0, %r : (tensor<5x9xf32>, tensor<5x9xf32>) -> tensor<5x9xf32>\n"
      "  %2 = tcc.relu %1 : tensor<5x9xf32>\n"
      "  return %2 : tensor<5x9xf32>\n}\n";
  std::vector<float> x = pattern(M * K, 0.5f, 2), r = pattern(M * N, 0.75f, 5);
  std::vector<float> fused = run(source, {x, r}, 2);
  EXPECT_EQ(stats.libraryCalls, 1u);
  EXPECT_EQ(stats.kernels, 0u);
  EXPECT_EQ(stats.arenaBytes, 0u);
  std::vector<float> separate = run(source, {x, r}, 0);
  EXPECT_EQ(stats.libraryCalls, 1u);
  EXPECT_EQ(stats.kernels, 2u);
  ASSERT_EQ(fused.size(), size_t(M * N));
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = b[j] + r[i * N + j];
      for (int k = 0; k < K; ++k)
        acc += double(x[i * K + k]) * w[j * K + k];
      double expected = std::max(acc, 0.0);
      EXPECT_NEAR(fused[i * N + j], expected, 1e-5) << i << "," << j;
      EXPECT_NEAR(separate[i * N + j], expected, 1e-5) << i << "," << j;
    }
}

// x[S, 1, K] @ W[K, N] (an exported projection: batch S of one row each,
// sharing W) runs as one GEMM of S rows.
TEST_F(LibraryCallTest, SharedWeightBatchOfRowsIsOneGemm) {
  const int S = 6, K = 7, N = 9;
  std::vector<float> w = pattern(K * N, 0.125f, 1), b = pattern(N, 0.25f, 3);
  std::string source =
      "func.func @main(%x: tensor<6x1x7xf32>) -> tensor<6x1x9xf32> {\n"
      "  %w = tcc.constant " + dense(w) + " : tensor<7x9xf32>\n"
      "  %b = tcc.constant " + dense(b) + " : tensor<9xf32>\n"
      "  %0 = tcc.matmul %x, %w : (tensor<6x1x7xf32>, tensor<7x9xf32>) -> tensor<6x1x9xf32>\n"
      "  %1 = tcc.add %0, %b : (tensor<6x1x9xf32>, tensor<9xf32>) -> tensor<6x1x9xf32>\n"
      "  return %1 : tensor<6x1x9xf32>\n}\n";
  std::vector<float> x = pattern(S * K, 0.5f, 2);
  std::vector<float> y = run(source, {x}, 2);
  EXPECT_EQ(stats.libraryCalls, 1u);
  EXPECT_EQ(stats.kernels, 0u);
  const ::tcc::artifact::Model *m = nullptr;
  ASSERT_TRUE(::tcc::runtime::verifyArtifactBytes(artifact.data(),
                                                artifact.size(), &m)
                  .ok());
  ASSERT_EQ(m->plan()->size(), 1u);
  const ::tcc::artifact::Sgemm *gemm = m->plan()->Get(0)->op_as_Sgemm();
  ASSERT_NE(gemm, nullptr);
  EXPECT_EQ(gemm->m(), S);
  EXPECT_EQ(gemm->batch(), 1);
  EXPECT_TRUE(gemm->b_packed()); // W is constant: packed at compile time
  ASSERT_EQ(y.size(), size_t(S * N));
  for (int i = 0; i < S; ++i)
    for (int j = 0; j < N; ++j) {
      double acc = b[j];
      for (int k = 0; k < K; ++k)
        acc += double(x[i * K + k]) * w[k * N + j];
      EXPECT_NEAR(y[i * N + j], acc, 1e-5) << i << "," << j;
    }
}

// A constant right operand is packed at compile time when more than
// TCC_SGEMM_STREAMED_ROWS rows read it (tcc_sgemm streams it as stored for
// fewer), and either way the product matches a float64 reference.
TEST_F(LibraryCallTest, ConstantMatmulOperandIsPackedForManyRows) {
  const int K = 37, N = 45;
  std::vector<float> w = pattern(K * N, 0.125f, 4);
  for (int rows : {TCC_SGEMM_STREAMED_ROWS - 1, TCC_SGEMM_STREAMED_ROWS + 1,
                   29}) {
    SCOPED_TRACE(rows);
    const std::string x_type =
        "tensor<" + std::to_string(rows) + "x" + std::to_string(K) + "xf32>";
    const std::string y_type =
        "tensor<" + std::to_string(rows) + "x" + std::to_string(N) + "xf32>";
    const std::string w_type =
        "tensor<" + std::to_string(K) + "x" + std::to_string(N) + "xf32>";
    std::string source =
        "func.func @main(%x: " + x_type + ") -> " + y_type + " {\n"
        "  %w = tcc.constant " + dense(w) + " : " + w_type + "\n"
        "  %0 = tcc.matmul %x, %w : (" + x_type + ", " + w_type + ") -> " +
        y_type + "\n"
        "  %1 = tcc.relu %0 : " + y_type + "\n"
        "  return %1 : " + y_type + "\n}\n";
    std::vector<float> x = pattern(size_t(rows) * K, 0.5f, rows);
    std::vector<float> y = run(source, {x}, 2);
    const ::tcc::artifact::Model *m = nullptr;
    ASSERT_TRUE(::tcc::runtime::verifyArtifactBytes(artifact.data(),
                                                  artifact.size(), &m)
                    .ok());
    ASSERT_EQ(m->plan()->size(), 1u);
    const ::tcc::artifact::Sgemm *gemm = m->plan()->Get(0)->op_as_Sgemm();
    ASSERT_NE(gemm, nullptr);
    EXPECT_EQ(gemm->b_packed(), rows > TCC_SGEMM_STREAMED_ROWS);
    ASSERT_EQ(y.size(), size_t(rows) * N);
    for (int i = 0; i < rows; ++i)
      for (int j = 0; j < N; ++j) {
        double acc = 0.0;
        for (int k = 0; k < K; ++k)
          acc += double(x[i * K + k]) * w[k * N + j];
        EXPECT_NEAR(y[i * N + j], std::max(acc, 0.0), 1e-4) << i << "," << j;
      }
  }
}

TEST_F(LibraryCallTest, Conv2dWithBiasAndClampBothLayouts) {
  // 1x2x5x5 input, 3 filters of 2x3x3, stride 1, padding 1.
  const int C = 2, H = 5, W = 5, O = 3;
  std::vector<float> w = pattern(O * C * 9, 0.25f, 4), b = pattern(O, 0.5f, 0);
  std::string source =
      "func.func @main(%x: tensor<1x2x5x5xf32>) -> tensor<1x3x5x5xf32> {\n"
      "  %w = tcc.constant " + dense(w) + " : tensor<3x2x3x3xf32>\n"
      "  %b = tcc.constant " + dense(b) + " : tensor<3x1x1xf32>\n"
      "  %0 = tcc.conv2d %x, %w {padding = array<i64: 1, 1>} : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x5x5xf32>\n"
      "  %1 = tcc.add %0, %b : (tensor<1x3x5x5xf32>, tensor<3x1x1xf32>) -> tensor<1x3x5x5xf32>\n"
      "  %2 = tcc.clamp %1 {min = 0.0 : f64, max = 6.0 : f64} : tensor<1x3x5x5xf32>\n"
      "  return %2 : tensor<1x3x5x5xf32>\n}\n";
  std::vector<float> x = pattern(C * H * W, 0.5f, 6);
  std::vector<float> y = run(source, {x}, 2);
  EXPECT_EQ(stats.libraryCalls, 1u);
  EXPECT_EQ(stats.kernels, 0u);
  ASSERT_EQ(y.size(), size_t(O * H * W));
  for (int o = 0; o < O; ++o)
    for (int i = 0; i < H; ++i)
      for (int j = 0; j < W; ++j) {
        double acc = b[o];
        for (int c = 0; c < C; ++c)
          for (int di = 0; di < 3; ++di)
            for (int dj = 0; dj < 3; ++dj) {
              int ii = i + di - 1, jj = j + dj - 1;
              if (ii < 0 || jj < 0 || ii >= H || jj >= W)
                continue;
              acc += double(x[(c * H + ii) * W + jj]) * w[((o * C + c) * 3 + di) * 3 + dj];
            }
        EXPECT_NEAR(y[(o * H + i) * W + j], std::clamp(acc, 0.0, 6.0), 1e-5)
            << o << "," << i << "," << j;
      }
}

} // namespace
