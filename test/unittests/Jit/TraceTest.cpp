//===- TraceTest.cpp - tcc::jit::trace: what it accepts and records -------===//

#include "JitTestSupport.h"

#include "tcc/Frontend/OpObserver.h"
#include "tcc/nn.h"

#include <fstream>
#include <memory>
#include <sstream>

namespace tcc {
namespace {

using jittest::sameTensor;
using jittest::sameTensors;

jit::TraceOptions quiet() {
  jit::TraceOptions o;
  o.print_warnings = false;
  return o;
}

/// A module with parameters and a buffer, the way tcc::nn modules will
/// look to trace(): forward, named_parameters(), named_buffers().
struct TinyModule {
  Tensor weight = randn({3, 4});
  Tensor bias = randn({3});
  Tensor scale = full({3}, 2.0);
  Tensor forward(const Tensor &x) const {
    return linear(x, weight, bias) * scale;
  }
  std::vector<std::pair<std::string, Tensor>> named_parameters() const {
    return {{"fc.weight", weight}, {"fc.bias", bias}};
  }
  std::vector<std::pair<std::string, Tensor>> named_buffers() const {
    return {{"scale", scale}};
  }
};

/// libtorch-style module holder: operator-> and get() reach the module.
struct TinyHolder {
  std::shared_ptr<TinyModule> impl = std::make_shared<TinyModule>();
  TinyModule *get() const { return impl.get(); }
  TinyModule *operator->() const { return impl.get(); }
};

std::string readFile(const std::string &path) {
  std::ifstream f(path);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

TEST(Trace, ModuleHolderSharedPtrAndCallableAsWrittenInTheIssue) {
  manual_seed(0);
  TinyHolder model;
  Tensor x = randn({2, 4});
  Tensor expected = model->forward(x);
  std::string path = jittest::tempPath("model.ir");
  {
    auto traced = tcc::jit::trace(model, {x});
    traced.save(path);
  }
  EXPECT_TRUE(sameTensor(jit::Interpreter::load(path).run({x})[0], expected));

  std::shared_ptr<TinyModule> pointer = model.impl;
  auto traced = tcc::jit::trace(pointer, {x});
  EXPECT_TRUE(sameTensor(traced.run({x})[0], expected));

  auto lambda = [&](const Tensor &in) { return pointer->forward(in); };
  EXPECT_TRUE(sameTensor(tcc::jit::trace(lambda, {x}).run({x})[0], expected));
  std::remove(path.c_str());
}

TEST(Trace, ParametersAndBuffersBecomeNamedBlobs) {
  manual_seed(0);
  TinyModule m;
  jit::TracedGraph g = jit::trace(m, {randn({2, 4})}, quiet());
  std::string ir = g.str();
  EXPECT_NE(ir.find("tcc.constant dense_resource<fc.weight> : tensor<3x4xf32>"),
            std::string::npos)
      << ir;
  EXPECT_NE(ir.find("dense_resource<fc.bias>"), std::string::npos);
  EXPECT_NE(ir.find("dense_resource<scale>"), std::string::npos);
  // The blobs are in the file, 64-byte aligned (the hex starts with the
  // alignment as a little-endian 32-bit number).
  EXPECT_NE(ir.find("dialect_resources"), std::string::npos);
  EXPECT_NE(ir.find("fc.weight: \"0x40000000"), std::string::npos) << ir;
}

// nn::Sequential names its children "0", "1", ...: "0.weight" is no key
// MLIR's parser reads back, so the blob is "p0.weight", and the saved text
// loads (it printed, then failed to parse, before).
TEST(Trace, SequentialWeightsSaveAndLoad) {
  manual_seed(0);
  nn::Sequential net(nn::Linear(4, 3), nn::ReLU(), nn::Linear(3, 2));
  Tensor x = randn({2, 4});
  Tensor expected = net->forward(x);
  jit::TracedGraph g = jit::trace(net, {x}, quiet());
  EXPECT_NE(g.str().find("dense_resource<p0.weight>"), std::string::npos)
      << g.str();
  std::string path = jittest::tempPath("sequential.ir");
  g.save(path);
  EXPECT_TRUE(sameTensor(jit::Interpreter::load(path).run({x})[0], expected));
  std::remove(path.c_str());
}

TEST(Trace, UnnamedConstantsAndScalars) {
  Tensor table = arange(6).to(kFloat).reshape({2, 3});
  auto f = [&](const Tensor &x) { return x * table + 0.5; };
  jit::TracedGraph g = jit::trace(f, {ones({2, 3})}, quiet());
  std::string ir = g.str();
  EXPECT_NE(ir.find("dense_resource<const0>"), std::string::npos) << ir;
  // A wrapped Python-style scalar is an inline literal in the op's dtype.
  EXPECT_NE(ir.find("tcc.constant dense<5.000000e-01> : tensor<f32>"),
            std::string::npos)
      << ir;
  EXPECT_TRUE(sameTensor(g.run({ones({2, 3})})[0], table + 0.5));
}

TEST(Trace, ArgumentsAndResultsAreNamed) {
  auto f = [](const Tensor &a, const Tensor &b) {
    return std::make_tuple(a + b, a - b);
  };
  jit::TracedGraph g = jit::trace(f, {ones({2}), ones({2})}, quiet());
  std::string ir = g.str();
  EXPECT_NE(ir.find("{tcc.name = \"input0\"}"), std::string::npos) << ir;
  EXPECT_NE(ir.find("{tcc.name = \"input1\"}"), std::string::npos);
  EXPECT_NE(ir.find("{tcc.name = \"output1\"}"), std::string::npos);

  jit::TraceOptions o = quiet();
  o.input_names = {"x", "y"};
  o.output_names = {"sum"};
  o.function_name = "main";
  jit::TracedGraph named = jit::trace(f, {ones({2}), ones({2})}, o);
  jit::Signature sig = named.signature();
  ASSERT_EQ(sig.inputs.size(), 2u);
  EXPECT_EQ(sig.inputs[1].name, "y");
  EXPECT_EQ(sig.inputs[1].dtype, kFloat);
  EXPECT_EQ(sig.inputs[1].shape, std::vector<int64_t>{2});
  EXPECT_EQ(sig.outputs[0].name, "sum");
  EXPECT_EQ(sig.outputs[1].name, "output1");
  EXPECT_NE(named.str().find("func.func @main"), std::string::npos);

  o.output_names = {"x"};
  EXPECT_ERROR_HAS(jit::trace(f, {ones({2}), ones({2})}, o),
                   "output 0 is named 'x', which another input or output");
  o.output_names = {"a", "b", "c"};
  EXPECT_ERROR_HAS(jit::trace(f, {ones({2}), ones({2})}, o),
                   "3 output names given for 2 outputs");
}

TEST(Trace, OutputsOfEveryShape) {
  Tensor x = randn({3});
  auto vec = [](const Tensor &a) { return std::vector<Tensor>{a, a * 2}; };
  auto pair = [](const Tensor &a) { return std::make_pair(a.exp(), a); };
  auto list = [](const std::vector<Tensor> &in) { return in[0] + in[1]; };
  EXPECT_EQ(jit::trace(vec, {x}, quiet()).run({x}).size(), 2u);
  std::vector<Tensor> p = jit::trace(pair, {x}, quiet()).run({x});
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(sameTensor(p[1], x)); // an input returned as is
  EXPECT_TRUE(
      sameTensor(jit::trace(list, {x, x}, quiet()).run({x, x})[0], x + x));
  EXPECT_ERROR_HAS(jit::trace([](const Tensor &a) { return a; }, {x, x}),
                   "takes neither 2 Tensor arguments");
}

TEST(Trace, ReturnedConstantsAreCopies) {
  Tensor w = arange(3).to(kFloat);
  auto f = [&](const Tensor &) { return w; };
  jit::TracedGraph g = jit::trace(f, {ones({1})}, quiet());
  Tensor out = g.run({ones({1})})[0];
  out.add_(10);
  EXPECT_TRUE(sameTensor(g.run({ones({1})})[0], w));
}

TEST(Trace, DataDependentReadsWarnAndStrictModeFails) {
  auto f = [](const Tensor &x) {
    Tensor s = x.sum();
    if (s.item<double>() > 0) // a branch on a tensor's value
      return x * 2;
    return x * 3;
  };
  jit::TracedGraph g = jit::trace(f, {ones({2})}, quiet());
  ASSERT_EQ(g.warnings().size(), 1u);
  EXPECT_NE(g.warnings()[0].find("item() reads the value of the f32[] result "
                                 "of 'sum'"),
            std::string::npos)
      << g.warnings()[0];
  EXPECT_NE(g.warnings()[0].find("may not generalize"), std::string::npos);
  // The trace keeps the branch it saw.
  EXPECT_TRUE(sameTensor(g.run({-ones({2})})[0], -2 * ones({2})));

  jit::TraceOptions strict = quiet();
  strict.strict = true;
  EXPECT_ERROR_HAS(jit::trace(f, {ones({2})}, strict),
                   "strict tracing forbids data-dependent reads");
  auto raw = [](const Tensor &x) {
    float first = x.data_ptr<float>()[0];
    return x * first;
  };
  EXPECT_ERROR_HAS(jit::trace(raw, {ones({2})}, strict),
                   "data_ptr() reads the value of");
}

TEST(Trace, UntraceableOpsNameThemselvesAndWhy) {
  auto f = [](const Tensor &x) { return x.exp().as_strided({2}, {1}).relu(); };
  EXPECT_ERROR_HAS(jit::trace(f, {ones({4})}, quiet()),
                   "cannot trace 'as_strided' (op 2 of the program): "
                   "as_strided views memory at arbitrary strides");
  auto scatterFn = [](const Tensor &x) {
    return tcc::scatter_reduce(x, 0, zeros({1}, kLong), ones({1}), "sum",
                               /*include_self=*/false);
  };
  EXPECT_ERROR_HAS(jit::trace(scatterFn, {ones({4})}, quiet()),
                   "cannot trace 'scatter_reduce.two'");
  // The observer is gone after a failed trace.
  EXPECT_FALSE(tcc::detail::isRecording());
}

TEST(Trace, TrainingModeDropoutAndBatchNormAreRefused) {
  auto drop = [](const Tensor &x) { return dropout(x, 0.5, true); };
  EXPECT_ERROR_HAS(jit::trace(drop, {ones({4})}, quiet()),
                   "cannot trace 'dropout' (op 1 of the program): dropout in "
                   "training mode is random");
  auto feature = [](const Tensor &x) { return feature_dropout(x, 0.5, true); };
  EXPECT_ERROR_HAS(jit::trace(feature, {ones({2, 3, 4})}, quiet()),
                   "call eval()");
  auto bn = [](const Tensor &x) {
    return batch_norm(x, std::nullopt, std::nullopt, zeros({2}), ones({2}),
                      /*training=*/true, 0.1, 1e-5);
  };
  EXPECT_ERROR_HAS(jit::trace(bn, {randn({3, 2})}, quiet()),
                   "batch_norm in training mode");
}

TEST(Trace, WritesThroughViewsAreCaught) {
  auto f = [](const Tensor &x) {
    Tensor y = x.clone();
    Tensor row = y.select(0, 1); // a view of y
    row.add_(1);                 // changes y behind the trace's back
    return y * 2;
  };
  EXPECT_ERROR_HAS(jit::trace(f, {ones({2, 2})}, quiet()),
                   "modified in place where the trace cannot see it");
}

TEST(Trace, InputErrors) {
  auto f = [](const Tensor &x) { return x + 1; };
  EXPECT_ERROR_HAS(jit::trace(f, {ones({2}, kShort)}, quiet()),
                   "input 0 has dtype Short, which the tcc dialect does not "
                   "have");
  EXPECT_ERROR_HAS(jit::trace(f, {Tensor()}, quiet()),
                   "input 0 is an undefined tensor");
}

TEST(Trace, DtypesTheDialectLacksAreErrorsNamingTheOp) {
  // uint8 + int8 promotes to int16, which tcc has no element type for.
  auto f = [](const Tensor &a, const Tensor &b) { return a + b; };
  EXPECT_ERROR_HAS(jit::trace(f, {ones({2}, kByte), ones({2}, kChar)}, quiet()),
                   "cannot trace 'add' (op 1 of the program): a value it "
                   "computes has dtype Short");
}

TEST(Trace, ASharedParameterIsOneConstant) {
  Tensor w = randn({2, 2});
  auto f = [&](const Tensor &x) { return x.matmul(w).matmul(w); };
  std::string ir = jit::trace(f, {randn({2, 2})}, quiet()).str();
  EXPECT_NE(ir.find("dense_resource<const0>"), std::string::npos);
  EXPECT_EQ(ir.find("dense_resource<const1>"), std::string::npos) << ir;
}

TEST(Trace, TracesDoNotNest) {
  auto inner = [](const Tensor &x) { return x + 1; };
  auto outer = [&](const Tensor &x) {
    return jit::trace(inner, {x}, quiet()).run({x})[0];
  };
  EXPECT_ERROR_HAS(jit::trace(outer, {ones({2})}, quiet()),
                   "this thread is already tracing");
  EXPECT_FALSE(tcc::detail::isRecording());
}

TEST(Trace, ParametersThatRequireGrad) {
  Tensor w = randn({3}).requires_grad_();
  auto f = [&](const Tensor &x) { return (x * w).sum(); };
  Tensor x = randn({3});
  jit::TracedGraph g = jit::trace(f, {x}, quiet());
  EXPECT_TRUE(sameTensor(g.run({x})[0], f(x).detach()));
}

TEST(Trace, SaveReportsUnwritablePaths) {
  jit::TracedGraph g =
      jit::trace([](const Tensor &x) { return -x; }, {ones({1})}, quiet());
  EXPECT_ERROR_HAS(g.save("/nonexistent-dir/model.ir"),
                   "cannot write /nonexistent-dir/model.ir");
  EXPECT_ERROR_HAS(g.save_bytecode("/nonexistent-dir/model.mlirbc"),
                   "cannot write /nonexistent-dir/model.mlirbc");
}

TEST(Trace, SavedTextIsTheIr) {
  jit::TracedGraph g = jit::trace([](const Tensor &x) { return x.relu(); },
                                  {ones({2, 3})}, quiet());
  std::string path = jittest::tempPath("relu.ir");
  g.save(path);
  EXPECT_EQ(readFile(path), g.str());
  std::remove(path.c_str());
  EXPECT_NE(g.str().find("tcc.relu %arg0 : tensor<2x3xf32>"), std::string::npos)
      << g.str();
}

} // namespace
} // namespace tcc
