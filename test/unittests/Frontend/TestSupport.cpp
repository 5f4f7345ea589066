//===- TestSupport.cpp - gradcheck and tensor comparisons -----------------===//

#include "TestSupport.h"

#include "tcc/Frontend/OpObserver.h"
#include "tcc/Frontend/OpRegistry.h"

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

namespace tcc {
namespace test {

std::vector<double> values(const Tensor &t) {
  Tensor d = t.detach().to(kDouble).contiguous();
  const double *p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

::testing::AssertionResult tensorEquals(const Tensor &t,
                                        std::vector<int64_t> sizes,
                                        std::vector<double> expected,
                                        double tol) {
  if (!t.defined())
    return ::testing::AssertionFailure() << "tensor is undefined";
  if (t.sizes().vec() != sizes) {
    std::ostringstream os;
    os << "sizes " << t.sizes() << " != expected " << IntArrayRef(sizes);
    return ::testing::AssertionFailure() << os.str();
  }
  std::vector<double> got = values(t);
  if (got.size() != expected.size())
    return ::testing::AssertionFailure()
           << got.size() << " values, expected " << expected.size();
  for (size_t i = 0; i < got.size(); ++i) {
    double a = got[i], b = expected[i];
    bool ok = (std::isnan(a) && std::isnan(b)) || a == b ||
              std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b));
    if (!ok)
      return ::testing::AssertionFailure()
             << "element " << i << ": got " << a << ", expected " << b;
  }
  return ::testing::AssertionSuccess();
}

std::string errorOf(const std::function<void()> &fn) {
  try {
    fn();
  } catch (const Error &e) {
    return e.what();
  }
  return "<no error thrown>";
}

Tensor leaf(std::vector<int64_t> sizes, double lo, double hi) {
  Tensor t = rand(sizes, kDouble) * (hi - lo) + lo;
  return t.detach().requires_grad_(true);
}

namespace {

// --- Coverage log (read by GradCheckCoverageTest) ----------------------------
//
// With TCC_GRADCHECK_COVERAGE_LOG set, each passing check appends which
// registered ops it checked: "1 <op>" when the op's backward node took part
// in a first-order check, "2 <op>" in a second-order one. An op is credited
// for a node it made itself (the observer saw the call, and the output's
// grad_fn is a node named the op's backward), so a shared node name
// ("ViewBackward0" for view, reshape, flatten) does not credit the others.
// Inside composite ops the observer is paused; there a node counts for the
// one op whose backward has its name, if only one has. Only the graph of the
// checked function counts, not the objective's weighting (mul, sum) around
// it.

const char *coverageLog() { return std::getenv("TCC_GRADCHECK_COVERAGE_LOG"); }

/// The op that made each node reported while it is installed.
class NodeOps : public detail::OpObserver {
public:
  void onOp(const detail::OpCall &call) override {
    for (const Tensor &out : call.outputs) {
      if (!out.defined() || !out.grad_fn())
        continue;
      const std::shared_ptr<autograd::Node> &node = out.grad_fn();
      if (node->name() == call.op.backward)
        made_.emplace(node.get(), std::make_pair(node, call.op.name));
    }
  }
  /// The ops whose nodes are reachable from `root`'s grad_fn; with
  /// `byUniqueName`, unobserved nodes too where their name is one op's.
  std::set<std::string> opsIn(const Tensor &root, bool byUniqueName) const {
    std::set<std::string> ops;
    std::vector<const autograd::Node *> todo;
    std::unordered_set<const autograd::Node *> seen;
    if (root.defined() && root.grad_fn())
      todo.push_back(root.grad_fn().get());
    while (!todo.empty()) {
      const autograd::Node *n = todo.back();
      todo.pop_back();
      if (!seen.insert(n).second)
        continue;
      auto it = made_.find(n);
      if (it != made_.end()) {
        ops.insert(it->second.second);
      } else if (byUniqueName) {
        const detail::OpDef *op = onlyOpWithBackward(n->name());
        if (op)
          ops.insert(op->name);
      }
      for (const autograd::Edge &e : n->next_edges())
        if (e.function)
          todo.push_back(e.function.get());
    }
    return ops;
  }

private:
  static const detail::OpDef *onlyOpWithBackward(const std::string &name) {
    const detail::OpDef *found = nullptr;
    for (const detail::OpDef *op : detail::registeredOps()) {
      if (name != op->backward)
        continue;
      if (found)
        return nullptr;
      found = op;
    }
    return found;
  }

