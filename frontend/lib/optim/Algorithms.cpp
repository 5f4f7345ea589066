//===- Algorithms.cpp - SGD, Adam, AdamW, RMSprop, Adagrad ----------------===//
//
// The update rules of PyTorch 1.13 (torch/optim/*.py and libtorch's
// torch/csrc/api/src/optim/*.cpp), written with eager ops under no-grad.
//
//===----------------------------------------------------------------------===//

#include "tcc/Frontend/optim/Adam.h"
#include "tcc/Frontend/optim/RMSprop.h"
#include "tcc/Frontend/optim/SGD.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/Factories.h"
#include "tcc/Frontend/Functions.h"
#include "tcc/Frontend/GradMode.h"
#include "tcc/Frontend/OpObserver.h"

#include <cmath>
#include <functional>
#include <type_traits>

namespace tcc {
namespace optim {
namespace {

Tensor runClosure(const Optimizer::LossClosure &closure) {
  if (!closure)
    return Tensor();
  AutoGradMode enable(true);
  return closure();
}

void checkNonNegative(double value, const char *name) {
  TCC_CHECK(value >= 0, "Invalid ", name, " value: ", value);
}

template <class State>
State &stateFor(
    std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>> &all,
    const std::string &key, bool &created) {
  auto &slot = all[key];
  created = slot == nullptr;
  if (created)
    slot = std::make_unique<State>();
  return static_cast<State &>(*slot);
}

/// The gradient to use, with L2 weight decay folded in (a new tensor).
Tensor decayedGrad(const Tensor &p, double weight_decay) {
  const Tensor &g = p.grad();
  return weight_decay != 0 ? g + p * weight_decay : g;
}

template <class O> void checkAdamOptions(const O &o) {
  checkNonNegative(o.lr(), "learning rate");
  checkNonNegative(o.eps(), "epsilon");
  double b1 = std::get<0>(o.betas()), b2 = std::get<1>(o.betas());
  TCC_CHECK(b1 >= 0 && b1 < 1, "Invalid beta parameter at index 0: ", b1);
  TCC_CHECK(b2 >= 0 && b2 < 1, "Invalid beta parameter at index 1: ", b2);
  checkNonNegative(o.weight_decay(), "weight_decay");
}

/// Adam's update of one contiguous tensor in a single pass: the same
/// operations as the op-by-op form in adamUpdate, in the same order, each
/// rounded to T, with the scalars converted to T as the eager ops convert
/// them (and no FMA contraction in this library), so the results are
/// bitwise those of the ops, without ten dispatches and memory passes.
template <class T>
void adamFused(T *p, const T *g, T *m, T *v, int64_t n, double lr, double beta1,
               double beta2, double eps, double bc1, double bc2) {
  const T b1 = T(beta1), c1 = T(1 - beta1), b2 = T(beta2), c2 = T(1 - beta2);
  const T root2 = T(std::sqrt(bc2)), e = T(eps), step = T(-(lr / bc1));
  for (int64_t i = 0; i < n; ++i) {
    const T mi = m[i] * b1 + c1 * g[i];
    const T vi = v[i] * b2 + c2 * (g[i] * g[i]);
    m[i] = mi;
    v[i] = vi;
    const T denom = std::sqrt(vi) / root2 + e;
    p[i] = p[i] + step * (mi / denom);
  }
}

/// Whether adamFused applies: one floating dtype (float32 or float64), one
/// size, every tensor contiguous, and no op observer (a trace must see the
/// update as ops).
bool fusesAdam(const Tensor &p, const Tensor &grad, const AdamParamState &s) {
  ScalarType t = p.dtype();
  if ((t != kFloat && t != kDouble) || detail::isRecording())
    return false;
  for (const Tensor &x : {grad, s.exp_avg(), s.exp_avg_sq()})
    if (x.dtype() != t || x.numel() != p.numel() || !x.is_contiguous())
      return false;
  return p.is_contiguous();
}

/// One Adam step on `p` (after any decoupled decay).
void adamUpdate(const Tensor &p, const Tensor &grad, AdamParamState &s,
                double lr, double beta1, double beta2, double eps,
                bool amsgrad) {
  s.step(s.step() + 1);
  double bc1 = 1 - std::pow(beta1, double(s.step()));
  double bc2 = 1 - std::pow(beta2, double(s.step()));
  if (!amsgrad && fusesAdam(p, grad, s)) {
    auto run = [&](auto *typed) {
      using T = std::remove_pointer_t<decltype(typed)>;
      auto data = [](const Tensor &t) {
        return static_cast<T *>(t.unsafeGetTensorImpl()->data());
      };
      adamFused(data(p), data(grad), data(s.exp_avg()), data(s.exp_avg_sq()),
                p.numel(), lr, beta1, beta2, eps, bc1, bc2);
    };
    if (p.dtype() == kFloat)
      run(static_cast<float *>(nullptr));
    else
      run(static_cast<double *>(nullptr));
    for (const Tensor &t : {p, s.exp_avg(), s.exp_avg_sq()})
      t.unsafeGetTensorImpl()->bumpVersion();
    return;
  }
  s.exp_avg().mul_(beta1).add_(grad, 1 - beta1);
  s.exp_avg_sq().mul_(beta2).add_(grad * grad, 1 - beta2);
  Tensor second = s.exp_avg_sq();
  if (amsgrad) {
    s.max_exp_avg_sq(maximum(s.max_exp_avg_sq(), s.exp_avg_sq()));
    second = s.max_exp_avg_sq();
  }
  Tensor denom = second.sqrt() / std::sqrt(bc2) + eps;
  p.sub_(s.exp_avg() / denom, lr / bc1);
}

/// One Adam or AdamW step over every parameter with a gradient: AdamW
/// decays the weights themselves first (decoupled), Adam folds L2 decay
/// into the gradient.
template <class Options, bool kDecoupled>
void adamSteps(
    std::vector<OptimizerParamGroup> &groups,
    std::unordered_map<std::string, std::unique_ptr<OptimizerParamState>>
        &state,
    const std::function<std::string(const Tensor &)> &key) {
  for (OptimizerParamGroup &group : groups) {
    const auto &o = static_cast<const Options &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined())
        continue;
      if (kDecoupled)
        p.mul_(1 - o.lr() * o.weight_decay());
      bool created;
      auto &s = stateFor<AdamParamState>(state, key(p), created);
      if (created) {
        s.exp_avg(zeros_like(p));
        s.exp_avg_sq(zeros_like(p));
        if (o.amsgrad())
          s.max_exp_avg_sq(zeros_like(p));
      }
      adamUpdate(p, kDecoupled ? p.grad() : decayedGrad(p, o.weight_decay()),
                 s, o.lr(), std::get<0>(o.betas()), std::get<1>(o.betas()),
                 o.eps(), o.amsgrad());
    }
  }
}

} // namespace

