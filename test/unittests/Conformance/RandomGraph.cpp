//===- RandomGraph.cpp - Seeded small valid graphs of mixed tcc ops -------===//

#include "RandomGraph.h"

#include "ConformanceSupport.h"

#include <cmath>
#include <functional>
#include <numeric>
#include <random>

namespace tcc {
namespace conformance {

namespace {

using Shape = std::vector<int64_t>;

struct Value {
  std::string name;
  Shape shape;
};

class Generator {
public:
  explicit Generator(uint64_t seed) : rng_(seed) { manual_seed(seed); }

  RandomGraph build() {
    if (chance(0.4))
      values_.push_back(convBranch());
    else
      values_.push_back(input(randomShape(1 + pick(3)), 1));
    if (chance(0.5))
      values_.push_back(input(randomShape(1 + pick(3)), 1));
    int steps = 4 + pick(5);
    for (int i = 0; i < steps; ++i)
      step();
    // The last value and, sometimes, an earlier one (an output that is also
    // used inside the graph).
    std::vector<Value> outputs = {values_.back()};
    if (values_.size() > 2 && chance(0.5))
      outputs.push_back(values_[pick(values_.size() - 1)]);
    std::string results, names;
    for (const Value &v : outputs) {
      results += (results.empty() ? "" : ", ") + type(v.shape);
      names += (names.empty() ? "" : ", ") + v.name;
    }
    graph_.ir = "func.func @main(" + args_ + ") -> (" + results + ") {\n" +
                body_ + "  return " + names + " : " + results + "\n}\n";
    return std::move(graph_);
  }

private:
  size_t pick(size_t n) {
    return std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
  }
  bool chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  int64_t dim() {
    static const int64_t sizes[] = {1, 2, 3, 4, 5, 7, 8};
    return sizes[pick(7)];
  }
  Shape randomShape(size_t rank) {
    Shape s;
    for (size_t i = 0; i < rank; ++i)
      s.push_back(dim());
    return s;
  }
  static std::string type(const Shape &s) { return irType(s, kFloat); }
  static std::string array(const Shape &v) {
    std::string text = "array<i64";
    for (size_t i = 0; i < v.size(); ++i)
      text += (i ? ", " : ": ") + std::to_string(v[i]);
    return text + ">";
  }
  static int64_t numel(const Shape &s) {
    return std::accumulate(s.begin(), s.end(), int64_t(1),
                           std::multiplies<int64_t>());
  }

  /// A new function argument, uniform on [-scale, scale).
  Value input(const Shape &shape, double scale) {
    std::string name = "%in" + std::to_string(graph_.inputs.size());
    graph_.inputs.push_back(uniformTensor(shape, kFloat, -scale, scale));
    args_ += (args_.empty() ? "" : ", ") + name + ": " + type(shape);
    return {name, shape};
  }

  /// Appends `%vN = <op text> ...` and returns the value.
  /// A constant of uniform values in [-scale, scale] (weights that
  /// compile-time passes see, unlike inputs).
  Value constant(const Shape &shape, double scale) {
    std::uniform_real_distribution<double> value(-scale, scale);
    std::function<std::string(size_t)> literal = [&](size_t d) {
      std::string text = "[";
      for (int64_t i = 0; i < shape[d]; ++i) {
        if (i)
          text += ", ";
        text += d + 1 == shape.size() ? std::to_string(float(value(rng_)))
                                      : literal(d + 1);
      }
      return text + "]";
    };
    return emit("tcc.constant",
                "dense<" + literal(0) + "> : " + type(shape), shape);
  }

  Value emit(const std::string &op, const std::string &rest,
             const Shape &shape) {
    std::string name = "%v" + std::to_string(next_++);
    body_ += "  " + name + " = " + op + " " + rest + "\n";
    graph_.ops.push_back(op);
    return {name, shape};
  }

  Value unary(const Value &x, const std::string &op) {
    return emit(op, x.name + " : " + type(x.shape), x.shape);
  }

