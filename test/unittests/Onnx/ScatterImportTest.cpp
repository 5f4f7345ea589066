//===- ScatterImportTest.cpp - Scatter-family importers on bad input ------===//
//
// ScatterElements, ScatterND, MaxUnpool and TensorScatter refuse indices of
// the wrong type or shape, and constant indices out of range, naming the
// node; indices the graph computes import as a tcc.scatter fed by them.
//
//===----------------------------------------------------------------------===//

#include "OnnxTestSupport.h"

#include "tcc/IR/TccOps.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;
using testing::StartsWith;

namespace {

class OnnxScatterImport : public OnnxImportTest {
protected:
  /// The error of a model that must fail at node `name` (op `opType`).
  std::string nodeFails(const ModelBuilder &b, const std::string &name,
                        const std::string &opType) {
    std::string error = importFails(b);
    EXPECT_THAT(error, StartsWith("node '" + name + "' (" + opType + "): "));
    return error;
  }

  /// y = ScatterElements(data [3, 4], indices, updates) along `axis`, with
  /// indices an int64 initializer of `dims` holding `values`.
  static ModelBuilder scatterElements(std::vector<int64_t> dims,
                                      const std::vector<int64_t> &values,
                                      int64_t axis = 0) {
    ModelBuilder b;
    b.input("data", {3, 4});
    b.ints("indices", dims, values);
    b.input("updates", dims);
    auto *node =
        b.node("ScatterElements", {"data", "indices", "updates"}, {"y"}, "sc");
    setInt(node, "axis", axis);
    b.output("y");
    return b;
  }

