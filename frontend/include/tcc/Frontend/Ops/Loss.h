//===- Loss.h - Loss functions ----------------------------------*- C++ -*-===//
//
// libtorch's ATen losses. `reduction` is Reduction::None (per element),
// Mean or Sum, passed as int64_t as in ATen (`at::Reduction::Mean`).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPS_LOSS_H
#define TCC_FRONTEND_OPS_LOSS_H

#include "tcc/Frontend/Tensor.h"

#include <optional>

namespace tcc {

namespace Reduction {
enum Reduction { None, Mean, Sum, END };
} // namespace Reduction

Tensor mse_loss(const Tensor &self, const Tensor &target,
                int64_t reduction = Reduction::Mean);
Tensor l1_loss(const Tensor &self, const Tensor &target,
               int64_t reduction = Reduction::Mean);
/// 0.5 * d^2 / beta where |d| < beta, else |d| - 0.5 * beta (beta 0: L1).
Tensor smooth_l1_loss(const Tensor &self, const Tensor &target,
                      int64_t reduction = Reduction::Mean, double beta = 1.0);
/// -w * (t * log(x) + (1 - t) * log(1 - x)) for probabilities x in [0, 1];
/// each log is clamped to at least -100, as in PyTorch.
Tensor binary_cross_entropy(const Tensor &self, const Tensor &target,
                            const std::optional<Tensor> &weight = std::nullopt,
                            int64_t reduction = Reduction::Mean);
/// The same on logits, computed stably; pos_weight (broadcast along the
/// last dim) weighs the positive term.
Tensor binary_cross_entropy_with_logits(
    const Tensor &self, const Tensor &target,
    const std::optional<Tensor> &weight = std::nullopt,
    const std::optional<Tensor> &pos_weight = std::nullopt,
    int64_t reduction = Reduction::Mean);
/// Negative log-likelihood of log-probabilities self [N, C, d...] (or [C])
/// at int64 class indices target [N, d...]. Mean divides by the summed
/// weights of the targets that are not ignore_index.
Tensor nll_loss(const Tensor &self, const Tensor &target,
                const std::optional<Tensor> &weight = std::nullopt,
                int64_t reduction = Reduction::Mean,
                int64_t ignore_index = -100);
/// log_softmax over the class dim (1, or 0 for [C]) then nll_loss; target
/// holds int64 class indices or, with self's shape, class probabilities.
Tensor cross_entropy_loss(const Tensor &self, const Tensor &target,
                          const std::optional<Tensor> &weight = std::nullopt,
                          int64_t reduction = Reduction::Mean,
                          int64_t ignore_index = -100,
                          double label_smoothing = 0.0);

} // namespace tcc

#endif // TCC_FRONTEND_OPS_LOSS_H
