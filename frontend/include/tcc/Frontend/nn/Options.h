//===- Options.h - Options of the nn modules and functions ------*- C++ -*-===//
//
// libtorch's options classes: required values in the constructor, the rest
// chained (`Conv2dOptions(1, 8, 3).stride(2).bias(false)`). Where libtorch
// uses the same class for a module and its functional form, the FuncOptions
// name is an alias here too.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_OPTIONS_H
#define TCC_FRONTEND_NN_OPTIONS_H

#include "tcc/Frontend/Ops/Loss.h"
#include "tcc/Frontend/Tensor.h"
#include "tcc/Frontend/nn/Arg.h"
#include "tcc/Frontend/nn/EnumTypes.h"
#include "tcc/Frontend/nn/ExpandingArray.h"

#include <functional>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace tcc {
namespace nn {

using reduction_t =
    std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;
/// The ATen reduction code (Reduction::Mean, ...) of a reduction choice.
inline int64_t reductionCode(const reduction_t &r) {
  if (std::holds_alternative<enumtype::kNone>(r))
    return Reduction::None;
  if (std::holds_alternative<enumtype::kSum>(r))
    return Reduction::Sum;
  return Reduction::Mean;
}

// --- Convolution -------------------------------------------------------------

namespace detail {
template <size_t D>
using conv_padding_t =
    std::variant<ExpandingArray<D>, enumtype::kValid, enumtype::kSame>;
using conv_padding_mode_t =
    std::variant<enumtype::kZeros, enumtype::kReflect, enumtype::kReplicate,
                 enumtype::kCircular>;

} // namespace detail

template <size_t D> struct ConvOptions {
  using padding_t = detail::conv_padding_t<D>;
  using padding_mode_t = detail::conv_padding_mode_t;
  ConvOptions(int64_t in_channels, int64_t out_channels,
              ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels),
        kernel_size_(std::move(kernel_size)) {}
  TCC_ARG(int64_t, in_channels);
  TCC_ARG(int64_t, out_channels);
  TCC_ARG(ExpandingArray<D>, kernel_size);
  TCC_ARG(ExpandingArray<D>, stride) = 1;
  TCC_ARG(padding_t, padding) = 0;
  TCC_ARG(ExpandingArray<D>, dilation) = 1;
  TCC_ARG(int64_t, groups) = 1;
  TCC_ARG(bool, bias) = true;
  TCC_ARG(padding_mode_t, padding_mode) = enumtype::kZeros();

public:
  /// `.padding({1, 2})`: a braced list cannot pick a variant alternative.
  ConvOptions &padding(std::initializer_list<int64_t> values) {
    padding_ = ExpandingArray<D>(values);
    return *this;
  }
};
using Conv1dOptions = ConvOptions<1>;
using Conv2dOptions = ConvOptions<2>;

template <size_t D> struct ConvTransposeOptions {
  using padding_mode_t = detail::conv_padding_mode_t;
  ConvTransposeOptions(int64_t in_channels, int64_t out_channels,
                       ExpandingArray<D> kernel_size)
      : in_channels_(in_channels), out_channels_(out_channels),
        kernel_size_(std::move(kernel_size)) {}
  TCC_ARG(int64_t, in_channels);
  TCC_ARG(int64_t, out_channels);
  TCC_ARG(ExpandingArray<D>, kernel_size);
  TCC_ARG(ExpandingArray<D>, stride) = 1;
  TCC_ARG(ExpandingArray<D>, padding) = 0;
  TCC_ARG(ExpandingArray<D>, output_padding) = 0;
  TCC_ARG(int64_t, groups) = 1;
  TCC_ARG(bool, bias) = true;
  TCC_ARG(ExpandingArray<D>, dilation) = 1;
  TCC_ARG(padding_mode_t, padding_mode) = enumtype::kZeros();
};
using ConvTranspose2dOptions = ConvTransposeOptions<2>;

namespace functional {
template <size_t D> struct ConvFuncOptions {
  using padding_t = detail::conv_padding_t<D>;
  TCC_ARG(Tensor, bias);
  TCC_ARG(ExpandingArray<D>, stride) = 1;
  TCC_ARG(padding_t, padding) = 0;
  TCC_ARG(ExpandingArray<D>, dilation) = 1;
  TCC_ARG(int64_t, groups) = 1;

public:
  ConvFuncOptions &padding(std::initializer_list<int64_t> values) {
    padding_ = ExpandingArray<D>(values);
    return *this;
  }
};
using Conv1dFuncOptions = ConvFuncOptions<1>;
using Conv2dFuncOptions = ConvFuncOptions<2>;

template <size_t D> struct ConvTransposeFuncOptions {
  TCC_ARG(Tensor, bias);
  TCC_ARG(ExpandingArray<D>, stride) = 1;
  TCC_ARG(ExpandingArray<D>, padding) = 0;
  TCC_ARG(ExpandingArray<D>, output_padding) = 0;
  TCC_ARG(int64_t, groups) = 1;
  TCC_ARG(ExpandingArray<D>, dilation) = 1;
};
using ConvTranspose2dFuncOptions = ConvTransposeFuncOptions<2>;
} // namespace functional

// --- Pooling -----------------------------------------------------------------

template <size_t D> struct MaxPoolOptions {
  MaxPoolOptions(ExpandingArray<D> kernel_size)
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  TCC_ARG(ExpandingArray<D>, kernel_size);
  TCC_ARG(ExpandingArray<D>, stride);
  TCC_ARG(ExpandingArray<D>, padding) = 0;
  TCC_ARG(ExpandingArray<D>, dilation) = 1;
  TCC_ARG(bool, ceil_mode) = false;
};
using MaxPool2dOptions = MaxPoolOptions<2>;

template <size_t D> struct AvgPoolOptions {
  AvgPoolOptions(ExpandingArray<D> kernel_size)
      : kernel_size_(kernel_size), stride_(kernel_size) {}
  TCC_ARG(ExpandingArray<D>, kernel_size);
  TCC_ARG(ExpandingArray<D>, stride);
  TCC_ARG(ExpandingArray<D>, padding) = 0;
  TCC_ARG(bool, ceil_mode) = false;
  TCC_ARG(bool, count_include_pad) = true;
  TCC_ARG(std::optional<int64_t>, divisor_override) = std::nullopt;
};
using AvgPool2dOptions = AvgPoolOptions<2>;

template <class output_size_t> struct AdaptiveAvgPoolOptions {
  AdaptiveAvgPoolOptions(output_size_t output_size)
      : output_size_(std::move(output_size)) {}
  TCC_ARG(output_size_t, output_size);
};
using AdaptiveAvgPool2dOptions =
    AdaptiveAvgPoolOptions<ExpandingArrayWithOptionalElem<2>>;

namespace functional {
using MaxPool2dFuncOptions = MaxPool2dOptions;
using AvgPool2dFuncOptions = AvgPool2dOptions;
using AdaptiveAvgPool2dFuncOptions = AdaptiveAvgPool2dOptions;
} // namespace functional

// --- Normalization -----------------------------------------------------------

struct BatchNormOptions {
  /* implicit */ BatchNormOptions(int64_t num_features)
      : num_features_(num_features) {}
  TCC_ARG(int64_t, num_features);
  TCC_ARG(double, eps) = 1e-5;
  /// Empty: a cumulative moving average (1 / batches seen).
  TCC_ARG(std::optional<double>, momentum) = 0.1;
  TCC_ARG(bool, affine) = true;
  TCC_ARG(bool, track_running_stats) = true;
};

struct LayerNormOptions {
  /* implicit */ LayerNormOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  TCC_ARG(std::vector<int64_t>, normalized_shape);
  TCC_ARG(double, eps) = 1e-5;
  TCC_ARG(bool, elementwise_affine) = true;
};

namespace functional {
struct BatchNormFuncOptions {
  TCC_ARG(Tensor, weight);
  TCC_ARG(Tensor, bias);
  TCC_ARG(bool, training) = false;
  TCC_ARG(std::optional<double>, momentum) = 0.1;
  TCC_ARG(double, eps) = 1e-5;
};
struct LayerNormFuncOptions {
  /* implicit */ LayerNormFuncOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  TCC_ARG(std::vector<int64_t>, normalized_shape);
  TCC_ARG(Tensor, weight);
  TCC_ARG(Tensor, bias);
  TCC_ARG(double, eps) = 1e-5;
};
struct NormalizeFuncOptions {
  TCC_ARG(double, p) = 2.0;
  TCC_ARG(int64_t, dim) = 1;
  TCC_ARG(double, eps) = 1e-12;
};
} // namespace functional

// --- Dropout and embedding ---------------------------------------------------

struct DropoutOptions {
  /* implicit */ DropoutOptions(double p = 0.5) : p_(p) {}
  TCC_ARG(double, p) = 0.5;
  TCC_ARG(bool, inplace) = false;
};
using Dropout2dOptions = DropoutOptions;

struct EmbeddingOptions {
  EmbeddingOptions(int64_t num_embeddings, int64_t embedding_dim)
      : num_embeddings_(num_embeddings), embedding_dim_(embedding_dim) {}
  TCC_ARG(int64_t, num_embeddings);
  TCC_ARG(int64_t, embedding_dim);
  TCC_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  TCC_ARG(std::optional<double>, max_norm) = std::nullopt;
  TCC_ARG(double, norm_type) = 2.;
  TCC_ARG(bool, scale_grad_by_freq) = false;
  TCC_ARG(bool, sparse) = false;
  TCC_ARG(Tensor, _weight) = Tensor();
};

struct EmbeddingFromPretrainedOptions {
  TCC_ARG(bool, freeze) = true;
  TCC_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  TCC_ARG(std::optional<double>, max_norm) = std::nullopt;
  TCC_ARG(double, norm_type) = 2.;
  TCC_ARG(bool, scale_grad_by_freq) = false;
  TCC_ARG(bool, sparse) = false;
};

namespace functional {
struct DropoutFuncOptions {
  TCC_ARG(double, p) = 0.5;
  TCC_ARG(bool, training) = true;
  TCC_ARG(bool, inplace) = false;
};
using Dropout2dFuncOptions = DropoutFuncOptions;
struct EmbeddingFuncOptions {
  TCC_ARG(std::optional<int64_t>, padding_idx) = std::nullopt;
  TCC_ARG(std::optional<double>, max_norm) = std::nullopt;
  TCC_ARG(double, norm_type) = 2.;
  TCC_ARG(bool, scale_grad_by_freq) = false;
  TCC_ARG(bool, sparse) = false;
};
} // namespace functional

// --- Activations -------------------------------------------------------------

struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false) : inplace_(inplace) {}
  TCC_ARG(bool, inplace);
};
struct LeakyReLUOptions {
  TCC_ARG(double, negative_slope) = 1e-2;
  TCC_ARG(bool, inplace) = false;
};
struct GELUOptions {
  /// "none" (erf) or "tanh".
  TCC_ARG(std::string, approximate) = "none";
};
struct SoftmaxOptions {
  /* implicit */ SoftmaxOptions(int64_t dim) : dim_(dim) {}
  TCC_ARG(int64_t, dim);
};
using LogSoftmaxOptions = SoftmaxOptions;

