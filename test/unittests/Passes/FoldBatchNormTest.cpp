//===- FoldBatchNormTest.cpp - Batch-norm folding keeps the numbers -------===//

#include "PassTestSupport.h"

#include "tcc/IR/TccDialect.h"
#include "tcc/IR/TccOps.h"
#include "tcc/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/Parser/Parser.h"

#include <cmath>

namespace tcc {
namespace {

using passtest::constantLine;
using passtest::countOf;
using passtest::expectSameResults;
using passtest::Operand;
using passtest::operand;
using passtest::runPasses;
using passtest::tensorType;

std::string foldBatchNorm(const std::string &source) {
  return runPasses(source, [](mlir::OpPassManager &pm) {
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldBatchNorm());
  });
}

/// The four batch-norm parameters of `channels` channels (variance > 0).
std::string batchNormParameters(int64_t channels, uint64_t seed) {
  return constantLine("gamma", operand("f32", {channels}, seed, -2, 2)) +
         constantLine("beta", operand("f32", {channels}, seed + 1)) +
         constantLine("mean", operand("f32", {channels}, seed + 2)) +
         constantLine("var", operand("f32", {channels}, seed + 3, 0.125, 3));
}

std::string batchNormLine(const std::string &input, const std::string &type) {
  return "  %y = tcc.batch_norm " + input +
         ", %gamma, %beta, %mean, %var {eps = 1.0e-3 : f64} : (" + type +
         ", PARAM, PARAM, PARAM, PARAM) -> " + type + "\n";
}

/// Replaces every "PARAM" in `text` by `type`.
std::string withParamType(std::string text, const std::string &type) {
  for (size_t at = text.find("PARAM"); at != std::string::npos;
       at = text.find("PARAM"))
    text.replace(at, 5, type);
  return text;
}

struct ConvCase {
  bool bias;
  int64_t groups;
};

TEST(FoldBatchNorm, ConvGivesTheSameResults) {
  for (ConvCase c :
       {ConvCase{true, 1}, ConvCase{false, 1}, ConvCase{true, 2}}) {
    Operand w = operand("f32", {6, 4 / c.groups, 3, 3}, 40);
    std::string source =
        "func.func @forward(%x: tensor<2x4x7x7xf32>) -> tensor<2x6x4x4xf32> "
        "{\n" +
        constantLine("w", w) + constantLine("b", operand("f32", {6}, 41)) +
        batchNormParameters(6, 42) + "  %c = tcc.conv2d %x, %w" +
        (c.bias ? ", %b" : "") +
        " {stride = array<i64: 2, 2>, padding = array<i64: 1, 1>, groups = " +
        std::to_string(c.groups) + " : i64} : (tensor<2x4x7x7xf32>, " +
        tensorType(w) + (c.bias ? ", tensor<6xf32>" : "") +
        ") -> tensor<2x6x4x4xf32>\n" +
        batchNormLine("%c", "tensor<2x6x4x4xf32>") +
        "  return %y : tensor<2x6x4x4xf32>\n}\n";
    source = withParamType(source, "tensor<6xf32>");
    std::string folded = foldBatchNorm(source);
    EXPECT_EQ(countOf(folded, "tcc.batch_norm"), 0) << folded;
    EXPECT_EQ(countOf(folded, "tcc.conv2d"), 1) << folded;
    // The conv's sums round differently once the scale is inside them.
    expectSameResults(source, folded, 1e-5);
  }
}

TEST(FoldBatchNorm, NhwcConvAndLinearGiveTheSameResults) {
  Operand w = operand("f32", {3, 2, 2, 5}, 50); // OHWI
  std::string nhwc =
      "func.func @forward(%x: tensor<1x6x6x5xf32>) -> tensor<1x3x5x5xf32> {\n" +
      constantLine("w", w) + constantLine("b", operand("f32", {3}, 51)) +
      batchNormParameters(3, 52) +
      "  %c = tcc.conv2d %x, %w, %b {layout = #tcc.layout<nhwc>} : "
      "(tensor<1x6x6x5xf32>, tensor<3x2x2x5xf32>, tensor<3xf32>) -> "
      "tensor<1x5x5x3xf32>\n"
      "  %t = tcc.transpose %c {permutation = array<i64: 0, 3, 1, 2>} : "
      "tensor<1x5x5x3xf32> -> tensor<1x3x5x5xf32>\n" +
      batchNormLine("%t", "tensor<1x3x5x5xf32>") +
      "  return %y : tensor<1x3x5x5xf32>\n}\n";
  nhwc = withParamType(nhwc, "tensor<3xf32>");
  std::string folded = foldBatchNorm(nhwc);
  EXPECT_EQ(countOf(folded, "tcc.batch_norm"), 0) << folded;
  expectSameResults(nhwc, folded, 1e-5);

  std::string linear =
      "func.func @forward(%x: tensor<4x8xf32>) -> tensor<4x5xf32> {\n" +
      constantLine("w", operand("f32", {5, 8}, 53)) +
      constantLine("b", operand("f32", {5}, 54)) + batchNormParameters(5, 55) +
      "  %l = tcc.linear %x, %w, %b : (tensor<4x8xf32>, tensor<5x8xf32>, "
      "tensor<5xf32>) -> tensor<4x5xf32>\n" +
      batchNormLine("%l", "tensor<4x5xf32>") +
      "  return %y : tensor<4x5xf32>\n}\n";
  linear = withParamType(linear, "tensor<5xf32>");
  folded = foldBatchNorm(linear);
  EXPECT_EQ(countOf(folded, "tcc.batch_norm"), 0) << folded;
  expectSameResults(linear, folded, 1e-5);
}

/// The values of the constant that defines operand `index` of the only op
/// named `opName` in `module`.
std::vector<double> operandValues(const std::string &module,
                                  llvm::StringRef opName, unsigned index) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::tcc::TccDialect, mlir::func::FuncDialect>();
  mlir::MLIRContext context(registry);
  auto parsed = mlir::parseSourceString<mlir::ModuleOp>(module, &context);
  std::vector<double> values;
  if (!parsed)
    return values;
  parsed->walk([&](mlir::Operation *op) {
    if (op->getName().getStringRef() != opName)
      return;
    auto constant =
        op->getOperand(index).getDefiningOp<mlir::tcc::ConstantOp>();
    auto blob = constant ? mlir::dyn_cast<mlir::DenseResourceElementsAttr>(
                               constant.getValue())
                         : nullptr;
    if (!blob || !blob.getRawHandle().getBlob())
      return;
    llvm::ArrayRef<char> data = blob.getRawHandle().getBlob()->getData();
    const float *floats = reinterpret_cast<const float *>(data.data());
    values.assign(floats, floats + data.size() / sizeof(float));
  });
  return values;
}

