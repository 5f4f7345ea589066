//===- ConvertLayoutTest.cpp - NHWC networks compute the same -------------===//
//
// Convolution networks written NCHW, run through batch-norm folding and the
// layout pass: the only transposes left are at the function's NCHW inputs
// and outputs, and the results equal the original's within float rounding.
//
//===----------------------------------------------------------------------===//

#include "PassTestSupport.h"

#include "tcc/Passes/Passes.h"
#include "tcc/Passes/TargetCapabilities.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/Passes.h"

namespace tcc {
namespace {

using passtest::constantLine;
using passtest::countOf;
using passtest::expectSameResults;
using passtest::operand;
using passtest::runPasses;

std::string normalizeLayout(const std::string &source) {
  return runPasses(source, [](mlir::OpPassManager &pm) {
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldBatchNorm());
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccConvertLayout());
  });
}

std::string shape(std::vector<int64_t> dims) {
  std::string text = "tensor<";
  for (int64_t d : dims)
    text += std::to_string(d) + "x";
  return text + "f32>";
}

/// Emits an NCHW module line by line, with seeded constant weights.
class NetworkBuilder {
public:
  explicit NetworkBuilder(std::vector<int64_t> input) : current(input) {
    body = "func.func @forward(%x: " + shape(input) + ") -> RESULT {\n";
  }

  /// conv (3x3, padding 1, with bias) and batch norm over `out` channels.
  void convBn(int64_t out, int64_t stride = 1) {
    conv(out, stride);
    std::string p[4];
    double ranges[4][2] = {{0.5, 1.5}, {-0.5, 0.5}, {-0.5, 0.5}, {0.5, 2}};
    for (int i = 0; i < 4; ++i) {
      p[i] = fresh("p");
      body += constantLine(
          p[i], operand("f32", {out}, seed++, ranges[i][0], ranges[i][1]));
    }
    emit("tcc.batch_norm %" + value + ", %" + p[0] + ", %" + p[1] + ", %" +
             p[2] + ", %" + p[3] + " : (" + shape(current) + ", " +
             shape({out}) + ", " + shape({out}) + ", " + shape({out}) + ", " +
             shape({out}) + ") -> " + shape(current),
         current);
  }

  /// conv (3x3, padding 1, with bias) over `out` channels.
  void conv(int64_t out, int64_t stride = 1) {
    std::string w = fresh("w"), b = fresh("b");
    int64_t in = current[1];
    body += constantLine(w, operand("f32", {out, in, 3, 3}, seed++, -0.5, 0.5));
    body += constantLine(b, operand("f32", {out}, seed++, -0.5, 0.5));
    std::vector<int64_t> next = {current[0], out, (current[2] - 1) / stride + 1,
                                 (current[3] - 1) / stride + 1};
    std::string c = fresh("c");
    body += "  %" + c + " = tcc.conv2d %" + value + ", %" + w + ", %" + b +
            " {padding = array<i64: 1, 1>, stride = array<i64: " +
            std::to_string(stride) + ", " + std::to_string(stride) + ">} : (" +
            shape(current) + ", " + shape({out, in, 3, 3}) + ", " +
            shape({out}) + ") -> " + shape(next) + "\n";
    current = next;
    value = c;
  }

  /// Multiplies by a constant of shape [C, 1, 1] (a per-channel scale that
  /// broadcasts).
  void channelScale() {
    std::string k = fresh("k");
    std::vector<int64_t> kShape = {current[1], 1, 1};
    body += constantLine(k, operand("f32", kShape, seed++, -2, 2));
    emit("tcc.mul %" + value + ", %" + k + " : (" + shape(current) + ", " +
             shape(kShape) + ") -> " + shape(current),
         current);
  }

  void relu() { emit("tcc.relu %" + value + " : " + shape(current), current); }

  void add(const std::string &other) {
    emit("tcc.add %" + value + ", %" + other + " : (" + shape(current) + ", " +
             shape(current) + ") -> " + shape(current),
         current);
  }

  void maxPool(int64_t k, int64_t stride, int64_t pad) {
    std::vector<int64_t> next = current;
    next[2] = (current[2] + 2 * pad - k) / stride + 1;
    next[3] = (current[3] + 2 * pad - k) / stride + 1;
    emit("tcc.max_pool2d %" + value + " {kernel_size = array<i64: " +
             std::to_string(k) + ", " + std::to_string(k) +
             ">, stride = array<i64: " + std::to_string(stride) + ", " +
             std::to_string(stride) + ">, padding = array<i64: " +
             std::to_string(pad) + ", " + std::to_string(pad) +
             ">} : " + shape(current) + " -> " + shape(next),
         next);
  }