namespace functional {
using ReLUFuncOptions = ReLUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;
using GELUFuncOptions = GELUOptions;
struct SoftmaxFuncOptions {
  /* implicit */ SoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  TCC_ARG(int64_t, dim);
  TCC_ARG(std::optional<ScalarType>, dtype) = std::nullopt;
};
using LogSoftmaxFuncOptions = SoftmaxFuncOptions;
} // namespace functional

// --- Losses ------------------------------------------------------------------

struct MSELossOptions {
  MSELossOptions() = default;
  /* implicit */ MSELossOptions(reduction_t reduction)
      : reduction_(reduction) {}
  TCC_ARG(reduction_t, reduction) = enumtype::kMean();
};
using L1LossOptions = MSELossOptions;
struct SmoothL1LossOptions {
  SmoothL1LossOptions() = default;
  /* implicit */ SmoothL1LossOptions(reduction_t reduction)
      : reduction_(reduction) {}
  TCC_ARG(reduction_t, reduction) = enumtype::kMean();
  TCC_ARG(std::optional<double>, beta) = std::nullopt;
};
struct BCELossOptions {
  TCC_ARG(Tensor, weight) = {};
  TCC_ARG(reduction_t, reduction) = enumtype::kMean();
};
struct BCEWithLogitsLossOptions {
  TCC_ARG(Tensor, weight) = {};
  TCC_ARG(reduction_t, reduction) = enumtype::kMean();
  TCC_ARG(Tensor, pos_weight) = {};
};
struct NLLLossOptions {
  TCC_ARG(Tensor, weight) = {};
  TCC_ARG(int64_t, ignore_index) = -100;
  TCC_ARG(reduction_t, reduction) = enumtype::kMean();
};
struct CrossEntropyLossOptions {
  TCC_ARG(Tensor, weight) = {};
  TCC_ARG(int64_t, ignore_index) = -100;
  TCC_ARG(reduction_t, reduction) = enumtype::kMean();
  TCC_ARG(double, label_smoothing) = 0.0;
};