  /// conv2d (+ bias) -> relu -> max or avg pool -> [N, C * H * W].
  Value convBranch() {
    int64_t n = 1 + pick(2), c = 1 + pick(3), h = 5 + pick(4), w = 5 + pick(4),
            o = 2 + pick(3), k = chance(0.5) ? 3 : 1,
            pad = k == 3 ? pick(2) : 0;
    Value x = input({n, c, h, w}, 1);
    Value weight = input({o, c, k, k}, 1 / std::sqrt(double(c * k * k)));
    Value bias = input({o}, 0.5);
    int64_t oh = h + 2 * pad - k + 1, ow = w + 2 * pad - k + 1;
    Shape convShape = {n, o, oh, ow};
    Value y = emit("tcc.conv2d",
                   x.name + ", " + weight.name + ", " + bias.name +
                       " {padding = " + array({pad, pad}) + "} : (" +
                       type(x.shape) + ", " + type(weight.shape) + ", " +
                       type(bias.shape) + ") -> " + type(convShape),
                   convShape);
    y = unary(y, "tcc.relu");
    Shape pooled = {n, o, oh / 2, ow / 2};
    std::string pool = chance(0.5) ? "tcc.max_pool2d" : "tcc.avg_pool2d";
    y = emit(pool,
             y.name +
                 " {kernel_size = array<i64: 2, 2>, stride = array<i64: "
                 "2, 2>} : " +
                 type(y.shape) + " -> " + type(pooled),
             pooled);
    Shape flat = {n, o * (oh / 2) * (ow / 2)};
    return emit("tcc.reshape",
                y.name + " : " + type(pooled) + " to " + type(flat), flat);
  }

  /// a b^T for a and b of one shape [..., M, K]: b transposed in its last
  /// two dims, then the matmul, [..., M, M].
  Value timesTransposed(const Value &a, const Value &b) {
    size_t rank = b.shape.size();
    Shape perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    std::swap(perm[rank - 1], perm[rank - 2]);
    Shape bt = b.shape;
    std::swap(bt[rank - 1], bt[rank - 2]);
    Value t = emit("tcc.transpose",
                   b.name + " {permutation = " + array(perm) + "} : " +
                       type(b.shape) + " -> " + type(bt),
                   bt);
    Shape out = a.shape;
    out.back() = b.shape[rank - 2];
    return emit("tcc.matmul",
                a.name + ", " + t.name + " : (" + type(a.shape) + ", " +
                    type(bt) + ") -> " + type(out),
                out);
  }

  /// A shape that broadcasts to `s`: some dims 1, maybe fewer leading dims.
  Shape broadcastable(const Shape &s) {
    size_t dropped = chance(0.3) ? pick(s.size() + 1) : 0;
    Shape b(s.begin() + dropped, s.end());
    for (int64_t &d : b)
      if (chance(0.3))
        d = 1;
    return b;
  }