TEST(FoldBatchNorm, WeightsAreComputedInFloat64AndRoundedOnce) {
  // Scale gamma / sqrt(var + eps) with values whose f32 arithmetic would
  // round at every step.
  Operand w = operand("f32", {4, 1, 1, 3}, 60);
  auto floats = [](std::vector<double> v) {
    for (double &x : v)
      x = static_cast<float>(x); // exactly what the f32 literal holds
    return v;
  };
  Operand gamma{"f32", {4}, floats({0.1, 1.0 / 3, 2.7, -1.9})};
  Operand var{"f32", {4}, floats({0.3, 0.7, 1.1, 2.9})};
  Operand mean{"f32", {4}, floats({0.2, -0.4, 1.3, 0.0})};
  Operand beta{"f32", {4}, floats({0.5, 0.6, -0.7, 0.8})};
  Operand bias{"f32", {4}, floats({1.1, -1.2, 0.9, 0.05})};
  std::string source =
      "func.func @forward(%x: tensor<1x1x2x5xf32>) -> tensor<1x4x2x3xf32> {\n" +
      constantLine("w", w) + constantLine("b", bias) +
      constantLine("gamma", gamma) + constantLine("beta", beta) +
      constantLine("mean", mean) + constantLine("var", var) +
      "  %c = tcc.conv2d %x, %w, %b : (tensor<1x1x2x5xf32>, "
      "tensor<4x1x1x3xf32>, tensor<4xf32>) -> tensor<1x4x2x3xf32>\n" +
      batchNormLine("%c", "tensor<1x4x2x3xf32>") +
      "  return %y : tensor<1x4x2x3xf32>\n}\n";
  source = withParamType(source, "tensor<4xf32>");
  std::string folded = foldBatchNorm(source);
  std::vector<double> newWeight = operandValues(folded, "tcc.conv2d", 1);
  std::vector<double> newBias = operandValues(folded, "tcc.conv2d", 2);
  ASSERT_EQ(newWeight.size(), 12u) << folded;
  ASSERT_EQ(newBias.size(), 4u) << folded;
  for (int o = 0; o < 4; ++o) {
    double scale = gamma.values[o] / std::sqrt(var.values[o] + 1e-3);
    for (int i = 0; i < 3; ++i)
      EXPECT_EQ(newWeight[o * 3 + i],
                static_cast<float>(w.values[o * 3 + i] * scale))
          << o << "," << i;
    EXPECT_EQ(newBias[o],
              static_cast<float>((bias.values[o] - mean.values[o]) * scale +
                                 beta.values[o]))
        << o;
  }
}

} // namespace
} // namespace tcc
