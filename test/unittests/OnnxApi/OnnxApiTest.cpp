//===- OnnxApiTest.cpp - tcc::onnx::import --------------------------------===//

#include "tcc/onnx.h"

#include "onnx.pb.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

namespace {

/// y = relu(x @ W + b) with a symbolic batch dim, W = [[1, -1], [2, 0],
/// [0, 3]] and b = [0.5, -10].
::onnx::ModelProto linearRelu() {
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  ::onnx::GraphProto *g = model.mutable_graph();
  auto tensorInput = [&](const std::string &name, bool symbolic) {
    ::onnx::ValueInfoProto *v = g->add_input();
    v->set_name(name);
    auto *t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(::onnx::TensorProto::FLOAT);
    auto *shape = t->mutable_shape();
    if (symbolic)
      shape->add_dim()->set_dim_param("batch");
    else
      shape->add_dim()->set_dim_value(2);
    shape->add_dim()->set_dim_value(3);
  };
  tensorInput("x", true);
  g->add_output()->set_name("y");
  ::onnx::TensorProto *w = g->add_initializer();
  w->set_name("W");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  w->add_dims(3);
  w->add_dims(2);
  for (float f : {1.f, -1.f, 2.f, 0.f, 0.f, 3.f})
    w->add_float_data(f);
  ::onnx::TensorProto *b = g->add_initializer();
  b->set_name("b");
  b->set_data_type(::onnx::TensorProto::FLOAT);
  b->add_dims(2);
  b->add_float_data(0.5f);
  b->add_float_data(-10.f);
  auto node = [&](const char *op, std::vector<std::string> in, std::string out) {
    ::onnx::NodeProto *n = g->add_node();
    n->set_op_type(op);
    for (auto &i : in)
      n->add_input(i);
    n->add_output(out);
  };
  node("MatMul", {"x", "W"}, "xw");
  node("Add", {"xw", "b"}, "s");
  node("Relu", {"s"}, "y");
  return model;
}

std::string writeModel(const ::onnx::ModelProto &model, const char *name) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path, std::ios::binary) << model.SerializeAsString();
  return path;
}

TEST(OnnxApi, ImportsAndRunsWithTheInterpreter) {
  std::string path = writeModel(linearRelu(), "linear_relu.onnx");
  tcc::onnx::ImportOptions options;
  options.input_shapes["x"] = {2, 3};
  tcc::jit::TracedGraph graph = tcc::onnx::import(path, options);
  tcc::jit::Signature sig = graph.signature();
  ASSERT_EQ(sig.inputs.size(), 1u);
  EXPECT_EQ(sig.inputs[0].name, "x");
  EXPECT_EQ(sig.inputs[0].shape, (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(sig.outputs.size(), 1u);
  EXPECT_EQ(sig.outputs[0].name, "y");

  tcc::Tensor x = tcc::tensor({1.f, 2.f, 3.f, -1.f, 0.f, 4.f}).reshape({2, 3});
  std::vector<tcc::Tensor> y = graph.run({x});
  ASSERT_EQ(y.size(), 1u);
  // Row 0: [1+4+0, -1+0+9] + b = [5.5, -2] -> relu [5.5, 0];
  // row 1: [-1+0+0, 1+0+12] + b = [-0.5, 3] -> relu [0, 3].
  std::vector<float> expected = {5.5f, 0.f, 0.f, 3.f};
  const float *got = y[0].data_ptr<float>();
  for (size_t i = 0; i < expected.size(); ++i)
    EXPECT_FLOAT_EQ(got[i], expected[i]) << "element " << i;
}

TEST(OnnxApi, SymbolicDimWithoutShapeNamesTheInput) {
  std::string path = writeModel(linearRelu(), "linear_relu_symbolic.onnx");
  try {
    tcc::onnx::import(path);
    FAIL() << "imported a model with an unknown dim";
  } catch (const tcc::onnx::ImportError &e) {
    EXPECT_NE(std::string(e.what()).find("graph input 'x'"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("'batch'"), std::string::npos)
        << e.what();
  }
}

TEST(OnnxApi, InputValuesBecomeConstants) {
  // Reshape(x, shape) with `shape` a graph input given a value.
  ::onnx::ModelProto model;
  model.set_ir_version(8);
  model.add_opset_import()->set_version(17);
  ::onnx::GraphProto *g = model.mutable_graph();
  auto input = [&](const char *name, int type, std::vector<int64_t> dims) {
    ::onnx::ValueInfoProto *v = g->add_input();
    v->set_name(name);
    auto *t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(type);
    for (int64_t d : dims)
      t->mutable_shape()->add_dim()->set_dim_value(d);
  };
  input("x", ::onnx::TensorProto::FLOAT, {2, 3});
  input("shape", ::onnx::TensorProto::INT64, {2});
  g->add_output()->set_name("y");
  ::onnx::NodeProto *n = g->add_node();
  n->set_op_type("Reshape");
  n->add_input("x");
  n->add_input("shape");
  n->add_output("y");
  std::string path = writeModel(model, "reshape_input.onnx");

  EXPECT_THROW(tcc::onnx::import(path), tcc::onnx::ImportError);
  tcc::onnx::ImportOptions options;
  options.input_values["shape"] =
      tcc::tensor({int64_t(3), int64_t(-1)}, tcc::kLong);
  tcc::jit::TracedGraph graph = tcc::onnx::import(path, options);
  ASSERT_EQ(graph.signature().inputs.size(), 1u);
  EXPECT_EQ(graph.signature().outputs[0].shape, (std::vector<int64_t>{3, 2}));
}

} // namespace
