//===- InterpreterTest.cpp - Running hand-written and malformed modules ---===//

#include "JitTestSupport.h"

#include <fstream>

namespace tcc {
namespace {

using jittest::sameTensor;

Tensor vec(std::vector<double> v, ScalarType t = kFloat) {
  return tensor(v).to(t);
}

const char *kModule = R"mlir(
func.func @forward(%x: tensor<2x3xf32> {tcc.name = "x"},
                   %w: tensor<3x2xf32> {tcc.name = "w"})
    -> (tensor<2x2xf32> {tcc.name = "y"}, tensor<2xf32> {tcc.name = "s"}) {
  %b = tcc.constant dense<[10.0, 20.0]> : tensor<2xf32>
  %m = tcc.matmul %x, %w : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  %y = tcc.add %m, %b : (tensor<2x2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  %s = tcc.reduce_sum %x {dims = array<i64: 1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %y, %s : tensor<2x2xf32>, tensor<2xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  %r = tcc.relu %a : tensor<4xf32>
  return %r : tensor<4xf32>
}
)mlir";

TEST(Interpreter, RunsAHandWrittenModule) {
  jit::Interpreter interp = jit::Interpreter::parse(kModule);
  EXPECT_EQ(interp.functions(),
            (std::vector<std::string>{"forward", "helper"}));
  EXPECT_EQ(interp.entry(), "forward");
  Tensor x = vec({1, 2, 3, 4, 5, 6}).reshape({2, 3});
  Tensor w = vec({1, 0, 0, 1, 1, 1}).reshape({3, 2});
  std::vector<Tensor> out = interp.run({x, w});
  ASSERT_EQ(out.size(), 2u);
  // [[1,2,3],[4,5,6]] @ [[1,0],[0,1],[1,1]] = [[4,5],[10,11]], plus [10,20].
  EXPECT_TRUE(sameTensor(out[0], vec({14, 25, 20, 31}).reshape({2, 2})));
  EXPECT_TRUE(sameTensor(out[1], vec({6, 15})));
  EXPECT_TRUE(sameTensor(interp.run("helper", {vec({-1, 2, -3, 4})})[0],
                         vec({0, 2, 0, 4})));

  jit::Signature sig = interp.signature();
  ASSERT_EQ(sig.outputs.size(), 2u);
  EXPECT_EQ(sig.inputs[0].name, "x");
  EXPECT_EQ(sig.outputs[1].name, "s");
  EXPECT_EQ(interp.signature("helper").inputs[0].name, "input 0");
}

TEST(Interpreter, RunsFusionRegions) {
  // What tcc-fuse-elementwise produces: the interpreter must compute the
  // same values as the unfused ops.
  jit::Interpreter interp = jit::Interpreter::parse(R"mlir(
    func.func @forward(%a: tensor<4xf32>, %b: tensor<4xf32>)
        -> (tensor<4xf32>, tensor<4xf32>) {
      %y:2 = tcc.fusion (%a, %b) : (tensor<4xf32>, tensor<4xf32>)
                                  -> (tensor<4xf32>, tensor<4xf32>) {
      ^bb0(%x: tensor<4xf32>, %z: tensor<4xf32>):
        %0 = tcc.mul %x, %z : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        %1 = tcc.relu %0 : tensor<4xf32>
        tcc.yield %1, %0 : tensor<4xf32>, tensor<4xf32>
      }
      %r = tcc.neg %y#0 : tensor<4xf32>
      return %r, %y#1 : tensor<4xf32>, tensor<4xf32>
    }
  )mlir");
  std::vector<Tensor> out =
      interp.run({vec({1, -2, 3, -4}), vec({2, 2, -1, -1})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_TRUE(sameTensor(out[0], vec({-2, 0, 0, -4})));
  EXPECT_TRUE(sameTensor(out[1], vec({2, -4, -3, 4})));
}

TEST(Interpreter, ChecksInputsAgainstTheSignature) {
  jit::Interpreter interp = jit::Interpreter::parse(kModule);
  Tensor x = zeros({2, 3}), w = zeros({3, 2});
  EXPECT_ERROR_HAS(interp.run({x}), "forward: expected 2 inputs, got 1");
  EXPECT_ERROR_HAS(interp.run({x, w.to(kDouble)}),
                   "input 1 'w' must be f32[3,2], got f64[3,2]");
  EXPECT_ERROR_HAS(interp.run({zeros({3, 2}), w}),
                   "input 0 'x' must be f32[2,3], got f32[3,2]");
  EXPECT_ERROR_HAS(interp.run({Tensor(), w}), "input 0 'x' is an undefined");
  EXPECT_ERROR_HAS(interp.run("nope", {x, w}),
                   "the module has no function 'nope' (functions: 'forward', "
                   "'helper')");
}

// The rule of every tool (tcc/IR/EntryFunction.h): the only public
// function; several are ambiguous, whatever their names.
TEST(Interpreter, EntryIsTheOnlyPublicFunction) {
  jit::Interpreter two = jit::Interpreter::parse(R"mlir(
    func.func @forward(%x: tensor<1xf32>) -> tensor<1xf32> { return %x : tensor<1xf32> }
    func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> { return %x : tensor<1xf32> }
  )mlir");
  EXPECT_ERROR_HAS(two.entry(), "several public functions (@forward, @main); "
                                "name the one to run");
  jit::Interpreter one = jit::Interpreter::parse(R"mlir(
    func.func @only(%x: tensor<1xf32>) -> tensor<1xf32> { return %x : tensor<1xf32> }
    func.func private @forward(%x: tensor<1xf32>) -> tensor<1xf32> { return %x : tensor<1xf32> }
  )mlir");
  EXPECT_EQ(one.entry(), "only");
}

TEST(Interpreter, EagerErrorsNameTheOp) {
  jit::Interpreter interp = jit::Interpreter::parse(R"mlir(
    func.func @forward(%e: tensor<3xf32>, %i: tensor<2xi64>) -> tensor<2xf32> {
      %r = tcc.index_select %e, %i {dim = 0 : i64} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2xf32>
      return %r : tensor<2xf32>
    }
  )mlir");
  EXPECT_TRUE(
      sameTensor(interp.run({vec({5, 6, 7}), tensor({2, 0})})[0], vec({7, 5})));
  EXPECT_ERROR_HAS(interp.run({vec({5, 6, 7}), tensor({3, 0})}),
                   "'tcc.index_select' at");
}

TEST(Interpreter, FloorDivideAndRemainderFollowPython) {
  jit::Interpreter interp = jit::Interpreter::parse(R"mlir(
    func.func @forward(%a: tensor<4xf32>, %b: tensor<4xf32>,
                       %c: tensor<4xi32>, %d: tensor<4xi32>)
        -> (tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>) {
      %0 = tcc.floor_divide %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %1 = tcc.remainder %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %2 = tcc.floor_divide %c, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      %3 = tcc.remainder %c, %d : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
      return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi32>
    }
  )mlir");
  // Python: 7 // 2 = 3, -7 // 2 = -4, 7 // -2 = -4, -7 // -2 = 3;
  // 7 % 2 = 1, -7 % 2 = 1, 7 % -2 = -1, -7 % -2 = -1.
  Tensor a = vec({7, -7, 7, -7}), b = vec({2, 2, -2, -2});
  std::vector<Tensor> out = interp.run({a, b, a.to(kInt), b.to(kInt)});
  EXPECT_TRUE(sameTensor(out[0], vec({3, -4, -4, 3})));
  EXPECT_TRUE(sameTensor(out[1], vec({1, 1, -1, -1})));
  EXPECT_TRUE(sameTensor(out[2], vec({3, -4, -4, 3}, kInt)));
  EXPECT_TRUE(sameTensor(out[3], vec({1, 1, -1, -1}, kInt)));
  EXPECT_ERROR_HAS(interp.run({a, b, a.to(kInt), zeros({4}, kInt)}),
                   "ZeroDivisionError");
}

TEST(Interpreter, NhwcLayoutsMatchNchw) {
  manual_seed(3);
  Tensor x = randn({1, 2, 5, 5}), w = randn({3, 2, 3, 3}), b = randn({3});
  jit::Interpreter interp = jit::Interpreter::parse(R"mlir(
    func.func @forward(%x: tensor<1x5x5x2xf32>, %w: tensor<3x3x3x2xf32>,
                       %b: tensor<3xf32>) -> (tensor<1x3x3x3xf32>, tensor<1x2x2x3xf32>) {
      %y = tcc.conv2d %x, %w, %b {layout = #tcc.layout<nhwc>}
          : (tensor<1x5x5x2xf32>, tensor<3x3x3x2xf32>, tensor<3xf32>) -> tensor<1x3x3x3xf32>
      %p = tcc.max_pool2d %y {kernel_size = array<i64: 2, 2>, stride = array<i64: 1, 1>, layout = #tcc.layout<nhwc>}
          : tensor<1x3x3x3xf32> -> tensor<1x2x2x3xf32>
      return %y, %p : tensor<1x3x3x3xf32>, tensor<1x2x2x3xf32>
    }
  )mlir");
  std::vector<Tensor> out =
      interp.run({x.permute({0, 2, 3, 1}).contiguous(),
                  w.permute({0, 2, 3, 1}).contiguous(), b});
  Tensor y = conv2d(x, w, b);
  EXPECT_TRUE(sameTensor(out[0].permute({0, 3, 1, 2}).contiguous(), y));
  EXPECT_TRUE(sameTensor(out[1].permute({0, 3, 1, 2}).contiguous(),
                         max_pool2d(y, 2, 1)));
}

TEST(Interpreter, ReduceProdOverSeveralDims) {
  jit::Interpreter interp = jit::Interpreter::parse(R"mlir(
    func.func @forward(%x: tensor<2x3x2xf64>) -> (tensor<3xf64>, tensor<1x1x1xf64>) {
      %a = tcc.reduce_prod %x {dims = array<i64: 0, 2>} : tensor<2x3x2xf64> -> tensor<3xf64>
      %b = tcc.reduce_prod %x {dims = array<i64: 0, 1, 2>, keepdim = true} : tensor<2x3x2xf64> -> tensor<1x1x1xf64>
      return %a, %b : tensor<3xf64>, tensor<1x1x1xf64>
    }
  )mlir");
  Tensor x = arange(1, 13).to(kDouble).reshape({2, 3, 2});
  std::vector<Tensor> out = interp.run({x});
  // dims 0 and 2: {1,2,7,8}, {3,4,9,10}, {5,6,11,12}.
  EXPECT_TRUE(sameTensor(out[0], vec({112, 1080, 3960}, kDouble)));
  EXPECT_TRUE(sameTensor(out[1], vec({479001600}, kDouble).reshape({1, 1, 1})));
}

// --- Malformed modules: errors, never crashes
// -----------------------------------

std::string tracedText() {
  jit::TraceOptions o;
  o.print_warnings = false;
  Tensor w = randn({4, 3});
  auto f = [&](const Tensor &x) { return linear(x, w).relu().sum({1}); };
  return jit::trace(f, {randn({2, 3})}, o).str();
}

TEST(Interpreter, TruncatedTextIsAnError) {
  std::string text = tracedText();
  // Every prefix either fails to load with a message or (when the cut only
  // removes trailing whitespace) loads and runs.
  size_t step = std::max<size_t>(1, text.size() / 60);
  for (size_t n = 0; n < text.size(); n += step) {
    std::string prefix = text.substr(0, n);
    try {
      jit::Interpreter interp = jit::Interpreter::parse(prefix);
      if (interp.functions().empty())
        continue;
      interp.run({randn({2, 3})});
    } catch (const jit::JitError &e) {
      EXPECT_NE(std::string(e.what()).find("<string>"), std::string::npos)
          << e.what();
    }
  }
}

TEST(Interpreter, TruncatedBytecodeIsAnError) {
  jit::TraceOptions o;
  o.print_warnings = false;
  Tensor w = randn({4, 3});
  auto f = [&](const Tensor &x) { return linear(x, w); };
  std::string path = jittest::tempPath("model.mlirbc");
  jit::trace(f, {randn({2, 3})}, o).save_bytecode(path);
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)),
                    std::istreambuf_iterator<char>());
  ASSERT_GT(bytes.size(), 16u);
  std::string cut = jittest::tempPath("cut.mlirbc");
  for (size_t n : {size_t(4), size_t(10), bytes.size() / 2, bytes.size() - 5}) {
    std::ofstream(cut, std::ios::binary) << bytes.substr(0, n);
    EXPECT_ERROR_HAS(jit::Interpreter::load(cut), "cannot load " + cut);
  }
  std::remove(path.c_str());
  std::remove(cut.c_str());
}

TEST(Interpreter, BadModulesAreErrors) {
  EXPECT_ERROR_HAS(jit::Interpreter::load("/nonexistent/model.ir"),
                   "/nonexistent/model.ir: cannot open: No such file");
  EXPECT_ERROR_HAS(jit::Interpreter::parse("garbage {"), "<string>:1:1");
  // An op of a dialect the interpreter does not know.
  EXPECT_ERROR_HAS(jit::Interpreter::parse(R"mlir(
    func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
      %y = arith.addf %x, %x : tensor<2xf32>
      return %y : tensor<2xf32>
    })mlir"),
                   "arith");
  // A verifier error (wrong result type).
  EXPECT_ERROR_HAS(jit::Interpreter::parse(R"mlir(
    func.func @f(%x: tensor<2xf32>) -> tensor<3xf32> {
      %y = tcc.relu %x : tensor<2xf32>
      return %y : tensor<3xf32>
    })mlir"),
                   "error");
  // A blob that is missing or too small.
  EXPECT_ERROR_HAS(jit::Interpreter::parse(R"mlir(
    func.func @f() -> tensor<4xf32> {
      %w = tcc.constant dense_resource<w> : tensor<4xf32>
      return %w : tensor<4xf32>
    })mlir"),
                   "w");
  EXPECT_ERROR_HAS(jit::Interpreter::parse(R"mlir(
    func.func @f() -> tensor<4xf32> {
      %w = tcc.constant dense_resource<w> : tensor<4xf32>
      return %w : tensor<4xf32>
    }
    {-#
      dialect_resources: { builtin: { w: "0x0400000000000000" } }
    #-})mlir"),
                   "bytes");
  // A shape whose element count overflows int64.
  EXPECT_ERROR_HAS(jit::Interpreter::parse(R"mlir(
    func.func @f(%x: tensor<4294967296x4294967296x4xf32>) -> tensor<4294967296x4294967296x4xf32> {
      return %x : tensor<4294967296x4294967296x4xf32>
    })mlir"),
                   "more elements than int64_t can count");
  // Nesting deeper than the limit.
  EXPECT_ERROR_HAS(jit::Interpreter::parse(std::string(5000, '[')), "nest");
  // A declaration cannot run.
  jit::Interpreter decl = jit::Interpreter::parse(
      "func.func private @f(%x: tensor<2xf32>) -> tensor<2xf32>");
  EXPECT_ERROR_HAS(decl.run({zeros({2})}),
                   "no public function with a body to run");
  EXPECT_ERROR_HAS(decl.run("f", {zeros({2})}), "declaration without a body");
}

} // namespace
} // namespace tcc
