//===- ModelTest.cpp - Whole models: trace, save, reload, interpret -------===//

#include "JitTestSupport.h"
#include "TestModels.h"

#include <fstream>
#include <sstream>

namespace tcc {
namespace {

using namespace testmodels;
using jittest::sameTensors;

/// Traces `model` on `inputs`, saves it as text and bytecode, reloads both
/// and checks that every copy gives the eager outputs exactly, on the
/// example inputs and on `other` inputs.
template <class M>
std::string checkModel(M &model, const std::vector<Tensor> &inputs,
                       const std::vector<Tensor> &other) {
  jit::TraceOptions options;
  options.print_warnings = false;
  jit::TracedGraph traced = jit::trace(model, inputs, options);
  EXPECT_TRUE(traced.warnings().empty());
  std::string text = jittest::tempPath("model.ir");
  std::string bytecode = jittest::tempPath("model.mlirbc");
  traced.save(text);
  traced.save_bytecode(bytecode);
  jit::Interpreter fromText = jit::Interpreter::load(text);
  jit::Interpreter fromBytecode = jit::Interpreter::load(bytecode);
  for (const auto &in : {inputs, other}) {
    std::vector<Tensor> expected = jit::detail::callModel(model, in);
    EXPECT_TRUE(sameTensors(traced.run(in), expected));
    EXPECT_TRUE(sameTensors(fromText.run(in), expected));
    EXPECT_TRUE(sameTensors(fromBytecode.run(in), expected));
  }
  std::ifstream file(text);
  std::stringstream contents;
  contents << file.rdbuf();
  std::remove(text.c_str());
  std::remove(bytecode.c_str());
  return contents.str();
}

TEST(Models, Mlp) {
  manual_seed(1);
  Mlp model;
  std::string ir =
      checkModel(model, {randn({4, 1, 8, 8})}, {randn({4, 1, 8, 8})});
  EXPECT_NE(ir.find("dense_resource<fc1.weight>"), std::string::npos);
  EXPECT_NE(ir.find("tcc.linear"), std::string::npos);
  EXPECT_NE(ir.find("tcc.log_softmax"), std::string::npos);
}

TEST(Models, DigitsCnn) {
  manual_seed(2);
  DigitsCnn model;
  std::string ir =
      checkModel(model, {randn({3, 1, 8, 8})}, {randn({3, 1, 8, 8})});
  for (const char *op :
       {"tcc.conv2d", "tcc.batch_norm", "tcc.max_pool2d", "tcc.avg_pool2d",
        "dense_resource<bn1.running_mean>", "dense_resource<bn1.running_var>"})
    EXPECT_NE(ir.find(op), std::string::npos) << op;
}

TEST(Models, ResNetBlock) {
  manual_seed(3);
  ResBlock model;
  std::string ir =
      checkModel(model, {randn({2, 8, 6, 6})}, {randn({2, 8, 6, 6})});
  EXPECT_NE(ir.find("dense_resource<bn2.weight>"), std::string::npos);
}

TEST(Models, TransformerEncoderLayer) {
  manual_seed(4);
  EncoderLayer model;
  Tensor mask = causalMask(5);
  std::string ir =
      checkModel(model, {randn({2, 5, 16}), mask}, {randn({2, 5, 16}), mask});
  for (const char *op : {"tcc.matmul", "tcc.softmax", "tcc.layer_norm",
                         "tcc.gelu", "tcc.transpose"})
    EXPECT_NE(ir.find(op), std::string::npos) << op;
  // Eval-mode dropout is gone.
  EXPECT_EQ(ir.find("dropout"), std::string::npos);
}

} // namespace
} // namespace tcc