  void step() {
    const Value x =
        values_[values_.size() - 1 - pick(std::min<size_t>(values_.size(), 3))];
    size_t rank = x.shape.size();
    switch (pick(10)) {
    case 0: {
      static const char *ops[] = {"tcc.tanh", "tcc.sigmoid", "tcc.relu",
                                  "tcc.neg",  "tcc.abs",     "tcc.silu",
                                  "tcc.gelu", "tcc.exp"};
      std::string op = ops[pick(8)];
      // exp only of bounded values, so nothing overflows.
      Value in = op == "tcc.exp" ? unary(x, "tcc.tanh") : x;
      values_.push_back(unary(in, op));
      return;
    }
    case 1:
    case 2: {
      static const char *ops[] = {"tcc.add", "tcc.sub", "tcc.mul",
                                  "tcc.maximum"};
      Value other = input(broadcastable(x.shape), 1);
      for (const Value &v : values_)
        if (v.shape == x.shape && v.name != x.name && chance(0.5))
          other = v;
      bool swap = chance(0.5);
      const Value &a = swap ? other : x, &b = swap ? x : other;
      values_.push_back(emit(ops[pick(4)],
                             a.name + ", " + b.name + " : (" + type(a.shape) +
                                 ", " + type(b.shape) + ") -> " + type(x.shape),
                             x.shape));
      return;
    }
    case 3: {
      // linear with a bias, or matmul with a [K, N] weight (which takes
      // operands of rank 2 or more).
      int64_t k = x.shape.back(), n = dim() + 1;
      Shape out = x.shape;
      out.back() = n;
      double scale = 1 / std::sqrt(double(k));
      if (rank < 2 || chance(0.5)) {
        Value w = input({n, k}, scale), b = input({n}, 0.5);
        values_.push_back(emit("tcc.linear",
                               x.name + ", " + w.name + ", " + b.name + " : (" +
                                   type(x.shape) + ", " + type(w.shape) + ", " +
                                   type(b.shape) + ") -> " + type(out),
                               out));
      } else {
        Value w = input({k, n}, scale);
        values_.push_back(emit("tcc.matmul",
                               x.name + ", " + w.name + " : (" + type(x.shape) +
                                   ", " + type(w.shape) + ") -> " + type(out),
                               out));
      }
      return;
    }
    case 4: {
      if (rank < 2)
        break;
      static const char *ops[] = {"tcc.reduce_sum", "tcc.reduce_mean",
                                  "tcc.reduce_max"};
      int64_t d = pick(rank);
      bool keep = chance(0.5);
      Shape out = x.shape;
      if (keep)
        out[d] = 1;
      else
        out.erase(out.begin() + d);
      values_.push_back(emit(ops[pick(3)],
                             x.name + " {dims = " + array({d}) +
                                 ", keepdim = " + (keep ? "true" : "false") +
                                 "} : " + type(x.shape) + " -> " + type(out),
                             out));
      return;
    }
    case 5: {
      // Merge the last two dims, or split the last one.
      Shape out = x.shape;
      if (rank >= 2) {
        out[rank - 2] *= out[rank - 1];
        out.pop_back();
      } else if (rank == 1 && out[0] % 2 == 0) {
        out = {2, out[0] / 2};
      } else {
        out = {1, numel(x.shape)};
      }
      values_.push_back(
          emit("tcc.reshape",
               x.name + " : " + type(x.shape) + " to " + type(out), out));
      return;
    }
    case 6: {
      if (rank < 2)
        break;
      Shape perm(rank);
      std::iota(perm.begin(), perm.end(), 0);
      std::shuffle(perm.begin(), perm.end(), rng_);
      Shape out;
      for (int64_t p : perm)
        out.push_back(x.shape[p]);
      values_.push_back(emit("tcc.transpose",
                             x.name + " {permutation = " + array(perm) +
                                 "} : " + type(x.shape) + " -> " + type(out),
                             out));
      return;
    }
    case 7: {
      if (rank < 1)
        break;
      std::string op = chance(0.5) ? "tcc.softmax" : "tcc.log_softmax";
      values_.push_back(emit(op,
                             x.name + " {dim = " + std::to_string(pick(rank)) +
                                 " : i64} : " + type(x.shape),
                             x.shape));
      return;
    }
    case 8: {
      if (rank < 2)
        break;
      // x y^T of two computed values, y transposed in its last two dims
      // (attention's q k^T): the compiler reads such operands in place
      // through sgemm's strides, and may write the result through a
      // transpose that follows.
      Value y = x;
      for (const Value &v : values_)
        if (v.shape == x.shape && v.name != x.name && chance(0.5))
          y = v;
      values_.push_back(timesTransposed(x, y));
      return;
    }
    case 9: {
      if (rank < 2)
        break;
      // Attention's projections: linears of x with constant weights whose
      // results only matmuls read (x a^T, then maybe that times c), which
      // tcc-merge-linears makes one GEMM read back through slices.
      int64_t k = x.shape.back(), n = dim() + 1;
      double scale = 1 / std::sqrt(double(k));
      auto project = [&](int64_t width) {
        Shape out = x.shape;
        out.back() = width;
        Value w = constant({width, k}, scale), b = constant({width}, 0.5);
        return emit("tcc.linear",
                    x.name + ", " + w.name + ", " + b.name + " : (" +
                        type(x.shape) + ", " + type(w.shape) + ", " +
                        type(b.shape) + ") -> " + type(out),
                    out);
      };
      Value a = project(n);
      Value b = project(n); // after a: the graph must not depend on the compiler
      Value s = timesTransposed(a, b);
      Shape scores = s.shape;
      if (chance(0.5)) {
        Value c = project(dim() + 1);
        Shape out = x.shape;
        out.back() = c.shape.back();
        s = emit("tcc.matmul",
                 s.name + ", " + c.name + " : (" + type(scores) + ", " +
                     type(c.shape) + ") -> " + type(out),
                 out);
      }
      values_.push_back(s);
      return;
    }
    default:
      break;
    }
    // Fallback: a residual add with a fresh broadcast input.
    Value other = input(broadcastable(x.shape), 1);
    values_.push_back(emit("tcc.add",
                           x.name + ", " + other.name + " : (" + type(x.shape) +
                               ", " + type(other.shape) + ") -> " +
                               type(x.shape),
                           x.shape));
  }

  std::mt19937_64 rng_;
  std::vector<Value> values_;
  RandomGraph graph_;
  std::string args_, body_;
  int next_ = 0;
};

} // namespace

RandomGraph randomGraph(uint64_t seed) { return Generator(seed).build(); }

} // namespace conformance
} // namespace tcc
