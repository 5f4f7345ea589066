//===- Im2colTest.cpp - The cuda target's im2col body, run on the CPU ----===//
//
// The cuda target's convolutions read an im2col workspace that a generated
// kernel writes (Targets/Cuda/ConvAsGemm.h). No GPU runs here, but the
// kernel's body is a linalg.generic that the CPU pipeline lowers as well:
// compiled for this CPU it must give, element for element, im2col as its
// definition says, computed here in float64 (padding, stride, dilation,
// non-square windows).
//
//===----------------------------------------------------------------------===//

#include "KernelTestHarness.h"

#include "Targets/Cuda/ConvAsGemm.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include <gtest/gtest.h>

using namespace tcc_test;

namespace {

struct Im2colCase {
  int64_t batch, height, width, channels, outChannels;
  int64_t kernel[2], stride[2], padding[2], dilation[2];
};

std::string pair(const int64_t *v) {
  return "array<i64: " + std::to_string(v[0]) + ", " + std::to_string(v[1]) +
         ">";
}

std::string shape(std::initializer_list<int64_t> dims, DType dtype) {
  std::string s = "tensor<";
  for (int64_t d : dims)
    s += std::to_string(d) + "x";
  return s + mlirName(dtype) + ">";
}

TEST(Im2col, TheCudaKernelsBodyIsIm2colOnTheCpu) {
  const Im2colCase cases[] = {
      // ResNet's 3x3 of stride 2 and its 1x1 projection; the 7x7 stem of
      // 3 channels; dilation 2 with padding 2; a non-square window,
      // stride and padding (heights and widths kept apart).
      {2, 9, 9, 8, 16, {3, 3}, {2, 2}, {1, 1}, {1, 1}},
      {2, 5, 5, 16, 8, {1, 1}, {2, 2}, {0, 0}, {1, 1}},
      {1, 16, 16, 3, 4, {7, 7}, {2, 2}, {3, 3}, {1, 1}},
      {2, 5, 5, 16, 4, {3, 3}, {1, 1}, {2, 2}, {2, 2}},
      {1, 6, 7, 4, 2, {2, 3}, {1, 2}, {0, 1}, {1, 1}},
  };
  std::unique_ptr<mlir::MLIRContext> context = makeContext();
  std::vector<KernelCase> kernels;
  for (DType dtype : {DType::F32, DType::BF16, DType::F16})
    for (const Im2colCase &c : cases) {
      int64_t oh = (c.height + 2 * c.padding[0] -
                    c.dilation[0] * (c.kernel[0] - 1) - 1) /
                       c.stride[0] +
                   1;
      int64_t ow =
          (c.width + 2 * c.padding[1] - c.dilation[1] * (c.kernel[1] - 1) - 1) /
              c.stride[1] +
          1;
      std::string x = shape({c.batch, c.height, c.width, c.channels}, dtype);
      std::string w =
          shape({c.outChannels, c.kernel[0], c.kernel[1], c.channels}, dtype);
      std::string y = shape({c.batch, oh, ow, c.outChannels}, dtype);
      // The convolution whose im2col is built (its shapes and attributes).
      std::string source =
          "func.func @conv(%x: " + x + ", %w: " + w + ") -> " + y +
          " {\n  %y = tcc.conv2d %x, %w {stride = " + pair(c.stride) +
          ", padding = " + pair(c.padding) +
          ", dilation = " + pair(c.dilation) +
          ", layout = #tcc.layout<nhwc>} : (" + x + ", " + w + ") -> " + y +
          "\n  return %y : " + y + "\n}\n";
      mlir::OwningOpRef<mlir::ModuleOp> module =
          mlir::parseSourceString<mlir::ModuleOp>(source, context.get());
      ASSERT_TRUE(module) << source;
      mlir::tcc::Conv2dOp conv;
      module->walk([&](mlir::tcc::Conv2dOp op) { conv = op; });
      ASSERT_TRUE(conv);

      std::string name = "im2col_" + std::to_string(kernels.size());
      Tensor input = random(dtype, {c.batch, c.height, c.width, c.channels}, -1,
                            1, 100 + kernels.size());
      Tensor expected = generate(
          dtype, {c.batch, oh, ow, c.kernel[0], c.kernel[1], c.channels},
          [&](const std::vector<int64_t> &i) {
            int64_t h =
                i[1] * c.stride[0] - c.padding[0] + i[3] * c.dilation[0];
            int64_t v =
                i[2] * c.stride[1] - c.padding[1] + i[4] * c.dilation[1];
            if (h < 0 || h >= c.height || v < 0 || v >= c.width)
              return 0.0;
            return input.at({i[0], h, v, i[5]});
          });
      // The kernel function the cuda target outlines, printed for the harness.
      mlir::OpBuilder b(context.get());
      mlir::Location loc = b.getUnknownLoc();
      mlir::OwningOpRef<mlir::ModuleOp> kernel = mlir::ModuleOp::create(loc);
      b.setInsertionPointToEnd(kernel->getBody());
      auto resultType = mlir::RankedTensorType::get(
          expected.shape,
          mlir::cast<mlir::RankedTensorType>(conv.getInput().getType())
              .getElementType());
      auto func = b.create<mlir::func::FuncOp>(
          loc, name,
          b.getFunctionType({conv.getInput().getType()}, {resultType}));
      mlir::Block *body = func.addEntryBlock();
      b.setInsertionPointToStart(body);
      b.create<mlir::func::ReturnOp>(
          loc,
          mlir::tcc::cuda::buildIm2col(b, loc, body->getArgument(0), conv));
      std::string text;
      llvm::raw_string_ostream os(text);
      func.print(os);
      kernels.emplace_back(name, text, std::vector<Tensor>{input},
                           std::vector<Tensor>{expected}, Tolerance{0, 0});
    }
  runCases(*context, kernels);
}

} // namespace
