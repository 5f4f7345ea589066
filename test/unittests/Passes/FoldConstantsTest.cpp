//===- FoldConstantsTest.cpp - Constant folding keeps the numbers ---------===//

#include "PassTestSupport.h"

#include "tcc/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {
namespace {

using passtest::constantLine;
using passtest::countOf;
using passtest::expectSameResults;
using passtest::operand;
using passtest::runPasses;

std::string foldConstants(const std::string &source) {
  return runPasses(source, [](mlir::OpPassManager &pm) {
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldConstants());
  });
}

TEST(FoldConstants, ConstantSubgraphsFoldAndTheFunctionComputesTheSame) {
  // Weight preprocessing a traced graph may hold: a transposed weight, a
  // bias built from pieces and a cast, an exp of a parameter, a padded and
  // sliced table; the ops on %x stay.
  std::string source =
      "func.func @forward(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, "
      "tensor<4x3xf32>) {\n" +
      constantLine("w", operand("f32", {6, 4}, 1)) +
      constantLine("lo", operand("f32", {3}, 2)) +
      constantLine("hi", operand("f32", {3}, 3)) +
      constantLine("k", operand("i32", {6}, 4, -20, 20)) +
      constantLine("s", operand("f32", {1, 6}, 5, -1, 1)) +
      constantLine("t", operand("f32", {4, 2}, 6)) +
      R"mlir(
  %wt = tcc.transpose %w {permutation = array<i64: 1, 0>} : tensor<6x4xf32> -> tensor<4x6xf32>
  %bias = tcc.concat %lo, %hi {dim = 0 : i64} : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
  %kf = tcc.cast %k : tensor<6xi32> to tensor<6xf32>
  %b2 = tcc.add %bias, %kf : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
  %es = tcc.exp %s : tensor<1x6xf32>
  %scale = tcc.mul %wt, %es : (tensor<4x6xf32>, tensor<1x6xf32>) -> tensor<4x6xf32>
  %m = tcc.mul %x, %scale : (tensor<4x6xf32>, tensor<4x6xf32>) -> tensor<4x6xf32>
  %y = tcc.add %m, %b2 : (tensor<4x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %tp = tcc.pad %t {pad = array<i64: 2, 0>, value = -1.0 : f64} : tensor<4x2xf32> -> tensor<4x4xf32>
  %ts = tcc.slice %tp {start = array<i64: 0, 1>, end = array<i64: 4, 4>, step = array<i64: 1, 1>} : tensor<4x4xf32> -> tensor<4x3xf32>
  %xs = tcc.slice %x {start = array<i64: 0, 0>, end = array<i64: 4, 6>, step = array<i64: 1, 2>} : tensor<4x6xf32> -> tensor<4x3xf32>
  %z = tcc.maximum %xs, %ts : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y, %z : tensor<4x6xf32>, tensor<4x3xf32>
}
)mlir";
  std::string folded = foldConstants(source);
  for (const char *gone :
       {"tcc.transpose", "tcc.concat", "tcc.cast", "tcc.exp", "tcc.pad"})
    EXPECT_EQ(countOf(folded, gone), 0) << gone << " in\n" << folded;
  // What reads %x stays: two muls became one, the adds one.
  EXPECT_EQ(countOf(folded, "tcc.mul"), 1) << folded;
  EXPECT_EQ(countOf(folded, "tcc.add"), 1) << folded;
  EXPECT_EQ(countOf(folded, "tcc.slice"), 1) << folded;
  EXPECT_EQ(countOf(folded, "tcc.maximum"), 1) << folded;
  // exp is computed in float64 by the folder and in f32 by the kernels.
  expectSameResults(source, folded, 1e-6);
}

TEST(FoldConstants, SizeGuardKeepsExpandingOpsAndFoldsTheRest) {
  // 4 floats (16 bytes) broadcast to 64 KiB: far beyond 2 x 16 + 4 KiB.
  std::string source = "func.func @forward(%x: tensor<4096x4xf32>) -> "
                       "tensor<4096x4xf32> {\n" +
                       constantLine("v", operand("f32", {4}, 7)) + R"mlir(
  %n = tcc.neg %v : tensor<4xf32>
  %b = tcc.broadcast_to %n : tensor<4xf32> to tensor<4096x4xf32>
  %y = tcc.add %x, %b : (tensor<4096x4xf32>, tensor<4096x4xf32>) -> tensor<4096x4xf32>
  return %y : tensor<4096x4xf32>
}
)mlir";
  std::string folded = foldConstants(source);
  EXPECT_EQ(countOf(folded, "tcc.neg"), 0) << folded;
  EXPECT_EQ(countOf(folded, "tcc.broadcast_to"), 1) << folded;
  expectSameResults(source, folded, 0);
}

} // namespace
} // namespace tcc
