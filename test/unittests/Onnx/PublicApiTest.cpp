//===- PublicApiTest.cpp - tcc::onnx::import, the C++ entry point ---------===//

#include "tcc/onnx.h"

#include "OnnxTestSupport.h"

#include "gmock/gmock.h"

using namespace tcc_onnx_test;
using testing::HasSubstr;

namespace {

/// out = relu(x + [1, -2, 3]) * scale, x of [batch, 3] ("N" when
/// `symbolic`).
std::string writeAddRelu(const TempDir &dir, bool symbolic) {
  ModelBuilder b;
  b.input("x", {symbolic ? kSymbolic : 2, 3});
  b.input("scale", {3});
  b.floats("bias", {3}, {1, -2, 3});
  b.node("Add", {"x", "bias"}, {"sum"}, "add");
  b.node("Relu", {"sum"}, {"act"}, "relu");
  b.node("Mul", {"act", "scale"}, {"out"}, "mul");
  b.output("out");
  return dir.write("model.onnx", b.model.SerializeAsString());
}

std::vector<float> values(const tcc::Tensor &t) {
  const float *data = t.const_data_ptr<float>();
  return std::vector<float>(data, data + t.numel());
}

TEST(OnnxPublicApi, AnImportedModelRuns) {
  TempDir dir;
  tcc::jit::TracedGraph graph = tcc::onnx::import(writeAddRelu(dir, false));
  std::vector<tcc::Tensor> out =
      graph.run({tcc::tensor({{-4.0f, 1.0f, 0.5f}, {2.0f, 3.0f, -6.0f}}),
                 tcc::tensor({10.0f, 100.0f, -1.0f})});
  ASSERT_EQ(out.size(), 1u);
  // relu([[-3, -1, 3.5], [3, 1, -3]]) * [10, 100, -1], by hand.
  EXPECT_EQ(values(out[0]), (std::vector<float>{0, 0, -3.5f, 30, 100, -0.0f}));
}

TEST(OnnxPublicApi, InputShapesSpecializeSymbolicDims) {
  TempDir dir;
  std::string path = writeAddRelu(dir, true);
  try {
    tcc::onnx::import(path);
    FAIL() << "a symbolic dim imported without a shape";
  } catch (const tcc::onnx::ImportError &e) {
    EXPECT_THAT(e.what(), HasSubstr("graph input 'x' has an unknown "
                                    "dimension 0 ('N')"));
    EXPECT_THAT(e.what(), HasSubstr(path));
  }
  tcc::onnx::ImportOptions options;
  options.input_shapes["x"] = {1, 3};
  tcc::jit::TracedGraph graph = tcc::onnx::import(path, options);
  std::vector<tcc::Tensor> out = graph.run(
      {tcc::tensor({{0.0f, 5.0f, -4.0f}}), tcc::tensor({1.0f, 1.0f, 1.0f})});
  EXPECT_EQ(values(out[0]), (std::vector<float>{1, 3, 0}));
}

TEST(OnnxPublicApi, ErrorsAreImportErrors) {
  TempDir dir;
  EXPECT_THROW(tcc::onnx::import(dir.path() + "/missing.onnx"),
               tcc::onnx::ImportError);
  std::string garbage = dir.write("garbage.onnx", "not a model");
  EXPECT_THROW(tcc::onnx::import(garbage), tcc::jit::JitError);
}

} // namespace
