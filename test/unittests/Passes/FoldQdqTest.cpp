//===- FoldQdqTest.cpp - QDQ folding keeps the numbers within one step ----===//
//
// The QDQ form (dequantize, float op, quantize) and the folded integer form
// run through the reference interpreter on seeded inputs: results may
// differ by one step of the output scale where the float sum rounds across
// a rounding boundary (docs/quantization.md), never by more.
//
//===----------------------------------------------------------------------===//

#include "PassTestSupport.h"

#include "tcc/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <cmath>

namespace tcc {
namespace {

using passtest::constantLine;
using passtest::countOf;
using passtest::operand;
using passtest::runPasses;

std::string foldQdq(const std::string &source) {
  return runPasses(source, [](mlir::OpPassManager &pm) {
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldQdq());
  });
}

/// Runs both forms on seeded 8-bit inputs over their whole range: at most
/// one step apart, and equal on most elements.
void expectWithinOneStep(const std::string &before, const std::string &after) {
  jit::Interpreter reference = jit::Interpreter::parse(before, "before");
  jit::Interpreter folded = jit::Interpreter::parse(after, "after");
  int64_t total = 0, differing = 0;
  for (int trial = 0; trial < 4; ++trial) {
    manual_seed(2000 + trial);
    std::vector<Tensor> inputs;
    for (const jit::TensorSpec &spec : reference.signature().inputs)
      inputs.push_back(spec.dtype == kByte
                           ? randint(0, 256, spec.shape).to(kByte)
                           : randint(-128, 128, spec.shape).to(spec.dtype));
    Tensor want = reference.run(inputs)[0].to(kLong);
    Tensor got = folded.run(inputs)[0].to(kLong);
    ASSERT_EQ(got.sizes().vec(), want.sizes().vec());
    Tensor diff = (got - want).abs();
    EXPECT_LE(diff.max().item<int64_t>(), 1) << "trial " << trial;
    total += diff.numel();
    differing += (diff > 0).sum().item<int64_t>();
  }
  EXPECT_LE(differing * 20, total) << differing << " of " << total;
}

TEST(FoldQdq, MatmulWithPerColumnWeights) {
  std::string source =
      "func.func @forward(%qa: tensor<8x16xui8>) -> tensor<8x4xui8> {\n"
      "  %sa = tcc.constant dense<0.0625> : tensor<f32>\n"
      "  %za = tcc.constant dense<3> : tensor<ui8>\n" +
      constantLine("qb", operand("i8", {16, 4}, 60, -127, 127)) +
      "  %sb = tcc.constant dense<[0.01, 0.02, 0.03, 0.015]> : tensor<4xf32>\n"
      "  %zb = tcc.constant dense<[0, 1, -2, 5]> : tensor<4xi8>\n"
      "  %sy = tcc.constant dense<0.05> : tensor<f32>\n"
      "  %zy = tcc.constant dense<128> : tensor<ui8>\n"
      "  %a = tcc.dequantize %qa, %sa, %za : (tensor<8x16xui8>, tensor<f32>, "
      "tensor<ui8>) -> tensor<8x16xf32>\n"
      "  %b = tcc.dequantize %qb, %sb, %zb {axis = 1 : i64} : "
      "(tensor<16x4xi8>, tensor<4xf32>, tensor<4xi8>) -> tensor<16x4xf32>\n"
      "  %c = tcc.matmul %a, %b : (tensor<8x16xf32>, tensor<16x4xf32>) -> "
      "tensor<8x4xf32>\n"
      "  %y = tcc.quantize %c, %sy, %zy : (tensor<8x4xf32>, tensor<f32>, "
      "tensor<ui8>) -> tensor<8x4xui8>\n"
      "  return %y : tensor<8x4xui8>\n}\n";
  std::string folded = foldQdq(source);
  EXPECT_EQ(countOf(folded, "tcc.matmul_integer"), 1) << folded;
  EXPECT_EQ(countOf(folded, "tcc.matmul %"), 0) << folded;
  EXPECT_EQ(countOf(folded, "tcc.dequantize"), 0) << folded;
  expectWithinOneStep(source, folded);
}

TEST(FoldQdq, DepthwiseConvWithPerChannelWeights) {
  std::string source =
      "func.func @forward(%qx: tensor<1x4x7x7xi8>) -> tensor<1x4x4x4xi8> {\n"
      "  %sx = tcc.constant dense<0.125> : tensor<f32>\n"
      "  %zx = tcc.constant dense<-1> : tensor<i8>\n" +
      constantLine("qw", operand("i8", {4, 1, 3, 3}, 61, -127, 127)) +
      "  %sw = tcc.constant dense<[0.01, 0.02, 0.005, 0.04]> : "
      "tensor<4xf32>\n"
      "  %zw = tcc.constant dense<0> : tensor<4xi8>\n"
      "  %sy = tcc.constant dense<0.03> : tensor<f32>\n"
      "  %zy = tcc.constant dense<-4> : tensor<i8>\n"
      "  %x = tcc.dequantize %qx, %sx, %zx : (tensor<1x4x7x7xi8>, "
      "tensor<f32>, tensor<i8>) -> tensor<1x4x7x7xf32>\n"
      "  %w = tcc.dequantize %qw, %sw, %zw {axis = 0 : i64} : "
      "(tensor<4x1x3x3xi8>, tensor<4xf32>, tensor<4xi8>) -> "
      "tensor<4x1x3x3xf32>\n"
      "  %c = tcc.conv2d %x, %w {groups = 4 : i64, padding = array<i64: 1, "
      "1>, stride = array<i64: 2, 2>} : (tensor<1x4x7x7xf32>, "
      "tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>\n"
      "  %y = tcc.quantize %c, %sy, %zy : (tensor<1x4x4x4xf32>, tensor<f32>, "
      "tensor<i8>) -> tensor<1x4x4x4xi8>\n"
      "  return %y : tensor<1x4x4x4xi8>\n}\n";
  std::string folded = foldQdq(source);
  EXPECT_EQ(countOf(folded, "tcc.conv2d_integer"), 1) << folded;
  EXPECT_EQ(countOf(folded, "tcc.conv2d %"), 0) << folded;
  expectWithinOneStep(source, folded);
}

} // namespace
} // namespace tcc