  void globalPool() {
    std::vector<int64_t> next = {current[0], current[1], 1, 1};
    emit("tcc.adaptive_avg_pool2d %" + value +
             " {output_size = array<i64: 1, 1>} : " + shape(current) + " -> " +
             shape(next),
         next);
  }

  void flatten() {
    std::vector<int64_t> next = {current[0],
                                 current[1] * current[2] * current[3]};
    emit("tcc.reshape %" + value + " : " + shape(current) + " to " +
             shape(next),
         next);
  }

  void linear(int64_t out) {
    std::string w = fresh("w"), b = fresh("b");
    body +=
        constantLine(w, operand("f32", {out, current[1]}, seed++, -0.5, 0.5));
    body += constantLine(b, operand("f32", {out}, seed++));
    std::vector<int64_t> next = {current[0], out};
    emit("tcc.linear %" + value + ", %" + w + ", %" + b + " : (" +
             shape(current) + ", " + shape({out, current[1]}) + ", " +
             shape({out}) + ") -> " + shape(next),
         next);
  }

  const std::string &last() const { return value; }

  std::string finish() {
    std::string text =
        body + "  return %" + value + " : " + shape(current) + "\n}\n";
    text.replace(text.find("RESULT"), 6, shape(current));
    return text;
  }

private:
  std::string fresh(const std::string &prefix) {
    return prefix + std::to_string(counter++);
  }
  void emit(const std::string &op, std::vector<int64_t> next) {
    std::string name = fresh("v");
    body += "  %" + name + " = " + op + "\n";
    value = name;
    current = std::move(next);
  }

  std::string body, value = "x";
  std::vector<int64_t> current;
  int counter = 0;
  uint64_t seed = 100;
};

TEST(ConvertLayout, ResNetBlockHasNoTransposesInside) {
  NetworkBuilder net({2, 3, 12, 12});
  net.convBn(8);
  net.relu();
  net.maxPool(3, 2, 1);
  std::string skip = net.last();
  net.convBn(8);
  net.relu();
  net.convBn(8);
  net.add(skip);
  net.relu();
  net.globalPool();
  net.flatten();
  net.linear(10);
  std::string source = net.finish();
  std::string nhwc = normalizeLayout(source);
  EXPECT_EQ(countOf(nhwc, "tcc.batch_norm"), 0) << nhwc;
  // Three convolutions, the max pool and the global pool.
  EXPECT_EQ(countOf(nhwc, "layout = #tcc.layout<nhwc>"), 5) << nhwc;
  // The one transpose left turns the NCHW argument into NHWC.
  EXPECT_EQ(countOf(nhwc, "tcc.transpose"), 1) << nhwc;
  EXPECT_EQ(countOf(nhwc, "tcc.transpose %arg0"), 1) << nhwc;
  expectSameResults(source, nhwc, 1e-4);
}

TEST(ConvertLayout, WithoutBatchNormTheResultsAreBitIdentical) {
  // No rounding changes: the NHWC ops compute the same sums, the pointwise
  // ops and the global pool see permuted copies of the same values, and the
  // linear's weight is untouched (the flatten sees a 1x1 map).
  NetworkBuilder net({2, 3, 10, 10});
  net.conv(6);
  net.channelScale();
  net.relu();
  net.maxPool(2, 2, 0);
  std::string skip = net.last();
  net.conv(6);
  net.relu();
  net.add(skip);
  net.globalPool();
  net.flatten();
  net.linear(4);
  std::string source = net.finish();
  std::string nhwc = normalizeLayout(source);
  EXPECT_EQ(countOf(nhwc, "layout = #tcc.layout<nhwc>"), 4) << nhwc;
  EXPECT_EQ(countOf(nhwc, "tcc.transpose"), 1) << nhwc;
  EXPECT_EQ(countOf(nhwc, "tcc.transpose %arg0"), 1) << nhwc;
  expectSameResults(source, nhwc, 0);
}

TEST(ConvertLayout, ResidualFromTheInputReusesItsTranspose) {
  // The skip connection is the NCHW argument itself: the add runs NHWC on
  // the transpose that already feeds the first conv.
  NetworkBuilder net({2, 4, 8, 8});
  std::string skip = net.last();
  net.conv(4);
  net.relu();
  net.conv(4);
  net.add(skip);
  net.relu();
  net.globalPool();
  net.flatten();
  net.linear(3);
  std::string source = net.finish();
  std::string nhwc = normalizeLayout(source);
  EXPECT_EQ(countOf(nhwc, "layout = #tcc.layout<nhwc>"), 3) << nhwc;
  EXPECT_EQ(countOf(nhwc, "tcc.transpose"), 1) << nhwc;
  expectSameResults(source, nhwc, 0);
}

