//===- OpCases.cpp - The conformance cases of every tcc op ----------------===//
//
// Shapes: rank 0 and rank 1 where the op allows them, odd sizes (7, 17),
// size-1 dims that broadcast. Dtypes: f32 always; f64, f16, bf16, i32, i64
// and i1 wherever the op's type constraint allows them.
//
// Tolerances are in epsilons of the result dtype relative to
// max(|want|, 1) (errorInEpsilons):
// - 0 (bit-exact): integer and bool results, data movement, rounding
//   ops, comparisons, and the IEEE operations (+ - * / sqrt, max, min).
// - kApprox (8): the polynomial transcendentals at f32/f64 (MLIR's f32 and
//   tcc's f64 approximations vs the eager library's, each within a few ulp
//   of the true value); 2 at f16/bf16 (both compute in f32 and round once,
//   so one rounding boundary apart at most, plus slack for their sum).
// - sums (reductions, matmul, conv, norms, softmax): the length of the sum
//   in epsilons, since compiled and eager code add in different orders.
//
//===----------------------------------------------------------------------===//

#include "OpCases.h"

#include "ConformanceSupport.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace tcc {
namespace conformance {

namespace {

using Shape = std::vector<int64_t>;

const std::vector<ScalarType> kFloats = {kFloat, kDouble, kHalf, kBFloat16};
const std::vector<ScalarType> kNumeric = {kFloat,    kDouble, kHalf,
                                          kBFloat16, kInt,    kLong};
const std::vector<ScalarType> kAll = {kFloat, kDouble, kHalf, kBFloat16,
                                      kInt,   kLong,   kBool};

bool isHalf(ScalarType t) { return t == kHalf || t == kBFloat16; }
bool isFloat(ScalarType t) { return epsilonOf(t) != 0; }

/// The transcendental tolerance (see the file comment).
double approx(ScalarType t) {
  if (!isFloat(t))
    return 0;
  return isHalf(t) ? 2 : 8;
}

/// A sum of `n` terms in a different order: n epsilons (at least 1), and
/// one more rounding at f16/bf16.
double sumTolerance(ScalarType t, int64_t n) {
  if (!isFloat(t))
    return 0;
  return isHalf(t) ? 2 : std::max<double>(n, 1);
}

std::string shapeText(const Shape &s) {
  std::string text = "[";
  for (size_t i = 0; i < s.size(); ++i)
    text += (i ? ", " : "") + std::to_string(s[i]);
  return text + "]";
}

std::string array(const Shape &values) {
  std::string text = "array<i64";
  for (size_t i = 0; i < values.size(); ++i)
    text += (i ? ", " : ": ") + std::to_string(values[i]);
  return text + ">";
}

Shape broadcast(Shape a, Shape b) {
  if (a.size() < b.size())
    std::swap(a, b);
  Shape out = a;
  for (size_t i = 0; i < b.size(); ++i) {
    int64_t &d = out[a.size() - b.size() + i];
    d = std::max(d, b[i]);
  }
  return out;
}

std::string label(ScalarType t, const std::vector<Shape> &shapes,
                  const std::string &extra = "") {
  std::string text = irElementType(t);
  for (const Shape &s : shapes)
    text += " " + shapeText(s);
  return extra.empty() ? text : text + " " + extra;
}

/// `(A, B) -> R`.
std::string functional(const std::vector<Tensor> &inputs,
                       const std::string &result) {
  std::string text = "(";
  for (size_t i = 0; i < inputs.size(); ++i)
    text += (i ? ", " : "") +
            irType(inputs[i].sizes().vec(), inputs[i].scalar_type());
  return text + ") -> " + result;
}

std::string typeOf(const Tensor &t) {
  return irType(t.sizes().vec(), t.scalar_type());
}

/// Values with a random sign and magnitude in [lo, hi) (divisors).
Tensor awayFromZero(const Shape &shape, ScalarType t, double lo, double hi) {
  Tensor magnitude = uniformTensor(shape, isFloat(t) ? kDouble : kLong, lo, hi);
  Tensor sign = randint(0, 2, shape).to(magnitude.scalar_type()) * 2 - 1;
  return (magnitude * sign).to(t);
}

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

const std::vector<Shape> kUnaryShapes = {{}, {1}, {7}, {3, 17}};

OpGroup unary(const std::string &op, const std::vector<ScalarType> &dtypes,
              double lo, double hi, std::function<double(ScalarType)> tol,
              const std::string &attr = "") {
  OpGroup g{op, {}, {}};
  for (ScalarType t : dtypes)
    for (const Shape &s : kUnaryShapes) {
      Tensor x = uniformTensor(s, t, lo, hi);
      g.cases.push_back({label(t, {s}),
                         {x},
                         "$r = " + op + " $0" + attr + " : " + typeOf(x),
                         typeOf(x),
                         tol(t)});
    }
  return g;
}

double exact(ScalarType) { return 0; }

const std::vector<std::pair<Shape, Shape>> kBinaryShapes = {
    {{3, 5}, {3, 5}}, {{2, 1, 5}, {4, 5}}, {{}, {3}}, {{7}, {1}}};

/// `make(shape, dtype, operand)` draws each operand.
OpGroup binary(const std::string &op, const std::vector<ScalarType> &dtypes,
               std::function<Tensor(const Shape &, ScalarType, int)> make,
               std::function<double(ScalarType)> tol, bool boolResult = false) {
  OpGroup g{op, {}, {}};
  for (ScalarType t : dtypes)
    for (const auto &[sa, sb] : kBinaryShapes) {
      Tensor a = make(sa, t, 0), b = make(sb, t, 1);
      std::string result = irType(broadcast(sa, sb), boolResult ? kBool : t);
      g.cases.push_back(
          {label(t, {sa, sb}),
           {a, b},
           "$r = " + op + " $0, $1 : " + functional({a, b}, result),
           result,
           tol(t)});
    }
  return g;
}

Tensor plain(const Shape &s, ScalarType t, int) {
  return uniformTensor(s, t, -10, 10);
}

/// Small whole numbers in every dtype, so that comparisons see ties.
Tensor wholeNumbers(const Shape &s, ScalarType t, int) {
  if (t == kBool)
    return uniformTensor(s, kBool, 0, 2);
  return uniformTensor(s, kLong, -2, 3).to(t);
}

std::vector<OpGroup> elementwiseGroups() {
  std::vector<OpGroup> groups;
  for (const char *op : {"tcc.neg", "tcc.abs", "tcc.relu", "tcc.sign"})
    groups.push_back(unary(op, kNumeric, -50, 50, exact));
  groups.push_back(unary("tcc.exp", kFloats, -10, 10, approx));
  groups.push_back(unary("tcc.log", kFloats, 0.01, 100, approx));
  groups.push_back(unary("tcc.log1p", kFloats, -0.9, 10, approx));
  groups.push_back(unary("tcc.sqrt", kFloats, 0, 100, exact));
  groups.push_back(unary("tcc.rsqrt", kFloats, 0.01, 100, approx));
  for (const char *op : {"tcc.tanh", "tcc.sigmoid", "tcc.silu", "tcc.erf"})
    groups.push_back(unary(op, kFloats, -6, 6, approx));
  for (const char *op : {"tcc.sin", "tcc.cos"})
    groups.push_back(unary(op, kFloats, -10, 10, approx));
  for (const char *op : {"tcc.floor", "tcc.ceil", "tcc.round"})
    groups.push_back(unary(op, kFloats, -10, 10, exact));
  OpGroup gelu = unary("tcc.gelu", kFloats, -6, 6, approx);
  OpGroup geluTanh =
      unary("tcc.gelu", kFloats, -6, 6, approx, " approximate tanh");
  for (OpCase &c : geluTanh.cases)
    c.label += " tanh";
  gelu.cases.insert(gelu.cases.end(), geluTanh.cases.begin(),
                    geluTanh.cases.end());
  groups.push_back(gelu);
  groups.push_back(unary("tcc.logical_not", {kBool}, 0, 2, exact));

  OpGroup clamp{"tcc.clamp", {}, {}};
  for (ScalarType t : kNumeric)
    for (const Shape &s : kUnaryShapes) {
      Tensor x = uniformTensor(s, t, -5, 5);
      clamp.cases.push_back(
          {label(t, {s}, "min -2 max 3"),
           {x},
           "$r = tcc.clamp $0 min -2.0 max 3.0 : " + typeOf(x),
           typeOf(x),
           0});
      clamp.cases.push_back({label(t, {s}, "max 1"),
                             {x},
                             "$r = tcc.clamp $0 max 1.0 : " + typeOf(x),
                             typeOf(x),
                             0});
    }
  groups.push_back(clamp);
  groups.push_back(
      unary("tcc.dropout", kFloats, -5, 5, exact, " {p = 5.000000e-01 : f64}"));

  for (const char *op :
       {"tcc.add", "tcc.sub", "tcc.mul", "tcc.maximum", "tcc.minimum"}) {
    groups.push_back(binary(op, kNumeric, plain, exact));
    // One operand twice: maximum(x, x) folds to x inside the kernel, which
    // must still not return its argument (tcc-copy-returned-arguments).
    for (ScalarType t : {kFloat, kInt}) {
      Tensor x = plain({3, 4}, t, 0);
      groups.back().cases.push_back({label(t, {{3, 4}}, "x, x"),
                                     {x},
                                     "$r = " + std::string(op) + " $0, $0 : " +
                                         functional({x, x}, typeOf(x)),
                                     typeOf(x),
                                     0});
    }
  }
  groups.push_back(binary(
      "tcc.div", kFloats,
      [](const Shape &s, ScalarType t, int operand) {
        return operand ? awayFromZero(s, t, 0.5, 4) : plain(s, t, 0);
      },
      exact));
  groups.push_back(binary(
      "tcc.pow", kNumeric,
      [](const Shape &s, ScalarType t, int operand) {
        if (!isFloat(t))
          return operand ? uniformTensor(s, t, 0, 4)
                         : uniformTensor(s, t, -3, 4);
        return operand ? uniformTensor(s, t, -2, 2)
                       : uniformTensor(s, t, 0.5, 2);
      },
      approx));
  for (const char *op : {"tcc.remainder", "tcc.floor_divide"})
    groups.push_back(binary(
        op, kNumeric,
        [](const Shape &s, ScalarType t, int operand) {
          return operand ? awayFromZero(s, t, 1, 5) : plain(s, t, 0);
        },
        exact));
  for (const char *op :
       {"tcc.eq", "tcc.ne", "tcc.lt", "tcc.le", "tcc.gt", "tcc.ge"})
    groups.push_back(binary(op, kAll, wholeNumbers, exact, true));
  for (const char *op :
       {"tcc.logical_and", "tcc.logical_or", "tcc.logical_xor"})
    groups.push_back(binary(op, {kBool}, wholeNumbers, exact));

  OpGroup select{"tcc.select", {}, {}};
  for (ScalarType t : kAll) {
    for (const auto &[sc, st, sf] :
         std::vector<std::tuple<Shape, Shape, Shape>>{
             {{4, 1}, {3}, {4, 3}}, {{}, {2, 2}, {2, 2}}, {{5}, {5}, {}}}) {
      Tensor c = uniformTensor(sc, kBool, 0, 2), a = wholeNumbers(st, t, 0),
             b = wholeNumbers(sf, t, 1);
      std::string result = irType(broadcast(broadcast(sc, st), sf), t);
      select.cases.push_back(
          {label(t, {sc, st, sf}),
           {c, a, b},
           "$r = tcc.select $0, $1, $2 : " + functional({c, a, b}, result),
           result,
           0});
    }
  }
  groups.push_back(select);

  OpGroup cast{"tcc.cast", {}, {}};
  // Floats to integers truncate: values stay inside every target's range.
  for (ScalarType from : kAll)
    for (ScalarType to : kAll) {
      if (from == to)
        continue;
      Shape s = from == kFloat ? Shape{3, 7} : Shape{5};
      Tensor x = from == kBool ? uniformTensor(s, kBool, 0, 2)
                               : uniformTensor(s, from, -100, 100);
      cast.cases.push_back(
          {label(from, {s}, "to " + irElementType(to)),
           {x},
           "$r = tcc.cast $0 : " + typeOf(x) + " to " + irType(s, to),
           irType(s, to),
           0});
    }
  groups.push_back(cast);

  // Every pair of distinct types of one width; integer sources give float
  // bit patterns of every kind (NaN, subnormal), compared NaN for NaN here
  // and bit for bit by BitcastBitsTest.
  OpGroup bitcast{"tcc.bitcast", {}, {}};
  for (ScalarType from : kAll)
    for (ScalarType to : kAll) {
      if (from == to || from == kBool || to == kBool ||
          elementSize(from) != elementSize(to))
        continue;
      Shape s = from == kFloat ? Shape{3, 7} : Shape{5};
      Tensor x = uniformTensor(s, from, -100, 100);
      bitcast.cases.push_back(
          {label(from, {s}, "to " + irElementType(to)),
           {x},
           "$r = tcc.bitcast $0 : " + typeOf(x) + " to " + irType(s, to),
           irType(s, to),
           0});
    }
  groups.push_back(bitcast);
  return groups;
}

//===----------------------------------------------------------------------===//
// Reductions, softmax, normalization
//===----------------------------------------------------------------------===//

struct Reduction {
  Shape input, dims;
  bool keepdim;
  Shape result;
};

const std::vector<Reduction> kReductions = {
    {{3, 17}, {1}, false, {3}},
    {{2, 3, 4}, {0, 2}, true, {1, 3, 1}},
    {{5}, {0}, false, {}},
    {{4, 6}, {0, 1}, false, {}},
};

int64_t reducedCount(const Reduction &r) {
  int64_t n = 1;
  for (int64_t d : r.dims)
    n *= r.input[d];
  return n;
}

OpGroup reduction(const std::string &op, const std::vector<ScalarType> &dtypes,
                  double lo, double hi) {
  OpGroup g{op, {}, {}};
  bool order = op == "tcc.reduce_max" || op == "tcc.reduce_min";
  for (ScalarType t : dtypes)
    for (const Reduction &r : kReductions) {
      Tensor x = uniformTensor(r.input, t, lo, hi);
      std::string result = irType(r.result, t);
      std::string attrs = "{dims = " + array(r.dims) +
                          ", keepdim = " + (r.keepdim ? "true" : "false") + "}";
      double tol = order ? 0 : sumTolerance(t, reducedCount(r));
      // A product's rounding errors compound relative to the result.
      if (op == "tcc.reduce_prod" && isFloat(t) && !isHalf(t))
        tol = 2.0 * reducedCount(r);
      g.cases.push_back(
          {label(t, {r.input}, "dims " + shapeText(r.dims)),
           {x},
           "$r = " + op + " $0 " + attrs + " : " + typeOf(x) + " -> " + result,
           result,
           tol});
    }
  return g;
}

std::vector<OpGroup> reductionGroups() {
  std::vector<OpGroup> groups;
  groups.push_back(reduction("tcc.reduce_sum", kNumeric, -5, 5));
  groups.push_back(reduction("tcc.reduce_mean", kFloats, -5, 5));
  groups.push_back(reduction("tcc.reduce_prod", kNumeric, 0.8, 1.25));
  // Integer products: values in [-1, 2), so no overflow.
  for (OpCase &c : groups.back().cases)
    if (!isFloat(c.inputs[0].scalar_type()))
      c.inputs[0] = uniformTensor(c.inputs[0].sizes().vec(),
                                  c.inputs[0].scalar_type(), -1, 2);
  groups.push_back(reduction("tcc.reduce_max", kAll, -50, 50));
  groups.push_back(reduction("tcc.reduce_min", kAll, -50, 50));

  for (const char *op : {"tcc.argmax", "tcc.argmin"}) {
    OpGroup g{op, {}, {}};
    for (ScalarType t : kNumeric)
      for (const auto &[shape, dim, keep, result] :
           std::vector<std::tuple<Shape, int64_t, bool, Shape>>{
               {{3, 17}, 1, false, {3}},
               {{2, 3, 4}, 0, true, {1, 3, 4}},
               {{7}, 0, false, {}},
               {{4, 5}, -1, false, {4}}}) {
        // Whole numbers in a small range: ties, where the first index wins.
        Tensor x = uniformTensor(shape, kLong, -3, 4).to(t);
        std::string r = irType(result, kLong);
        g.cases.push_back({label(t, {shape}, "dim " + std::to_string(dim)),
                           {x},
                           "$r = " + std::string(op) +
                               " $0 {dim = " + std::to_string(dim) + " : i64" +
                               (keep ? ", keepdim = true" : "") +
                               "} : " + typeOf(x) + " -> " + r,
                           r,
                           0});
      }
    groups.push_back(g);
  }

  for (const char *op : {"tcc.softmax", "tcc.log_softmax"}) {
    OpGroup g{op, {}, {}};
    for (ScalarType t : kFloats)
      for (const auto &[shape, dim] : std::vector<std::pair<Shape, int64_t>>{
               {{3, 17}, 1}, {{2, 3, 4}, 0}, {{5}, -1}, {{4, 1}, 1}}) {
        Tensor x = uniformTensor(shape, t, -8, 8);
        int64_t n = shape[dim < 0 ? dim + shape.size() : dim];
        g.cases.push_back({label(t, {shape}, "dim " + std::to_string(dim)),
                           {x},
                           "$r = " + std::string(op) + " $0 {dim = " +
                               std::to_string(dim) + " : i64} : " + typeOf(x),
                           typeOf(x),
                           approx(t) + sumTolerance(t, n)});
      }
    groups.push_back(g);
  }

  OpGroup layerNorm{"tcc.layer_norm", {}, {}};
  for (ScalarType t : kFloats) {
    Tensor x = uniformTensor({3, 17}, t, -3, 3),
           w = uniformTensor({17}, t, 0.5, 1.5),
           b = uniformTensor({17}, t, -1, 1);
    layerNorm.cases.push_back(
        {label(t, {{3, 17}}, "weight bias"),
         {x, w, b},
         "$r = tcc.layer_norm $0 weight $1 bias $2 {normalized_shape = " +
             array({17}) + "} : " + functional({x, w, b}, typeOf(x)),
         typeOf(x),
         4 * sumTolerance(t, 17)});
    Tensor y = uniformTensor({2, 3, 4}, t, -3, 3);
    layerNorm.cases.push_back({label(t, {{2, 3, 4}}, "[3, 4], eps 0.1"),
                               {y},
                               "$r = tcc.layer_norm $0 {eps = 1.000000e-01 : "
                               "f64, normalized_shape = " +
                                   array({3, 4}) +
                                   "} : " + functional({y}, typeOf(y)),
                               typeOf(y),
                               4 * sumTolerance(t, 12)});
  }
  groups.push_back(layerNorm);

  OpGroup batchNorm{"tcc.batch_norm", {}, {}};
  for (ScalarType t : kFloats)
    for (const Shape &s : {Shape{2, 3, 5, 5}, Shape{4, 3}}) {
      std::vector<Tensor> in = {
          uniformTensor(s, t, -3, 3), uniformTensor({3}, t, 0.5, 1.5),
          uniformTensor({3}, t, -1, 1), uniformTensor({3}, t, -0.5, 0.5),
          uniformTensor({3}, t, 0.5, 2)};
      batchNorm.cases.push_back({label(t, {s}), in,
                                 "$r = tcc.batch_norm $0, $1, $2, $3, $4 {eps "
                                 "= 1.000000e-05 : f64} : " +
                                     functional(in, typeOf(in[0])),
                                 typeOf(in[0]), 4 * approx(t) + 4});
    }
  groups.push_back(batchNorm);
  return groups;
}

//===----------------------------------------------------------------------===//
// Matmul, linear, convolution, pooling
//===----------------------------------------------------------------------===//

std::vector<OpGroup> nnGroups() {
  std::vector<OpGroup> groups;
  OpGroup matmul{"tcc.matmul", {}, {}};
  for (ScalarType t : kNumeric)
    for (const auto &[sa, sb, sr] :
         std::vector<std::tuple<Shape, Shape, Shape>>{
             {{3, 17}, {17, 5}, {3, 5}},
             {{2, 4, 7}, {7, 3}, {2, 4, 3}},
             {{2, 3, 4}, {2, 4, 5}, {2, 3, 5}},
             {{1, 9}, {9, 1}, {1, 1}}}) {
      Tensor a = uniformTensor(sa, t, -2, 2), b = uniformTensor(sb, t, -2, 2);
      int64_t k = sb.size() == 1 ? sb[0] : sb[sb.size() - 2];
      // |a| |b| <= 4: a sum of k such terms is up to 4k in size.
      matmul.cases.push_back(
          {label(t, {sa, sb}),
           {a, b},
           "$r = tcc.matmul $0, $1 : " + functional({a, b}, irType(sr, t)),
           irType(sr, t),
           4 * sumTolerance(t, k)});
    }
  groups.push_back(matmul);

  OpGroup linear{"tcc.linear", {}, {}};
  for (ScalarType t : kNumeric) {
    Tensor x = uniformTensor({8, 4}, t, -2, 2),
           w = uniformTensor({2, 4}, t, -2, 2),
           b = uniformTensor({2}, t, -2, 2);
    linear.cases.push_back({label(t, {{8, 4}, {2, 4}}, "bias"),
                            {x, w, b},
                            "$r = tcc.linear $0, $1, $2 : " +
                                functional({x, w, b}, irType({8, 2}, t)),
                            irType({8, 2}, t),
                            4 * sumTolerance(t, 5)});
    Tensor x3 = uniformTensor({2, 3, 5}, t, -2, 2),
           w3 = uniformTensor({3, 5}, t, -2, 2);
    linear.cases.push_back({label(t, {{2, 3, 5}, {3, 5}}),
                            {x3, w3},
                            "$r = tcc.linear $0, $1 : " +
                                functional({x3, w3}, irType({2, 3, 3}, t)),
                            irType({2, 3, 3}, t),
                            4 * sumTolerance(t, 5)});
  }
  groups.push_back(linear);

  struct Conv {
    Shape x, w;
    bool bias;
    std::string attrs;
    Shape result;
    int64_t terms;
  };
  OpGroup conv{"tcc.conv2d", {}, {}};
  for (ScalarType t : kFloats)
    for (const Conv &c : std::vector<Conv>{
             {{1, 3, 7, 7},
              {4, 3, 3, 3},
              true,
              "{padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}",
              {1, 4, 4, 4},
              28},
             {{2, 4, 5, 6},
              {4, 2, 1, 2},
              false,
              "{groups = 2 : i64}",
              {2, 4, 5, 5},
              4},
             {{1, 2, 6, 6},
              {3, 2, 3, 3},
              true,
              "{dilation = array<i64: 2, 2>}",
              {1, 3, 2, 2},
              19}}) {
      std::vector<Tensor> in = {uniformTensor(c.x, t, -2, 2),
                                uniformTensor(c.w, t, -1, 1)};
      if (c.bias)
        in.push_back(uniformTensor({c.w[0]}, t, -1, 1));
      std::string operands = c.bias ? "$0, $1, $2" : "$0, $1";
      conv.cases.push_back({label(t, {c.x, c.w}, c.attrs), in,
                            "$r = tcc.conv2d " + operands + " " + c.attrs +
                                " : " + functional(in, irType(c.result, t)),
                            irType(c.result, t), 2 * sumTolerance(t, c.terms)});
    }
  groups.push_back(conv);

  struct Pool {
    Shape x;
    std::string attrs;
    Shape result;
  };
  auto pool = [&](const std::string &op, const std::vector<Pool> &cases,
                  double tol) {
    OpGroup g{op, {}, {}};
    for (ScalarType t : kFloats)
      for (const Pool &p : cases) {
        Tensor x = uniformTensor(p.x, t, -5, 5);
        g.cases.push_back({label(t, {p.x}, p.attrs),
                           {x},
                           "$r = " + op + " $0 " + p.attrs + " : " + typeOf(x) +
                               " -> " + irType(p.result, t),
                           irType(p.result, t),
                           tol ? sumTolerance(t, 9) : 0});
      }
    groups.push_back(g);
  };
  pool("tcc.max_pool2d",
       {{{1, 3, 7, 7},
         "{kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, "
         "stride = array<i64: 2, 2>}",
         {1, 3, 4, 4}},
        {{2, 2, 5, 6},
         "{ceil_mode = true, kernel_size = array<i64: 2, 2>, stride = "
         "array<i64: 2, 2>}",
         {2, 2, 3, 3}}},
       0);
  pool("tcc.avg_pool2d",
       {{{1, 3, 7, 7},
         "{kernel_size = array<i64: 3, 3>, padding = array<i64: 1, 1>, "
         "stride = array<i64: 2, 2>}",
         {1, 3, 4, 4}},
        {{1, 3, 7, 7},
         "{count_include_pad = false, kernel_size = array<i64: 3, 3>, "
         "padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}",
         {1, 3, 4, 4}},
        {{2, 2, 6, 6},
         "{divisor_override = 3 : i64, kernel_size = array<i64: 2, 2>, "
         "stride = array<i64: 2, 2>}",
         {2, 2, 3, 3}}},
       1);
  pool("tcc.adaptive_avg_pool2d",
       {{{1, 3, 7, 7}, "{output_size = array<i64: 1, 1>}", {1, 3, 1, 1}},
        {{2, 2, 5, 7}, "{output_size = array<i64: 2, 3>}", {2, 2, 2, 3}}},
       1);
  return groups;
}

//===----------------------------------------------------------------------===//
// Shapes and indexing
//===----------------------------------------------------------------------===//

std::vector<OpGroup> shapeGroups() {
  std::vector<OpGroup> groups;
  auto oneInput =
      [&](const std::string &op,
          const std::vector<std::tuple<Shape, std::string, Shape>> &cases,
          const std::string &separator) {
        OpGroup g{op, {}, {}};
        for (ScalarType t : kAll)
          for (const auto &[in, attrs, out] : cases) {
            Tensor x = wholeNumbers(in, t, 0);
            if (isFloat(t))
              x = uniformTensor(in, t, -10, 10);
            g.cases.push_back({label(t, {in}, attrs),
                               {x},
                               "$r = " + op + " $0 " + attrs + " : " +
                                   typeOf(x) + separator + irType(out, t),
                               irType(out, t),
                               0});
          }
        groups.push_back(g);
      };
  oneInput("tcc.reshape",
           {{{2, 3, 4}, "", {6, 4}},
            {{7}, "", {1, 7, 1}},
            {{}, "", {1, 1}},
            {{1}, "", {}}},
           " to ");
  oneInput("tcc.transpose",
           {{{2, 3, 4}, "{permutation = array<i64: 2, 0, 1>}", {4, 2, 3}},
            {{3, 5}, "{permutation = array<i64: 1, 0>}", {5, 3}}},
           " -> ");
  oneInput("tcc.broadcast_to",
           {{{3}, "", {2, 3}}, {{4, 1}, "", {2, 4, 5}}, {{}, "", {3}}}, " to ");
  oneInput("tcc.slice",
           {{{5, 7},
             "{end = array<i64: 4, 7>, start = array<i64: 1, 0>, step = "
             "array<i64: 2, 3>}",
             {2, 3}},
            {{9},
             "{end = array<i64: 9>, start = array<i64: 2>, step = array<i64: "
             "1>}",
             {7}},
            // Dims cut short from 0 with step 1 (chunk's first part).
            {{2, 5, 12},
             "{end = array<i64: 2, 5, 4>, start = array<i64: 0, 0, 0>, step = "
             "array<i64: 1, 1, 1>}",
             {2, 5, 4}},
            {{6, 5},
             "{end = array<i64: 4, 5>, start = array<i64: 0, 1>, step = "
             "array<i64: 1, 2>}",
             {4, 2}}},
           " -> ");
  oneInput("tcc.pad",
           {{{2, 3}, "{pad = array<i64: 1, 1, 2, 0>}", {4, 5}},
            {{4, 5},
             "{pad = array<i64: -1, 2>, value = 1.000000e+00 : f64}",
             {4, 6}}},
           " -> ");

  OpGroup concat{"tcc.concat", {}, {}};
  for (ScalarType t : kAll) {
    std::vector<Tensor> two = {wholeNumbers({2, 3}, t, 0),
                               wholeNumbers({2, 5}, t, 1)};
    concat.cases.push_back({label(t, {{2, 3}, {2, 5}}, "dim 1"), two,
                            "$r = tcc.concat $0, $1 {dim = 1 : i64} : " +
                                functional(two, irType({2, 8}, t)),
                            irType({2, 8}, t), 0});
    std::vector<Tensor> three = {wholeNumbers({1, 4}, t, 0),
                                 wholeNumbers({3, 4}, t, 1),
                                 wholeNumbers({2, 4}, t, 2)};
    concat.cases.push_back({label(t, {{1, 4}, {3, 4}, {2, 4}}, "dim 0"), three,
                            "$r = tcc.concat $0, $1, $2 {dim = 0 : i64} : " +
                                functional(three, irType({6, 4}, t)),
                            irType({6, 4}, t), 0});
  }
  groups.push_back(concat);

  auto indexed =
      [&](const std::string &op,
          const std::vector<std::tuple<Shape, Shape, ScalarType, int64_t,
                                       int64_t, Shape>> &cases) {
        OpGroup g{op, {}, {}};
        for (ScalarType t : kAll)
          for (const auto &[sx, si, indexType, dim, bound, sr] : cases) {
            Tensor x = isFloat(t) ? uniformTensor(sx, t, -10, 10)
                                  : wholeNumbers(sx, t, 0);
            Tensor i = uniformTensor(si, indexType, 0, bound);
            bool embedding = op == "tcc.embedding";
            std::vector<Tensor> in = embedding ? std::vector<Tensor>{i, x}
                                               : std::vector<Tensor>{x, i};
            std::string attrs =
                embedding ? "" : " {dim = " + std::to_string(dim) + " : i64}";
            g.cases.push_back({label(t, {sx, si}, irElementType(indexType)), in,
                               "$r = " + op + " $0, $1" + attrs + " : " +
                                   functional(in, irType(sr, t)),
                               irType(sr, t), 0});
          }
        groups.push_back(g);
      };
  indexed("tcc.gather", {{{2, 5}, {2, 3}, kLong, 1, 5, {2, 3}},
                         {{4, 3}, {2, 3}, kInt, 0, 4, {2, 3}}});
  indexed("tcc.index_select", {{{5, 3}, {4}, kLong, 0, 5, {4, 3}},
                               {{2, 6}, {3}, kInt, 1, 6, {2, 3}}});
  indexed("tcc.embedding", {{{10, 4}, {2, 3}, kLong, 0, 10, {2, 3, 4}},
                            {{7, 3}, {5}, kInt, 0, 7, {5, 3}}});

  // Uniform indices repeat, so 'none' checks that the last write wins and
  // the reductions that updates combine in order. Every dtype with every
  // shape for 'none'; each reduction with one shape per numeric dtype.
  OpGroup scatter{"tcc.scatter", {}, {}};
  const std::vector<std::tuple<Shape, Shape, ScalarType, int64_t>> scatters = {
      {{4, 5}, {3, 5}, kLong, 0}, {{2, 6}, {2, 9}, kInt, 1}, {{7}, {4}, kLong, 0}};
  auto addScatter = [&](ScalarType t, const std::string &reduction,
                        const std::tuple<Shape, Shape, ScalarType, int64_t> &c) {
    const auto &[sx, si, indexType, dim] = c;
    auto values = [&](const Shape &shape, int64_t seed) {
      return isFloat(t) ? uniformTensor(shape, t, -4, 4)
                        : wholeNumbers(shape, t, seed);
    };
    std::vector<Tensor> in = {values(sx, 0),
                              uniformTensor(si, indexType, 0, sx[dim]),
                              values(si, 1)};
    std::string attrs = "{dim = " + std::to_string(dim) + " : i64" +
                        (reduction == "none"
                             ? std::string()
                             : ", reduction = #tcc.scatter_reduction<" +
                                   reduction + ">") +
                        "}";
    scatter.cases.push_back(
        {label(t, {sx, si}, reduction + " " + irElementType(indexType)), in,
         "$r = tcc.scatter $0, $1, $2 " + attrs + " : " +
             functional(in, irType(sx, t)),
         irType(sx, t), 0});
  };
  for (ScalarType t : kAll)
    for (const auto &c : scatters)
      addScatter(t, "none", c);
  const std::vector<std::string> reductions = {"add", "mul", "max", "min"};
  for (ScalarType t : kNumeric)
    for (size_t r = 0; r < reductions.size(); ++r)
      addScatter(t, reductions[r], scatters[r % scatters.size()]);
  groups.push_back(scatter);
  return groups;
}

//===----------------------------------------------------------------------===//
// Constants and explicit fusions
//===----------------------------------------------------------------------===//

std::vector<OpGroup> structureGroups() {
  std::vector<OpGroup> groups;
  OpGroup constant{"tcc.constant", {}, {}};
  for (ScalarType t : {kFloat, kDouble, kHalf, kBFloat16, kInt, kLong}) {
    std::string dense = isFloat(t)
                            ? "dense<[[1.5, -2.0, 0.25], [3.0, 0.0, -1.0]]>"
                            : "dense<[[1, -2, 3], [4, 0, -1]]>";
    Tensor x = uniformTensor({2, 3}, t, -5, 5);
    std::string ty = irType({2, 3}, t);
    constant.cases.push_back({label(t, {{2, 3}}, "+ constant"),
                              {x},
                              "$t0 = tcc.constant " + dense + " : " + ty +
                                  "\n$r = tcc.add $0, $t0 : (" + ty + ", " +
                                  ty + ") -> " + ty,
                              ty,
                              0});
    constant.cases.push_back({label(t, {{4}}, "splat, returned"),
                              {},
                              "$r = tcc.constant dense<" +
                                  std::string(isFloat(t) ? "2.5" : "7") +
                                  "> : " + irType({4}, t),
                              irType({4}, t),
                              0});
  }
  constant.cases.push_back(
      {"i1 [3] returned",
       {},
       "$r = tcc.constant dense<[true, false, true]> : " + irType({3}, kBool),
       irType({3}, kBool),
       0});
  groups.push_back(constant);

  OpGroup fusion{"tcc.fusion", {"tcc.yield"}, {}};
  for (ScalarType t : kFloats) {
    Tensor a = uniformTensor({4, 8}, t, -3, 3),
           b = uniformTensor({8}, t, -3, 3);
    std::string ta = typeOf(a), tb = typeOf(b);
    fusion.cases.push_back(
        {label(t, {{4, 8}, {8}}, "sigmoid(a * b) + a"),
         {a, b},
         "$r = tcc.fusion ($0, $1) : (" + ta + ", " + tb + ") -> " + ta +
             " {\n^bb0($ta: " + ta + ", $tb: " + tb + "):\n" +
             "  $t0 = tcc.mul $ta, $tb : (" + ta + ", " + tb + ") -> " + ta +
             "\n  $t1 = tcc.sigmoid $t0 : " + ta +
             "\n  $t2 = tcc.add $t1, $ta : (" + ta + ", " + ta + ") -> " + ta +
             "\n  tcc.yield $t2 : " + ta + "\n}",
         ta,
         approx(t) + 1});
  }
  groups.push_back(fusion);
  return groups;
}

} // namespace

//===----------------------------------------------------------------------===//
// Quantization (docs/quantization.md): integer results, so bit-exact
//===----------------------------------------------------------------------===//

/// `$r = tcc.<op> $0, $1, ... <attrs> : (inputs) -> result`.
OpCase quantCase(const std::string &op, const std::string &labelText,
                 const std::vector<Tensor> &in, const Shape &resultShape,
                 ScalarType resultType, const std::string &attrs = "") {
  std::string operands;
  for (size_t i = 0; i < in.size(); ++i)
    operands += (i ? ", $" : "$") + std::to_string(i);
  std::string result = irType(resultShape, resultType);
  return {labelText, in,
          "$r = tcc." + op + " " + operands + (attrs.empty() ? "" : " ") +
              attrs + " : " + functional(in, result),
          result, 0};
}

/// Multiples of `step` / 2 in [-range, range): x / step often ties.
Tensor halfSteps(const Shape &shape, ScalarType t, double step, int64_t range) {
  return (randint(-range, range, shape).to(kDouble) * (step / 2)).to(t);
}

std::vector<OpGroup> quantizationGroups() {
  std::vector<OpGroup> groups;
  const double nan = std::nan(""), inf = INFINITY;

  OpGroup quantize{"tcc.quantize", {}, {}};
  for (ScalarType t : kFloats) {
    // Ties (x / 0.0625 = k / 2) and saturation below zero point 10.
    Tensor x = halfSteps({3, 17}, t, 0.0625, 300);
    quantize.cases.push_back(
        quantCase("quantize", label(t, {{3, 17}}, "ui8 ties"),
                  {x, tensor(0.0625, t), tensor(10, kByte)}, {3, 17}, kByte));
    Tensor special = tensor({nan, inf, -inf, 0.5, -0.5, 1e30, -1e30}, t);
    quantize.cases.push_back(
        quantCase("quantize", label(t, {{7}}, "i8 NaN and infinities"),
                  {special, tensor(1.0, t), tensor(-3, kChar)}, {7}, kChar));
    Tensor x3 = uniformTensor({2, 5, 3}, t, -8, 8);
    quantize.cases.push_back(quantCase("quantize",
                                       label(t, {{2, 5, 3}}, "i8 per channel"),
                                       {x3, uniformTensor({5}, t, 0.01, 0.1),
                                        uniformTensor({5}, kChar, -5, 5)},
                                       {2, 5, 3}, kChar, "{axis = 1 : i64}"));
    quantize.cases.push_back(
        quantCase("quantize", label(t, {{2, 5, 3}}, "i32 per channel, axis -1"),
                  {x3, uniformTensor({3}, t, 0.001, 0.01),
                   uniformTensor({3}, kInt, -99, 99)},
                  {2, 5, 3}, kInt, "{axis = -1 : i64}"));
  }
  groups.push_back(quantize);

  OpGroup dequantize{"tcc.dequantize", {}, {}};
  for (ScalarType t : kFloats) {
    dequantize.cases.push_back(
        quantCase("dequantize", label(t, {{3, 17}}, "ui8"),
                  {uniformTensor({3, 17}, kByte, 0, 256),
                   uniformTensor({}, t, 0.01, 0.1), tensor(128, kByte)},
                  {3, 17}, t));
    dequantize.cases.push_back(quantCase(
        "dequantize", label(t, {{4, 6}}, "i8 per channel"),
        {uniformTensor({4, 6}, kChar, -128, 128),
         uniformTensor({4}, t, 0.01, 1), uniformTensor({4}, kChar, -10, 10)},
        {4, 6}, t, "{axis = 0 : i64}"));
    dequantize.cases.push_back(
        quantCase("dequantize", label(t, {{7}}, "i32"),
                  {uniformTensor({7}, kInt, -2000000000, 2000000000),
                   uniformTensor({}, t, 0.001, 0.01), tensor(-100, kInt)},
                  {7}, t));
  }
  groups.push_back(dequantize);

  OpGroup requantize{"tcc.requantize", {}, {}};
  for (ScalarType t : kFloats) {
    requantize.cases.push_back(
        quantCase("requantize", label(t, {{3, 17}}, "ui8 ties"),
                  {uniformTensor({3, 17}, kInt, -600, 600), tensor(0.5, t),
                   tensor(3, kByte)},
                  {3, 17}, kByte));
    requantize.cases.push_back(
        quantCase("requantize", label(t, {{2, 4, 3}}, "i8 per channel"),
                  {uniformTensor({2, 4, 3}, kInt, -100000, 100000),
                   uniformTensor({4}, t, 0.0001, 0.002),
                   uniformTensor({4}, kChar, -5, 5)},
                  {2, 4, 3}, kChar, "{axis = 1 : i64}"));
  }
  groups.push_back(requantize);

  OpGroup matmul{"tcc.matmul_integer", {}, {}};
  struct Mm {
    Shape a, b, azp, bzp, r;
    ScalarType ta, tb;
  };
  for (const Mm &m : std::vector<Mm>{
           {{3, 17}, {17, 5}, {}, {}, {3, 5}, kByte, kChar},
           {{2, 4, 7}, {7, 3}, {4}, {3}, {2, 4, 3}, kChar, kByte},
           {{2, 3, 4}, {2, 4, 5}, {}, {5}, {2, 3, 5}, kByte, kByte},
           {{1, 1, 9}, {3, 9, 2}, {1}, {}, {3, 1, 2}, kChar, kChar}}) {
    auto range = [](ScalarType t) {
      return t == kByte ? std::pair<double, double>{0, 256}
                        : std::pair<double, double>{-128, 128};
    };
    auto [alo, ahi] = range(m.ta);
    auto [blo, bhi] = range(m.tb);
    std::vector<Tensor> in = {uniformTensor(m.a, m.ta, alo, ahi),
                              uniformTensor(m.b, m.tb, blo, bhi),
                              uniformTensor(m.azp, m.ta, alo, ahi),
                              uniformTensor(m.bzp, m.tb, blo, bhi)};
    matmul.cases.push_back(
        quantCase("matmul_integer",
                  label(m.ta, {m.a}) + " x " + label(m.tb, {m.b}) + " zp " +
                      shapeText(m.azp) + " " + shapeText(m.bzp),
                  in, m.r, kInt));
  }
  groups.push_back(matmul);

  OpGroup conv{"tcc.conv2d_integer", {}, {}};
  struct Cv {
    Shape x, w, wzp;
    ScalarType tx, tw;
    std::string attrs;
    Shape r;
  };
  for (const Cv &c : std::vector<Cv>{
           {{1, 3, 7, 7},
            {4, 3, 3, 3},
            {4},
            kByte,
            kChar,
            "{padding = array<i64: 1, 1>, stride = array<i64: 2, 2>}",
            {1, 4, 4, 4}},
           {{2, 4, 5, 6},
            {4, 2, 1, 2},
            {},
            kChar,
            kChar,
            "{groups = 2 : i64}",
            {2, 4, 5, 5}},
           {{1, 4, 6, 6},
            {4, 1, 3, 3},
            {4},
            kByte,
            kByte,
            "{dilation = array<i64: 2, 2>, groups = 4 : i64, padding = "
            "array<i64: 1, 1>}",
            {1, 4, 4, 4}}}) {
    auto values = [](const Shape &s, ScalarType t) {
      return t == kByte ? uniformTensor(s, t, 0, 256)
                        : uniformTensor(s, t, -128, 128);
    };
    std::vector<Tensor> in = {values(c.x, c.tx), values(c.w, c.tw),
                              values({}, c.tx), values(c.wzp, c.tw)};
    conv.cases.push_back(quantCase("conv2d_integer",
                                   label(c.tx, {c.x, c.w}, c.attrs), in, c.r,
                                   kInt, c.attrs));
  }
  groups.push_back(conv);
  return groups;
}

std::vector<OpGroup> allOpGroups() {
  manual_seed(20261130);
  std::vector<OpGroup> groups;
  for (auto make : {elementwiseGroups, reductionGroups, nnGroups,
                    quantizationGroups, shapeGroups, structureGroups}) {
    std::vector<OpGroup> part = make();
    groups.insert(groups.end(), part.begin(), part.end());
  }
  return groups;
}

/// Replaces every `from` in `text` with `to`.
static void replaceAll(std::string &text, const std::string &from,
                       const std::string &to) {
  for (size_t at = text.find(from); at != std::string::npos;
       at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

std::string moduleText(const std::vector<OpCase> &cases) {
  std::string args, body, results, values;
  for (size_t c = 0; c < cases.size(); ++c) {
    const OpCase &oc = cases[c];
    std::string text = oc.body, id = std::to_string(c);
    replaceAll(text, "$r", "%r" + id);
    replaceAll(text, "$t", "%t" + id + "_");
    // Highest index first, so that $1 does not eat the front of $12.
    for (size_t i = oc.inputs.size(); i-- > 0;)
      replaceAll(text, "$" + std::to_string(i),
                 "%a" + id + "_" + std::to_string(i));
    for (size_t i = 0; i < oc.inputs.size(); ++i)
      args += (args.empty() ? "" : ", ") + std::string("%a") + id + "_" +
              std::to_string(i) + ": " + typeOf(oc.inputs[i]);
    body += "    " + text + "\n";
    results += (results.empty() ? "" : ", ") + oc.resultType;
    values += (values.empty() ? "" : ", ") + std::string("%r") + id;
  }
  return "func.func @main(" + args + ") -> (" + results + ") {\n" + body +
         "    return " + values + " : " + results + "\n}\n";
}

} // namespace conformance
} // namespace tcc
