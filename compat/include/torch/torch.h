//===- torch.h - libtorch's C++ frontend names on top of tcc ----*- C++ -*-===//
//
// `#include <torch/torch.h>` for programs written against libtorch 1.13's
// C++ frontend. Each libtorch namespace (torch, torch::nn, torch::optim,
// torch::data, at, c10, ...) is a real namespace holding using-declarations
// of the tcc names it maps to, so user code may reopen `namespace torch`
// and `using namespace torch;` brings in exactly libtorch's names. A name
// libtorch has and tcc lacks is simply absent: such a program fails to
// compile instead of misbehaving.
//
// These headers never include a real libtorch header; mixing the two is an
// error (see the check below).
//
//===----------------------------------------------------------------------===//

#ifndef TCC_COMPAT_TORCH_TORCH_H
#define TCC_COMPAT_TORCH_TORCH_H

#if defined(TORCH_API) || defined(C10_MACROS_MACROS_H_) ||                     \
    defined(C10_UTIL_EXCEPTION_H_)
#error "tcc's <torch/torch.h> cannot be mixed with libtorch's own headers"
#endif

#include "tcc/Frontend/Check.h"
#include "tcc/data.h"
#include "tcc/nn.h"
#include "tcc/optim.h"
#include "tcc/serialize.h"

// Standard headers that libtorch's torch.h brings in and its users rely on.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

/// Marks this build as a tcc compatibility build.
#define TCC_TORCH_COMPAT 1

namespace c10 {
using ::tcc::ArrayRef, ::tcc::BFloat16, ::tcc::Device, ::tcc::DeviceType,
    ::tcc::Error, ::tcc::Half, ::tcc::IntArrayRef, ::tcc::IValue, ::tcc::Layout,
    ::tcc::Scalar, ::tcc::ScalarType, ::tcc::toString;
template <class T> using optional = std::optional<T>;
using std::nullopt;
using std::nullopt_t;
/// Concatenates its arguments as a stream would print them.
template <class... Args> std::string str(const Args &...args) {
  return ::tcc::detail::str(args...);
}
} // namespace c10

namespace at {
using ::c10::ArrayRef, ::c10::IntArrayRef, ::c10::IValue, ::c10::Scalar,
    ::c10::ScalarType, ::c10::Device, ::c10::DeviceType, ::c10::optional;
using ::tcc::Tensor, ::tcc::TensorList, ::tcc::TensorOptions, ::tcc::kByte,
    ::tcc::kChar, ::tcc::kShort, ::tcc::kInt, ::tcc::kLong, ::tcc::kHalf,
    ::tcc::kFloat, ::tcc::kDouble, ::tcc::kBool, ::tcc::kBFloat16, ::tcc::kCPU,
    ::tcc::kCUDA, ::tcc::NoGradGuard, ::tcc::AutoGradMode, ::tcc::GradMode;
namespace Reduction = ::tcc::Reduction;
} // namespace at

