//===- InputsTest.cpp - Graph inputs, symbolic dims and --input-shape -----===//

#include "OnnxTestSupport.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;

namespace {

class OnnxInputs : public OnnxImportTest {
protected:
  /// y = Relu(x) with x of `dims` (kSymbolic: the dim "N") and `type`.
  static ModelBuilder reluOf(std::vector<int64_t> dims,
                             int32_t type = TensorProto::FLOAT) {
    ModelBuilder b;
    b.input("x", std::move(dims), type);
    b.node("Relu", {"x"}, {"y"}, "relu");
    b.output("y");
    return b;
  }
  static mlir::tcc::onnx::ImportOptions
  shape(const std::string &name, std::vector<int64_t> dims) {
    mlir::tcc::onnx::ImportOptions options;
    options.inputShapes[name] = std::move(dims);
    return options;
  }
};

/// The imported function's argument types.
std::vector<mlir::Type> argTypes(mlir::ModuleOp module) {
  std::vector<mlir::Type> types;
  module.walk([&](mlir::func::FuncOp f) {
    for (mlir::Type t : f.getArgumentTypes())
      types.push_back(t);
  });
  return types;
}

TEST_F(OnnxInputs, ASymbolicDimWithoutAShapeNamesTheInput) {
  EXPECT_EQ(importFails(reluOf({kSymbolic, 3})),
            "graph input 'x' has an unknown dimension 0 ('N'); give the "
            "input's shape with --input-shape x=DxDx... "
            "(ImportOptions::input_shapes in C++)");
}

TEST_F(OnnxInputs, AnInputWithoutAShapeNeedsOne) {
  ModelBuilder b = reluOf({2});
  b.graph->mutable_input(0)->mutable_type()->mutable_tensor_type()
      ->clear_shape();
  EXPECT_THAT(importFails(b), HasSubstr("graph input 'x' has no shape in "
                                        "the model; give it with "
                                        "--input-shape x="));
  auto module = importSucceeds(b, shape("x", {4, 5}));
  ASSERT_TRUE(module);
  EXPECT_EQ(argTypes(*module)[0],
            mlir::RankedTensorType::get({4, 5},
                                        mlir::Float32Type::get(&context)));
}

TEST_F(OnnxInputs, AGivenShapeSpecializesSymbolicDims) {
  auto module = importSucceeds(reluOf({kSymbolic, 3}), shape("x", {7, 3}));
  ASSERT_TRUE(module);
  EXPECT_EQ(argTypes(*module)[0],
            mlir::RankedTensorType::get({7, 3},
                                        mlir::Float32Type::get(&context)));
}

TEST_F(OnnxInputs, AShapeForAnUnknownInputIsRefused) {
  EXPECT_EQ(importFails(reluOf({2}), shape("nope", {2})),
            "--input-shape names 'nope', which is not an input of the model");
  ModelBuilder b = reluOf({2});
  b.floats("w", {2}, {1, 2}); // an initializer is not an input
  EXPECT_EQ(importFails(b, shape("w", {2})),
            "--input-shape names 'w', which is not an input of the model");
}

TEST_F(OnnxInputs, AShapeOfTheWrongRankIsRefused) {
  EXPECT_EQ(importFails(reluOf({kSymbolic, 3}), shape("x", {2, 3, 1})),
            "--input-shape x=2x3x1 does not fit the model's shape of 'x' "
            "(rank 2)");
}

TEST_F(OnnxInputs, AShapeConflictingWithAFixedDimIsRefused) {
  EXPECT_EQ(importFails(reluOf({kSymbolic, 3}), shape("x", {2, 4})),
            "--input-shape x=2x4 does not fit the model's shape of 'x' "
            "(rank 2)");
  // Agreeing with every fixed dim is fine, even when nothing is symbolic.
  EXPECT_TRUE(importSucceeds(reluOf({2, 3}), shape("x", {2, 3})));
}

TEST_F(OnnxInputs, HugeOrDeepInputShapesAreRefused) {
  int64_t big = int64_t(1) << 21;
  EXPECT_THAT(importFails(reluOf({big, big})),
              HasSubstr("graph input 'x': shape 2097152x2097152 has more "
                        "than 2^40 elements"));
  EXPECT_THAT(importFails(reluOf({kSymbolic, kSymbolic}), shape("x", {big, big})),
              HasSubstr("graph input 'x': shape 2097152x2097152 has more "
                        "than 2^40 elements"));
  EXPECT_EQ(importFails(reluOf(std::vector<int64_t>(65, 1))),
            "graph input 'x': rank 65 is above the limit of 64");
  EXPECT_EQ(importFails(reluOf({2, -3})),
            "graph input 'x': dimension -3 is negative");
}

TEST_F(OnnxInputs, ElementTypesTccLacksAreRefused) {
  for (auto type : {TensorProto::UINT16, TensorProto::UINT32,
                    TensorProto::UINT64, TensorProto::INT16,
                    TensorProto::STRING, TensorProto::COMPLEX128,
                    TensorProto::FLOAT8E5M2, TensorProto::UNDEFINED})
    EXPECT_EQ(importFails(reluOf({2}, type)),
              "graph input 'x' has element type " +
                  TensorProto::DataType_Name(type) +
                  ", which tcc does not support");
}

TEST_F(OnnxInputs, NonTensorInputsAreRefused) {
  ModelBuilder b;
  auto *x = b.graph->add_input();
  x->set_name("seq");
  x->mutable_type()->mutable_sequence_type();
  b.node("Identity", {"seq"}, {"y"}, "id");
  b.output("y");
  EXPECT_THAT(importFails(b), HasSubstr("graph input 'seq' is not a tensor"));
}

TEST_F(OnnxInputs, ADeclaredOutputTypeMustMatch) {
  ModelBuilder b = reluOf({2});
  auto *y = b.graph->mutable_output(0)->mutable_type()->mutable_tensor_type();
  y->set_elem_type(TensorProto::INT64);
  EXPECT_EQ(importFails(b),
            "graph output 'y' is declared INT64 but computes FLOAT");
  y->set_elem_type(TensorProto::FLOAT);
  y->mutable_shape()->add_dim()->set_dim_value(3);
  EXPECT_THAT(importFails(b), HasSubstr("graph output 'y' is declared with a "
                                        "shape that differs"));
}

} // namespace