// --- SGD ---------------------------------------------------------------------

SGD::SGD(std::vector<OptimizerParamGroup> param_groups, SGDOptions defaults)
    : Optimizer(std::move(param_groups),
                std::make_unique<SGDOptions>(std::move(defaults))) {
  checkOptions(*defaults_);
  for (const OptimizerParamGroup &g : param_groups_)
    checkOptions(g.options());
}

void SGD::checkOptions(const OptimizerOptions &options) const {
  const auto &o = static_cast<const SGDOptions &>(options);
  checkNonNegative(o.lr(), "learning rate");
  checkNonNegative(o.momentum(), "momentum");
  checkNonNegative(o.weight_decay(), "weight_decay");
  TCC_CHECK(!o.nesterov() || (o.momentum() > 0 && o.dampening() == 0),
            "Nesterov momentum requires a momentum and zero dampening");
}

Tensor SGD::step(LossClosure closure) {
  Tensor loss = runClosure(closure);
  NoGradGuard noGrad;
  for (OptimizerParamGroup &group : param_groups_) {
    const auto &o = static_cast<const SGDOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined())
        continue;
      Tensor d = decayedGrad(p, o.weight_decay());
      if (o.momentum() != 0) {
        bool created;
        auto &s = stateFor<SGDParamState>(state_, stateKey(p), created);
        if (created || !s.momentum_buffer().defined()) {
          s.momentum_buffer(d.detach().clone());
        } else {
          s.momentum_buffer().mul_(o.momentum()).add_(d, 1 - o.dampening());
        }
        d = o.nesterov() ? d + s.momentum_buffer() * o.momentum()
                         : s.momentum_buffer();
      }
      p.add_(d, -o.lr());
    }
  }
  return loss;
}

// --- Adam and AdamW ----------------------------------------------------------

Adam::Adam(std::vector<OptimizerParamGroup> param_groups, AdamOptions defaults)
    : Optimizer(std::move(param_groups),
                std::make_unique<AdamOptions>(std::move(defaults))) {
  checkOptions(*defaults_);
  for (const OptimizerParamGroup &g : param_groups_)
    checkOptions(g.options());
}

void Adam::checkOptions(const OptimizerOptions &options) const {
  checkAdamOptions(static_cast<const AdamOptions &>(options));
}

Tensor Adam::step(LossClosure closure) {
  Tensor loss = runClosure(closure);
  NoGradGuard noGrad;
  adamSteps<AdamOptions, false>(param_groups_, state_,
                                [&](const Tensor &p) { return stateKey(p); });
  return loss;
}

AdamW::AdamW(std::vector<OptimizerParamGroup> param_groups,
             AdamWOptions defaults)
    : Optimizer(std::move(param_groups),
                std::make_unique<AdamWOptions>(std::move(defaults))) {
  checkOptions(*defaults_);
  for (const OptimizerParamGroup &g : param_groups_)
    checkOptions(g.options());
}

