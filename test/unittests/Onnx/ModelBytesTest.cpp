//===- ModelBytesTest.cpp - Bytes that are not a model, opsets, ops -------===//

#include "OnnxTestSupport.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;

namespace {

class OnnxModelBytes : public OnnxImportTest {};

/// y = Relu(x) on a 2x3 float input.
ModelBuilder reluModel(int64_t opset = 17) {
  ModelBuilder b(opset);
  b.input("x", {2, 3});
  b.node("Relu", {"x"}, {"y"}, "relu");
  b.output("y");
  return b;
}

TEST_F(OnnxModelBytes, EmptyBytesHaveNoGraph) {
  ImportResult r = importBytes(&context, "");
  EXPECT_FALSE(r.module);
  EXPECT_EQ(r.error, "the model has no graph");
}

TEST_F(OnnxModelBytes, GarbageIsRefused) {
  // Field 1 (ir_version) as a varint that never ends, then a length-
  // delimited field longer than the input, then bytes of an invalid wire
  // type.
  for (std::string bytes :
       {std::string("\x08\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff", 11),
        std::string("\x3a\xff\xff\xff\x0f" "abc", 8),
        std::string("\x0f\x0f\x0f\x0f", 4), std::string("not a model")}) {
    ImportResult r = importBytes(&context, bytes);
    EXPECT_FALSE(r.module);
    EXPECT_THAT(r.error, HasSubstr("not a valid ONNX model")) << r.error;
  }
}

TEST_F(OnnxModelBytes, EveryTruncationIsRefusedOrImported) {
  ModelBuilder b = reluModel();
  b.floats("unused", {2}, {1.0f, 2.0f});
  std::string bytes = b.model.SerializeAsString();
  ASSERT_TRUE(importBytes(&context, bytes).module);
  int refused = 0;
  for (size_t size = 0; size < bytes.size(); ++size) {
    ImportResult r = importBytes(&context, bytes.substr(0, size));
    if (!r.module) {
      EXPECT_FALSE(r.error.empty()) << "prefix of " << size << " bytes";
      ++refused;
    }
  }
  // A prefix that ends between fields is a smaller valid message; one
  // cut inside a field is malformed. Most prefixes are the latter.
  EXPECT_GT(refused, static_cast<int>(bytes.size()) / 2);
  ImportResult cut = importBytes(&context, bytes.substr(0, bytes.size() - 3));
  EXPECT_THAT(cut.error, HasSubstr("truncated or malformed"));
}

TEST_F(OnnxModelBytes, DeeplyNestedGraphsAreRefused) {
  ModelBuilder b = reluModel();
  ::onnx::GraphProto *graph = b.graph;
  for (int depth = 0; depth < 100; ++depth) {
    ::onnx::NodeProto *node = graph->add_node();
    node->set_op_type("If");
    auto *attr = node->add_attribute();
    attr->set_name("then_branch");
    attr->set_type(::onnx::AttributeProto::GRAPH);
    graph = attr->mutable_g();
  }
  ImportResult r = importBytes(&context, b.model.SerializeAsString());
  EXPECT_FALSE(r.module);
  EXPECT_THAT(r.error, HasSubstr("nests deeper than 64 levels"));
}

TEST_F(OnnxModelBytes, OpsetsOutsideTheRangeAreRefused) {
  for (int64_t opset : {10, 29, 1000}) {
    std::string error = importFails(reluModel(opset));
    EXPECT_THAT(error, HasSubstr("uses opset " + std::to_string(opset) +
                                 "; tcc imports opsets 11 to 28"));
  }
  for (int64_t opset : {11, 17, 28})
    EXPECT_TRUE(importSucceeds(reluModel(opset))) << "opset " << opset;
}

TEST_F(OnnxModelBytes, AModelWithoutTheDefaultDomainIsRefused) {
  ModelBuilder b = reluModel();
  b.model.mutable_opset_import(0)->set_domain("com.example");
  EXPECT_THAT(importFails(b),
              HasSubstr("imports no opset of the default ONNX domain"));
}

TEST_F(OnnxModelBytes, AllUnsupportedNodesAreListedInOneError) {
  ModelBuilder b(17);
  b.input("x", {4});
  b.node("Relu", {"x"}, {"a"}, "fine");
  b.node("NonZero", {"a"}, {"b"}, "nonzero");
  b.node("NoSuchOp", {"a"}, {"c"}, "made_up");
  b.node("FusedMatMul", {"a", "a"}, {"d"}, "vendor")
      ->set_domain("com.microsoft");
  b.node("If", {"a"}, {"e"}); // unnamed: named by its index
  b.node("Add", {"b", "c"}, {"f"}, "add");
  b.output("f");
  b.output("d");
  b.output("e");
  std::string error = importFails(b);
  EXPECT_THAT(error, HasSubstr("the model has 4 node(s) tcc cannot import:"));
  EXPECT_THAT(error, HasSubstr("NonZero (opset 17) in node 'nonzero' "
                               "(NonZero): "));
  EXPECT_THAT(error, HasSubstr("NoSuchOp (opset 17) in node 'made_up' "
                               "(NoSuchOp): not supported yet"));
  EXPECT_THAT(error, HasSubstr("FusedMatMul (opset 17) in node 'vendor' "
                               "(FusedMatMul): domain 'com.microsoft' is "
                               "not supported"));
  EXPECT_THAT(error, HasSubstr("If (opset 17) in node #4 (If): control flow"));
  EXPECT_THAT(error, testing::Not(HasSubstr("'fine'")));
  EXPECT_THAT(error, testing::Not(HasSubstr("'add'")));
}

TEST_F(OnnxModelBytes, TheImportedFunctionCarriesTheGraphsNames) {
  mlir::tcc::onnx::ImportOptions options;
  options.functionName = "main";
  auto module = importSucceeds(reluModel(), options);
  ASSERT_TRUE(module);
  std::string text;
  llvm::raw_string_ostream os(text);
  module->print(os);
  EXPECT_THAT(text, HasSubstr("func.func @main(%arg0: tensor<2x3xf32> "
                              "{tcc.name = \"x\"}) -> (tensor<2x3xf32> "
                              "{tcc.name = \"y\"})"));
  EXPECT_THAT(text, HasSubstr("tcc.relu"));
}

} // namespace