  /// The number of tcc.scatter ops in `module`.
  static int scatterCount(mlir::ModuleOp module) {
    int count = 0;
    module.walk([&](mlir::tcc::ScatterOp) { ++count; });
    return count;
  }
};

TEST_F(OnnxScatterImport, ConstantIndicesOutOfRangeNameTheNode) {
  EXPECT_THAT(nodeFails(scatterElements({1, 2}, {0, 3}), "sc",
                        "ScatterElements"),
              HasSubstr("index 3 is out of range for a dim of size 3"));
  EXPECT_THAT(nodeFails(scatterElements({1, 2}, {-4, 0}), "sc",
                        "ScatterElements"),
              HasSubstr("index -4 is out of range for a dim of size 3"));
  // Negative indices in range count from the end.
  EXPECT_TRUE(importSucceeds(scatterElements({1, 2}, {-3, -1})));
}

TEST_F(OnnxScatterImport, IndicesMustBeIntegersOfTheUpdatesShape) {
  ModelBuilder floatIndices;
  floatIndices.input("data", {3, 4});
  floatIndices.floats("indices", {1, 2}, {0, 1});
  floatIndices.input("updates", {1, 2});
  floatIndices.node("ScatterElements", {"data", "indices", "updates"}, {"y"},
                    "sc");
  floatIndices.output("y");
  EXPECT_THAT(nodeFails(floatIndices, "sc", "ScatterElements"),
              HasSubstr("indices must be int32 or int64, got f32"));

  ModelBuilder otherShape;
  otherShape.input("data", {3, 4});
  otherShape.ints("indices", {1, 2}, {0, 1});
  otherShape.input("updates", {1, 3});
  otherShape.node("ScatterElements", {"data", "indices", "updates"}, {"y"},
                  "sc");
  otherShape.output("y");
  EXPECT_THAT(nodeFails(otherShape, "sc", "ScatterElements"),
              HasSubstr("indices and updates must have one shape"));

  ModelBuilder otherRank;
  otherRank.input("data", {3, 4});
  otherRank.ints("indices", {2}, {0, 1});
  otherRank.input("updates", {2});
  otherRank.node("ScatterElements", {"data", "indices", "updates"}, {"y"},
                 "sc");
  otherRank.output("y");
  EXPECT_THAT(nodeFails(otherRank, "sc", "ScatterElements"),
              HasSubstr("updates must have the data's rank"));
}

TEST_F(OnnxScatterImport, ComputedIndicesImportAsAScatter) {
  // The indices are a graph input: a tcc.scatter fed by arithmetic that
  // counts negative indices from the end.
  ModelBuilder b;
  b.input("data", {3, 4});
  b.input("indices", {1, 4}, TensorProto::INT32);
  b.input("updates", {1, 4});
  b.node("ScatterElements", {"data", "indices", "updates"}, {"y"}, "sc");
  b.output("y");
  auto module = importSucceeds(b);
  ASSERT_TRUE(module);
  EXPECT_EQ(scatterCount(*module), 1);
  int selects = 0;
  module->walk([&](mlir::tcc::SelectOp) { ++selects; });
  EXPECT_EQ(selects, 1);
}

TEST_F(OnnxScatterImport, ScatterNDChecksItsTuples) {
  auto scatterND = [](std::vector<int64_t> dims,
                      const std::vector<int64_t> &values,
                      std::vector<int64_t> updateDims) {
    ModelBuilder b;
    b.input("data", {3, 4});
    b.ints("indices", std::move(dims), values);
    b.input("updates", std::move(updateDims));
    b.node("ScatterND", {"data", "indices", "updates"}, {"y"}, "nd");
    b.output("y");
    return b;
  };
  EXPECT_THAT(nodeFails(scatterND({2, 2}, {0, 1, 2, 4}, {2}), "nd",
                        "ScatterND"),
              HasSubstr("index 4 is out of range for a dim of size 4"));
  EXPECT_THAT(nodeFails(scatterND({1, 3}, {0, 1, 2}, {1}), "nd", "ScatterND"),
              HasSubstr("the index tuples have 3 entries for data of rank 2"));
  EXPECT_THAT(nodeFails(scatterND({2, 1}, {0, 1}, {2, 3}), "nd", "ScatterND"),
              HasSubstr("updates must have shape indices.shape[:-1] + "
                        "data.shape[k:]"));
  EXPECT_TRUE(importSucceeds(scatterND({2, 1}, {-1, 0}, {2, 4})));

  ModelBuilder computed;
  computed.input("data", {3, 4});
  computed.input("indices", {2, 2}, TensorProto::INT64);
  computed.input("updates", {2});
  computed.node("ScatterND", {"data", "indices", "updates"}, {"y"}, "nd");
  computed.output("y");
  auto module = importSucceeds(computed);
  ASSERT_TRUE(module);
  EXPECT_EQ(scatterCount(*module), 1);
}

TEST_F(OnnxScatterImport, MaxUnpoolChecksItsInputs) {
  auto unpool = [](int32_t indexType, std::vector<int64_t> indexDims) {
    ModelBuilder b(11);
    b.input("x", {1, 1, 2, 2});
    b.input("i", std::move(indexDims), indexType);
    auto *node = b.node("MaxUnpool", {"x", "i"}, {"y"}, "up");
    setInts(node, "kernel_shape", {2, 2});
    setInts(node, "strides", {2, 2});
    b.output("y");
    return b;
  };
  EXPECT_THAT(nodeFails(unpool(TensorProto::FLOAT, {1, 1, 2, 2}), "up",
                        "MaxUnpool"),
              HasSubstr("I must be int32 or int64, got f32"));
  EXPECT_THAT(nodeFails(unpool(TensorProto::INT64, {1, 1, 4}), "up",
                        "MaxUnpool"),
              HasSubstr("I must have the shape of X"));
  auto module = importSucceeds(unpool(TensorProto::INT64, {1, 1, 2, 2}));
  ASSERT_TRUE(module);
  EXPECT_EQ(scatterCount(*module), 1);

  ModelBuilder shapeInput = unpool(TensorProto::INT64, {1, 1, 2, 2});
  shapeInput.input("s", {4}, TensorProto::INT64);
  shapeInput.graph->mutable_node(0)->add_input("s");
  EXPECT_THAT(nodeFails(shapeInput, "up", "MaxUnpool"),
              HasSubstr("output_shape (input 2) must be a constant"));
}

TEST_F(OnnxScatterImport, TensorScatterChecksItsInputs) {
  auto tensorScatter = [](int64_t axis, std::vector<int64_t> writeDims) {
    ModelBuilder b(24);
    b.input("past", {2, 5, 3});
    b.input("update", {2, 2, 3});
    b.input("w", std::move(writeDims), TensorProto::INT64);
    auto *node =
        b.node("TensorScatter", {"past", "update", "w"}, {"present"}, "ts");
    setInt(node, "axis", axis);
    b.output("present");
    return b;
  };
  EXPECT_THAT(nodeFails(tensorScatter(0, {2}), "ts", "TensorScatter"),
              HasSubstr("axis must not be the batch dim 0"));
  EXPECT_THAT(nodeFails(tensorScatter(1, {3}), "ts", "TensorScatter"),
              HasSubstr("write_indices must be [batch_size]"));
  auto module = importSucceeds(tensorScatter(1, {2}));
  ASSERT_TRUE(module);
  EXPECT_EQ(scatterCount(*module), 1);
}

} // namespace
