//===- InitializerTest.cpp - Initializers and tensor attributes -----------===//
//
// Each problem is refused naming the initializer (or the node of a tensor
// attribute). Shapes are checked before the data is allocated: a tensor
// claiming 2^40 floats without data is refused as fast as a small one.
//
//===----------------------------------------------------------------------===//

#include "OnnxTestSupport.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;

namespace {

class OnnxInitializers : public OnnxImportTest {
protected:
  /// A model whose output is initializer `w` as `makeW` leaves it.
  template <class MakeW> std::string wFails(MakeW makeW) {
    ModelBuilder b;
    makeW(b);
    b.output("w");
    return importFails(b);
  }
};

constexpr int64_t k2To20 = int64_t(1) << 20;

TEST_F(OnnxInitializers, RawDataShorterOrLongerThanTheShapeIsRefused) {
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              b.floats("w", {3}, {1, 2});
            }),
            "initializer 'w': its raw data has 8 bytes, but its shape and "
            "type need 12");
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              b.floats("w", {1}, {1, 2});
            }),
            "initializer 'w': its raw data has 8 bytes, but its shape and "
            "type need 4");
}

TEST_F(OnnxInitializers, TypedFieldCountMismatchIsRefused) {
  EXPECT_EQ(wFails([](ModelBuilder &b) { b.ints("w", {2, 2}, {1, 2, 3}); }),
            "initializer 'w': it has 3 values in int64_data for 4 elements");
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              TensorProto *t = b.tensor("w", {2});
              t->add_float_data(1);
              t->add_float_data(2);
              t->add_float_data(3);
            }),
            "initializer 'w': it has 3 values in float_data for 2 elements");
  // No data at all for a non-empty tensor.
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              b.tensor("w", {2}, TensorProto::INT32);
            }),
            "initializer 'w': it has 0 values in int32_data for 2 elements");
}

TEST_F(OnnxInitializers, TypedFieldsAreRead) {
  ModelBuilder b;
  b.ints("i", {3}, {-7, 0, 9000000000});
  TensorProto *f = b.tensor("f", {2});
  f->add_float_data(1.5f);
  f->add_float_data(-2.25f);
  TensorProto *bools = b.tensor("b", {3}, TensorProto::BOOL);
  for (int v : {1, 0, 5})
    bools->add_int32_data(v);
  b.output("i");
  b.output("f");
  b.output("b");
  auto module = importSucceeds(b);
  ASSERT_TRUE(module);
  EXPECT_EQ(resultConstant(*module, 0), (std::vector<float>{-7, 0, 9e9f}));
  EXPECT_EQ(resultConstant(*module, 1), (std::vector<float>{1.5f, -2.25f}));
  EXPECT_EQ(resultConstant(*module, 2), (std::vector<float>{1, 0, 1}));
}

TEST_F(OnnxInitializers, RankAbove64IsRefused) {
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              b.tensor("w", std::vector<int64_t>(65, 1));
            }),
            "initializer 'w': rank 65 is above the limit of 64");
  ModelBuilder ok;
  ok.floats("w", std::vector<int64_t>(64, 1), {3.0f});
  ok.output("w");
  EXPECT_TRUE(importSucceeds(ok));
}

TEST_F(OnnxInitializers, MoreThan2To40ElementsAreRefusedBeforeAllocating) {
  // 2^40 + 2^20 elements; no data (the check comes first).
  EXPECT_THAT(wFails([](ModelBuilder &b) {
                b.tensor("w", {k2To20 + 1, k2To20});
              }),
              HasSubstr("initializer 'w': shape 1048577x1048576 has more "
                        "than 2^40 elements"));
  // A zero dim does not excuse the others.
  EXPECT_THAT(wFails([](ModelBuilder &b) {
                b.tensor("w", {0, k2To20, k2To20, 2});
              }),
              HasSubstr("has more than 2^40 elements (its nonzero dims)"));
  // Exactly 2^40 floats (4 TiB) in 4 bytes of raw data: refused by size,
  // without allocating the 4 TiB first.
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              b.floats("w", {k2To20, k2To20}, {1.0f});
            }),
            "initializer 'w': its raw data has 4 bytes, but its shape and "
            "type need 4398046511104");
  EXPECT_EQ(wFails([](ModelBuilder &b) {
              b.ints("w", {k2To20, k2To20}, {1});
            }),
            "initializer 'w': it has 1 values in int64_data for "
            "1099511627776 elements");
}

TEST_F(OnnxInitializers, NegativeDimsAreRefused) {
  EXPECT_EQ(wFails([](ModelBuilder &b) { b.tensor("w", {2, -1}); }),
            "initializer 'w': dimension -1 is negative");
}

TEST_F(OnnxInitializers, ElementTypesTccLacksAreRefused) {
  for (auto type : {TensorProto::UINT16, TensorProto::STRING,
                    TensorProto::COMPLEX64, TensorProto::FLOAT8E4M3FN}) {
    std::string name = TensorProto::DataType_Name(type);
    EXPECT_EQ(wFails([&](ModelBuilder &b) { b.tensor("w", {1}, type); }),
              "initializer 'w': its element type " + name +
                  " is not one tcc supports");
  }
  EXPECT_EQ(wFails([](ModelBuilder &b) { b.tensor("w", {1}, 12345); }),
            "initializer 'w': its element type data type 12345 is not one "
            "tcc supports");
}

TEST_F(OnnxInitializers, SegmentsAreRefused) {
  EXPECT_THAT(wFails([](ModelBuilder &b) {
                b.floats("w", {1}, {1})->mutable_segment()->set_begin(0);
              }),
              HasSubstr("initializer 'w': it is a segment"));
}

TEST_F(OnnxInitializers, TensorAttributesAreCheckedLikeInitializers) {
  ModelBuilder b;
  auto *node = b.node("Constant", {}, {"c"}, "const");
  TensorProto *t = setTensor(node, "value");
  t->set_data_type(TensorProto::FLOAT);
  t->add_dims(k2To20);
  t->add_dims(k2To20);
  t->set_raw_data(floatBytes({1}));
  b.output("c");
  EXPECT_EQ(importFails(b), "node 'const' (Constant): attribute 'value': its "
                            "raw data has 4 bytes, but its shape and type "
                            "need 4398046511104");
}

TEST_F(OnnxInitializers, TensorAttributesNeverReadExternalData) {
  ModelBuilder b;
  auto *node = b.node("Constant", {}, {"c"}, "const");
  TensorProto *t = setTensor(node, "value");
  t->set_data_type(TensorProto::FLOAT);
  t->add_dims(1);
  t->set_data_location(TensorProto::EXTERNAL);
  auto *entry = t->add_external_data();
  entry->set_key("location");
  entry->set_value("w.bin");
  b.output("c");
  EXPECT_THAT(importFails(b),
              HasSubstr("node 'const' (Constant): attribute 'value': it "
                        "keeps its data in an external file"));
}

} // namespace
