//===- Utils.cpp - Gradient clipping --------------------------------------===//

#include "tcc/Frontend/nn/Utils.h"

#include "tcc/Frontend/Check.h"
#include "tcc/Frontend/GradMode.h"

#include <cmath>
#include <limits>

namespace tcc {
namespace nn {
namespace utils {

double clip_grad_norm_(const std::vector<Tensor> &parameters, double max_norm,
                       double norm_type, bool error_if_nonfinite) {
  NoGradGuard noGrad;
  std::vector<Tensor> grads;
  for (const Tensor &p : parameters)
    if (p.grad().defined())
      grads.push_back(p.grad());
  if (grads.empty())
    return 0.0;
  double total = 0;
  if (std::isinf(norm_type)) {
    for (const Tensor &g : grads)
      total = std::max(total, g.abs().max().item<double>());
  } else {
    for (const Tensor &g : grads)
      total += std::pow(g.norm(norm_type).item<double>(), norm_type);
    total = std::pow(total, 1.0 / norm_type);
  }
  TCC_CHECK(!error_if_nonfinite || std::isfinite(total),
            "The total norm of order ", norm_type,
            " for gradients from `parameters` is non-finite, so it cannot be "
            "clipped. To disable this error and scale the gradients by the "
            "non-finite norm anyway, set `error_if_nonfinite=false`");
  double coef = max_norm / (total + 1e-6);
  if (coef < 1)
    for (const Tensor &g : grads)
      g.mul_(coef);
  return total;
}

double clip_grad_norm_(const Tensor &parameter, double max_norm,
                       double norm_type, bool error_if_nonfinite) {
  return clip_grad_norm_(std::vector<Tensor>{parameter}, max_norm, norm_type,
                         error_if_nonfinite);
}

void clip_grad_value_(const std::vector<Tensor> &parameters,
                      double clip_value) {
  NoGradGuard noGrad;
  for (const Tensor &p : parameters)
    if (p.grad().defined())
      p.grad().clamp_(-clip_value, clip_value);
}

void clip_grad_value_(const Tensor &parameter, double clip_value) {
  clip_grad_value_(std::vector<Tensor>{parameter}, clip_value);
}

} // namespace utils
} // namespace nn
} // namespace tcc
