//===- Utils.h - nn::utils: gradient clipping -------------------*- C++ -*-===//

#ifndef TCC_FRONTEND_NN_UTILS_H
#define TCC_FRONTEND_NN_UTILS_H

#include "tcc/Frontend/Tensor.h"

#include <vector>

namespace tcc {
namespace nn {
namespace utils {

/// Scales the gradients of `parameters` so that their total `norm_type`
/// norm (as one vector; inf: the largest magnitude) is at most `max_norm`.
/// Returns the total norm before clipping. With error_if_nonfinite, a NaN
/// or infinite total norm is an error.
double clip_grad_norm_(const std::vector<Tensor> &parameters, double max_norm,
                       double norm_type = 2.0, bool error_if_nonfinite = false);
double clip_grad_norm_(const Tensor &parameter, double max_norm,
                       double norm_type = 2.0, bool error_if_nonfinite = false);
/// Clamps every gradient element into [-clip_value, clip_value].
void clip_grad_value_(const std::vector<Tensor> &parameters, double clip_value);
void clip_grad_value_(const Tensor &parameter, double clip_value);

} // namespace utils
} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_UTILS_H
