//===- EnumTypes.h - libtorch's enum tags (kMean, kReLU, kFanIn, ...) -*- C++
//-*-//
//
// libtorch passes choices such as a loss reduction or an init nonlinearity
// as empty tag types inside std::variant (`MSELossOptions().reduction(
// torch::kSum)`), so a wrong choice fails to compile. Same here.
//
//===----------------------------------------------------------------------===//

#ifndef TCC_FRONTEND_NN_ENUMTYPES_H
#define TCC_FRONTEND_NN_ENUMTYPES_H

#include <string>
#include <variant>

namespace tcc {
namespace enumtype {

#define TCC_ENUM_TYPES(_)                                                      \
  _(Linear, "kLinear")                                                         \
  _(Conv1D, "kConv1D")                                                         \
  _(Conv2D, "kConv2D")                                                         \
  _(Conv3D, "kConv3D")                                                         \
  _(ConvTranspose1D, "kConvTranspose1D")                                       \
  _(ConvTranspose2D, "kConvTranspose2D")                                       \
  _(ConvTranspose3D, "kConvTranspose3D")                                       \
  _(Sigmoid, "kSigmoid")                                                       \
  _(Tanh, "kTanh")                                                             \
  _(ReLU, "kReLU")                                                             \
  _(GELU, "kGELU")                                                             \
  _(SiLU, "kSiLU")                                                             \
  _(LeakyReLU, "kLeakyReLU")                                                   \
  _(FanIn, "kFanIn")                                                           \
  _(FanOut, "kFanOut")                                                         \
  _(Constant, "kConstant")                                                     \
  _(Reflect, "kReflect")                                                       \
  _(Replicate, "kReplicate")                                                   \
  _(Circular, "kCircular")                                                     \
  _(Zeros, "kZeros")                                                           \
  _(Valid, "kValid")                                                           \
  _(Same, "kSame")                                                             \
  _(None, "kNone")                                                             \
  _(Mean, "kMean")                                                             \
  _(Sum, "kSum")                                                               \
  _(LSTM, "kLSTM")                                                             \
  _(GRU, "kGRU")                                                               \
  _(RNN_TANH, "kRNN_TANH")                                                     \
  _(RNN_RELU, "kRNN_RELU")                                                     \
  _(Min, "kMin")                                                               \
  _(Max, "kMax")                                                               \
  _(Rel, "kRel")                                                               \
  _(Abs, "kAbs")

#define TCC_DECLARE_ENUM_TYPE(Name, Str)                                       \
  struct k##Name {                                                             \
    static constexpr const char *name() { return Str; }                        \
  };
TCC_ENUM_TYPES(TCC_DECLARE_ENUM_TYPE)
#undef TCC_DECLARE_ENUM_TYPE

/// "kMean" for a variant holding kMean, as libtorch's get_enum_name.
template <class Variant> std::string get_enum_name(const Variant &v) {
  return std::visit([](const auto &e) { return std::string(e.name()); }, v);
}

} // namespace enumtype

#define TCC_DEFINE_ENUM_CONSTANT(Name, Str)                                    \
  inline constexpr enumtype::k##Name k##Name{};
TCC_ENUM_TYPES(TCC_DEFINE_ENUM_CONSTANT)
#undef TCC_DEFINE_ENUM_CONSTANT

} // namespace tcc

#endif // TCC_FRONTEND_NN_ENUMTYPES_H
