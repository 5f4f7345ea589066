//===- NN.h - Linear, convolution, pooling, norms, dropout, embedding -*- C++
//-*-//
//
// libtorch's ATen functions (`torch::conv2d`, `torch::max_pool2d`, ...) with
// their argument order and defaults. Size arguments (`stride`, `padding`,
// ...) take one value for every spatial dim or one per dim; an empty
// pooling `stride` means "the kernel size". Optional tensors are
// `std::optional<Tensor>` (pass a Tensor, `{}` or an undefined Tensor).
//
// Layout is NCHW (NCL for 1-D); an input without the batch dim ([C, H, W])
// is accepted where libtorch accepts it.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_OPS_NN_H
#define TCC_FRONTEND_OPS_NN_H

#include "tcc/Frontend/Tensor.h"

#include <optional>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace tcc {

namespace detail {
/// Enables the padding-mode overloads for string-like arguments only.
template <class P>
using IfPaddingString =
    std::enable_if_t<std::is_convertible<const P &, std::string_view>::value &&
                         !std::is_arithmetic<P>::value,
                     int>;
Tensor conv2dPaddingMode(const Tensor &input, const Tensor &weight,
                         const std::optional<Tensor> &bias, IntArrayRef stride,
                         std::string_view padding, IntArrayRef dilation,
                         int64_t groups);
Tensor conv1dPaddingMode(const Tensor &input, const Tensor &weight,
                         const std::optional<Tensor> &bias, IntArrayRef stride,
                         std::string_view padding, IntArrayRef dilation,
                         int64_t groups);
} // namespace detail

/// input [..., in] @ weight[out, in]^T + bias[out].
Tensor linear(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &bias = std::nullopt);

/// 2-D cross-correlation: input [N, C, H, W], weight [O, C / groups, kH, kW].
Tensor conv2d(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &bias = std::nullopt,
              IntArrayRef stride = 1, IntArrayRef padding = 0,
              IntArrayRef dilation = 1, int64_t groups = 1);
/// padding "valid" (none) or "same" (output size = input size; stride 1).
/// (A template so that a literal 0 or {0, 1} padding is never taken for a
/// string, which makes libtorch's own overload pair ambiguous.)
template <class Padding, detail::IfPaddingString<Padding> = 0>
Tensor conv2d(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &bias, IntArrayRef stride,
              const Padding &padding, IntArrayRef dilation = 1,
              int64_t groups = 1) {
  return detail::conv2dPaddingMode(input, weight, bias, stride, padding,
                                   dilation, groups);
}
/// 1-D cross-correlation: input [N, C, L], weight [O, C / groups, K].
Tensor conv1d(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &bias = std::nullopt,
              IntArrayRef stride = 1, IntArrayRef padding = 0,
              IntArrayRef dilation = 1, int64_t groups = 1);
template <class Padding, detail::IfPaddingString<Padding> = 0>
Tensor conv1d(const Tensor &input, const Tensor &weight,
              const std::optional<Tensor> &bias, IntArrayRef stride,
              const Padding &padding, IntArrayRef dilation = 1,
              int64_t groups = 1) {
  return detail::conv1dPaddingMode(input, weight, bias, stride, padding,
                                   dilation, groups);
}
/// The adjoint of conv2d: input [N, C, H, W], weight [C, O / groups, kH, kW];
/// out size (H - 1) * stride - 2 * padding + dilation * (kH - 1) +
/// output_padding + 1.
Tensor conv_transpose2d(const Tensor &input, const Tensor &weight,
                        const std::optional<Tensor> &bias = std::nullopt,
                        IntArrayRef stride = 1, IntArrayRef padding = 0,
                        IntArrayRef output_padding = 0, int64_t groups = 1,
                        IntArrayRef dilation = 1);

/// Max over windows; padded positions never win (NaN always does).
Tensor max_pool2d(const Tensor &self, IntArrayRef kernel_size,
                  IntArrayRef stride = {}, IntArrayRef padding = 0,
                  IntArrayRef dilation = 1, bool ceil_mode = false);
/// Also returns, per output, the flat index (h * W + w) of its maximum
/// within its input plane, as int64.
std::tuple<Tensor, Tensor>
max_pool2d_with_indices(const Tensor &self, IntArrayRef kernel_size,
                        IntArrayRef stride = {}, IntArrayRef padding = 0,
                        IntArrayRef dilation = 1, bool ceil_mode = false);
/// Mean over windows, divided by `divisor_override` if given, else by the
/// window size with (count_include_pad) or without padded positions.
Tensor avg_pool2d(const Tensor &self, IntArrayRef kernel_size,
                  IntArrayRef stride = {}, IntArrayRef padding = 0,
                  bool ceil_mode = false, bool count_include_pad = true,
                  std::optional<int64_t> divisor_override = std::nullopt);
/// Output cell i of a dim of size H averages [floor(i*H/out),
/// ceil((i+1)*H/out)).
Tensor adaptive_avg_pool2d(const Tensor &self, IntArrayRef output_size);

/// Channels in dim 1. Training: normalizes with the batch statistics and,
/// when given, updates running_mean/var in place (running = (1 - momentum)
/// * running + momentum * batch, with the unbiased batch variance).
/// Evaluation: normalizes with running_mean/var.
Tensor batch_norm(const Tensor &input, const std::optional<Tensor> &weight,
                  const std::optional<Tensor> &bias,
                  const std::optional<Tensor> &running_mean,
                  const std::optional<Tensor> &running_var, bool training,
                  double momentum, double eps, bool cudnn_enabled = true);
/// Normalizes over the trailing dims `normalized_shape`.
Tensor layer_norm(const Tensor &input, IntArrayRef normalized_shape,
                  const std::optional<Tensor> &weight = std::nullopt,
                  const std::optional<Tensor> &bias = std::nullopt,
                  double eps = 1e-5, bool cudnn_enable = true);

/// Zeroes each element with probability p and scales the rest by 1/(1-p)
/// when `train`; returns `input` itself otherwise. Draws from the global
/// generator (manual_seed makes it reproducible).
Tensor dropout(const Tensor &input, double p, bool train);
/// Dropout of whole channels (dims 0 and 1 kept, the rest share a draw),
/// as nn::Dropout2d.
Tensor feature_dropout(const Tensor &input, double p, bool train);

/// Rows of `weight` [V, D] picked by integer `indices`: indices.shape + [D].
/// Row `padding_idx` (-1: none) gets no gradient; `scale_grad_by_freq`
/// divides each row's gradient by its count in `indices`.
Tensor embedding(const Tensor &weight, const Tensor &indices,
                 int64_t padding_idx = -1, bool scale_grad_by_freq = false,
                 bool sparse = false);
/// int64 class indices -> int64 one-hot of `num_classes` (-1: max + 1).
Tensor one_hot(const Tensor &self, int64_t num_classes = -1);

} // namespace tcc

#endif // TCC_FRONTEND_OPS_NN_H