void AdamW::checkOptions(const OptimizerOptions &options) const {
  checkAdamOptions(static_cast<const AdamWOptions &>(options));
}

Tensor AdamW::step(LossClosure closure) {
  Tensor loss = runClosure(closure);
  NoGradGuard noGrad;
  adamSteps<AdamWOptions, true>(param_groups_, state_,
                                [&](const Tensor &p) { return stateKey(p); });
  return loss;
}

// --- RMSprop -----------------------------------------------------------------

RMSprop::RMSprop(std::vector<OptimizerParamGroup> param_groups,
                 RMSpropOptions defaults)
    : Optimizer(std::move(param_groups),
                std::make_unique<RMSpropOptions>(std::move(defaults))) {
  checkOptions(*defaults_);
  for (const OptimizerParamGroup &g : param_groups_)
    checkOptions(g.options());
}

void RMSprop::checkOptions(const OptimizerOptions &options) const {
  const auto &o = static_cast<const RMSpropOptions &>(options);
  checkNonNegative(o.lr(), "learning rate");
  checkNonNegative(o.eps(), "epsilon");
  checkNonNegative(o.momentum(), "momentum");
  checkNonNegative(o.weight_decay(), "weight_decay");
  checkNonNegative(o.alpha(), "alpha");
}

Tensor RMSprop::step(LossClosure closure) {
  Tensor loss = runClosure(closure);
  NoGradGuard noGrad;
  for (OptimizerParamGroup &group : param_groups_) {
    const auto &o = static_cast<const RMSpropOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined())
        continue;
      bool created;
      auto &s = stateFor<RMSpropParamState>(state_, stateKey(p), created);
      if (created) {
        s.square_avg(zeros_like(p));
        if (o.momentum() > 0)
          s.momentum_buffer(zeros_like(p));
        if (o.centered())
          s.grad_avg(zeros_like(p));
      }
      s.step(s.step() + 1);
      Tensor g = decayedGrad(p, o.weight_decay());
      s.square_avg().mul_(o.alpha()).add_(g * g, 1 - o.alpha());
      Tensor avg;
      if (o.centered()) {
        s.grad_avg().mul_(o.alpha()).add_(g, 1 - o.alpha());
        avg = (s.square_avg() - s.grad_avg() * s.grad_avg()).sqrt() + o.eps();
      } else {
        avg = s.square_avg().sqrt() + o.eps();
      }
      if (o.momentum() > 0) {
        s.momentum_buffer().mul_(o.momentum()).add_(g / avg);
        p.add_(s.momentum_buffer(), -o.lr());
      } else {
        p.add_(g / avg, -o.lr());
      }
    }
  }
  return loss;
}

// --- Adagrad -----------------------------------------------------------------

Adagrad::Adagrad(std::vector<OptimizerParamGroup> param_groups,
                 AdagradOptions defaults)
    : Optimizer(std::move(param_groups),
                std::make_unique<AdagradOptions>(std::move(defaults))) {
  checkOptions(*defaults_);
  for (const OptimizerParamGroup &g : param_groups_) {
    checkOptions(g.options());
    // As libtorch: the sums exist from the start.
    const auto &o = static_cast<const AdagradOptions &>(g.options());
    for (const Tensor &p : g.params()) {
      auto s = std::make_unique<AdagradParamState>();
      s->sum(full_like(p, o.initial_accumulator_value()));
      state_[stateKey(p)] = std::move(s);
    }
  }
}

void Adagrad::checkOptions(const OptimizerOptions &options) const {
  const auto &o = static_cast<const AdagradOptions &>(options);
  checkNonNegative(o.lr(), "learning rate");
  checkNonNegative(o.lr_decay(), "lr_decay");
  checkNonNegative(o.weight_decay(), "weight_decay");
  checkNonNegative(o.initial_accumulator_value(), "initial_accumulator_value");
  checkNonNegative(o.eps(), "epsilon");
}

Tensor Adagrad::step(LossClosure closure) {
  Tensor loss = runClosure(closure);
  NoGradGuard noGrad;
  for (OptimizerParamGroup &group : param_groups_) {
    const auto &o = static_cast<const AdagradOptions &>(group.options());
    for (Tensor &p : group.params()) {
      if (!p.grad().defined())
        continue;
      bool created;
      auto &s = stateFor<AdagradParamState>(state_, stateKey(p), created);
      if (created) // a parameter added after construction
        s.sum(full_like(p, o.initial_accumulator_value()));
      s.step(s.step() + 1);
      Tensor g = decayedGrad(p, o.weight_decay());
      double clr = o.lr() / (1 + double(s.step() - 1) * o.lr_decay());
      s.sum().add_(g * g);
      p.sub_(g / (s.sum().sqrt() + o.eps()), clr);
    }
  }
  return loss;
}

} // namespace optim
} // namespace tcc