namespace functional {
using MSELossFuncOptions = MSELossOptions;
using L1LossFuncOptions = L1LossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;

struct PadFuncOptions {
  using mode_t = std::variant<enumtype::kConstant, enumtype::kReflect,
                              enumtype::kReplicate, enumtype::kCircular>;
  /* implicit */ PadFuncOptions(std::vector<int64_t> pad)
      : pad_(std::move(pad)) {}
  TCC_ARG(std::vector<int64_t>, pad);
  TCC_ARG(mode_t, mode) = enumtype::kConstant();
  TCC_ARG(double, value) = 0;
};
struct OneHotFuncOptions {};
} // namespace functional

// --- Recurrent and attention -------------------------------------------------

struct LSTMOptions {
  LSTMOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  TCC_ARG(int64_t, input_size);
  TCC_ARG(int64_t, hidden_size);
  TCC_ARG(int64_t, num_layers) = 1;
  TCC_ARG(bool, bias) = true;
  TCC_ARG(bool, batch_first) = false;
  TCC_ARG(double, dropout) = 0.0;
  TCC_ARG(bool, bidirectional) = false;
  TCC_ARG(int64_t, proj_size) = 0;
};
struct GRUOptions {
  GRUOptions(int64_t input_size, int64_t hidden_size)
      : input_size_(input_size), hidden_size_(hidden_size) {}
  TCC_ARG(int64_t, input_size);
  TCC_ARG(int64_t, hidden_size);
  TCC_ARG(int64_t, num_layers) = 1;
  TCC_ARG(bool, bias) = true;
  TCC_ARG(bool, batch_first) = false;
  TCC_ARG(double, dropout) = 0.0;
  TCC_ARG(bool, bidirectional) = false;
};

