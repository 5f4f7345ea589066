//===- QuantizationImportTest.cpp - What the quantization importers refuse ===//
//
// ONNX's conformance cases cover what QuantizeLinear, QLinearMatMul and the
// rest import; these are the forms tcc refuses, each with an error naming
// the node, and the choice of per-tensor, per-axis or blocked parameters.
//
//===----------------------------------------------------------------------===//

#include "OnnxTestSupport.h"

#include "tcc/IR/TccOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;
using testing::StartsWith;

namespace {

class OnnxQuantizationImport : public OnnxImportTest {};

/// y = QuantizeLinear(x [2, 4], scale, zero point of `zpType`) at opset 21.
ModelBuilder quantizeLinear(std::vector<int64_t> scaleDims,
                            int32_t zpType = TensorProto::UINT8) {
  ModelBuilder b(21);
  b.input("x", {2, 4});
  int64_t count = scaleDims.empty() ? 1 : scaleDims[0];
  b.floats("s", scaleDims, std::vector<float>(size_t(count), 0.5f));
  TensorProto *zp = b.tensor("zp", scaleDims, zpType);
  zp->set_raw_data(std::string(size_t(count), '\0'));
  b.node("QuantizeLinear", {"x", "s", "zp"}, {"y"}, "q");
  b.output("y");
  return b;
}

TEST_F(OnnxQuantizationImport, PerTensorAndPerAxis) {
  auto perTensor = importSucceeds(quantizeLinear({1}));
  ASSERT_TRUE(perTensor);
  int quantizes = 0;
  perTensor->walk([&](mlir::tcc::QuantizeOp op) {
    ++quantizes;
    EXPECT_EQ(op.getScale().getType().getRank(), 0); // [1] -> 0-d
  });
  EXPECT_EQ(quantizes, 1);

  ModelBuilder b = quantizeLinear({4}, TensorProto::INT8);
  setInt(b.graph->mutable_node(0), "axis", -1);
  auto perAxis = importSucceeds(b);
  ASSERT_TRUE(perAxis);
  quantizes = 0;
  perAxis->walk([&](mlir::tcc::QuantizeOp op) {
    ++quantizes;
    EXPECT_EQ(op.getScale().getType().getRank(), 1);
    EXPECT_EQ(static_cast<int64_t>(op.getAxis()), 1);
    EXPECT_TRUE(op.getType().getElementType().isSignlessInteger(8));
  });
  EXPECT_EQ(quantizes, 1);
}

/// y = QuantizeLinear(x [2, 5], scale of `scaleDims`, zero point of
/// `zpDims`) with `block_size` along axis 1, at opset 21.
ModelBuilder blockedQuantizeLinear(std::vector<int64_t> scaleDims,
                                   std::vector<int64_t> zpDims,
                                   int64_t blockSize) {
  auto count = [](const std::vector<int64_t> &dims) {
    int64_t c = 1;
    for (int64_t d : dims)
      c *= d;
    return size_t(c);
  };
  ModelBuilder b(21);
  b.input("x", {2, 5});
  b.floats("s", scaleDims, std::vector<float>(count(scaleDims), 0.5f));
  TensorProto *zp = b.tensor("zp", zpDims, TensorProto::INT8);
  zp->set_raw_data(std::string(count(zpDims), '\0'));
  b.node("QuantizeLinear", {"x", "s", "zp"}, {"y"}, "q");
  setInt(b.graph->mutable_node(0), "block_size", blockSize);
  b.output("y");
  return b;
}

TEST_F(OnnxQuantizationImport, BlockedParametersApplyPerElement) {
  // 5 elements in blocks of 2: the last block is short.
  auto module = importSucceeds(blockedQuantizeLinear({2, 3}, {2, 3}, 2));
  ASSERT_TRUE(module);
  int quantizes = 0;
  module->walk([&](mlir::tcc::QuantizeOp op) {
    ++quantizes;
    // Flattened: one scale per element along axis 0.
    EXPECT_EQ(op.getScale().getType().getShape(), llvm::ArrayRef<int64_t>{10});
    EXPECT_EQ(static_cast<int64_t>(op.getAxis()), 0);
  });
  EXPECT_EQ(quantizes, 1);
  module->walk([&](mlir::func::ReturnOp ret) {
    auto type = mlir::cast<mlir::RankedTensorType>(ret.getOperand(0).getType());
    EXPECT_EQ(type.getShape(), (llvm::ArrayRef<int64_t>{2, 5}));
    EXPECT_TRUE(type.getElementType().isSignlessInteger(8));
  });
}

TEST_F(OnnxQuantizationImport, BlockSizeMustMatchTheScale) {
  // ceil(5 / 1) = 5 blocks along axis 1, not 3.
  std::string error = importFails(blockedQuantizeLinear({2, 3}, {2, 3}, 1));
  EXPECT_THAT(error, HasSubstr("node 'q'"));
  EXPECT_THAT(error, HasSubstr("y_scale has shape 2x3; with block_size 1 "
                               "along axis 1 of an input of shape 2x5 it "
                               "must be 2x5"));
  // ceil(5 / 5) = 1 block, not 3.
  EXPECT_THAT(importFails(blockedQuantizeLinear({2, 3}, {2, 3}, 5)),
              HasSubstr("it must be 2x1"));
}

TEST_F(OnnxQuantizationImport, BlockedScaleMustHaveTheInputsRank) {
  // A per-axis (1-D) scale is not a blocked one.
  EXPECT_THAT(importFails(blockedQuantizeLinear({3}, {3}, 2)),
              HasSubstr("y_scale has shape 3; with block_size 2 along axis 1 "
                        "of an input of shape 2x5 it must be 2x3"));
  // The other dims must be the input's.
  EXPECT_THAT(importFails(blockedQuantizeLinear({1, 3}, {1, 3}, 2)),
              HasSubstr("it must be 2x3"));
}

TEST_F(OnnxQuantizationImport, BlockedZeroPointMustMatchTheScale) {
  EXPECT_THAT(importFails(blockedQuantizeLinear({2, 3}, {2, 2}, 2)),
              HasSubstr("the zero point has shape 2x2"));
}

TEST_F(OnnxQuantizationImport, NegativeBlockSizeIsRefused) {
  EXPECT_THAT(importFails(blockedQuantizeLinear({2, 3}, {2, 3}, -2)),
              HasSubstr("block_size must be 0 or positive, got -2"));
}

TEST_F(OnnxQuantizationImport, BlockedDequantizeOfAScalarIsRefused) {
  ModelBuilder b(21);
  b.input("q", {}, TensorProto::UINT8);
  b.floats("s", {}, {0.5f});
  b.node("DequantizeLinear", {"q", "s"}, {"y"}, "dq");
  setInt(b.graph->mutable_node(0), "block_size", 2);
  b.output("y");
  EXPECT_THAT(importFails(b), HasSubstr("needs an input of rank 1 or more"));
}

TEST_F(OnnxQuantizationImport, BlockedDequantizeNamesXScale) {
  ModelBuilder b(21);
  b.input("q", {4, 2}, TensorProto::UINT8);
  b.floats("s", {4, 2}, std::vector<float>(8, 0.5f));
  b.node("DequantizeLinear", {"q", "s"}, {"y"}, "dq");
  setInt(b.graph->mutable_node(0), "block_size", 2);
  setInt(b.graph->mutable_node(0), "axis", 0);
  b.output("y");
  EXPECT_THAT(importFails(b),
              HasSubstr("x_scale has shape 4x2; with block_size 2 along axis "
                        "0 of an input of shape 4x2 it must be 2x2"));
}

TEST_F(OnnxQuantizationImport, MissingElementTypesAreRefused) {
  ModelBuilder b(21);
  b.input("x", {4});
  b.floats("s", {}, {0.5f});
  b.node("QuantizeLinear", {"x", "s"}, {"y"}, "q");
  setInt(b.graph->mutable_node(0), "output_dtype", TensorProto::INT16);
  b.output("y");
  EXPECT_THAT(importFails(b), HasSubstr("INT16"));
}

TEST_F(OnnxQuantizationImport, PerRowQLinearMatMulScaleIsRefused) {
  ModelBuilder b(21);
  b.input("a", {2, 3}, TensorProto::UINT8);
  b.input("b", {3, 2}, TensorProto::UINT8);
  b.floats("sa", {2}, {0.5f, 0.25f});
  b.floats("s", {}, {0.5f});
  TensorProto *zp = b.tensor("zp", {}, TensorProto::UINT8);
  zp->set_raw_data(std::string(1, '\0'));
  TensorProto *zpa = b.tensor("zpa", {2}, TensorProto::UINT8);
  zpa->set_raw_data(std::string(2, '\0'));
  b.node("QLinearMatMul", {"a", "sa", "zpa", "b", "s", "zp", "s", "zp"}, {"y"},
         "mm");
  b.output("y");
  EXPECT_THAT(importFails(b), HasSubstr("per-row a_scale"));
}

TEST_F(OnnxQuantizationImport, OnlyTwoDimensionalIntegerConvolutions) {
  ModelBuilder b(21);
  b.input("x", {1, 2, 5}, TensorProto::UINT8);
  b.input("w", {2, 2, 3}, TensorProto::UINT8);
  b.node("ConvInteger", {"x", "w"}, {"y"}, "conv");
  b.output("y");
  EXPECT_THAT(importFails(b), HasSubstr("only 2-D integer convolutions"));
}

} // namespace