namespace torch {
// --- Types, dtypes and devices -----------------------------------------------
using ::tcc::ArrayRef, ::tcc::BFloat16, ::tcc::Device, ::tcc::DeviceType,
    ::tcc::ExpandingArray, ::tcc::ExpandingArrayDouble,
    ::tcc::ExpandingArrayWithOptionalElem, ::tcc::Half, ::tcc::IntArrayRef,
    ::tcc::IValue, ::tcc::Layout, ::tcc::OrderedDict, ::tcc::Scalar,
    ::tcc::ScalarType, ::tcc::Tensor, ::tcc::TensorList, ::tcc::TensorOptions;
using Dtype = ::tcc::ScalarType;
using ::c10::optional, ::c10::nullopt, ::c10::str;
using ::tcc::kBFloat16, ::tcc::kBool, ::tcc::kByte, ::tcc::kChar,
    ::tcc::kDouble, ::tcc::kFloat, ::tcc::kFloat16, ::tcc::kFloat32,
    ::tcc::kFloat64, ::tcc::kHalf, ::tcc::kInt, ::tcc::kInt16, ::tcc::kInt32,
    ::tcc::kInt64, ::tcc::kInt8, ::tcc::kLong, ::tcc::kShort, ::tcc::kUInt8,
    ::tcc::kCPU, ::tcc::kCUDA, ::tcc::kStrided;
// torch/types.h's short names.
constexpr auto kU8 = ::tcc::kByte, kI8 = ::tcc::kChar, kI16 = ::tcc::kShort,
               kI32 = ::tcc::kInt, kI64 = ::tcc::kLong, kF16 = ::tcc::kHalf,
               kF32 = ::tcc::kFloat, kF64 = ::tcc::kDouble;
namespace Reduction = ::tcc::Reduction;

// --- Grad mode ---------------------------------------------------------------
using ::tcc::AutoGradMode, ::tcc::GradMode, ::tcc::NoGradGuard;

// --- Factories and options ---------------------------------------------------
using ::tcc::arange, ::tcc::device, ::tcc::dtype, ::tcc::empty,
    ::tcc::empty_like, ::tcc::empty_strided, ::tcc::eye, ::tcc::from_blob,
    ::tcc::full, ::tcc::full_like, ::tcc::get_default_dtype, ::tcc::layout,
    ::tcc::linspace, ::tcc::manual_seed, ::tcc::ones, ::tcc::ones_like,
    ::tcc::rand, ::tcc::rand_like, ::tcc::randint, ::tcc::randn,
    ::tcc::randn_like, ::tcc::randperm, ::tcc::requires_grad,
    ::tcc::set_default_dtype, ::tcc::tensor, ::tcc::zeros, ::tcc::zeros_like,
    ::tcc::get_num_threads, ::tcc::set_num_threads;

// --- Ops ---------------------------------------------------------------------
using ::tcc::add_out, ::tcc::sub_out, ::tcc::mul_out, ::tcc::div_out;
using ::tcc::abs, ::tcc::adaptive_avg_pool2d, ::tcc::add, ::tcc::addmm,
    ::tcc::all, ::tcc::allclose, ::tcc::amax, ::tcc::amin, ::tcc::any,
    ::tcc::argmax, ::tcc::argmin, ::tcc::as_strided, ::tcc::avg_pool2d,
    ::tcc::batch_norm, ::tcc::binary_cross_entropy,
    ::tcc::binary_cross_entropy_with_logits, ::tcc::bmm,
    ::tcc::broadcast_shapes, ::tcc::broadcast_to, ::tcc::cat, ::tcc::ceil,
    ::tcc::chunk, ::tcc::clamp, ::tcc::clamp_max, ::tcc::clamp_min,
    ::tcc::clone, ::tcc::constant_pad_nd, ::tcc::conv1d, ::tcc::conv2d,
    ::tcc::conv_transpose2d, ::tcc::cos, ::tcc::cross_entropy_loss,
    ::tcc::detach, ::tcc::diagonal, ::tcc::div, ::tcc::dot, ::tcc::dropout,
    ::tcc::embedding, ::tcc::eq, ::tcc::equal, ::tcc::erf, ::tcc::exp,
    ::tcc::feature_dropout, ::tcc::flatten, ::tcc::floor, ::tcc::gather,
    ::tcc::ge, ::tcc::gelu, ::tcc::gt, ::tcc::index_select, ::tcc::isclose,
    ::tcc::isnan, ::tcc::l1_loss, ::tcc::layer_norm, ::tcc::le, ::tcc::linear,
    ::tcc::log, ::tcc::log1p, ::tcc::log_softmax, ::tcc::logical_and,
    ::tcc::logical_not, ::tcc::logical_or, ::tcc::logical_xor, ::tcc::logsumexp,
    ::tcc::lt, ::tcc::masked_fill, ::tcc::matmul, ::tcc::max, ::tcc::max_pool2d,
    ::tcc::max_pool2d_with_indices, ::tcc::maximum, ::tcc::mean, ::tcc::min,
    ::tcc::minimum, ::tcc::mm, ::tcc::movedim, ::tcc::mse_loss, ::tcc::mul,
    ::tcc::mv, ::tcc::narrow, ::tcc::ne, ::tcc::neg, ::tcc::nll_loss,
    ::tcc::norm, ::tcc::one_hot, ::tcc::pad, ::tcc::permute, ::tcc::pow,
    ::tcc::prod, ::tcc::reciprocal, ::tcc::relu, ::tcc::reshape, ::tcc::round,
    ::tcc::rsqrt, ::tcc::rsub, ::tcc::scatter, ::tcc::scatter_add,
    ::tcc::select, ::tcc::sigmoid, ::tcc::sign, ::tcc::silu, ::tcc::sin,
    ::tcc::slice, ::tcc::smooth_l1_loss, ::tcc::softmax, ::tcc::split,
    ::tcc::split_with_sizes, ::tcc::sqrt, ::tcc::square, ::tcc::squeeze,
    ::tcc::stack, ::tcc::std, ::tcc::sub, ::tcc::sum, ::tcc::t, ::tcc::tanh,
    ::tcc::transpose, ::tcc::unbind, ::tcc::unflatten, ::tcc::unsqueeze,
    ::tcc::var, ::tcc::where;

/// libtorch's torch::leaky_relu (an ATen op there, a composite here).
inline Tensor leaky_relu(const Tensor &self,
                         const Scalar &negative_slope = 0.01) {
  return ::tcc::nn::functional::leaky_relu(
      self,
      ::tcc::nn::LeakyReLUOptions().negative_slope(negative_slope.toDouble()));
}

// --- nn enum tags (torch::kMean, torch::kReLU, ...) --------------------------
namespace enumtype {
using namespace ::tcc::enumtype;
} // namespace enumtype
using ::tcc::kAbs, ::tcc::kCircular, ::tcc::kConstant, ::tcc::kConv1D,
    ::tcc::kConv2D, ::tcc::kConv3D, ::tcc::kConvTranspose1D,
    ::tcc::kConvTranspose2D, ::tcc::kConvTranspose3D, ::tcc::kFanIn,
    ::tcc::kFanOut, ::tcc::kGELU, ::tcc::kGRU, ::tcc::kLSTM, ::tcc::kLeakyReLU,
    ::tcc::kLinear, ::tcc::kMax, ::tcc::kMean, ::tcc::kMin, ::tcc::kNone,
    ::tcc::kRNN_RELU, ::tcc::kRNN_TANH, ::tcc::kReLU, ::tcc::kReflect,
    ::tcc::kRel, ::tcc::kReplicate, ::tcc::kSame, ::tcc::kSiLU, ::tcc::kSigmoid,
    ::tcc::kSum, ::tcc::kTanh, ::tcc::kValid, ::tcc::kZeros;

// --- Serialization -----------------------------------------------------------
using ::tcc::load, ::tcc::save;
namespace serialize {
using ::tcc::serialize::InputArchive, ::tcc::serialize::OutputArchive;
} // namespace serialize

// --- Autograd ----------------------------------------------------------------
namespace autograd {
using ::tcc::autograd::AnomalyMode, ::tcc::autograd::AutogradContext,
    ::tcc::autograd::backward, ::tcc::autograd::DetectAnomalyGuard,
    ::tcc::autograd::Edge, ::tcc::autograd::Function, ::tcc::autograd::grad,
    ::tcc::autograd::Node, ::tcc::autograd::tensor_list,
    ::tcc::autograd::variable_list;
using Variable = ::tcc::Tensor;
} // namespace autograd

namespace cuda {
using ::tcc::cuda::device_count, ::tcc::cuda::is_available;
/// cuDNN is not available either.
inline bool cudnn_is_available() { return false; }
} // namespace cuda

// --- nn ----------------------------------------------------------------------
namespace nn {
using ::tcc::nn::AnyModule, ::tcc::nn::AnyValue, ::tcc::nn::Cloneable,
    ::tcc::nn::Module, ::tcc::nn::ModuleHolder, ::tcc::nn::NamedAnyModule;
// Modules, their Impls and their options.
#define TCC_COMPAT_MODULE(Name) using ::tcc::nn::Name, ::tcc::nn::Name##Impl;
TCC_COMPAT_MODULE(AdaptiveAvgPool2d)
TCC_COMPAT_MODULE(AvgPool2d)
TCC_COMPAT_MODULE(BCELoss)
TCC_COMPAT_MODULE(BCEWithLogitsLoss)
TCC_COMPAT_MODULE(BatchNorm1d)
TCC_COMPAT_MODULE(BatchNorm2d)
TCC_COMPAT_MODULE(Conv1d)
TCC_COMPAT_MODULE(Conv2d)
TCC_COMPAT_MODULE(ConvTranspose2d)
TCC_COMPAT_MODULE(CrossEntropyLoss)
TCC_COMPAT_MODULE(Dropout)
TCC_COMPAT_MODULE(Dropout2d)
TCC_COMPAT_MODULE(Embedding)
TCC_COMPAT_MODULE(Flatten)
TCC_COMPAT_MODULE(Functional)
TCC_COMPAT_MODULE(GELU)
TCC_COMPAT_MODULE(GRU)
TCC_COMPAT_MODULE(Identity)
TCC_COMPAT_MODULE(L1Loss)
TCC_COMPAT_MODULE(LSTM)
TCC_COMPAT_MODULE(LayerNorm)
TCC_COMPAT_MODULE(LeakyReLU)
TCC_COMPAT_MODULE(Linear)
TCC_COMPAT_MODULE(LogSoftmax)
TCC_COMPAT_MODULE(MSELoss)
TCC_COMPAT_MODULE(MaxPool2d)
TCC_COMPAT_MODULE(ModuleDict)
TCC_COMPAT_MODULE(ModuleList)
TCC_COMPAT_MODULE(MultiheadAttention)
TCC_COMPAT_MODULE(NLLLoss)
TCC_COMPAT_MODULE(ReLU)
TCC_COMPAT_MODULE(Sequential)
TCC_COMPAT_MODULE(SiLU)
TCC_COMPAT_MODULE(Sigmoid)
TCC_COMPAT_MODULE(SmoothL1Loss)
TCC_COMPAT_MODULE(Softmax)
TCC_COMPAT_MODULE(Tanh)
TCC_COMPAT_MODULE(TransformerEncoderLayer)
TCC_COMPAT_MODULE(Unflatten)
#undef TCC_COMPAT_MODULE
using ::tcc::nn::AdaptiveAvgPool2dOptions, ::tcc::nn::AvgPool2dOptions,
    ::tcc::nn::BCELossOptions, ::tcc::nn::BCEWithLogitsLossOptions,
    ::tcc::nn::BatchNormOptions, ::tcc::nn::Conv1dOptions,
    ::tcc::nn::Conv2dOptions, ::tcc::nn::ConvOptions,
    ::tcc::nn::ConvTranspose2dOptions, ::tcc::nn::ConvTransposeOptions,
    ::tcc::nn::CrossEntropyLossOptions, ::tcc::nn::Dropout2dOptions,
    ::tcc::nn::DropoutOptions, ::tcc::nn::EmbeddingFromPretrainedOptions,
    ::tcc::nn::EmbeddingOptions, ::tcc::nn::FlattenOptions,
    ::tcc::nn::GELUOptions, ::tcc::nn::GRUOptions, ::tcc::nn::L1LossOptions,
    ::tcc::nn::LSTMOptions, ::tcc::nn::LayerNormOptions,
    ::tcc::nn::LeakyReLUOptions, ::tcc::nn::LinearOptions,
    ::tcc::nn::LogSoftmaxOptions, ::tcc::nn::MSELossOptions,
    ::tcc::nn::MaxPool2dOptions, ::tcc::nn::MultiheadAttentionOptions,
    ::tcc::nn::NLLLossOptions, ::tcc::nn::ReLUOptions,
    ::tcc::nn::SmoothL1LossOptions, ::tcc::nn::SoftmaxOptions,
    ::tcc::nn::TransformerEncoderLayerOptions, ::tcc::nn::UnflattenOptions;

namespace functional {
using ::tcc::nn::functional::adaptive_avg_pool2d,
    ::tcc::nn::functional::avg_pool2d, ::tcc::nn::functional::batch_norm,
    ::tcc::nn::functional::binary_cross_entropy,
    ::tcc::nn::functional::binary_cross_entropy_with_logits,
    ::tcc::nn::functional::conv1d, ::tcc::nn::functional::conv2d,
    ::tcc::nn::functional::conv_transpose2d,
    ::tcc::nn::functional::cross_entropy, ::tcc::nn::functional::dropout,
    ::tcc::nn::functional::dropout2d, ::tcc::nn::functional::embedding,
    ::tcc::nn::functional::gelu, ::tcc::nn::functional::l1_loss,
    ::tcc::nn::functional::layer_norm, ::tcc::nn::functional::leaky_relu,
    ::tcc::nn::functional::linear, ::tcc::nn::functional::log_softmax,
    ::tcc::nn::functional::max_pool2d, ::tcc::nn::functional::mse_loss,
    ::tcc::nn::functional::nll_loss, ::tcc::nn::functional::normalize,
    ::tcc::nn::functional::one_hot, ::tcc::nn::functional::pad,
    ::tcc::nn::functional::relu, ::tcc::nn::functional::silu,
    ::tcc::nn::functional::smooth_l1_loss, ::tcc::nn::functional::softmax;
using ::tcc::nn::functional::AdaptiveAvgPool2dFuncOptions,
    ::tcc::nn::functional::AvgPool2dFuncOptions,
    ::tcc::nn::functional::BatchNormFuncOptions,
    ::tcc::nn::functional::BinaryCrossEntropyFuncOptions,
    ::tcc::nn::functional::BinaryCrossEntropyWithLogitsFuncOptions,
    ::tcc::nn::functional::Conv1dFuncOptions,
    ::tcc::nn::functional::Conv2dFuncOptions,
    ::tcc::nn::functional::ConvTranspose2dFuncOptions,
    ::tcc::nn::functional::CrossEntropyFuncOptions,
    ::tcc::nn::functional::Dropout2dFuncOptions,
    ::tcc::nn::functional::DropoutFuncOptions,
    ::tcc::nn::functional::EmbeddingFuncOptions,
    ::tcc::nn::functional::GELUFuncOptions,
    ::tcc::nn::functional::L1LossFuncOptions,
    ::tcc::nn::functional::LayerNormFuncOptions,
    ::tcc::nn::functional::LeakyReLUFuncOptions,
    ::tcc::nn::functional::LogSoftmaxFuncOptions,
    ::tcc::nn::functional::MSELossFuncOptions,
    ::tcc::nn::functional::MaxPool2dFuncOptions,
    ::tcc::nn::functional::NLLLossFuncOptions,
    ::tcc::nn::functional::NormalizeFuncOptions,
    ::tcc::nn::functional::PadFuncOptions,
    ::tcc::nn::functional::ReLUFuncOptions,
    ::tcc::nn::functional::SmoothL1LossFuncOptions,
    ::tcc::nn::functional::SoftmaxFuncOptions;
} // namespace functional

namespace init {
using ::tcc::nn::init::_calculate_fan_in_and_fan_out,
    ::tcc::nn::init::calculate_gain, ::tcc::nn::init::constant_,
    ::tcc::nn::init::dirac_, ::tcc::nn::init::eye_,
    ::tcc::nn::init::FanModeType, ::tcc::nn::init::kaiming_normal_,
    ::tcc::nn::init::kaiming_uniform_, ::tcc::nn::init::NonlinearityType,
    ::tcc::nn::init::normal_, ::tcc::nn::init::ones_,
    ::tcc::nn::init::orthogonal_, ::tcc::nn::init::uniform_,
    ::tcc::nn::init::xavier_normal_, ::tcc::nn::init::xavier_uniform_,
    ::tcc::nn::init::zeros_;
} // namespace init

namespace utils {
using ::tcc::nn::utils::clip_grad_norm_, ::tcc::nn::utils::clip_grad_value_;
} // namespace utils
} // namespace nn

// --- optim -------------------------------------------------------------------
namespace optim {
using ::tcc::optim::Adagrad, ::tcc::optim::AdagradOptions,
    ::tcc::optim::AdagradParamState, ::tcc::optim::Adam,
    ::tcc::optim::AdamOptions, ::tcc::optim::AdamParamState,
    ::tcc::optim::AdamW, ::tcc::optim::AdamWOptions,
    ::tcc::optim::AdamWParamState, ::tcc::optim::CosineAnnealingLR,
    ::tcc::optim::LinearLR, ::tcc::optim::LRScheduler, ::tcc::optim::Optimizer,
    ::tcc::optim::OptimizerCloneableOptions,
    ::tcc::optim::OptimizerCloneableParamState, ::tcc::optim::OptimizerOptions,
    ::tcc::optim::OptimizerParamGroup, ::tcc::optim::OptimizerParamState,
    ::tcc::optim::ReduceLROnPlateauScheduler, ::tcc::optim::RMSprop,
    ::tcc::optim::RMSpropOptions, ::tcc::optim::RMSpropParamState,
    ::tcc::optim::SGD, ::tcc::optim::SGDOptions, ::tcc::optim::SGDParamState,
    ::tcc::optim::StepLR;
} // namespace optim

// --- data --------------------------------------------------------------------
namespace data {
using ::tcc::data::DataLoaderOptions, ::tcc::data::Example,
    ::tcc::data::Iterator, ::tcc::data::make_data_loader,
    ::tcc::data::StatelessDataLoader, ::tcc::data::TensorExample;
namespace example {
using ::tcc::data::example::NoTarget;
} // namespace example
namespace datasets {
using ::tcc::data::datasets::BatchDataset, ::tcc::data::datasets::Dataset,
    ::tcc::data::datasets::map, ::tcc::data::datasets::MapDataset,
    ::tcc::data::datasets::MNIST, ::tcc::data::datasets::TensorDataset;
} // namespace datasets
namespace transforms {
using ::tcc::data::transforms::BatchLambda,
    ::tcc::data::transforms::BatchTransform, ::tcc::data::transforms::Lambda,
    ::tcc::data::transforms::Normalize, ::tcc::data::transforms::Stack,
    ::tcc::data::transforms::TensorLambda,
    ::tcc::data::transforms::TensorTransform,
    ::tcc::data::transforms::Transform;
} // namespace transforms
namespace samplers {
using ::tcc::data::samplers::DistributedRandomSampler,
    ::tcc::data::samplers::DistributedSampler,
    ::tcc::data::samplers::DistributedSequentialSampler,
    ::tcc::data::samplers::RandomSampler, ::tcc::data::samplers::Sampler,
    ::tcc::data::samplers::SequentialSampler;
} // namespace samplers
} // namespace data
} // namespace torch

