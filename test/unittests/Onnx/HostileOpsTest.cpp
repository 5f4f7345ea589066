//===- HostileOpsTest.cpp - Op importers on hostile attributes and sizes --===//
//
// Kernel sizes, strides, axes and shapes an exporter would never write:
// each is refused with an error naming the node, without crashing and
// without allocating what the model asks for (2^40 elements and more).
//
//===----------------------------------------------------------------------===//

#include "OnnxTestSupport.h"

#include "tcc/IR/TccOps.h"
#include "tcc/Passes/ConstantData.h"

#include "gmock/gmock.h"

#include <cmath>
#include <limits>

using namespace tcc_onnx_test;
using testing::HasSubstr;
using testing::StartsWith;

namespace {

constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr int64_t k2To40 = int64_t(1) << 40;

class OnnxHostileOps : public OnnxImportTest {
protected:
  /// The error of a model that must fail at node `name` (op `opType`).
  std::string nodeFails(const ModelBuilder &b, const std::string &name,
                        const std::string &opType) {
    std::string error = importFails(b);
    EXPECT_THAT(error, StartsWith("node '" + name + "' (" + opType + "): "));
    return error;
  }

  /// y = opType(x, shape) with x of `dims` and `shape` an int64 initializer.
  static ModelBuilder withShapeInput(const std::string &opType,
                                     std::vector<int64_t> dims,
                                     const std::vector<int64_t> &shape) {
    ModelBuilder b;
    b.input("x", std::move(dims));
    b.ints("s", {static_cast<int64_t>(shape.size())}, shape);
    b.node(opType, {"x", "s"}, {"y"}, "op");
    b.output("y");
    return b;
  }
};

TEST_F(OnnxHostileOps, ExpandBeyondTheLimitsIsRefused) {
  EXPECT_THAT(nodeFails(withShapeInput("Expand", {1}, {k2To40, 2}), "op",
                        "Expand"),
              HasSubstr("more than 2^40 elements"));
  EXPECT_THAT(nodeFails(withShapeInput("Expand", {1},
                                       {kInt64Max, kInt64Max, kInt64Max}),
                        "op", "Expand"),
              HasSubstr("more than 2^40 elements"));
  nodeFails(withShapeInput("Expand", {1}, {-5}), "op", "Expand");
  nodeFails(withShapeInput("Expand", {3}, {2}), "op", "Expand");
  nodeFails(withShapeInput("Expand", {1}, std::vector<int64_t>(65, 1)), "op",
            "Expand");
}

TEST_F(OnnxHostileOps, TileBeyondTheLimitsIsRefused) {
  EXPECT_THAT(nodeFails(withShapeInput("Tile", {2, 2}, {k2To40, k2To40}),
                        "op", "Tile"),
              HasSubstr("more than 2^40 elements"));
  // Repeats whose products overflow int64.
  nodeFails(withShapeInput("Tile", {3, 3}, {kInt64Max, kInt64Max}), "op",
            "Tile");
  nodeFails(withShapeInput("Tile", {3}, {-1}), "op", "Tile");
  nodeFails(withShapeInput("Tile", {3}, {1, 1}), "op", "Tile");
}

TEST_F(OnnxHostileOps, ReshapeToBadShapesIsRefused) {
  nodeFails(withShapeInput("Reshape", {6}, {-1, -1}), "op", "Reshape");
  nodeFails(withShapeInput("Reshape", {6}, {-2, 3}), "op", "Reshape");
  nodeFails(withShapeInput("Reshape", {6}, {4}), "op", "Reshape");
  nodeFails(withShapeInput("Reshape", {6}, {0, 0, 6}), "op", "Reshape");
  nodeFails(withShapeInput("Reshape", {6}, {kInt64Max, kInt64Max, -1}), "op",
            "Reshape");
  // Dims whose product wraps around to the input's one element.
  nodeFails(withShapeInput("Reshape", {1}, {7, 7905747460161236407}), "op",
            "Reshape");
  nodeFails(withShapeInput("Reshape", {1}, {k2To40, k2To40}), "op",
            "Reshape");
  nodeFails(withShapeInput("Reshape", {0}, {0, kInt64Max}), "op", "Reshape");
}

TEST_F(OnnxHostileOps, AShapeThatIsNotConstantIsRefused) {
  ModelBuilder b;
  b.input("x", {6});
  b.input("s", {2}, TensorProto::INT64);
  b.node("Reshape", {"x", "s"}, {"y"}, "op");
  b.output("y");
  EXPECT_THAT(nodeFails(b, "op", "Reshape"),
              HasSubstr("its shape (input 1) must be a constant"));
}

TEST_F(OnnxHostileOps, ConstantOfShapeIsASplatUpTo2To40) {
  // 2^30 floats (4 GiB) are never expanded at import.
  ModelBuilder ok;
  ok.ints("s", {2}, {int64_t(1) << 15, int64_t(1) << 15});
  ok.node("ConstantOfShape", {"s"}, {"y"}, "op");
  ok.output("y");
  auto module = importSucceeds(ok);
  ASSERT_TRUE(module);
  bool foundSplat = false;
  module->walk([&](mlir::tcc::ConstantOp c) {
    auto dense = mlir::dyn_cast<mlir::DenseElementsAttr>(c.getValue());
    foundSplat |= dense && dense.isSplat() &&
                  dense.getType().getNumElements() == int64_t(1) << 30;
  });
  EXPECT_TRUE(foundSplat);

  // Empty and 0-dim fills, and a bool fill (stored as bits in a splat).
  for (std::vector<int64_t> shape : {std::vector<int64_t>{0, 3},
                                     std::vector<int64_t>{}}) {
    ModelBuilder b;
    b.ints("s", {static_cast<int64_t>(shape.size())}, shape);
    auto *node = b.node("ConstantOfShape", {"s"}, {"y"}, "op");
    TensorProto *value = setTensor(node, "value");
    value->set_data_type(TensorProto::BOOL);
    value->add_dims(1);
    value->add_int32_data(1);
    b.output("y");
    auto module = importSucceeds(b);
    ASSERT_TRUE(module) << shape.size();
    EXPECT_EQ(resultConstant(*module, 0),
              std::vector<float>(shape.empty() ? 1 : 0, 1.0f));
  }

  auto refused = [&](std::vector<int64_t> shape) {
    ModelBuilder b;
    b.ints("s", {static_cast<int64_t>(shape.size())}, shape);
    b.node("ConstantOfShape", {"s"}, {"y"}, "op");
    b.output("y");
    return nodeFails(b, "op", "ConstantOfShape");
  };
  EXPECT_THAT(refused({k2To40, 2}), HasSubstr("more than 2^40 elements"));
  EXPECT_THAT(refused({kInt64Max, kInt64Max}),
              HasSubstr("more than 2^40 elements"));
  EXPECT_THAT(refused({3, -1}), HasSubstr("dimension -1 is negative"));
  EXPECT_THAT(refused(std::vector<int64_t>(65, 1)),
              HasSubstr("rank 65 is above the limit of 64"));
}

TEST_F(OnnxHostileOps, AHugeSplatFeedingAFoldIsNotExpanded) {
  // ReduceSum of 2^34 zeros has one element, small enough to fold; reading
  // its operand would expand 64 GiB. It is left to run (or to
  // tcc-fold-constants) instead.
  ModelBuilder b;
  b.ints("s", {2}, {int64_t(1) << 17, int64_t(1) << 17});
  b.node("ConstantOfShape", {"s"}, {"zeros"}, "fill");
  b.node("ReduceSum", {"zeros"}, {"y"}, "sum");
  b.output("y");
  EXPECT_TRUE(importSucceeds(b));
}

TEST_F(OnnxHostileOps, AGatherTooBigToFoldIsLeftToRun) {
  // Constant data and indices, but 2^25 results: more than the importer
  // computes, so the gather stays an op instead of failing the import.
  ModelBuilder b;
  b.floats("table", {2, 32}, std::vector<float>(64, 1.0f));
  b.ints("count", {1}, {int64_t(1) << 20});
  auto *fill = b.node("ConstantOfShape", {"count"}, {"indices"}, "fill");
  TensorProto *zero = setTensor(fill, "value");
  zero->set_data_type(TensorProto::INT64);
  zero->add_dims(1);
  zero->add_int64_data(0);
  b.node("Gather", {"table", "indices"}, {"y"}, "gather");
  b.output("y");
  auto module = importSucceeds(b);
  ASSERT_TRUE(module);
  EXPECT_EQ(resultConstant(*module, 0), std::nullopt);
}

TEST_F(OnnxHostileOps, HugeRangesAreRefused) {
  auto range = [&](double start, double limit, double delta,
                   int32_t type = TensorProto::FLOAT) {
    ModelBuilder b;
    for (auto [name, v] : {std::pair<const char *, double>{"start", start},
                           {"limit", limit},
                           {"delta", delta}}) {
      TensorProto *t = b.tensor(name, {}, type);
      if (type == TensorProto::FLOAT)
        t->add_float_data(static_cast<float>(v));
      else
        t->add_int64_data(static_cast<int64_t>(v));
    }
    b.node("Range", {"start", "limit", "delta"}, {"y"}, "op");
    b.output("y");
    return b;
  };
  EXPECT_THAT(nodeFails(range(0, 1e18, 1), "op", "Range"),
              HasSubstr("the range has more than 16777216 elements"));
  EXPECT_THAT(nodeFails(range(0, 1e18, 1, TensorProto::INT64), "op", "Range"),
              HasSubstr("more than 16777216 elements"));
  nodeFails(range(0, INFINITY, 1), "op", "Range");
  EXPECT_THAT(nodeFails(range(0, 1, NAN), "op", "Range"),
              HasSubstr("no element count (NaN)"));
  EXPECT_THAT(nodeFails(range(INFINITY, INFINITY, 1), "op", "Range"),
              HasSubstr("no element count (NaN)"));
  nodeFails(range(0, 10, 0), "op", "Range");
  // Integer values that leave int64 on the way.
  EXPECT_THAT(nodeFails(range(0x1p62, 0x1p62 + 0x1p20, 0x1p10,
                              TensorProto::INT64),
                        "op", "Range"),
              HasSubstr("the range's values do not fit in int64"));
  auto module = importSucceeds(range(1, 2, 0.25));
  ASSERT_TRUE(module);
  EXPECT_EQ(resultConstant(*module, 0),
            (std::vector<float>{1, 1.25f, 1.5f, 1.75f}));
}

TEST_F(OnnxHostileOps, ComputedConstantsHaveOneBudgetPerModel) {
  // Each Range of 2^23 floats is allowed alone; three of them are more
  // than the 2^24 elements the importer computes for one model.
  ModelBuilder b;
  for (auto [name, v] : {std::pair<const char *, float>{"start", 0},
                         {"limit", float(1 << 23)},
                         {"delta", 1}})
    b.tensor(name, {})->add_float_data(v);
  for (std::string i : {"1", "2", "3"}) {
    b.node("Range", {"start", "limit", "delta"}, {"r" + i}, "range" + i);
    b.output("r" + i);
  }
  EXPECT_THAT(nodeFails(b, "range3", "Range"),
              HasSubstr("past 16777216 elements, the importer's limit"));
  b.graph->mutable_node()->RemoveLast();
  b.graph->mutable_output()->RemoveLast();
  // With the budget spent, an op on constants is no longer folded: it
  // stays an op rather than failing the import.
  b.node("Add", {"start", "delta"}, {"sum"}, "add");
  b.output("sum");
  auto module = importSucceeds(b);
  ASSERT_TRUE(module);
  EXPECT_EQ(resultConstant(*module, 2), std::nullopt);
}

TEST_F(OnnxHostileOps, ConvAndPoolGeometryIsChecked) {
  auto conv = [](auto setAttrs) {
    ModelBuilder b;
    b.input("x", {1, 1, 5, 5});
    b.floats("w", {1, 1, 3, 3}, std::vector<float>(9, 1.0f));
    setAttrs(b.node("Conv", {"x", "w"}, {"y"}, "op"));
    b.output("y");
    return b;
  };
  nodeFails(conv([](auto *n) { setInts(n, "strides", {0, 1}); }), "op",
            "Conv");
  nodeFails(conv([](auto *n) { setInts(n, "strides", {-1, 1}); }), "op",
            "Conv");
  nodeFails(conv([](auto *n) { setInts(n, "dilations", {0, 0}); }), "op",
            "Conv");
  nodeFails(conv([](auto *n) { setInts(n, "pads", {-1, 0, 0, 0}); }), "op",
            "Conv");
  nodeFails(conv([](auto *n) { setInts(n, "pads", {1, 1}); }), "op", "Conv");
  nodeFails(conv([](auto *n) { setInts(n, "kernel_shape", {2, 2}); }), "op",
            "Conv");
  nodeFails(conv([](auto *n) { setInt(n, "group", 0); }), "op", "Conv");
  nodeFails(conv([](auto *n) { setInt(n, "group", -3); }), "op", "Conv");
  nodeFails(conv([](auto *n) { setString(n, "auto_pad", "SIDEWAYS"); }),
            "op", "Conv");
  // The kernel dilated past the input.
  nodeFails(conv([](auto *n) { setInts(n, "dilations", {4, 4}); }), "op",
            "Conv");
  nodeFails(conv([](auto *n) {
              setInts(n, "dilations", {k2To40, k2To40});
            }),
            "op", "Conv");
  nodeFails(conv([](auto *n) { setInts(n, "pads", {k2To40, 0, 0, 0}); }),
            "op", "Conv");

  auto pool = [](const std::string &op, auto setAttrs) {
    ModelBuilder b;
    b.input("x", {1, 1, 5, 5});
    setAttrs(b.node(op, {"x"}, {"y"}, "op"));
    b.output("y");
    return b;
  };
  for (std::string op : {"MaxPool", "AveragePool"}) {
    nodeFails(pool(op, [](auto *) {}), "op", op); // no kernel_shape
    nodeFails(pool(op, [](auto *n) { setInts(n, "kernel_shape", {-1, -1}); }),
              "op", op);
    nodeFails(pool(op, [](auto *n) { setInts(n, "kernel_shape", {0, 3}); }),
              "op", op);
    nodeFails(pool(op, [](auto *n) { setInts(n, "kernel_shape", {9, 9}); }),
              "op", op);
    nodeFails(pool(op, [](auto *n) {
                setInts(n, "kernel_shape", {kInt64Max, kInt64Max});
              }),
              "op", op);
    nodeFails(pool(op, [](auto *n) {
                setInts(n, "kernel_shape", {2, 2});
                setInts(n, "strides", {0, 0});
              }),
              "op", op);
    nodeFails(pool(op, [](auto *n) {
                setInts(n, "kernel_shape", {2, 2});
                setInts(n, "pads", {kInt64Max, kInt64Max, kInt64Max,
                                    kInt64Max});
              }),
              "op", op);
    nodeFails(pool(op, [](auto *n) {
                setInts(n, "kernel_shape", {2, 2});
                setInts(n, "strides", {kInt64Max, kInt64Max});
                setString(n, "auto_pad", "SAME_UPPER");
              }),
              "op", op);
  }
}

TEST_F(OnnxHostileOps, AxesOutOfRangeAreRefused) {
  auto unary = [](const std::string &op, auto setAttrs) {
    ModelBuilder b(11); // axes as attributes
    b.input("x", {2, 3});
    setAttrs(b.node(op, {"x"}, {"y"}, "op"));
    b.output("y");
    return b;
  };
  EXPECT_THAT(
      nodeFails(unary("Softmax", [](auto *n) { setInt(n, "axis", 2); }), "op",
                "Softmax"),
      HasSubstr("axis 2 is out of range for rank 2"));
  nodeFails(unary("Softmax", [](auto *n) { setInt(n, "axis", -3); }), "op",
            "Softmax");
  nodeFails(unary("Flatten", [](auto *n) { setInt(n, "axis", 3); }), "op",
            "Flatten");
  nodeFails(unary("Flatten", [](auto *n) {
              setInt(n, "axis", std::numeric_limits<int64_t>::min());
            }),
            "op", "Flatten");
  nodeFails(unary("Transpose", [](auto *n) { setInts(n, "perm", {0, 2}); }),
            "op", "Transpose");
  nodeFails(unary("Transpose", [](auto *n) { setInts(n, "perm", {0, 0}); }),
            "op", "Transpose");
  nodeFails(unary("Transpose", [](auto *n) { setInts(n, "perm", {0}); }),
            "op", "Transpose");
  nodeFails(unary("Squeeze", [](auto *n) { setInts(n, "axes", {5}); }), "op",
            "Squeeze");
  nodeFails(unary("Squeeze", [](auto *n) { setInts(n, "axes", {0}); }), "op",
            "Squeeze"); // dim 0 has size 2
  nodeFails(unary("Unsqueeze", [](auto *n) { setInts(n, "axes", {9}); }),
            "op", "Unsqueeze");
  nodeFails(unary("Unsqueeze", [](auto *n) { setInts(n, "axes", {1, 1}); }),
            "op", "Unsqueeze");
  nodeFails(unary("ReduceSum", [](auto *n) { setInts(n, "axes", {-3}); }),
            "op", "ReduceSum");
  nodeFails(unary("ReduceMax", [](auto *n) { setInts(n, "axes", {0, 0}); }),
            "op", "ReduceMax");
  nodeFails(unary("ArgMax", [](auto *n) { setInt(n, "axis", 2); }), "op",
            "ArgMax");
  nodeFails(unary("Concat", [](auto *n) { setInt(n, "axis", 7); }), "op",
            "Concat");
  nodeFails(unary("Split", [](auto *n) {
              setInt(n, "axis", 1);
              setInts(n, "split", {2, 2});
            }),
            "op", "Split");
}

TEST_F(OnnxHostileOps, GatherIndicesAndSliceStepsAreChecked) {
  ModelBuilder gather;
  gather.input("x", {2, 3});
  gather.ints("i", {2}, {0, 3});
  gather.node("Gather", {"x", "i"}, {"y"}, "op");
  gather.output("y");
  EXPECT_THAT(nodeFails(gather, "op", "Gather"),
              HasSubstr("index 3 is out of range for a dim of size 2"));

  ModelBuilder slice;
  slice.input("x", {4});
  slice.ints("starts", {1}, {0});
  slice.ints("ends", {1}, {4});
  slice.ints("axes", {1}, {0});
  slice.ints("steps", {1}, {0});
  slice.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"}, "op");
  slice.output("y");
  EXPECT_THAT(nodeFails(slice, "op", "Slice"), HasSubstr("a step is 0"));

  // Steps and bounds at the ends of int64 take one element.
  for (int64_t step : {kInt64Max, std::numeric_limits<int64_t>::min()}) {
    slice.graph->mutable_initializer(3)->set_int64_data(0, step);
    slice.graph->mutable_initializer(0)->set_int64_data(
        0, step > 0 ? std::numeric_limits<int64_t>::min() : kInt64Max);
    slice.graph->mutable_initializer(1)->set_int64_data(
        0, step > 0 ? kInt64Max : std::numeric_limits<int64_t>::min());
    auto module = importSucceeds(slice);
    ASSERT_TRUE(module) << "step " << step;
  }

  ModelBuilder split;
  split.input("x", {4});
  split.ints("sizes", {2}, {2, kInt64Max});
  split.node("Split", {"x", "sizes"}, {"a", "b"}, "op");
  split.output("a");
  split.output("b");
  EXPECT_THAT(nodeFails(split, "op", "Split"),
              HasSubstr("split sizes exceed the dim"));
}

TEST_F(OnnxHostileOps, SplitsNumOutputsMustMatchItsOutputs) {
  ModelBuilder b(18);
  b.input("x", {4});
  setInt(b.node("Split", {"x"}, {"a", "b"}, "op"), "num_outputs",
         int64_t(1) << 62);
  b.output("a");
  b.output("b");
  EXPECT_THAT(nodeFails(b, "op", "Split"),
              HasSubstr("num_outputs is 4611686018427387904 for 2 outputs"));
}

TEST_F(OnnxHostileOps, AReversedSliceOfAHugeDimIsRefused) {
  // A negative step gathers the chosen indices: 2^30 of them are refused,
  // one (the step of INT64_MIN) is fine.
  auto reversed = [](int64_t end, int64_t step) {
    ModelBuilder b;
    b.input("x", {int64_t(1) << 30});
    b.ints("starts", {1}, {-1});
    b.ints("ends", {1}, {end});
    b.ints("axes", {1}, {0});
    b.ints("steps", {1}, {step});
    b.node("Slice", {"x", "starts", "ends", "axes", "steps"}, {"y"}, "op");
    b.output("y");
    return b;
  };
  EXPECT_THAT(nodeFails(reversed(std::numeric_limits<int64_t>::min(), -1),
                        "op", "Slice"),
              HasSubstr("the reversed index vector would have 1073741824 "
                        "entries"));
  EXPECT_TRUE(importSucceeds(reversed(std::numeric_limits<int64_t>::min(),
                                      std::numeric_limits<int64_t>::min())));
}

TEST_F(OnnxHostileOps, ScalarInputsMustHoldOneValue) {
  ModelBuilder clip;
  clip.input("x", {2});
  clip.floats("lo", {0}, {});
  clip.node("Clip", {"x", "lo"}, {"y"}, "op");
  clip.output("y");
  EXPECT_THAT(nodeFails(clip, "op", "Clip"),
              HasSubstr("its min (input 1) is not a scalar"));

  ModelBuilder dropout;
  dropout.input("x", {2});
  dropout.tensor("ratio", {}, TensorProto::FLOAT)->add_float_data(0.5f);
  dropout.tensor("training", {0}, TensorProto::BOOL);
  dropout.node("Dropout", {"x", "ratio", "training"}, {"y"}, "op");
  dropout.output("y");
  nodeFails(dropout, "op", "Dropout");
}

TEST_F(OnnxHostileOps, DropoutsMaskIsASplat) {
  ModelBuilder b;
  b.input("x", {1 << 20, 1 << 12});
  b.node("Dropout", {"x"}, {"y", "mask"}, "op");
  b.output("y");
  b.output("mask");
  EXPECT_TRUE(importSucceeds(b));
}

TEST_F(OnnxHostileOps, AttributesOfTheWrongKindAreRefused) {
  ModelBuilder b;
  b.input("x", {2, 3});
  auto *n = b.node("Softmax", {"x"}, {"y"}, "op");
  setFloat(n, "axis", 1.0f);
  b.output("y");
  EXPECT_THAT(nodeFails(b, "op", "Softmax"),
              HasSubstr("attribute 'axis' is FLOAT, not INT"));

  ModelBuilder unknown;
  unknown.input("x", {2, 3});
  setInt(unknown.node("Relu", {"x"}, {"y"}, "op"), "alpha", 1);
  unknown.output("y");
  EXPECT_THAT(nodeFails(unknown, "op", "Relu"),
              HasSubstr("attribute 'alpha' is not supported"));

  ModelBuilder cast;
  cast.input("x", {2});
  setInt(cast.node("Cast", {"x"}, {"y"}, "op"), "to", TensorProto::STRING);
  cast.output("y");
  EXPECT_THAT(nodeFails(cast, "op", "Cast"),
              HasSubstr("element type STRING is not one tcc supports"));
}

TEST_F(OnnxHostileOps, NonFiniteConstantsForIntegerInputsAreRefused) {
  // The fuzzer's find (test/fuzz/crashes/onnx): IsInf on uint8 made an
  // integer constant of infinity, which has none.
  ModelBuilder b(20);
  b.input("x", {6}, TensorProto::UINT8);
  b.node("IsInf", {"x"}, {"y"}, "op");
  b.output("y");
  EXPECT_THAT(nodeFails(b, "op", "IsInf"),
              HasSubstr("has no value of its integer element type"));
}

TEST_F(OnnxHostileOps, IntegerConstantsAreExactAtInt64sEnds) {
  for (int64_t v : {kInt64Max, std::numeric_limits<int64_t>::min()}) {
    ModelBuilder b;
    setInt(b.node("Constant", {}, {"c"}, "op"), "value_int", v);
    b.output("c");
    auto module = importSucceeds(b);
    ASSERT_TRUE(module);
    int64_t read = 0;
    module->walk([&](mlir::tcc::ConstantOp c) {
      read = mlir::tcc::readConstant(c.getValue())->getInt(0);
    });
    EXPECT_EQ(read, v);
  }
}

TEST_F(OnnxHostileOps, ZeroDimInputsHaveNoAxisToIndex) {
  // The fuzzer's find (test/fuzz/crashes/onnx): axis 0 passes
  // normalizeAxis for a 0-dim input, whose shape then has no dim 0.
  auto scalarInto = [](const std::string &op, std::vector<std::string> more,
                       auto setup) {
    ModelBuilder b(18);
    b.input("x", {});
    std::vector<std::string> inputs = {"x"};
    inputs.insert(inputs.end(), more.begin(), more.end());
    setup(b);
    b.node(op, inputs, {"y"}, "op");
    b.output("y");
    return b;
  };
  nodeFails(scalarInto("Slice", {"st", "en", "ax"},
                       [](ModelBuilder &b) {
                         b.ints("st", {1}, {0});
                         b.ints("en", {1}, {1});
                         b.ints("ax", {1}, {0});
                       }),
            "op", "Slice");
  nodeFails(scalarInto("Gather", {"i"},
                       [](ModelBuilder &b) { b.ints("i", {1}, {0}); }),
            "op", "Gather");
  nodeFails(scalarInto("GatherElements", {"i"},
                       [](ModelBuilder &b) { b.ints("i", {}, {0}); }),
            "op", "GatherElements");
  nodeFails(scalarInto("Split", {}, [](ModelBuilder &) {}), "op", "Split");
  nodeFails(scalarInto("Pad", {"p", "", "ax"},
                       [](ModelBuilder &b) {
                         b.ints("p", {2}, {1, 1});
                         b.ints("ax", {1}, {0});
                       }),
            "op", "Pad");
}

TEST_F(OnnxHostileOps, MissingRequiredInputsAreRefused) {
  ModelBuilder b;
  b.input("x", {2});
  b.node("Add", {"x"}, {"y"}, "op");
  b.output("y");
  EXPECT_THAT(nodeFails(b, "op", "Add"),
              HasSubstr("input 1 is required but absent"));
}

} // namespace
