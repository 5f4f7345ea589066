//===- Init.h - Parameter initialization (nn::init) -------------*- C++ -*-===//
//
// libtorch's torch::nn::init: each function fills its tensor in place
// without recording autograd history and returns it. Fan-in and fan-out
// follow PyTorch (_calculate_fan_in_and_fan_out): dim 1 and dim 0 times the
// receptive field (the product of dims 2..).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_INIT_H
#define TCC_FRONTEND_NN_INIT_H

#include "tcc/Frontend/Tensor.h"
#include "tcc/Frontend/nn/EnumTypes.h"

#include <tuple>
#include <variant>

namespace tcc {
namespace nn {
namespace init {

using NonlinearityType =
    std::variant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D,
                 enumtype::kConv3D, enumtype::kConvTranspose1D,
                 enumtype::kConvTranspose2D, enumtype::kConvTranspose3D,
                 enumtype::kSigmoid, enumtype::kTanh, enumtype::kReLU,
                 enumtype::kLeakyReLU>;
using FanModeType = std::variant<enumtype::kFanIn, enumtype::kFanOut>;

/// The recommended gain for a nonlinearity (sqrt(2) for ReLU, 5/3 for
/// tanh, sqrt(2 / (1 + param^2)) for leaky ReLU, 1 for linear and conv).
double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);

/// (fan_in, fan_out) of a tensor of at least two dims.
std::tuple<int64_t, int64_t>
_calculate_fan_in_and_fan_out(const Tensor &tensor);

Tensor constant_(Tensor tensor, Scalar value);
Tensor ones_(Tensor tensor);
Tensor zeros_(Tensor tensor);
/// The identity matrix (2-D tensors).
Tensor eye_(Tensor matrix);
/// Dirac delta for conv weights [out, in, k...]: identity on the channels.
Tensor dirac_(Tensor tensor);
Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
/// Uniform in +-gain * sqrt(6 / (fan_in + fan_out)).
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
/// Normal with std gain * sqrt(2 / (fan_in + fan_out)).
Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
/// Uniform in +-gain * sqrt(3 / fan), gain from `nonlinearity` and `a`.
Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                        NonlinearityType nonlinearity = kLeakyReLU);
/// Normal with std gain / sqrt(fan).
Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                       NonlinearityType nonlinearity = kLeakyReLU);
/// A (semi-)orthogonal matrix from the QR decomposition of a normal one,
/// scaled by gain (Gram-Schmidt here; signs as PyTorch's diag(R) fix-up).
Tensor orthogonal_(Tensor tensor, double gain = 1.0);

} // namespace init
} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_INIT_H