// --- Macros ------------------------------------------------------------------

#define TORCH_MODULE_IMPL(Name, ImplType) TCC_MODULE_IMPL(Name, ImplType)
#define TORCH_MODULE(Name) TCC_MODULE(Name)
#define TORCH_ARG(T, name) TCC_ARG(T, name)

/// Throws c10::Error with the message (or, without one, libtorch's
/// default message) when `cond` is false.
#define TORCH_CHECK(cond, ...)                                                 \
  TCC_CHECK(cond, ::tcc::compat::checkMessage(                                 \
                      "Expected " #cond " to be true, but got false.",         \
                      ::tcc::detail::str(__VA_ARGS__)))
#define TORCH_INTERNAL_ASSERT(cond, ...)                                       \
  TCC_CHECK(cond, "Internal assert failed: " #cond " ",                        \
            ::tcc::detail::str(__VA_ARGS__))
#define AT_ASSERT(cond, ...)                                                   \
  TCC_CHECK(cond, "Assertion failed: " #cond " ",                              \
            ::tcc::detail::str(__VA_ARGS__))
#define AT_ERROR(...) ::tcc::detail::throwError(::tcc::detail::str(__VA_ARGS__))
#define TORCH_WARN(...)                                                        \
  ::tcc::compat::warn(::tcc::detail::str(__VA_ARGS__), __FILE__, __LINE__)
#define TORCH_WARN_ONCE(...) TORCH_WARN(__VA_ARGS__)
#define C10_UNUSED __attribute__((__unused__))

namespace tcc {
namespace compat {
/// Prints "Warning: ..." to std::cerr, as libtorch's default handler does.
inline void warn(const std::string &message, const char *file, int line) {
  std::cerr << "Warning: " << message << " (" << file << ":" << line << ")\n";
}
inline std::string checkMessage(const char *fallback, std::string message) {
  return message.empty() ? std::string(fallback) : message;
}
} // namespace compat
} // namespace tcc

#endif // TCC_COMPAT_TORCH_TORCH_H