TEST(ConvertLayout, FlattenOfAFeatureMapFoldsIntoTheLinearWeight) {
  // The digits CNN's shape: the flatten sees a 3x3 map, so the transpose
  // back to NCHW moves data and must go into the linear's weight.
  NetworkBuilder net({2, 1, 12, 12});
  net.convBn(4);
  net.relu();
  net.maxPool(2, 2, 0);
  net.convBn(8);
  net.relu();
  net.maxPool(2, 2, 0);
  net.flatten();
  net.linear(10);
  std::string source = net.finish();
  std::string nhwc = normalizeLayout(source);
  // One input channel: NCHW -> NHWC moves no data and is a reshape.
  EXPECT_EQ(countOf(nhwc, "tcc.transpose"), 0) << nhwc;
  EXPECT_EQ(countOf(nhwc, "tcc.reshape %arg0"), 1) << nhwc;
  EXPECT_EQ(countOf(nhwc, ".permuted"), 2) << nhwc; // use and blob
  expectSameResults(source, nhwc, 1e-4);
}

TEST(ConvertLayout, FeatureMapOutputsStayNchw) {
  NetworkBuilder net({1, 2, 6, 6});
  net.convBn(4);
  net.relu();
  net.convBn(4, 2);
  std::string source = net.finish();
  std::string nhwc = normalizeLayout(source);
  EXPECT_EQ(countOf(nhwc, "tcc.transpose"), 2) << nhwc; // input and output
  EXPECT_EQ(countOf(nhwc, "permutation = array<i64: 0, 3, 1, 2>"), 1) << nhwc;
  expectSameResults(source, nhwc, 1e-4);
}

TEST(ConvertLayout, TracedNetworkHasNoTransposesInside) {
  // A network as the tracer records it from eager code.
  manual_seed(7);
  Tensor w1 = randn({4, 3, 3, 3}) * 0.3, b1 = randn({4}) * 0.1;
  Tensor g = rand({4}) + 0.5, beta = randn({4}) * 0.1, mean = randn({4}) * 0.1,
         var = rand({4}) + 0.5;
  Tensor w2 = randn({4, 4, 3, 3}) * 0.2, fw = randn({5, 4}) * 0.5,
         fb = randn({5});
  auto network = [&](const Tensor &x) {
    Tensor y = conv2d(x, w1, b1, 1, 1);
    y = batch_norm(y, g, beta, mean, var, /*training=*/false, 0.1, 1e-5);
    y = relu(y);
    Tensor skip = max_pool2d(y, {2, 2}, {2, 2});
    y = relu(conv2d(skip, w2, std::nullopt, 1, 1));
    y = relu(y + skip);
    y = flatten(adaptive_avg_pool2d(y, {1, 1}), 1);
    return linear(y, fw, fb);
  };
  manual_seed(8);
  jit::TracedGraph traced = jit::trace(network, {randn({2, 3, 8, 8})});
  std::string source = traced.str();
  std::string nhwc = runPasses(source, [](mlir::OpPassManager &pm) {
    pm.addPass(mlir::createCanonicalizerPass());
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldConstants());
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldBatchNorm());
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccConvertLayout());
  });
  EXPECT_EQ(countOf(nhwc, "tcc.batch_norm"), 0) << nhwc;
  EXPECT_EQ(countOf(nhwc, "tcc.transpose"), 1) << source << "\n" << nhwc;
  expectSameResults(source, nhwc, 1e-4);
  // The -O2 graph pipeline (fusion too) leaves the same single transpose.
  std::string o2 = runPasses(source, [](mlir::OpPassManager &pm) {
    mlir::tcc::buildGraphPipeline(
        pm, 2, *mlir::tcc::lookupTargetCapabilities("x86_64"));
  });
  EXPECT_EQ(countOf(o2, "tcc.transpose"), 1) << o2;
  EXPECT_EQ(countOf(o2, "tcc.batch_norm"), 0) << o2;
  EXPECT_GT(countOf(o2, "tcc.fusion"), 0) << o2;
  expectSameResults(source, o2, 1e-4);
}

} // namespace
} // namespace tcc
