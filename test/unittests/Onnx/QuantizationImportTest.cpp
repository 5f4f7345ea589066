//===- QuantizationImportTest.cpp - What the quantization importers refuse ===//
//
// ONNX's conformance cases cover what QuantizeLinear, QLinearMatMul and the
// rest import; these are the forms tcc refuses, each with an error naming
// the node, and the choice of per-tensor or per-axis parameters.
//
//===----------------------------------------------------------------------===//

#include "OnnxTestSupport.h"

#include "tcc/IR/TccOps.h"

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

TEST_F(OnnxQuantizationImport, BlockedQuantizationIsRefused) {
  ModelBuilder b = quantizeLinear({2});
  setInt(b.graph->mutable_node(0), "block_size", 2);
  EXPECT_THAT(importFails(b),
              HasSubstr("blocked quantization (block_size > 0) is not "
                        "supported"));
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
