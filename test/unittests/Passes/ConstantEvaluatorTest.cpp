//===- ConstantEvaluatorTest.cpp - Folded constants equal the interpreter -===//
//
// For one op at a time on constant operands: tcc-fold-constants must replace
// the op by a constant, and that constant must equal what the reference
// interpreter (the eager kernels) computes for the op. Exact for everything
// but transcendental functions, which the evaluator computes in float64
// where the kernels use the element type.
//
//===----------------------------------------------------------------------===//

#include "PassTestSupport.h"

#include "tcc/Passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace tcc {
namespace {

using passtest::closeTensors;
using passtest::constantLine;
using passtest::countOf;
using passtest::Operand;
using passtest::operand;
using passtest::runPasses;
using passtest::tensorType;

/// A module whose entry returns `op` (text using %a0, %a1, ...) on
/// constants holding `operands`.
std::string singleOpModule(const std::vector<Operand> &operands,
                           const std::string &op,
                           const std::string &resultType) {
  std::string text = "func.func @forward() -> " + resultType + " {\n";
  for (size_t i = 0; i < operands.size(); ++i)
    text += constantLine("a" + std::to_string(i), operands[i]);
  text += "  %r = " + op + "\n  return %r : " + resultType + "\n}\n";
  return text;
}

/// Folds the op and compares the constant with the interpreter's result.
void expectFoldsLikeInterpreter(const std::vector<Operand> &operands,
                                const std::string &op,
                                const std::string &resultType, double tol = 0) {
  std::string before = singleOpModule(operands, op, resultType);
  std::string after = runPasses(before, [](mlir::OpPassManager &pm) {
    pm.addNestedPass<mlir::func::FuncOp>(mlir::tcc::createTccFoldConstants());
  });
  std::string opName = op.substr(0, op.find(' '));
  ASSERT_EQ(countOf(after, opName + " "), 0) << "not folded:\n" << after;
  jit::Interpreter reference = jit::Interpreter::parse(before, "before");
  jit::Interpreter folded = jit::Interpreter::parse(after, "after");
  EXPECT_TRUE(closeTensors(folded.run({}), reference.run({}), tol))
      << before << "\nfolded to\n"
      << after;
}

std::string unary(const std::string &op, const Operand &x,
                  const std::string &attrs = "") {
  return "tcc." + op + " %a0" + attrs + " : " + tensorType(x);
}

std::string binary(const std::string &op, const Operand &a, const Operand &b,
                   const std::string &result) {
  return "tcc." + op + " %a0, %a1 : (" + tensorType(a) + ", " + tensorType(b) +
         ") -> " + result;
}

TEST(ConstantEvaluator, FloatUnaryOps) {
  Operand x = operand("f32", {3, 4}, 1);
  for (const char *op :
       {"neg", "abs", "relu", "sign", "floor", "ceil", "round"})
    expectFoldsLikeInterpreter({x}, unary(op, x), tensorType(x));
  expectFoldsLikeInterpreter({x}, unary("clamp", x, " min -1.5 max 2.0"),
                             tensorType(x));
  expectFoldsLikeInterpreter({x}, unary("dropout", x, " {p = 0.5 : f64}"),
                             tensorType(x));
  // Computed in float64 and rounded once; the kernels compute in f32.
  for (const char *op : {"exp", "log", "log1p", "sqrt", "rsqrt", "tanh",
                         "sigmoid", "silu", "erf", "sin", "cos", "gelu"})
    expectFoldsLikeInterpreter({x}, unary(op, x), tensorType(x), 1e-6);
  expectFoldsLikeInterpreter({x}, unary("gelu", x, " approximate tanh"),
                             tensorType(x), 1e-6);
}

TEST(ConstantEvaluator, IntegerUnaryOps) {
  Operand x = operand("i32", {3, 4}, 2, -50, 50);
  for (const char *op : {"neg", "abs", "relu", "sign"})
    expectFoldsLikeInterpreter({x}, unary(op, x), tensorType(x));
  expectFoldsLikeInterpreter({x}, unary("clamp", x, " min -7.0 max 9.0"),
                             tensorType(x));
  Operand b = operand("i1", {2, 3}, 3, 0, 1);
  expectFoldsLikeInterpreter({b}, unary("logical_not", b), tensorType(b));
}

TEST(ConstantEvaluator, BroadcastingFloatBinaryOps) {
  Operand a = operand("f32", {3, 4}, 4), b = operand("f32", {4}, 5);
  std::string f = "tensor<3x4xf32>", i1 = "tensor<3x4xi1>";
  for (const char *op : {"add", "sub", "mul", "div", "maximum", "minimum"})
    expectFoldsLikeInterpreter({a, b}, binary(op, a, b, f), f);
  expectFoldsLikeInterpreter({a, b}, binary("pow", a, b, f), f, 1e-6);
  for (const char *op : {"eq", "ne", "lt", "le", "gt", "ge"})
    expectFoldsLikeInterpreter({a, b}, binary(op, a, b, i1), i1);
  // Both operands broadcast: [3, 1] with [1, 4].
  Operand col = operand("f32", {3, 1}, 6), row = operand("f32", {1, 4}, 7);
  expectFoldsLikeInterpreter({col, row}, binary("sub", col, row, f), f);
}

TEST(ConstantEvaluator, IntegerBinaryOpsWrapAndFloor) {
  Operand a = operand("i32", {3, 4}, 8, -50, 50);
  Operand b = operand("i32", {1, 4}, 9, 1, 7); // non-zero divisors
  Operand nb = operand("i32", {1, 4}, 10, -7, -1);
  std::string t = "tensor<3x4xi32>";
  for (const char *op : {"add", "sub", "mul", "maximum", "minimum", "remainder",
                         "floor_divide"}) {
    expectFoldsLikeInterpreter({a, b}, binary(op, a, b, t), t);
    expectFoldsLikeInterpreter({a, nb}, binary(op, a, nb, t), t);
  }
  for (const char *op : {"eq", "lt", "ge"})
    expectFoldsLikeInterpreter({a, b}, binary(op, a, b, "tensor<3x4xi1>"),
                               "tensor<3x4xi1>");
  // i8 and ui8 arithmetic wraps around.
  Operand c = operand("i8", {2, 3}, 11, 60, 127),
          d = operand("i8", {2, 3}, 12, 60, 127);
  expectFoldsLikeInterpreter({c, d}, binary("add", c, d, "tensor<2x3xi8>"),
                             "tensor<2x3xi8>");
  expectFoldsLikeInterpreter({c, d}, binary("mul", c, d, "tensor<2x3xi8>"),
                             "tensor<2x3xi8>");
  Operand u = operand("ui8", {2, 3}, 13, 0, 20),
          v = operand("ui8", {2, 3}, 14, 100, 255);
  expectFoldsLikeInterpreter({u, v}, binary("sub", u, v, "tensor<2x3xui8>"),
                             "tensor<2x3xui8>");
  Operand p = operand("i1", {2, 3}, 15, 0, 1),
          q = operand("i1", {2, 3}, 16, 0, 1);
  for (const char *op : {"logical_and", "logical_or", "logical_xor"})
    expectFoldsLikeInterpreter({p, q}, binary(op, p, q, "tensor<2x3xi1>"),
                               "tensor<2x3xi1>");
}

TEST(ConstantEvaluator, OtherFloatTypes) {
  for (const char *type : {"f16", "bf16", "f64"}) {
    Operand a = operand(type, {2, 3}, 17), b = operand(type, {2, 3}, 18);
    std::string t = tensorType(a);
    for (const char *op : {"add", "sub", "mul", "div"})
      expectFoldsLikeInterpreter({a, b}, binary(op, a, b, t), t);
    // The kernels round f16/bf16 results from f32; the evaluator from f64.
    expectFoldsLikeInterpreter({a}, unary("exp", a), t,
                               std::string(type) == "f64" ? 1e-15 : 1e-2);
  }
}

TEST(ConstantEvaluator, Casts) {
  struct Cast {
    Operand from;
    const char *to;
  };
  std::vector<Cast> casts = {
      {operand("f32", {2, 3}, 19), "i32"},
      {operand("f32", {2, 3}, 20), "i1"},
      {operand("f32", {2, 3}, 21, 0, 5), "ui8"},
      {operand("f32", {2, 3}, 22), "f16"},
      {operand("f32", {2, 3}, 23), "bf16"},
      {operand("f16", {2, 3}, 24), "f64"},
      {operand("i32", {2, 3}, 25, -300, 300), "i8"},
      {operand("i32", {2, 3}, 26, -300, 300), "f32"},
      {operand("i64", {2, 3}, 27, -5000, 5000), "f16"},
      {operand("ui8", {2, 3}, 28, 0, 255), "i32"},
      {operand("i8", {2, 3}, 29, -128, 127), "ui8"},
      {operand("i1", {2, 3}, 30, 0, 1), "f32"},
  };
  for (const Cast &c : casts) {
    Operand result = c.from;
    result.elementType = c.to;
    expectFoldsLikeInterpreter({c.from},
                               "tcc.cast %a0 : " + tensorType(c.from) + " to " +
                                   tensorType(result),
                               tensorType(result));
  }
}

TEST(ConstantEvaluator, DataMovement) {
  Operand x = operand("f32", {2, 3, 4}, 31);
  expectFoldsLikeInterpreter(
      {x},
      "tcc.transpose %a0 {permutation = array<i64: 2, 0, 1>} : "
      "tensor<2x3x4xf32> -> tensor<4x2x3xf32>",
      "tensor<4x2x3xf32>");
  expectFoldsLikeInterpreter(
      {x}, "tcc.reshape %a0 : tensor<2x3x4xf32> to tensor<6x4xf32>",
      "tensor<6x4xf32>");
  expectFoldsLikeInterpreter(
      {x},
      "tcc.slice %a0 {start = array<i64: 1, 0, 1>, end = array<i64: 2, 3, 4>, "
      "step = array<i64: 1, 2, 2>} : tensor<2x3x4xf32> -> tensor<1x2x2xf32>",
      "tensor<1x2x2xf32>");
  expectFoldsLikeInterpreter(
      {x},
      "tcc.pad %a0 {pad = array<i64: 1, -1, 0, 2>, value = 3.5 : f64} : "
      "tensor<2x3x4xf32> -> tensor<2x5x4xf32>",
      "tensor<2x5x4xf32>");
  Operand y = operand("f32", {3, 1}, 32);
  expectFoldsLikeInterpreter(
      {y}, "tcc.broadcast_to %a0 : tensor<3x1xf32> to tensor<2x3x4xf32>",
      "tensor<2x3x4xf32>");
  Operand a = operand("i64", {2, 1}, 33, -9, 9),
          b = operand("i64", {2, 3}, 34, -9, 9);
  expectFoldsLikeInterpreter(
      {a, b, a},
      "tcc.concat %a0, %a1, %a2 {dim = 1 : i64} : (tensor<2x1xi64>, "
      "tensor<2x3xi64>, tensor<2x1xi64>) -> tensor<2x5xi64>",
      "tensor<2x5xi64>");
  Operand c = operand("i1", {2, 1}, 35, 0, 1), t = operand("f32", {2, 3}, 36),
          f = operand("f32", {3}, 37);
  expectFoldsLikeInterpreter(
      {c, t, f},
      "tcc.select %a0, %a1, %a2 : (tensor<2x1xi1>, tensor<2x3xf32>, "
      "tensor<3xf32>) -> tensor<2x3xf32>",
      "tensor<2x3xf32>");
}

} // namespace
} // namespace tcc
