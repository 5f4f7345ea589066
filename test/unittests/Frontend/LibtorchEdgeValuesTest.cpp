//===- LibtorchEdgeValuesTest.cpp - Eager ops vs libtorch 1.13 at the edges
//===//
//
// tcc follows libtorch's semantics, so its eager ops must give libtorch's
// answers where implementations drift: NaN, +-inf, +-0, subnormals, the
// largest finite value. LibtorchEdgeValues.inc holds what Debian's PyTorch
// 1.13 computed there (record_libtorch_edges.py, beside this file); this
// test runs the same ops on the same inputs. The interpreter runs the eager
// ops, and compiled code is held to ScalarOps.h, which ScalarOpsTest holds
// the eager ops to, so the three agree with libtorch through this test.
//
// Correctly rounded ops must match bit for bit (any NaN matches any NaN);
// the elementary functions within 1e-4 relative (libtorch's own vectorized
// and scalar paths differ by up to 5e-5), with results below the smallest
// normal free to flush, and f(+-0) must carry libtorch's sign. Where
// libtorch is wrong, tcc is right and kDeviations says why.
//
// LibtorchNNEdgeValues.inc does the same for normalization, pooling,
// losses, matmul and convolution (LibtorchNNEdgeCases.h): one edge value at
// a time in ordinary operands, so each result shows where NaN, infinities,
// -0 and subnormals travel (inf * 0 in a product, NaN through a max).
//
//===----------------------------------------------------------------------===//

#include "../EdgeValues.h"
#include "../LibtorchNNEdgeCases.h"
#include "TestSupport.h"

#include "tcc/Frontend/nn/Functional.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <sstream>