  // Holding the node keeps its address from being reused by another.
  std::map<const autograd::Node *,
           std::pair<std::shared_ptr<autograd::Node>, const char *>>
      made_;
};

/// Installs `o` (when not null) as this thread's observer for a scope.
class Observe {
public:
  explicit Observe(NodeOps *o)
      : active_(o != nullptr), prev_(o ? detail::setObserver(o) : nullptr) {}
  ~Observe() {
    if (active_)
      detail::setObserver(prev_);
  }

private:
  bool active_;
  detail::OpObserver *prev_;
};

void logCoverage(int order, const std::set<std::string> &ops) {
  if (ops.empty())
    return;
  std::ofstream log(coverageLog(), std::ios::app);
  for (const std::string &op : ops)
    log << order << " " << op << "\n";
}

/// Scalar objective sum(fn(inputs) * weights) so every output element
/// contributes with a distinct weight.
struct Objective {
  TensorFn fn;
  std::vector<Tensor> weights;
  /// When set, sees the ops of `fn` (not the weighting below), and
  /// `fnOps` gets the ops whose nodes make fn's graph.
  NodeOps *observe = nullptr;
  std::set<std::string> fnOps;
  Tensor operator()(const std::vector<Tensor> &in) {
    Tensor out;
    {
      Observe o(observe);
      out = fn(in);
    }
    if (observe)
      fnOps = observe->opsIn(out, /*byUniqueName=*/true);
    if (weights.empty()) {
      manual_seed(1234);
      weights.push_back(rand(out.sizes(), kDouble) + 0.5);
    }
    return (out.to(kDouble) * weights[0]).sum();
  }
};

::testing::AssertionResult compare(const std::vector<Tensor> &inputs,
                                   const std::vector<Tensor> &analytic,
                                   const std::function<double()> &eval,
                                   double eps, double atol, double rtol) {
  for (size_t k = 0; k < inputs.size(); ++k) {
    Tensor x = inputs[k];
    std::vector<double> a = analytic[k].defined()
                                ? values(analytic[k])
                                : std::vector<double>(size_t(x.numel()), 0.0);
    double *p = x.data_ptr<double>();
    Tensor xc = x;
    if (!x.is_contiguous())
      return ::testing::AssertionFailure() << "gradcheck inputs must be contiguous";
    for (int64_t i = 0; i < x.numel(); ++i) {
      double orig = p[i];
      p[i] = orig + eps;
      double plus = eval();
      p[i] = orig - eps;
      double minus = eval();
      p[i] = orig;
      double numeric = (plus - minus) / (2 * eps);
      if (std::fabs(numeric - a[size_t(i)]) > atol + rtol * std::fabs(numeric))
        return ::testing::AssertionFailure()
               << "input " << k << " element " << i << ": analytic "
               << a[size_t(i)] << " vs numeric " << numeric;
    }
  }
  return ::testing::AssertionSuccess();
}

} // namespace

::testing::AssertionResult gradcheck(const TensorFn &fn,
                                     const std::vector<Tensor> &inputs,
                                     double eps, double atol, double rtol) {
  NodeOps nodeOps;
  Objective f{fn, {}, coverageLog() ? &nodeOps : nullptr};
  Tensor y = f(inputs);
  f.observe = nullptr;
  std::vector<Tensor> grads = autograd::grad({y}, inputs, {}, std::nullopt,
                                             false, /*allow_unused=*/true);
  auto eval = [&] {
    NoGradGuard g;
    return f(inputs).item<double>();
  };
  ::testing::AssertionResult result =
      compare(inputs, grads, eval, eps, atol, rtol);
  if (result && coverageLog())
    logCoverage(1, f.fnOps);
  return result;
}

::testing::AssertionResult gradgradcheck(const TensorFn &fn,
                                         const std::vector<Tensor> &inputs,
                                         double eps, double atol,
                                         double rtol) {
  // g(x) = sum(dObjective/dx * v) for fixed v; check dg/dx numerically.
  NodeOps nodeOps;
  Objective f{fn, {}};
  manual_seed(99);
  std::vector<Tensor> vs;
  for (const Tensor &x : inputs)
    vs.push_back(rand(x.sizes(), kDouble) + 0.5);
  // The ops of fn, whose formulas are differentiated here, and the ops those
  // formulas call (max_pool2d_backward, ...), whose own formulas are.
  std::set<std::string> secondOrder, firstOrder;
  auto g = [&](bool createGraph) {
    NodeOps *observe = createGraph && coverageLog() ? &nodeOps : nullptr;
    f.observe = observe;
    Tensor y = f(inputs);
    f.observe = nullptr;
    if (observe)
      secondOrder = f.fnOps;
    std::vector<Tensor> grads;
    {
      Observe o(observe);
      grads = autograd::grad({y}, inputs, {}, std::nullopt, createGraph, true);
    }
    Tensor total = zeros({}, kDouble);
    for (size_t k = 0; k < grads.size(); ++k)
      if (grads[k].defined())
        total = total + (grads[k] * vs[k]).sum();
    return total;
  };
  Tensor gy = g(true);
  // The nodes fn's formulas made (only observed ones: a unique node name
  // could also come from an op called outside fn). The weighting's formulas
  // work on constants (ones, the weights) and make none.
  firstOrder = nodeOps.opsIn(gy, /*byUniqueName=*/false);
  // A gradient that does not depend on the inputs has zero second
  // derivatives; the finite differences must agree.
  std::vector<Tensor> second(inputs.size());
  if (gy.requires_grad())
    second = autograd::grad({gy}, inputs, {}, std::nullopt, false, true);
  auto eval = [&] { return g(false).item<double>(); };
  ::testing::AssertionResult result =
      compare(inputs, second, eval, eps, atol, rtol);
  if (result && coverageLog()) {
    logCoverage(1, firstOrder);
    logCoverage(2, secondOrder);
  }
  return result;
}

} // namespace test
} // namespace tcc
