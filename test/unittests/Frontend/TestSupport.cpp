//===- TestSupport.cpp - gradcheck and tensor comparisons -----------------===//

#include "TestSupport.h"

#include <cmath>
#include <sstream>

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

/// Scalar objective sum(fn(inputs) * weights) so every output element
/// contributes with a distinct weight.
struct Objective {
  TensorFn fn;
  std::vector<Tensor> weights;
  Tensor operator()(const std::vector<Tensor> &in) {
    Tensor out = fn(in);
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
  Objective f{fn, {}};
  Tensor y = f(inputs);
  std::vector<Tensor> grads = autograd::grad({y}, inputs, {}, std::nullopt,
                                             false, /*allow_unused=*/true);
  auto eval = [&] {
    NoGradGuard g;
    return f(inputs).item<double>();
  };
  return compare(inputs, grads, eval, eps, atol, rtol);
}

::testing::AssertionResult gradgradcheck(const TensorFn &fn,
                                         const std::vector<Tensor> &inputs,
                                         double eps, double atol,
                                         double rtol) {
  // g(x) = sum(dObjective/dx * v) for fixed v; check dg/dx numerically.
  Objective f{fn, {}};
  manual_seed(99);
  std::vector<Tensor> vs;
  for (const Tensor &x : inputs)
    vs.push_back(rand(x.sizes(), kDouble) + 0.5);
  auto g = [&](bool createGraph) {
    Tensor y = f(inputs);
    std::vector<Tensor> grads = autograd::grad({y}, inputs, {}, std::nullopt,
                                               createGraph, true);
    Tensor total = zeros({}, kDouble);
    for (size_t k = 0; k < grads.size(); ++k)
      if (grads[k].defined())
        total = total + (grads[k] * vs[k]).sum();
    return total;
  };
  Tensor gy = g(true);
  // A gradient that does not depend on the inputs has zero second
  // derivatives; the finite differences must agree.
  std::vector<Tensor> second(inputs.size());
  if (gy.requires_grad())
    second = autograd::grad({gy}, inputs, {}, std::nullopt, false, true);
  auto eval = [&] { return g(false).item<double>(); };
  return compare(inputs, second, eval, eps, atol, rtol);
}

} // namespace test
} // namespace tcc