namespace tcc {
namespace {

using test::values;

struct Record {
  std::string kind, op, dtype, bits, alternates;
};

/// The recorded text as static data (fast to build under the sanitizers).
struct RawRecord {
  const char *kind, *op, *dtype, *bits, *alternates;
};
constexpr RawRecord kRawRecords[] = {
#define TCC_EDGE_INPUTS(dtype, bits) {"inputs", "", #dtype, bits, ""},
#define TCC_EDGE_UNARY(op, dtype, bits, alt) {"unary", #op, #dtype, bits, alt},
#define TCC_EDGE_BINARY(op, dtype, bits, alt)                                  \
  {"binary", #op, #dtype, bits, alt},
#define TCC_EDGE_ROWS(bits) {"rows", "", "f32", bits, ""},
#define TCC_EDGE_REDUCE(op, bits) {"reduce", #op, "f32", bits, ""},
#include "LibtorchEdgeValues.inc"
#undef TCC_EDGE_INPUTS
#undef TCC_EDGE_UNARY
#undef TCC_EDGE_BINARY
#undef TCC_EDGE_ROWS
#undef TCC_EDGE_REDUCE
};

std::vector<Record> records() {
  std::vector<Record> all;
  for (const RawRecord &r : kRawRecords)
    all.push_back({r.kind, r.op, r.dtype, r.bits, r.alternates});
  return all;
}

/// The doubles whose f32 or f64 bit patterns `hex` lists.
std::vector<double> decode(const std::string &hex, const std::string &dtype) {
  std::vector<double> out;
  std::istringstream in(hex);
  std::string word;
  while (in >> word) {
    uint64_t bits = std::stoull(word, nullptr, 16);
    if (dtype == "f32") {
      uint32_t narrow = uint32_t(bits);
      float f;
      std::memcpy(&f, &narrow, sizeof f);
      out.push_back(f);
    } else {
      double d;
      std::memcpy(&d, &bits, sizeof d);
      out.push_back(d);
    }
  }
  return out;
}

/// "index:bits ..." as a map from index to value.
std::map<size_t, double> decodeAlternates(const std::string &text,
                                          const std::string &dtype) {
  std::map<size_t, double> out;
  std::istringstream in(text);
  std::string item;
  while (in >> item) {
    size_t colon = item.find(':');
    out[std::stoul(item.substr(0, colon))] =
        decode(item.substr(colon + 1), dtype).at(0);
  }
  return out;
}

ScalarType scalarType(const std::string &dtype) {
  return dtype == "f32" ? kFloat : kDouble;
}

Tensor fromValues(const std::vector<double> &xs, ScalarType dtype) {
  Tensor t = empty({int64_t(xs.size())}, TensorOptions().dtype(kDouble));
  std::copy(xs.begin(), xs.end(), t.data_ptr<double>());
  return t.to(dtype);
}

/// Whether `got` is libtorch's `want`: see the file comment. `zeroInput`:
/// the op's argument was +-0.
bool agrees(double got, double want, bool exact, const std::string &dtype,
            bool zeroInput = false) {
  if (std::isnan(want) || std::isnan(got))
    return std::isnan(want) && std::isnan(got);
  if (std::isinf(want) || std::isinf(got) || exact)
    return got == want && std::signbit(got) == std::signbit(want);
  if (zeroInput && want == 0 && got == 0)
    return std::signbit(got) == std::signbit(want);
  double tiny = dtype == "f32" ? 0x1p-126 : 0x1p-1022;
  return std::fabs(got - want) <= tiny + 1e-4 * std::fabs(want);
}

/// Where tcc deliberately differs from libtorch 1.13: op, dtype, arguments
/// as the failure message prints them, and why tcc's answer is the right one.
struct Deviation {
  const char *op, *dtype, *args, *why;
};
const Deviation kDeviations[] = {
    {"log1p", "f32", "3.40282e+38",
     "libtorch's vectorized log1p (Sleef) overflows to inf; log1p(FLT_MAX) "
     "is 88.72"},
    {"log1p", "f64", "1.79769e+308",
     "libtorch's log1p overflows to inf; log1p(DBL_MAX) is 709.78"},
    {"mean", "f32", "[3.4e+38, 3.4e+38, 1]",
     "libtorch sums in f32 and overflows; tcc accumulates f32 in double, and "
     "the mean, 2.27e38, is finite"},
    {"gelu", "f32", "-0",
     "libtorch's f32 gelu runs oneDNN's, which returns +0; its f64 gelu and "
     "tcc compute 0.5 x (1 + erf(x / sqrt 2)), which is -0"},
};

bool isDeviation(const std::string &op, const std::string &dtype,
                 const std::string &args) {
  for (const Deviation &d : kDeviations)
    if (op == d.op && dtype == d.dtype && args == d.args)
      return true;
  return false;
}

using Unary = std::function<Tensor(const Tensor &)>;
using Binary = std::function<Tensor(const Tensor &, const Tensor &)>;

struct Op {
  bool exact;
  Unary unary;
  Binary binary;
};

/// tcc's eager op for each name the recorder uses.
const std::map<std::string, Op> &eagerOps() {
  static const std::map<std::string, Op> table = [] {
    std::map<std::string, Op> t;
    auto exact = [&](const char *name, Unary f) { t[name] = {true, f, {}}; };
    auto approx = [&](const char *name, Unary f) { t[name] = {false, f, {}}; };
    auto exact2 = [&](const char *name, Binary f) { t[name] = {true, {}, f}; };
    auto approx2 = [&](const char *name, Binary f) {
      t[name] = {false, {}, f};
    };
    exact("neg", [](const Tensor &x) { return x.neg(); });
    exact("abs", [](const Tensor &x) { return x.abs(); });
    exact("relu", [](const Tensor &x) { return x.relu(); });
    exact("sign", [](const Tensor &x) { return x.sign(); });
    exact("floor", [](const Tensor &x) { return x.floor(); });
    exact("ceil", [](const Tensor &x) { return x.ceil(); });
    exact("round", [](const Tensor &x) { return x.round(); });
    exact("sqrt", [](const Tensor &x) { return x.sqrt(); });
    exact("reciprocal", [](const Tensor &x) { return x.reciprocal(); });
    exact("square", [](const Tensor &x) { return x.square(); });
    exact("clamp", [](const Tensor &x) { return x.clamp(-1.5, 2.5); });
    exact("logical_not", [](const Tensor &x) { return x.logical_not(); });
    exact("leaky_relu", [](const Tensor &x) {
      return nn::functional::leaky_relu(
          x, nn::functional::LeakyReLUFuncOptions().negative_slope(0.01));
    });
    approx("rsqrt", [](const Tensor &x) { return x.rsqrt(); });
    approx("exp", [](const Tensor &x) { return x.exp(); });
    approx("log", [](const Tensor &x) { return x.log(); });
    approx("log1p", [](const Tensor &x) { return x.log1p(); });
    approx("sin", [](const Tensor &x) { return x.sin(); });
    approx("cos", [](const Tensor &x) { return x.cos(); });
    approx("tanh", [](const Tensor &x) { return x.tanh(); });
    approx("sigmoid", [](const Tensor &x) { return x.sigmoid(); });
    approx("erf", [](const Tensor &x) { return x.erf(); });
    approx("silu", [](const Tensor &x) { return silu(x); });
    approx("gelu", [](const Tensor &x) { return gelu(x); });
    approx("gelu_tanh", [](const Tensor &x) { return gelu(x, "tanh"); });

    exact2("add", [](const Tensor &a, const Tensor &b) { return a + b; });
    exact2("sub", [](const Tensor &a, const Tensor &b) { return a - b; });
    exact2("mul", [](const Tensor &a, const Tensor &b) { return a * b; });
    exact2("div", [](const Tensor &a, const Tensor &b) { return a / b; });
    approx2("pow", [](const Tensor &a, const Tensor &b) { return a.pow(b); });
    exact2("maximum",
           [](const Tensor &a, const Tensor &b) { return maximum(a, b); });
    exact2("minimum",
           [](const Tensor &a, const Tensor &b) { return minimum(a, b); });
    exact2("eq", [](const Tensor &a, const Tensor &b) { return eq(a, b); });
    exact2("ne", [](const Tensor &a, const Tensor &b) { return ne(a, b); });
    exact2("lt", [](const Tensor &a, const Tensor &b) { return lt(a, b); });
    exact2("le", [](const Tensor &a, const Tensor &b) { return le(a, b); });
    exact2("gt", [](const Tensor &a, const Tensor &b) { return gt(a, b); });
    exact2("ge", [](const Tensor &a, const Tensor &b) { return ge(a, b); });
    exact2("logical_and",
           [](const Tensor &a, const Tensor &b) { return logical_and(a, b); });
    exact2("logical_or",
           [](const Tensor &a, const Tensor &b) { return logical_or(a, b); });
    exact2("logical_xor",
           [](const Tensor &a, const Tensor &b) { return logical_xor(a, b); });

    // Reductions along dim 1 of the rows.
    exact("sum", [](const Tensor &x) { return x.sum({1}); });
    approx("mean", [](const Tensor &x) { return x.mean({1}); });
    exact("prod", [](const Tensor &x) { return x.prod(1); });
    exact("amax", [](const Tensor &x) { return x.amax({1}); });
    exact("amin", [](const Tensor &x) { return x.amin({1}); });
    exact("max", [](const Tensor &x) { return std::get<0>(x.max(1)); });
    exact("min", [](const Tensor &x) { return std::get<0>(x.min(1)); });
    exact("argmax", [](const Tensor &x) { return x.argmax(1); });
    exact("argmin", [](const Tensor &x) { return x.argmin(1); });
    approx("var", [](const Tensor &x) { return x.var({1}); });
    approx("std", [](const Tensor &x) { return x.std({1}); });
    approx("logsumexp", [](const Tensor &x) { return x.logsumexp({1}); });
    approx("softmax", [](const Tensor &x) { return x.softmax(1); });
    approx("log_softmax", [](const Tensor &x) { return x.log_softmax(1); });
    return t;
  }();
  return table;
}

const Op &eagerOp(const std::string &name) {
  auto it = eagerOps().find(name);
  if (it == eagerOps().end())
    throw std::runtime_error("no eager op for the recorded '" + name + "'");
  return it->second;
}

/// Compares every value of `got` with the record's, accepting the scalar
/// path's alternate where libtorch's two paths disagree.
void expectRecord(const Record &r, const std::vector<double> &got,
                  const std::vector<std::string> &argText,
                  const std::vector<double> &unaryInputs = {}) {
  std::vector<double> want = decode(r.bits, r.dtype);
  std::map<size_t, double> alternates = decodeAlternates(r.alternates, r.dtype);
  ASSERT_EQ(got.size(), want.size()) << r.op << " " << r.dtype;
  bool exact = eagerOp(r.op).exact;
  for (size_t i = 0; i < want.size(); ++i) {
    bool zeroInput = i < unaryInputs.size() && unaryInputs[i] == 0;
    bool ok = agrees(got[i], want[i], exact, r.dtype, zeroInput);
    if (!ok && alternates.count(i))
      ok = agrees(got[i], alternates[i], exact, r.dtype, zeroInput);
    if (isDeviation(r.op, r.dtype, argText[i])) {
      EXPECT_FALSE(ok) << r.op << "(" << argText[i] << ") in " << r.dtype
                       << " now agrees with libtorch: drop its deviation";
      continue;
    }
    EXPECT_TRUE(ok) << r.op << "(" << argText[i] << ") in " << r.dtype
                    << ": tcc " << got[i] << ", libtorch " << want[i]
                    << (alternates.count(i) ? " or " : "")
                    << (alternates.count(i) ? std::to_string(alternates[i])
                                            : std::string());
  }
}

std::string text(double x) {
  std::ostringstream s;
  s << x;
  return s.str();
}

TEST(LibtorchEdgeValues, InputsAreTheEdgeValuesOfTheTests) {
  for (const Record &r : records()) {
    if (r.kind != "inputs")
      continue;
    std::vector<double> recorded = decode(r.bits, r.dtype);
    std::vector<double> edges = r.dtype == "f32"
                                    ? test::edgeValues<float, double>()
                                    : test::edgeValues<double, double>();
    ASSERT_EQ(recorded.size(), edges.size()) << r.dtype;
    for (size_t i = 0; i < edges.size(); ++i)
      EXPECT_TRUE(agrees(recorded[i], edges[i], true, r.dtype))
          << r.dtype << " input " << i << ": recorded " << recorded[i]
          << ", EdgeValues.h " << edges[i]
          << " (rerun record_libtorch_edges.py)";
  }
}

TEST(LibtorchEdgeValues, UnaryOpsGiveLibtorchsAnswers) {
  std::map<std::string, std::vector<double>> inputs;
  int checked = 0;
  for (const Record &r : records()) {
    if (r.kind == "inputs")
      inputs[r.dtype] = decode(r.bits, r.dtype);
    if (r.kind != "unary")
      continue;
    const std::vector<double> &xs = inputs.at(r.dtype);
    Tensor x = fromValues(xs, scalarType(r.dtype));
    std::vector<std::string> args;
    for (double v : xs)
      args.push_back(text(v));
    expectRecord(r, values(eagerOp(r.op).unary(x)), args, xs);
    ++checked;
  }
  EXPECT_GE(checked, 40);
}

TEST(LibtorchEdgeValues, BinaryOpsGiveLibtorchsAnswersOnEveryPair) {
  std::map<std::string, std::vector<double>> inputs;
  int checked = 0;
  for (const Record &r : records()) {
    if (r.kind == "inputs")
      inputs[r.dtype] = decode(r.bits, r.dtype);
    if (r.kind != "binary")
      continue;
    const std::vector<double> &xs = inputs.at(r.dtype);
    int64_t n = int64_t(xs.size());
    Tensor b = fromValues(xs, scalarType(r.dtype));
    Tensor a = b.reshape({n, 1});
    std::vector<std::string> args;
    for (double x : xs)
      for (double y : xs)
        args.push_back(text(x) + ", " + text(y));
    expectRecord(r, values(eagerOp(r.op).binary(a, b)), args);
    ++checked;
  }
  EXPECT_GE(checked, 16);
}

TEST(LibtorchEdgeValues, ReductionsGiveLibtorchsAnswersOnRowsWithEdges) {
  Tensor rows;
  std::vector<std::string> rowText;
  int checked = 0;
  for (const Record &r : records()) {
    if (r.kind == "rows") {
      std::vector<double> xs = decode(r.bits, r.dtype);
      rows = fromValues(xs, kFloat).reshape({-1, 3});
      for (size_t i = 0; i < xs.size(); i += 3)
        rowText.push_back("[" + text(xs[i]) + ", " + text(xs[i + 1]) + ", " +
                          text(xs[i + 2]) + "]");
    }
    if (r.kind != "reduce")
      continue;
    ASSERT_TRUE(rows.defined()) << "the rows come before the reductions";
    Tensor got = eagerOp(r.op).unary(rows);
    std::vector<std::string> args = rowText;
    if (got.dim() == 2) { // softmax and log_softmax: one value per element
      args.clear();
      for (const std::string &row : rowText)
        for (int j = 0; j < 3; ++j)
          args.push_back(row + "[" + std::to_string(j) + "]");
    }
    expectRecord(r, values(got), args);
    ++checked;
  }
  EXPECT_GE(checked, 14);
}

/// Where tcc's NN ops deliberately differ from libtorch 1.13: the case's
/// label and why tcc's answer is the right one. Some results of such a case
/// may still agree; at least one must not, or the entry goes.
struct NNDeviation {
  const char *label, *why;
};
const NNDeviation kNNDeviations[] = {
    {"batch_norm_train: operand 0[5] = max",
     "libtorch's f32 variance overflows to inf, so every result of the "
     "channel is its bias; tcc accumulates in double, and the exact "
     "normalized values (-4.06 for the largest, -0.28 for the others) are "
     "finite"},
    {"layer_norm: operand 0[2] = max",
     "libtorch's f32 variance of the row overflows and the row becomes NaN; "
     "tcc accumulates in double and gives the finite normalized row"},
    {"batch_norm_train: operand 1[1] = inf",
     "libtorch folds the affine step into x * (w / std) + (b - mean * w / "
     "std), which is inf - inf for w = inf; w * (x - mean) / std + b, as "
     "tcc computes it, is +-inf"},
    {"batch_norm_train: operand 1[1] = -inf",
     "as for w = inf: libtorch's folded affine step makes -inf + inf"},
    {"batch_norm_train: operand 1[1] = max",
     "libtorch's folded affine step, b - mean * w / std, overflows for w = "
     "FLT_MAX; tcc's w * (x - mean) / std + b is finite where the exact "
     "result is"},
};

const NNDeviation *nnDeviation(const std::string &label) {
  for (const NNDeviation &d : kNNDeviations)
    if (label == d.label)
      return &d;
  return nullptr;
}

TEST(LibtorchEdgeValues, NNOpsGiveLibtorchsAnswersWithOneEdgeValue) {
  int checked = 0;
  for (const test::NNEdgeCase &c : test::nnEdgeCases()) {
    auto op = test::nnEdgeOps().find(c.op);
    ASSERT_NE(op, test::nnEdgeOps().end())
        << "no eager op for the recorded " << c.op;
    std::vector<Tensor> operands;
    for (size_t i = 0; i < c.operands.size(); ++i)
      operands.push_back(
          fromValues({c.operands[i].begin(), c.operands[i].end()}, kFloat)
              .reshape(c.shapes[i]));
    std::vector<double> got = values(op->second(operands));
    ASSERT_EQ(got.size(), c.result.size()) << c.label;
    const NNDeviation *deviation = nnDeviation(c.label);
    bool zeroSignFree = test::zeroSignIsFree(c);
    int disagreements = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      bool ok = test::nnAgrees(float(got[i]), c.result[i], zeroSignFree);
      disagreements += !ok;
      if (!deviation) {
        EXPECT_TRUE(ok) << c.label << ", result " << i << ": tcc " << got[i]
                        << ", libtorch " << c.result[i];
      }
    }
    if (deviation) {
      EXPECT_GT(disagreements, 0)
          << c.label << " now agrees with libtorch: drop its deviation ("
          << deviation->why << ")";
    }
    ++checked;
  }
  EXPECT_GE(checked, 200);
}

} // namespace
} // namespace tcc
