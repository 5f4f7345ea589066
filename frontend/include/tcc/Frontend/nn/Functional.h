//===- Functional.h - nn::functional ----------------------------*- C++ -*-===//
//
// libtorch's torch::nn::functional (usually `namespace F =
// torch::nn::functional;`): the stateless forms of the modules, taking
// their options.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_FUNCTIONAL_H
#define TCC_FRONTEND_NN_FUNCTIONAL_H

#include "tcc/Frontend/nn/Options.h"

namespace tcc {
namespace nn {
namespace functional {

Tensor linear(const Tensor &input, const Tensor &weight,
              const Tensor &bias = {});
Tensor conv1d(const Tensor &input, const Tensor &weight,
              const Conv1dFuncOptions &options = {});
Tensor conv2d(const Tensor &input, const Tensor &weight,
              const Conv2dFuncOptions &options = {});
Tensor conv_transpose2d(const Tensor &input, const Tensor &weight,
                        const ConvTranspose2dFuncOptions &options = {});

Tensor max_pool2d(const Tensor &input, const MaxPool2dFuncOptions &options);
Tensor avg_pool2d(const Tensor &input, const AvgPool2dFuncOptions &options);
Tensor adaptive_avg_pool2d(const Tensor &input,
                           const AdaptiveAvgPool2dFuncOptions &options);

Tensor batch_norm(const Tensor &input, const Tensor &running_mean,
                  const Tensor &running_var,
                  const BatchNormFuncOptions &options = {});
Tensor layer_norm(const Tensor &input, const LayerNormFuncOptions &options);
/// input / max(||input||_p over dim, eps).
Tensor normalize(const Tensor &input, NormalizeFuncOptions options = {});

Tensor dropout(const Tensor &input, const DropoutFuncOptions &options = {});
Tensor dropout2d(const Tensor &input, const Dropout2dFuncOptions &options = {});
Tensor embedding(const Tensor &input, const Tensor &weight,
                 const EmbeddingFuncOptions &options = {});
Tensor one_hot(const Tensor &tensor, int64_t num_classes = -1);
Tensor pad(const Tensor &input, const PadFuncOptions &options);

Tensor relu(const Tensor &input, const ReLUFuncOptions &options = {});
Tensor leaky_relu(const Tensor &input,
                  const LeakyReLUFuncOptions &options = {});
Tensor gelu(const Tensor &input, const GELUFuncOptions &options = {});
Tensor silu(const Tensor &input);
Tensor softmax(const Tensor &input, const SoftmaxFuncOptions &options);
Tensor log_softmax(const Tensor &input, const LogSoftmaxFuncOptions &options);

Tensor mse_loss(const Tensor &input, const Tensor &target,
                const MSELossFuncOptions &options = {});
Tensor l1_loss(const Tensor &input, const Tensor &target,
               const L1LossFuncOptions &options = {});
Tensor smooth_l1_loss(const Tensor &input, const Tensor &target,
                      const SmoothL1LossFuncOptions &options = {});
Tensor binary_cross_entropy(const Tensor &input, const Tensor &target,
                            const BinaryCrossEntropyFuncOptions &options = {});
Tensor binary_cross_entropy_with_logits(
    const Tensor &input, const Tensor &target,
    const BinaryCrossEntropyWithLogitsFuncOptions &options = {});
Tensor nll_loss(const Tensor &input, const Tensor &target,
                const NLLLossFuncOptions &options = {});
Tensor cross_entropy(const Tensor &input, const Tensor &target,
                     const CrossEntropyFuncOptions &options = {});

} // namespace functional
} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_FUNCTIONAL_H