struct MultiheadAttentionOptions {
  MultiheadAttentionOptions(int64_t embed_dim, int64_t num_heads)
      : embed_dim_(embed_dim), num_heads_(num_heads), kdim_(embed_dim),
        vdim_(embed_dim) {}
  TCC_ARG(int64_t, embed_dim);
  TCC_ARG(int64_t, num_heads);
  TCC_ARG(double, dropout) = 0.0;
  TCC_ARG(bool, bias) = true;
  TCC_ARG(bool, add_bias_kv) = false;
  TCC_ARG(bool, add_zero_attn) = false;
  TCC_ARG(int64_t, kdim);
  TCC_ARG(int64_t, vdim);
};

using activation_t = std::variant<enumtype::kReLU, enumtype::kGELU,
                                  std::function<Tensor(const Tensor &)>>;
struct TransformerEncoderLayerOptions {
  TransformerEncoderLayerOptions(int64_t d_model, int64_t nhead)
      : d_model_(d_model), nhead_(nhead) {}
  TCC_ARG(int64_t, d_model);
  TCC_ARG(int64_t, nhead);
  TCC_ARG(int64_t, dim_feedforward) = 2048;
  TCC_ARG(double, dropout) = 0.1;
  TCC_ARG(activation_t, activation) = enumtype::kReLU();
};

} // namespace nn
} // namespace tcc

#endif // TCC_FRONTEND_NN_OPTIONS_H
